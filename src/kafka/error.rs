//! Typed errors of the wire client and their mapping to [`Failure`] (exit codes and hints).

use std::fmt;

use crate::error::Failure;
use crate::model::codes::ErrorCode;

pub const HINT_REACH: &str = "is the broker running and is --bootstrap-server right?";
pub const HINT_TLS: &str = "check ssl.truststore.location (the CA that signed the broker's \
                            certificate) and security.protocol";
pub const HINT_AUTH: &str = "wrong username or password? check sasl.jaas.config and sasl.mechanism";
pub const HINT_NOT_SASL: &str = "use the port of the broker's SASL listener in --bootstrap-server, \
                                 or set security.protocol=PLAINTEXT (or SSL) to match this listener";
pub const HINT_MECHANISM: &str = "set sasl.mechanism to one the listener offers";
pub const HINT_OLD_BROKER: &str = "streams groups need Apache Kafka 4.1+ (4.2+ recommended)";

#[derive(Debug)]
pub enum KafkaError {
    /// Connection refused, DNS failure, connection closed.
    Connect { addr: String, detail: String },
    /// A wait ran past --timeout.
    Timeout { addr: String, what: String },
    /// TLS setup or handshake failure.
    Tls { addr: String, detail: String },
    /// SASL failure: wrong credentials, a mechanism the listener does not offer, or a listener
    /// that does not do SASL. The hint says which way out fits.
    Sasl {
        addr: String,
        detail: String,
        hint: &'static str,
    },
    /// The peer does not speak the Kafka protocol, or sent something we cannot decode.
    Protocol { addr: String, detail: String },
    /// The broker answered with an error code.
    Broker {
        code: ErrorCode,
        message: Option<String>,
        context: String,
    },
    /// The broker lacks an API or a version we need.
    Unsupported { detail: String, hint: String },
    /// Bad configuration (files, PEM).
    Config(String),
    /// Every bootstrap address failed: one error per address, in the order given.
    Bootstrap(Vec<KafkaError>),
}

impl fmt::Display for KafkaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KafkaError::Connect { addr, detail } => write!(f, "cannot connect to {addr}: {detail}"),
            KafkaError::Timeout { addr, what } => {
                write!(f, "timed out waiting for {addr} ({what})")
            }
            KafkaError::Tls { addr, detail } => write!(f, "TLS with {addr} failed: {detail}"),
            KafkaError::Sasl { addr, detail, .. } => {
                write!(f, "SASL authentication with {addr} failed: {detail}")
            }
            KafkaError::Protocol { addr, detail } => {
                write!(f, "unexpected answer from {addr}: {detail}")
            }
            KafkaError::Broker {
                code,
                message,
                context,
            } => {
                write!(f, "{context}: {}", code.name())?;
                if let Some(m) = message.as_deref().filter(|m| !m.is_empty()) {
                    write!(f, " ({m})")?;
                }
                Ok(())
            }
            KafkaError::Unsupported { detail, .. } => f.write_str(detail),
            KafkaError::Config(s) => f.write_str(s),
            KafkaError::Bootstrap(all) => {
                f.write_str("no bootstrap server answered: ")?;
                for (i, e) in all.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for KafkaError {}

impl KafkaError {
    pub fn broker(code: i16, message: Option<String>, context: impl Into<String>) -> Self {
        KafkaError::Broker {
            code: ErrorCode::from_code(code),
            message,
            context: context.into(),
        }
    }

    pub fn to_failure(&self) -> Failure {
        let msg = self.to_string();
        match self {
            KafkaError::Connect { .. } | KafkaError::Timeout { .. } => {
                Failure::unreachable(msg).with_hint(HINT_REACH)
            }
            KafkaError::Tls { .. } => Failure::unreachable(msg).with_hint(HINT_TLS),
            KafkaError::Sasl { hint, .. } => Failure::unreachable(msg).with_hint(*hint),
            KafkaError::Protocol { .. } => Failure::unreachable(msg).with_hint(
                "is --bootstrap-server a Kafka listener (and the right security.protocol)?",
            ),
            KafkaError::Broker { code, .. } => {
                let f = Failure::kafka(msg);
                match code {
                    ErrorCode::GroupAuthorizationFailed
                    | ErrorCode::TopicAuthorizationFailed
                    | ErrorCode::ClusterAuthorizationFailed => {
                        f.with_hint("the principal needs DESCRIBE on the group and its topics")
                    }
                    ErrorCode::UnsupportedVersion => f.with_hint(
                        "streams groups are not enabled: run `kafka-features.sh \
                         --bootstrap-server ... upgrade --feature streams.version=1`",
                    ),
                    ErrorCode::SaslAuthenticationFailed => f.with_hint(HINT_AUTH),
                    _ => f,
                }
            }
            KafkaError::Unsupported { hint, .. } => Failure::kafka(msg).with_hint(hint.clone()),
            KafkaError::Config(_) => Failure::usage(msg),
            // The first address is the one the user expects to answer: its hint fits best.
            KafkaError::Bootstrap(all) => match all.first() {
                Some(first) => Failure {
                    message: msg,
                    ..first.to_failure()
                },
                None => Failure::unreachable(msg).with_hint(HINT_REACH),
            },
        }
    }
}

impl From<KafkaError> for Failure {
    fn from(e: KafkaError) -> Failure {
        e.to_failure()
    }
}

pub type KafkaResult<T> = Result<T, KafkaError>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit;

    #[test]
    fn mapping_to_exit_codes_and_hints() {
        let e = KafkaError::Connect {
            addr: "127.0.0.1:1".into(),
            detail: "connection refused".into(),
        };
        let f = e.to_failure();
        assert_eq!(f.exit_code, exit::UNREACHABLE);
        assert_eq!(f.hint.as_deref(), Some(HINT_REACH));
        let f = KafkaError::Sasl {
            addr: "a".into(),
            detail: "x".into(),
            hint: HINT_AUTH,
        }
        .to_failure();
        assert_eq!(f.exit_code, exit::UNREACHABLE);
        assert!(f.hint.unwrap().contains("wrong username or password"));
        let f =
            KafkaError::broker(69, Some("Group g not found.".into()), "describe g").to_failure();
        assert_eq!(f.exit_code, exit::KAFKA_ERROR);
        assert_eq!(
            f.message,
            "describe g: GROUP_ID_NOT_FOUND (Group g not found.)"
        );
        let f = KafkaError::broker(35, None, "describe g").to_failure();
        assert!(f.hint.unwrap().contains("streams.version=1"));
        let f = KafkaError::broker(30, None, "describe g").to_failure();
        assert_eq!(f.exit_code, exit::KAFKA_ERROR);
        assert_eq!(
            KafkaError::Config("x".into()).to_failure().exit_code,
            exit::USAGE
        );
    }
}
