//! Colour: `--color auto|always|never`, with `NO_COLOR` honoured in `auto` mode.

use std::io::IsTerminal;

/// When to colour stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorMode {
    /// On a terminal, unless `NO_COLOR` is set and not empty.
    Auto,
    Always,
    Never,
}

/// Decide whether to colour stdout, and tell the `colored` crate.
pub fn init(mode: ColorMode) -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let enabled = match mode {
        ColorMode::Always => true,
        ColorMode::Never => false,
        ColorMode::Auto => !no_color && std::io::stdout().is_terminal(),
    };
    colored::control::set_override(enabled);
    enabled
}
