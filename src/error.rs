//! The error that reaches `main`: a message, an exit code and, where there is a likely fix, a hint.

use std::fmt;

use crate::exit;

/// An error meant for the user. Library code returns typed errors; commands turn them into a
/// `Failure` with the right exit code and a hint.
#[derive(Debug)]
pub struct Failure {
    pub exit_code: i32,
    pub message: String,
    pub hint: Option<String>,
}

impl Failure {
    pub fn new(exit_code: i32, message: impl Into<String>) -> Self {
        Failure {
            exit_code,
            message: message.into(),
            hint: None,
        }
    }

    /// Bad usage or input (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure::new(exit::USAGE, message)
    }

    /// The cluster could not be reached (exit 3).
    pub fn unreachable(message: impl Into<String>) -> Self {
        Failure::new(exit::UNREACHABLE, message)
    }

    /// The cluster answered with an error (exit 4).
    pub fn kafka(message: impl Into<String>) -> Self {
        Failure::new(exit::KAFKA_ERROR, message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// The exit code for an error chain: the first `Failure` in it decides, anything else is bad
/// input (exit 2), because every network and broker error is wrapped in a `Failure` where it is
/// met.
pub fn exit_code_of(err: &anyhow::Error) -> i32 {
    err.chain()
        .find_map(|e| e.downcast_ref::<Failure>())
        .map(|f| f.exit_code)
        .unwrap_or(exit::USAGE)
}

/// One line: the error chain joined by ": ", then the hint if there is one.
pub fn render_error(err: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
    }
    let mut line = format!("error: {}", parts.join(": "));
    if let Some(hint) = err
        .chain()
        .find_map(|e| e.downcast_ref::<Failure>())
        .and_then(|f| f.hint.as_ref())
    {
        line.push_str(&format!(" (hint: {hint})"));
    }
    // The chain quotes input (file names, topic names, server messages): keep it one line,
    // without terminal control characters.
    crate::input::one_line(&line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn failure_in_the_chain_decides_the_exit_code() {
        let err = Err::<(), _>(Failure::unreachable("connection refused").with_hint("is it up?"))
            .context("cannot reach 127.0.0.1:1")
            .unwrap_err();
        assert_eq!(exit_code_of(&err), exit::UNREACHABLE);
        assert_eq!(
            render_error(&err),
            "error: cannot reach 127.0.0.1:1: connection refused (hint: is it up?)"
        );
        let plain = anyhow::anyhow!("bad file");
        assert_eq!(exit_code_of(&plain), exit::USAGE);
    }

    #[test]
    fn quoted_input_cannot_break_the_line() {
        let err = anyhow::anyhow!("the snapshot has no group x; it has: a\r\nb, c\rd\u{1b}[2J");
        assert_eq!(
            render_error(&err),
            "error: the snapshot has no group x; it has: a b, c d\\u{1b}[2J"
        );
    }
}
