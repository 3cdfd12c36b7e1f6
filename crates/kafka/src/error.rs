//! Typed errors of the wire client. The binary maps each to an exit code and a hint
//! (`command_error.rs`); what a hint here says is advice about Kafka, not about the command line.

use std::fmt;

use model::codes::ErrorCode;

/// Which way out of a SASL failure fits; the binary words the hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaslFix {
    /// The listener refused the credentials.
    Credentials,
    /// The listener does not do SASL (or not on this port).
    NotSaslListener,
    /// The listener does SASL, but not with the configured mechanism.
    Mechanism,
    /// OAUTHBEARER: the token endpoint did not answer.
    TokenEndpoint,
    /// OAUTHBEARER: the identity provider refused the client id or secret.
    OAuthClient,
    /// OAUTHBEARER: the broker refused the token.
    Token,
    /// AWS_MSK_IAM: the broker refused the signed request (keys, region, or IAM policy).
    AwsIam,
    /// GSSAPI: Kerberos refused (the KDC, the keytab, the service's principal) or the broker
    /// refused the ticket.
    Kerberos,
}

pub const HINT_OLD_BROKER: &str = "streams groups need Apache Kafka 4.1+ (4.2+ recommended)";

#[derive(Debug)]
pub enum KafkaError {
    /// Connection refused, DNS failure, connection closed.
    Connect { addr: String, detail: String },
    /// A wait ran past the configured timeout.
    Timeout { addr: String, what: String },
    /// TLS setup or handshake failure.
    Tls { addr: String, detail: String },
    /// SASL failure: wrong credentials, a mechanism the listener does not offer, or a listener
    /// that does not do SASL.
    Sasl {
        addr: String,
        detail: String,
        fix: SaslFix,
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
    /// No bootstrap server was given.
    NoBootstrap,
    /// Every bootstrap address failed: one error per address, in the order given.
    Bootstrap(Vec<KafkaError>),
    /// The async runtime could not start (a resource limit of the machine).
    Runtime(String),
    /// A broker did not answer in the time the session had while others did: what it holds
    /// (the groups it coordinates, `what`) is missing from the answer.
    NotAnswered {
        /// `broker ID at HOST:PORT`.
        broker: String,
        what: String,
        /// The last failure, as it was told.
        cause: String,
    },
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
            KafkaError::Config(s) | KafkaError::Runtime(s) => f.write_str(s),
            KafkaError::NoBootstrap => f.write_str("no bootstrap server given"),
            KafkaError::NotAnswered {
                broker,
                what,
                cause,
            } => write!(f, "{broker} did not answer, so {what} missing: {cause}"),
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
}

pub type KafkaResult<T> = Result<T, KafkaError>;
