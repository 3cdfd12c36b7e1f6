//! The one place where errors become what the user sees: every library error type is mapped
//! here to a kind (and so an exit code) and, where there is a likely fix, a hint. The library
//! never knows an exit code.

use std::fmt;

use kafka::config::ClientConfigError;
use kafka::error::{KafkaError, SaslFix};
use model::ErrorCode;
use streams_group::error;
use streams_group::render::out::WriteError;

use crate::exit::Code;

pub const HINT_REACH: &str = "is the broker running and is --bootstrap-server right?";
pub const HINT_SLOW: &str =
    "is the broker running and is --bootstrap-server right? (a slow cluster \
                             may need a longer --timeout)";
pub const HINT_AUTH: &str = "wrong username or password? check sasl.jaas.config and sasl.mechanism";
pub const HINT_NOT_SASL: &str = "use the port of the broker's SASL listener in --bootstrap-server, \
                                 or set security.protocol=PLAINTEXT (or SSL) to match this listener";
pub const HINT_MECHANISM: &str = "set sasl.mechanism to one the listener offers";
pub const HINT_BOOTSTRAP: &str = "give --bootstrap-server HOST:PORT, or set \
                                  STREAMS_GROUP_BOOTSTRAP_SERVER";
pub const HINT_PICK_GROUP: &str = "pick one with --group";
pub const HINT_APPLICATION_ID: &str = "give it with --application-id";
pub const HINT_NAME_INPUT_TOPICS: &str =
    "name the topics with --input-topic TOPIC[:P,P], or give a plan with --from-file";
pub const HINT_STOP_APPLICATION: &str = "stop every instance of the application \
    (KafkaStreams#close), wait until `streams-group describe --state` shows the group Empty, \
    then run this again";
pub const HINT_TLS: &str = "check ssl.truststore.location (the CA that signed the broker's \
                            certificate) and security.protocol";
pub const HINT_PICTURE_FORMAT: &str = "pick a picture with --format text|dot|mermaid; the \
                                       report as JSON is `topology FILE --output json`";
pub const HINT_BUG: &str = "this is a bug in streams-group: please report it, with the command \
                            line and this message";

/// What kind of failure, which decides the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Bad usage or input.
    Usage,
    /// The cluster could not be reached.
    Unreachable,
    /// The cluster answered with an error.
    Broker,
    /// The report could not be written.
    Output,
    /// stdout was closed by its reader: end quietly, successfully.
    BrokenPipe,
    /// A bug.
    Internal,
}

impl Kind {
    pub fn exit_code(self) -> Code {
        match self {
            Kind::Usage => Code::Usage,
            Kind::Unreachable => Code::Unreachable,
            Kind::Broker => Code::Broker,
            Kind::Output => Code::Output,
            Kind::BrokenPipe => Code::Success,
            Kind::Internal => Code::Internal,
        }
    }
}

/// An error meant for the user: one line, its kind and an optional hint.
#[derive(Debug)]
pub struct CommandError {
    pub kind: Kind,
    pub message: String,
    pub hint: Option<String>,
}

impl CommandError {
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        CommandError {
            kind,
            message: message.into(),
            hint: None,
        }
    }

    /// Bad usage or input (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        CommandError::new(Kind::Usage, message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The line on stderr: `error: ...`, then the hint if there is one; never more than one
    /// line. `None` for a closed stdout, which ends the program quietly.
    pub fn line(&self) -> Option<String> {
        if self.kind == Kind::BrokenPipe {
            return None;
        }
        let internal = if self.kind == Kind::Internal {
            "internal error: "
        } else {
            ""
        };
        let mut line = format!("error: {internal}{}", self.message);
        if let Some(hint) = &self.hint {
            line.push_str(&format!(" (hint: {hint})"));
        }
        // The message quotes input (file names, topic names, server messages): keep it one
        // line, without terminal control characters.
        Some(model::input::one_line(&line))
    }

    pub fn exit_code(&self) -> Code {
        self.kind.exit_code()
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<KafkaError> for CommandError {
    fn from(e: KafkaError) -> Self {
        CommandError::from(&e)
    }
}

impl From<&KafkaError> for CommandError {
    fn from(e: &KafkaError) -> Self {
        let (kind, hint) = kafka_kind(e);
        let err = CommandError::new(kind, e.to_string());
        match hint {
            Some(h) => err.with_hint(h),
            None => err,
        }
    }
}

/// Kind and hint of a wire client error.
fn kafka_kind(e: &KafkaError) -> (Kind, Option<String>) {
    let hint = |h: &str| Some(h.to_string());
    match e {
        KafkaError::Connect { .. } => (Kind::Unreachable, hint(HINT_REACH)),
        KafkaError::Timeout { .. } => (Kind::Unreachable, hint(HINT_SLOW)),
        KafkaError::Tls { .. } => (Kind::Unreachable, hint(HINT_TLS)),
        KafkaError::Sasl { fix, .. } => (Kind::Unreachable, hint(sasl_hint(*fix))),
        KafkaError::Protocol { .. } => (
            Kind::Unreachable,
            hint("is --bootstrap-server a Kafka listener (and the right security.protocol)?"),
        ),
        KafkaError::Broker { code, .. } => (Kind::Broker, broker_hint(*code).map(str::to_string)),
        KafkaError::Unsupported { hint: h, .. } => (Kind::Broker, hint(h)),
        KafkaError::Config(_) => (Kind::Usage, None),
        KafkaError::NoBootstrap => (Kind::Usage, hint(HINT_BOOTSTRAP)),
        KafkaError::Runtime(_) => (Kind::Internal, hint(HINT_BUG)),
        KafkaError::NotAnswered { .. } => (
            Kind::Unreachable,
            hint("is that broker stopped or overloaded? raise --timeout, or try again once it answers"),
        ),
        // The first address is the one the user expects to answer: its hint fits best.
        KafkaError::Bootstrap(all) => match all.first() {
            Some(first) => kafka_kind(first),
            None => (Kind::Unreachable, hint(HINT_REACH)),
        },
    }
}

fn sasl_hint(fix: SaslFix) -> &'static str {
    match fix {
        SaslFix::Credentials => HINT_AUTH,
        SaslFix::NotSaslListener => HINT_NOT_SASL,
        SaslFix::Mechanism => HINT_MECHANISM,
        SaslFix::TokenEndpoint => {
            "check sasl.oauthbearer.token.endpoint.url (is the identity provider up?)"
        }
        SaslFix::OAuthClient => {
            "check clientId and clientSecret in sasl.jaas.config (or \
             sasl.oauthbearer.client.credentials.client.id and .client.secret)"
        }
        SaslFix::AwsIam => {
            "check the AWS keys (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN or \
             the profile), that they are not expired, and that their IAM policy allows \
             kafka-cluster:Connect on this cluster"
        }
        SaslFix::Kerberos => {
            "check principal and keyTab in sasl.jaas.config, sasl.kerberos.service.name, and the \
             realm's KDC in the krb5.conf that KRB5_CONFIG names"
        }
        SaslFix::Token => {
            "the broker validates tokens with its own settings (sasl.oauthbearer.jwks.endpoint.url, \
             expected audience and issuer); check the scope and the identity provider"
        }
    }
}

fn broker_hint(code: ErrorCode) -> Option<&'static str> {
    match code {
        ErrorCode::GroupAuthorizationFailed
        | ErrorCode::TopicAuthorizationFailed
        | ErrorCode::ClusterAuthorizationFailed => {
            Some("the principal needs DESCRIBE on the group and its topics")
        }
        ErrorCode::UnsupportedVersion => Some(
            "streams groups are not enabled: run `kafka-features.sh \
             --bootstrap-server ... upgrade --feature streams.version=1`",
        ),
        ErrorCode::SaslAuthenticationFailed => Some(HINT_AUTH),
        _ => None,
    }
}

impl From<error::Error> for CommandError {
    fn from(e: error::Error) -> Self {
        match e {
            error::Error::Input(m) => CommandError::usage(m),
            error::Error::InputWithFix(m, fix) => CommandError::usage(m).with_hint(match fix {
                error::Fix::PickGroup => HINT_PICK_GROUP,
                error::Fix::GiveApplicationId => HINT_APPLICATION_ID,
                error::Fix::NameInputTopics => HINT_NAME_INPUT_TOPICS,
            }),
            error::Error::GroupActive(g) => {
                CommandError::new(Kind::Broker, format!("refused, nothing was written: {g}"))
                    .with_hint(HINT_STOP_APPLICATION)
            }
            error::Error::Kafka(k) => k.into(),
            error::Error::Internal(m) => CommandError::new(Kind::Internal, m).with_hint(HINT_BUG),
        }
    }
}

impl From<WriteError> for CommandError {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Closed => CommandError::new(Kind::BrokenPipe, e.to_string()),
            WriteError::Io(_) => CommandError::new(Kind::Output, e.to_string())
                .with_hint("is the disk full, or the output file not writable?"),
        }
    }
}

impl From<ClientConfigError> for CommandError {
    fn from(e: ClientConfigError) -> Self {
        CommandError::usage(e.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_input_cannot_break_the_line() {
        let e = CommandError::usage("the snapshot has no group x; it has: a\r\nb, c\rd\u{1b}[2J");
        assert_eq!(
            e.line().unwrap(),
            "error: the snapshot has no group x; it has: a b, c d\\u{1b}[2J"
        );
    }

    #[test]
    fn kafka_errors_map_to_exit_codes_and_hints() {
        let e: CommandError = KafkaError::Connect {
            addr: "127.0.0.1:1".into(),
            detail: "connection refused".into(),
        }
        .into();
        assert_eq!(e.exit_code(), Code::Unreachable);
        assert_eq!(
            e.line().unwrap(),
            format!(
                "error: cannot connect to 127.0.0.1:1: connection refused (hint: {HINT_REACH})"
            )
        );
        let e: CommandError = KafkaError::Sasl {
            addr: "a".into(),
            detail: "x".into(),
            fix: SaslFix::Credentials,
        }
        .into();
        assert_eq!(e.exit_code(), Code::Unreachable);
        assert!(e.hint.unwrap().contains("wrong username or password"));
        let e: CommandError =
            KafkaError::broker(69, Some("Group g not found.".into()), "describe g").into();
        assert_eq!(e.exit_code(), Code::Broker);
        assert_eq!(
            e.message,
            "describe g: GROUP_ID_NOT_FOUND (Group g not found.)"
        );
        let e: CommandError = KafkaError::broker(35, None, "describe g").into();
        assert!(e.hint.unwrap().contains("streams.version=1"));
        let e: CommandError = KafkaError::broker(30, None, "describe g").into();
        assert_eq!(e.exit_code(), Code::Broker);
        let e: CommandError = KafkaError::Config("x".into()).into();
        assert_eq!(e.exit_code(), Code::Usage);
        let e: CommandError = KafkaError::Bootstrap(vec![KafkaError::Tls {
            addr: "a".into(),
            detail: "bad".into(),
        }])
        .into();
        assert_eq!(
            (e.exit_code(), e.hint.as_deref()),
            (Code::Unreachable, Some(HINT_TLS))
        );
    }

    #[test]
    fn internal_errors_ask_for_a_bug_report_and_a_closed_pipe_is_quiet() {
        let e: CommandError = error::Error::Internal("two rules disagree".into()).into();
        assert_eq!(e.exit_code(), Code::Internal);
        assert_eq!(e.exit_code().value(), 70);
        let line = e.line().unwrap();
        assert!(
            line.starts_with("error: internal error: two rules disagree"),
            "{line}"
        );
        assert!(line.contains("please report it"), "{line}");
        let e: CommandError = WriteError::Closed.into();
        assert_eq!((e.exit_code(), e.line()), (Code::Success, None));
        let e: CommandError = WriteError::Io(std::io::Error::other("no space")).into();
        assert_eq!(e.exit_code(), Code::Output);
        let e: CommandError = error::Error::Input("bad\nfile".into()).into();
        assert_eq!(e.line().unwrap(), "error: bad file");
    }
}
