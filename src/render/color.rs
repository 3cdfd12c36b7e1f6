//! Colour: `--color auto|always|never`, with `NO_COLOR` honoured in `auto` mode.

use std::io::IsTerminal;

use crate::cli::ColorChoice;

/// Decide whether to colour stdout, and tell the `colored` crate.
pub fn init(choice: ColorChoice) -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let enabled = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => !no_color && std::io::stdout().is_terminal(),
    };
    colored::control::set_override(enabled);
    enabled
}
