//! SASL/GSSAPI (Kerberos, RFC 4752) as Kafka's Java client does it, through the system's
//! GSS-API library (`ffi`, loaded at run time). Credentials come from the keytab of
//! `sasl.jaas.config` (MIT's `client_keytab`, into an in-memory ticket cache this process
//! shares between its connections: no `kinit`) or from a ticket cache (`useTicketCache=true`).
//! The realm and its KDC come from the krb5.conf that `KRB5_CONFIG` names (or /etc/krb5.conf).
//!
//! The exchange, in SaslAuthenticate requests after SaslHandshake(GSSAPI): the context tokens
//! (the AP-REQ, then an empty token answering the broker's AP-REP), then the broker's wrapped
//! 4-byte security-layer offer, answered with a wrapped choice of no security layer and the
//! authorization id (the client principal, as Kafka's `SaslClientAuthenticator` passes it).

pub mod ffi;

use std::net::IpAddr;
use std::path::Path;
use std::time::Duration;

use crate::config::KerberosConfig;
use crate::error::{KafkaError, KafkaResult, SaslFix};

/// RFC 4752's security layers: bit 1 is "no security layer", the only one Kafka uses (its
/// connections are protected by TLS or not at all, never by a SASL layer).
pub const NO_SECURITY_LAYER: u8 = 1;

/// The client's answer to the broker's security-layer offer (unwrapped, 4 bytes: the layers it
/// supports, then its largest message): no security layer, a largest message of 0 (RFC 4752
/// 3.1: "MUST be 0 if the client does not support any security layer"), then the authorization
/// id. Errs with what is wrong with the offer.
pub fn security_layer_reply(offer: &[u8], authorization_id: &str) -> Result<Vec<u8>, String> {
    if offer.len() != 4 {
        return Err(format!(
            "the broker's security-layer message has {} bytes, not 4",
            offer.len()
        ));
    }
    if offer[0] & NO_SECURITY_LAYER == 0 {
        return Err(format!(
            "the broker requires a SASL security layer (offer 0x{:02x}), which Kafka clients do \
             not use",
            offer[0]
        ));
    }
    let mut reply = vec![NO_SECURITY_LAYER, 0, 0, 0];
    reply.extend_from_slice(authorization_id.as_bytes());
    Ok(reply)
}

/// The host of the broker's service principal (`service/host@REALM`): the host the connection
/// was made to, as Kafka's Java client takes it (`SaslChannelBuilder`:
/// `socket.getInetAddress().getHostName()`): a name as given, an address by its reverse lookup
/// (the address itself when it has no name).
pub fn service_host(host: &str) -> String {
    match host.parse::<IpAddr>() {
        Ok(ip) => reverse_lookup(ip).unwrap_or_else(|| host.to_string()),
        Err(_) => host.to_string(),
    }
}

fn reverse_lookup(ip: IpAddr) -> Option<String> {
    let addr = std::net::SocketAddr::new(ip, 0);
    // SAFETY: sockaddr storage zeroed then filled for the address family; getnameinfo writes at
    // most the given length into `name` and NUL-terminates it.
    unsafe {
        let mut storage: libc::sockaddr_storage = std::mem::zeroed();
        let len = match addr {
            std::net::SocketAddr::V4(v4) => {
                let sin = &mut *(&mut storage as *mut _ as *mut libc::sockaddr_in);
                sin.sin_family = libc::AF_INET as libc::sa_family_t;
                sin.sin_addr.s_addr = u32::from_ne_bytes(v4.ip().octets());
                std::mem::size_of::<libc::sockaddr_in>()
            }
            std::net::SocketAddr::V6(v6) => {
                let sin6 = &mut *(&mut storage as *mut _ as *mut libc::sockaddr_in6);
                sin6.sin6_family = libc::AF_INET6 as libc::sa_family_t;
                sin6.sin6_addr.s6_addr = v6.ip().octets();
                std::mem::size_of::<libc::sockaddr_in6>()
            }
        };
        let mut name = [0 as libc::c_char; 1025];
        let rc = libc::getnameinfo(
            &storage as *const _ as *const libc::sockaddr,
            len as libc::socklen_t,
            name.as_mut_ptr(),
            name.len() as libc::socklen_t,
            std::ptr::null_mut(),
            0,
            libc::NI_NAMEREQD,
        );
        (rc == 0).then(|| {
            std::ffi::CStr::from_ptr(name.as_ptr())
                .to_string_lossy()
                .into_owned()
        })
    }
}

/// The library, or the one line that says how to get it.
fn library() -> KafkaResult<&'static ffi::Api> {
    ffi::system().map_err(load_error)
}

/// A library that is missing or too old is a setting of the machine to fix (exit 2).
fn load_error(e: ffi::LoadError) -> KafkaError {
    KafkaError::Config(match e {
        ffi::LoadError::Missing => format!(
            "sasl.mechanism=GSSAPI needs the system's GSSAPI library ({}): apt-get install \
             libgssapi-krb5-2",
            ffi::LIBRARY
        ),
        ffi::LoadError::Lacks(call) => format!(
            "sasl.mechanism=GSSAPI: the system's {} has no {call} (MIT Kerberos 1.11 or later \
             is needed)",
            ffi::LIBRARY
        ),
    })
}

/// Where this process keeps the tickets it gets with a keytab: in memory, shared by its
/// connections (one request to the KDC per service, not per connection), gone at exit.
fn memory_cache() -> String {
    format!("MEMORY:streams-group-{}", std::process::id())
}

/// Where the exchange with one broker is.
enum Stage {
    /// Context tokens go back and forth.
    Context,
    /// The context is up: the next token is the broker's security-layer offer.
    SecurityLayer,
    /// The reply is sent; the broker's last answer ends the exchange.
    Done,
}

/// The client side of one GSSAPI exchange.
pub struct Session {
    context: ffi::Context,
    credentials: ffi::Credentials,
    target: ffi::Name,
    authorization_id: String,
    stage: Stage,
    addr: String,
}

impl Session {
    /// [`Session::start`] on a thread of its own, bounded by `timeout`: asking the KDC blocks in
    /// the library, whose own timeouts let a KDC that does not answer cost 50 s. The thread is
    /// left to the library when the time is up (the process does not wait for it).
    pub async fn start_within(
        cfg: &KerberosConfig,
        host: &str,
        addr: &str,
        timeout: Duration,
    ) -> KafkaResult<(Session, Vec<u8>)> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let (cfg, host, owned_addr) = (cfg.clone(), host.to_string(), addr.to_string());
        std::thread::Builder::new()
            .name("kerberos".into())
            .spawn(move || {
                let _ = tx.send(Session::start(&cfg, &host, &owned_addr));
            })
            .map_err(|e| KafkaError::Runtime(format!("cannot start a thread for Kerberos: {e}")))?;
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(started)) => started,
            Ok(Err(_)) => Err(KafkaError::Runtime(
                "the Kerberos thread ended without an answer".into(),
            )),
            Err(_) => Err(KafkaError::Sasl {
                addr: addr.to_string(),
                detail: format!(
                    "Kerberos: no answer from the KDC within the timeout ({} ms)",
                    timeout.as_millis()
                ),
                fix: SaslFix::Kerberos,
            }),
        }
    }

    /// Credentials, the broker's service name, and the first token to send (the AP-REQ: this is
    /// when the KDC is asked for a ticket).
    pub fn start(cfg: &KerberosConfig, host: &str, addr: &str) -> KafkaResult<(Session, Vec<u8>)> {
        let api = library()?;
        if let Some(keytab) = &cfg.keytab {
            check_keytab(keytab)?;
        }
        let cache = cfg.ticket_cache.clone();
        let refused = |e: ffi::GssError| kerberos_error(addr, e);
        let principal = match &cfg.principal {
            Some(p) => Some(api.principal(p).map_err(|e| name_error(p, e))?),
            None => None,
        };
        let mut store: Vec<(&str, String)> = Vec::new();
        if let Some(keytab) = &cfg.keytab {
            store.push(("client_keytab", keytab.display().to_string()));
            store.push(("ccache", cache.unwrap_or_else(memory_cache)));
        } else if let Some(cache) = cache {
            store.push(("ccache", cache));
        }
        let store: Vec<(&str, &str)> = store.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let credentials = api
            .credentials(principal.as_ref(), &store)
            .map_err(refused)?;
        let service_host = service_host(host);
        let target = api
            .host_service(&cfg.service_name, &service_host)
            .map_err(|e| name_error(&format!("{}@{service_host}", cfg.service_name), e))?;
        let mut session = Session {
            context: ffi::Context::new(api),
            credentials,
            target,
            authorization_id: cfg.principal.clone().unwrap_or_default(),
            stage: Stage::Context,
            addr: addr.to_string(),
        };
        let first = session.next_context_token(&[])?;
        Ok((session, first))
    }

    fn next_context_token(&mut self, input: &[u8]) -> KafkaResult<Vec<u8>> {
        let token = self
            .context
            .step(&self.credentials, &self.target, input)
            .map_err(|e| kerberos_error(&self.addr, e))?;
        if self.context.is_complete() {
            self.stage = Stage::SecurityLayer;
        }
        Ok(token)
    }

    /// The answer to the broker's token, or `None` when the exchange is over.
    pub fn answer(&mut self, challenge: &[u8]) -> KafkaResult<Option<Vec<u8>>> {
        match self.stage {
            // The JDK's client answers the AP-REP, which completes the context, with an empty
            // token; the broker then sends its offer.
            Stage::Context => self.next_context_token(challenge).map(Some),
            Stage::SecurityLayer => {
                let offer = self
                    .context
                    .unwrap(challenge)
                    .map_err(|e| kerberos_error(&self.addr, e))?;
                let reply =
                    security_layer_reply(&offer, &self.authorization_id).map_err(|detail| {
                        KafkaError::Sasl {
                            addr: self.addr.clone(),
                            detail,
                            fix: SaslFix::Kerberos,
                        }
                    })?;
                let wrapped = self
                    .context
                    .wrap(&reply)
                    .map_err(|e| kerberos_error(&self.addr, e))?;
                self.stage = Stage::Done;
                Ok(Some(wrapped))
            }
            Stage::Done => Ok(None),
        }
    }
}

/// A keytab that cannot be read is a setting to fix (exit 2), found before the KDC is asked.
fn check_keytab(keytab: &Path) -> KafkaResult<()> {
    match std::fs::File::open(keytab) {
        Ok(_) => Ok(()),
        Err(e) => Err(KafkaError::Config(format!(
            "sasl.jaas.config keyTab=\"{}\": {e}: fix keyTab (the client's keytab file)",
            keytab.display()
        ))),
    }
}

fn name_error(name: &str, e: ffi::GssError) -> KafkaError {
    KafkaError::Config(format!(
        "sasl.jaas.config: `{name}` is not a Kerberos name ({}): fix principal or \
         sasl.kerberos.service.name",
        e.message
    ))
}

/// What Kerberos said (the KDC's refusal, a KDC that does not answer, a key that does not fit):
/// the broker cannot be used, exit 3.
fn kerberos_error(addr: &str, e: ffi::GssError) -> KafkaError {
    KafkaError::Sasl {
        addr: addr.to_string(),
        detail: format!("Kerberos: {} ({})", e.message, e.call),
        fix: SaslFix::Kerberos,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reply_chooses_no_security_layer_and_names_the_principal() {
        // An offer of no security layer only, largest message 65536 (0x010000).
        let offer = [0x01, 0x01, 0x00, 0x00];
        assert_eq!(
            security_layer_reply(&offer, "client@EXAMPLE.COM").unwrap(),
            b"\x01\x00\x00\x00client@EXAMPLE.COM".to_vec()
        );
        assert_eq!(
            security_layer_reply(&[0x07, 0xff, 0xff, 0xff], "").unwrap(),
            vec![1, 0, 0, 0]
        );
    }

    #[test]
    fn an_offer_without_the_plain_layer_or_of_another_size_is_refused() {
        let e = security_layer_reply(&[0x06, 0, 0x10, 0], "c").unwrap_err();
        assert!(e.contains("requires a SASL security layer"), "{e}");
        let e = security_layer_reply(&[0x01, 0, 0], "c").unwrap_err();
        assert!(e.contains("3 bytes"), "{e}");
    }

    #[test]
    fn a_missing_library_is_one_line_naming_the_package() {
        assert_eq!(
            load_error(ffi::LoadError::Missing).to_string(),
            "sasl.mechanism=GSSAPI needs the system's GSSAPI library (libgssapi_krb5.so.2): \
             apt-get install libgssapi-krb5-2"
        );
        let old = load_error(ffi::LoadError::Lacks("gss_acquire_cred_from")).to_string();
        assert!(old.contains("has no gss_acquire_cred_from"), "{old}");
    }

    #[test]
    fn the_service_host_is_the_name_given_or_the_address_looked_up() {
        assert_eq!(service_host("broker-1.example.com"), "broker-1.example.com");
        // What the JDK's getHostName() gives on this machine too (/etc/hosts).
        let loopback = service_host("127.0.0.1");
        assert!(
            loopback == "localhost" || loopback == "127.0.0.1",
            "{loopback}"
        );
        // An address without a name stays itself (TEST-NET-1, RFC 5737).
        assert_eq!(service_host("192.0.2.1"), "192.0.2.1");
    }
}
