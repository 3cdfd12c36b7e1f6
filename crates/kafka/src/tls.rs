//! TLS client setup with rustls (ring provider): CA from PEM (file or inline) or the built-in
//! web PKI roots, optional client certificate (mTLS), optional hostname verification.

use std::io::BufReader;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_rustls::TlsConnector;

use super::config::{KeyMaterial, TlsConfig};
use super::error::{KafkaError, KafkaResult};

fn pem_text(p: &KeyMaterial, what: &str) -> KafkaResult<String> {
    match p {
        KeyMaterial::File(path) => {
            model::input::read_text_capped(path.as_ref(), model::input::MAX_SMALL_FILE_BYTES)
                .map_err(|e| {
                    KafkaError::Config(format!("cannot read {what} {}: {e}", path.display()))
                })
        }
        KeyMaterial::Inline(s) => Ok(s.expose().to_string()),
        // Never asked: certificates and keys of a store are read by `crate::pkcs12`.
        KeyMaterial::Pkcs12(s) => Err(KafkaError::Config(format!(
            "{what}: {} is a PKCS12 store, not PEM",
            s.path.display()
        ))),
    }
}

/// A truststore's certificates (a PKCS12 store's trusted entries), or a PEM chain's.
fn certs(p: &KeyMaterial, what: &str) -> KafkaResult<Vec<CertificateDer<'static>>> {
    if let KeyMaterial::Pkcs12(store) = p {
        return crate::pkcs12::trusted_certificates(store);
    }
    let text = pem_text(p, what)?;
    let mut rd = BufReader::new(text.as_bytes());
    let certs: Vec<CertificateDer<'static>> = rustls_pemfile::certs(&mut rd)
        .collect::<Result<_, _>>()
        .map_err(|e| KafkaError::Config(format!("{what}: not valid PEM: {e}")))?;
    if certs.is_empty() {
        return Err(KafkaError::Config(format!(
            "{what}: no PEM certificate found (JKS/PKCS12 files must be converted to PEM)"
        )));
    }
    Ok(certs)
}

fn key(p: &KeyMaterial) -> KafkaResult<PrivateKeyDer<'static>> {
    if let KeyMaterial::Pkcs12(store) = p {
        return Ok(crate::pkcs12::identity(store)?.1);
    }
    let text = pem_text(p, "client key")?;
    let mut rd = BufReader::new(text.as_bytes());
    match rustls_pemfile::private_key(&mut rd) {
        Ok(Some(k)) => Ok(k),
        Ok(None) => Err(KafkaError::Config(
            "no unencrypted PEM private key found for the client certificate".into(),
        )),
        Err(_) => Err(KafkaError::Config(
            "client private key is not valid PEM".into(),
        )),
    }
}

/// The client's certificate chain: a PKCS12 keystore's key entry's, or PEM.
fn client_chain(p: &KeyMaterial) -> KafkaResult<Vec<CertificateDer<'static>>> {
    match p {
        KeyMaterial::Pkcs12(store) => Ok(crate::pkcs12::identity(store)?.0),
        pem => certs(pem, "client certificate chain"),
    }
}

/// Accepts certificates valid for any name (ssl.endpoint.identification.algorithm empty), but
/// still checks the chain against the CA.
#[derive(Debug)]
struct AnyNameVerifier(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyNameVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

pub fn connector(cfg: &TlsConfig) -> KafkaResult<TlsConnector> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = RootCertStore::empty();
    match &cfg.ca {
        Some(ca) => {
            for c in certs(ca, "truststore (ssl.truststore.location / ssl.ca.location)")? {
                roots
                    .add(c)
                    .map_err(|e| KafkaError::Config(format!("bad CA certificate: {e}")))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let roots = Arc::new(roots);
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| KafkaError::Config(format!("TLS setup: {e}")))?;
    let builder = if cfg.verify_hostname {
        builder.with_root_certificates(roots)
    } else {
        let inner = WebPkiServerVerifier::builder_with_provider(roots, provider)
            .build()
            .map_err(|e| KafkaError::Config(format!("TLS setup: {e}")))?;
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyNameVerifier(inner)))
    };
    let config = match (&cfg.cert_chain, &cfg.key) {
        (Some(chain), Some(k)) => builder
            .with_client_auth_cert(client_chain(chain)?, key(k)?)
            .map_err(|e| KafkaError::Config(format!("client certificate: {e}")))?,
        _ => builder.with_no_client_auth(),
    };
    Ok(TlsConnector::from(Arc::new(config)))
}

pub fn server_name(host: &str) -> Result<ServerName<'static>, String> {
    ServerName::try_from(host.to_string()).map_err(|e| format!("bad host name {host}: {e}"))
}

/// A readable cause for a failed handshake.
pub fn describe_io_error(e: &std::io::Error) -> String {
    if let Some(inner) = e.get_ref() {
        if let Some(tls) = inner.downcast_ref::<rustls::Error>() {
            return match tls {
                rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer) => {
                    "the broker's certificate is not signed by a trusted CA (unknown issuer)".into()
                }
                rustls::Error::InvalidCertificate(
                    CertificateError::NotValidForName
                    | CertificateError::NotValidForNameContext { .. },
                ) => "the broker's certificate is not valid for this host name (set \
                      ssl.endpoint.identification.algorithm= to skip the check)"
                    .into(),
                other => other.to_string(),
            };
        }
    }
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        return "the broker closed the connection during the TLS handshake (is this a TLS \
                listener? does it require a client certificate?)"
            .into();
    }
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_roots_build_and_bad_pem_is_an_error() {
        assert!(connector(&TlsConfig {
            verify_hostname: true,
            ..TlsConfig::default()
        })
        .is_ok());
        let bad = TlsConfig {
            ca: Some(KeyMaterial::Inline(super::super::config::Secret::new(
                "not pem",
            ))),
            verify_hostname: false,
            ..TlsConfig::default()
        };
        let e = connector(&bad).err().unwrap().to_string();
        assert!(e.contains("no PEM certificate"), "{e}");
        assert!(server_name("127.0.0.1").is_ok());
    }
}
