//! Exit codes: a contract documented in the README ("Exit codes").

/// How the program ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// Success; `check-epoch`: accepted; `simulate`: Stable and no member died. Also when the
    /// reader of stdout goes away.
    Success,
    /// A negative answer that is not an error: `diff --exit-code` found differences,
    /// `check-epoch` rejected, `simulate` did not end Stable, `topology` would not be accepted.
    Negative,
    /// Bad usage or bad input: unknown option, unreadable or malformed file, impossible value.
    Usage,
    /// The cluster could not be reached: connection refused, timeout, TLS or SASL failure.
    Unreachable,
    /// The cluster answered with an error: unknown group, streams groups not enabled, not
    /// authorized.
    Broker,
    /// The output could not be written (e.g. the disk is full).
    Output,
    /// A gate had nothing to check: `lag --exit-code` found no task offsets reported.
    NothingChecked,
    /// A bug in streams-group (sysexits' EX_SOFTWARE): the message asks for a bug report.
    Internal,
}

impl Code {
    pub fn value(self) -> u8 {
        match self {
            Code::Success => 0,
            Code::Negative => 1,
            Code::Usage => 2,
            Code::Unreachable => 3,
            Code::Broker => 4,
            Code::Output => 5,
            Code::NothingChecked => 6,
            Code::Internal => 70,
        }
    }

    /// `Success` when `ok`, else `Negative`.
    pub fn answer(ok: bool) -> Self {
        if ok {
            Code::Success
        } else {
            Code::Negative
        }
    }
}

impl From<Code> for std::process::ExitCode {
    fn from(c: Code) -> Self {
        std::process::ExitCode::from(c.value())
    }
}
