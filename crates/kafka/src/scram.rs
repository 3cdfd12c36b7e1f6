//! SCRAM-SHA-256 / SCRAM-SHA-512 client (RFC 5802, RFC 7677): client-first message with a random
//! nonce, salted password with PBKDF2, client proof, and verification of the server signature.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256, Sha512};

use super::config::SaslMechanism;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScramHash {
    Sha256,
    Sha512,
}

impl ScramHash {
    pub fn for_mechanism(m: SaslMechanism) -> Option<ScramHash> {
        match m {
            SaslMechanism::ScramSha256 => Some(ScramHash::Sha256),
            SaslMechanism::ScramSha512 => Some(ScramHash::Sha512),
            SaslMechanism::Plain
            | SaslMechanism::OAuthBearer
            | SaslMechanism::AwsMskIam
            | SaslMechanism::Gssapi => None,
        }
    }

    fn hmac(self, key: &[u8], data: &[u8]) -> Vec<u8> {
        match self {
            ScramHash::Sha256 => {
                // HMAC accepts keys of any length: new_from_slice cannot fail.
                let mut m = match Hmac::<Sha256>::new_from_slice(key) {
                    Ok(m) => m,
                    Err(_) => return Vec::new(),
                };
                m.update(data);
                m.finalize().into_bytes().to_vec()
            }
            ScramHash::Sha512 => {
                let mut m = match Hmac::<Sha512>::new_from_slice(key) {
                    Ok(m) => m,
                    Err(_) => return Vec::new(),
                };
                m.update(data);
                m.finalize().into_bytes().to_vec()
            }
        }
    }

    fn hash(self, data: &[u8]) -> Vec<u8> {
        match self {
            ScramHash::Sha256 => Sha256::digest(data).to_vec(),
            ScramHash::Sha512 => Sha512::digest(data).to_vec(),
        }
    }

    fn salted_password(self, password: &[u8], salt: &[u8], iterations: u32) -> Vec<u8> {
        match self {
            ScramHash::Sha256 => {
                let mut out = [0u8; 32];
                pbkdf2::pbkdf2_hmac::<Sha256>(password, salt, iterations, &mut out);
                out.to_vec()
            }
            ScramHash::Sha512 => {
                let mut out = [0u8; 64];
                pbkdf2::pbkdf2_hmac::<Sha512>(password, salt, iterations, &mut out);
                out.to_vec()
            }
        }
    }
}

/// A SCRAM failure; never contains the password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScramError(pub String);

impl std::fmt::Display for ScramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScramError {}

fn escape_username(u: &str) -> String {
    u.replace('=', "=3D").replace(',', "=2C")
}

/// One SCRAM exchange.
pub struct ScramClient {
    hash: ScramHash,
    password: String,
    client_first_bare: String,
    client_nonce: String,
    server_signature: Option<Vec<u8>>,
}

impl std::fmt::Debug for ScramClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScramClient")
            .field("hash", &self.hash)
            .field("password", &"[redacted]")
            .finish()
    }
}

impl ScramClient {
    pub fn new(hash: ScramHash, username: &str, password: &str) -> Self {
        use rand::Rng;
        let mut raw = [0u8; 24];
        rand::thread_rng().fill(&mut raw);
        Self::with_nonce(hash, username, password, &B64.encode(raw))
    }

    pub fn with_nonce(hash: ScramHash, username: &str, password: &str, nonce: &str) -> Self {
        let client_first_bare = format!("n={},r={}", escape_username(username), nonce);
        ScramClient {
            hash,
            password: password.to_string(),
            client_first_bare,
            client_nonce: nonce.to_string(),
            server_signature: None,
        }
    }

    /// `n,,n=user,r=nonce`
    pub fn client_first(&self) -> String {
        format!("n,,{}", self.client_first_bare)
    }

    /// Answer the server-first message with the client-final message.
    pub fn client_final(&mut self, server_first: &str) -> Result<String, ScramError> {
        if let Some(e) = server_first.strip_prefix("e=") {
            return Err(ScramError(format!("server refused: {e}")));
        }
        let mut nonce = None;
        let mut salt = None;
        let mut iterations = None;
        for part in server_first.split(',') {
            if let Some(v) = part.strip_prefix("r=") {
                nonce = Some(v.to_string());
            } else if let Some(v) = part.strip_prefix("s=") {
                salt = Some(
                    B64.decode(v)
                        .map_err(|_| ScramError("server sent a salt that is not base64".into()))?,
                );
            } else if let Some(v) = part.strip_prefix("i=") {
                iterations = v.parse::<u32>().ok();
            } else if part.starts_with("m=") {
                return Err(ScramError(
                    "server requires an unsupported SCRAM extension".into(),
                ));
            }
        }
        let (Some(nonce), Some(salt), Some(iterations)) = (nonce, salt, iterations) else {
            return Err(ScramError("malformed SCRAM server-first message".into()));
        };
        if !nonce.starts_with(&self.client_nonce) || nonce.len() <= self.client_nonce.len() {
            return Err(ScramError("SCRAM server nonce does not extend ours".into()));
        }
        if !(1..=1_000_000).contains(&iterations) {
            return Err(ScramError(format!(
                "SCRAM iteration count {iterations} out of range"
            )));
        }
        let without_proof = format!("c=biws,r={nonce}");
        let auth_message = format!(
            "{},{},{}",
            self.client_first_bare, server_first, without_proof
        );
        let h = self.hash;
        let salted = h.salted_password(self.password.as_bytes(), &salt, iterations);
        let client_key = h.hmac(&salted, b"Client Key");
        let stored_key = h.hash(&client_key);
        let client_sig = h.hmac(&stored_key, auth_message.as_bytes());
        let proof: Vec<u8> = client_key
            .iter()
            .zip(client_sig.iter())
            .map(|(a, b)| a ^ b)
            .collect();
        let server_key = h.hmac(&salted, b"Server Key");
        self.server_signature = Some(h.hmac(&server_key, auth_message.as_bytes()));
        Ok(format!("{without_proof},p={}", B64.encode(proof)))
    }

    /// Check the server-final message (`v=<signature>`).
    pub fn verify_server_final(&self, server_final: &str) -> Result<(), ScramError> {
        if let Some(e) = server_final.strip_prefix("e=") {
            return Err(ScramError(format!("authentication failed: {e}")));
        }
        let Some(v) = server_final.split(',').find_map(|p| p.strip_prefix("v=")) else {
            return Err(ScramError("malformed SCRAM server-final message".into()));
        };
        let got = B64
            .decode(v)
            .map_err(|_| ScramError("server signature is not base64".into()))?;
        match &self.server_signature {
            Some(expected) if *expected == got => Ok(()),
            _ => Err(ScramError(
                "the server's SCRAM signature does not match: it does not know the password".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7677_sha256_vector() {
        let mut c =
            ScramClient::with_nonce(ScramHash::Sha256, "user", "pencil", "rOprNGfwEbeRWgbNEkqO");
        assert_eq!(c.client_first(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        let server_first = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
        let fin = c.client_final(server_first).unwrap();
        assert_eq!(
            fin,
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
        );
        c.verify_server_final("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
            .unwrap();
        assert!(c
            .verify_server_final("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
            .is_err());
    }

    #[test]
    fn rejects_bad_server_messages() {
        let mut c = ScramClient::with_nonce(ScramHash::Sha512, "a,b=c", "pw", "abc");
        assert_eq!(c.client_first(), "n,,n=a=2Cb=3Dc,r=abc");
        assert!(
            c.client_final("r=xyz,s=AAAA,i=4096").is_err(),
            "nonce must extend ours"
        );
        assert!(c.client_final("r=abcd,s=!!,i=4096").is_err());
        assert!(c.client_final("r=abcd,s=AAAA").is_err());
        assert!(c.client_final("e=invalid-proof").is_err());
        assert!(c.client_final("r=abcd,s=AAAA,i=4096").is_ok());
        assert!(c.verify_server_final("e=other-error").is_err());
        assert!(!format!("{c:?}").contains("pw\""));
    }
}
