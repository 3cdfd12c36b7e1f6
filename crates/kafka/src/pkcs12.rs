//! PKCS12 key and trust stores, read as Kafka's Java client reads them
//! (`ssl.keystore.type=PKCS12`, `ssl.truststore.type=PKCS12`, the JDK's `PKCS12KeyStore`):
//! a truststore's certificates are its trusted-certificate entries (those keytool writes, with
//! the JDK's trusted-key-usage attribute), a keystore's identity is its private key with the
//! key's certificate chain. The modern (PBES2, AES-256, HMAC-SHA-256: keytool and OpenSSL 3
//! defaults) and legacy (3DES, RC2-40, HMAC-SHA-1) encryptions are read.

use std::path::Path;

use p12_keystore::{KeyStore, KeyStoreEntry, Pkcs12ImportPolicy};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

use super::config::Pkcs12Store;
use super::error::{KafkaError, KafkaResult};

/// A store is a few kilobytes; a bigger file is not one.
const MAX_STORE_BYTES: u64 = 1 << 20;

fn open(store: &Pkcs12Store) -> KafkaResult<KeyStore> {
    let (path, loc) = (&store.path, store.location_key);
    let bytes = read_capped(path).map_err(|e| {
        KafkaError::Config(format!("{loc}={}: cannot read it: {e}", path.display()))
    })?;
    KeyStore::from_pkcs12(&bytes, store.password.expose(), Pkcs12ImportPolicy::Strict).map_err(
        |e| {
            let why = match e {
                p12_keystore::error::Error::MacError(_) => {
                    format!(
                        "the password does not open it: check {}",
                        store.password_key
                    )
                }
                other => format!(
                    "not a PKCS12 store this tool reads ({other}); check {} and the file, \
                         or convert it to PEM",
                    store.password_key
                ),
            };
            KafkaError::Config(format!("{loc}={}: {why}", path.display()))
        },
    )
}

/// The trusted certificates of a truststore.
pub fn trusted_certificates(source: &Pkcs12Store) -> KafkaResult<Vec<CertificateDer<'static>>> {
    let store = open(source)?;
    let certs: Vec<CertificateDer<'static>> = store
        .entries()
        .filter_map(|(_, e)| match e {
            KeyStoreEntry::Certificate(c) => Some(CertificateDer::from(c.as_der().to_vec())),
            _ => None,
        })
        .collect();
    if certs.is_empty() {
        return Err(KafkaError::Config(format!(
            "{}={}: no trusted certificate entry (as for Kafka's Java client: import the CA \
             with keytool -importcert, or from OpenSSL 3.2 openssl pkcs12 -export -jdktrust \
             anyExtendedKeyUsage; or use ssl.truststore.type=PEM)",
            source.location_key,
            source.path.display()
        )));
    }
    Ok(certs)
}

/// A keystore's private key and its certificate chain, leaf first.
pub fn identity(
    source: &Pkcs12Store,
) -> KafkaResult<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)> {
    let store = open(source)?;
    let Some((_, chain)) = store.private_key_chain() else {
        return Err(KafkaError::Config(format!(
            "{}={}: no private key with its certificate in it (a keystore for mutual TLS holds \
             the client's key and certificate chain)",
            source.location_key,
            source.path.display()
        )));
    };
    let certs = chain
        .certs()
        .iter()
        .map(|c| CertificateDer::from(c.as_der().to_vec()))
        .collect();
    let key = PrivatePkcs8KeyDer::from(chain.key().as_der().to_vec());
    Ok((certs, PrivateKeyDer::Pkcs8(key)))
}

fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    f.take(MAX_STORE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_STORE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} KiB, which no key or trust store is",
            MAX_STORE_BYTES / 1024
        )));
    }
    Ok(bytes)
}
