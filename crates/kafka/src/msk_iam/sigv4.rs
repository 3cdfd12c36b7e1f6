//! AWS Signature Version 4 in its query-string ("presigned") form, as the AWS SDK for Java's
//! `Aws4Signer.presign` computes it: the `X-Amz-*` parameters join the request's own query,
//! the canonical request signs the `host` header only, and the signature is appended last.
//! Pure: the time is an argument, so a test can compare bytes with Amazon's library.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use super::credentials::Credentials;

pub const ALGORITHM: &str = "AWS4-HMAC-SHA256";

/// The SHA-256 of an empty body: what `Aws4Signer` (not the S3 signer) signs as a presigned
/// GET's payload hash.
pub const EMPTY_PAYLOAD_SHA256: &str =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// One request to presign.
#[derive(Clone, Copy, Debug)]
pub struct PresignRequest<'a> {
    /// The `Host` header (host name, and `:port` when it is not the scheme's default).
    pub host: &'a str,
    /// The canonical URI (`/` for an empty path).
    pub path: &'a str,
    /// The request's own query parameters (unencoded).
    pub query: &'a [(&'a str, &'a str)],
    pub region: &'a str,
    pub service: &'a str,
    /// Signing time, seconds since the Unix epoch (UTC).
    pub time_s: u64,
    /// `X-Amz-Expires`: how long the signature is valid, in seconds.
    pub expires_s: u64,
    /// The payload hash line of the canonical request.
    pub payload_hash: &'a str,
}

/// The query parameters a presigned request carries, unencoded, in the order `Aws4Signer`
/// adds them: the request's own, `X-Amz-Security-Token` (session credentials),
/// `X-Amz-Algorithm`, `X-Amz-Date`, `X-Amz-SignedHeaders`, `X-Amz-Expires`, `X-Amz-Credential`,
/// then `X-Amz-Signature`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presigned {
    pub params: Vec<(String, String)>,
}

impl Presigned {
    /// The value of one parameter.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Presign `req` with `creds`.
pub fn presign(creds: &Credentials, req: &PresignRequest<'_>) -> Presigned {
    let amz_date = amz_date(req.time_s);
    let scope = format!(
        "{}/{}/{}/aws4_request",
        &amz_date[..8],
        req.region,
        req.service
    );
    let mut params: Vec<(String, String)> = req
        .query
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    if let Some(token) = &creds.session_token {
        params.push(("X-Amz-Security-Token".into(), token.expose().to_string()));
    }
    params.extend([
        ("X-Amz-Algorithm".to_string(), ALGORITHM.to_string()),
        ("X-Amz-Date".to_string(), amz_date.clone()),
        ("X-Amz-SignedHeaders".to_string(), "host".to_string()),
        ("X-Amz-Expires".to_string(), req.expires_s.to_string()),
        (
            "X-Amz-Credential".to_string(),
            format!("{}/{scope}", creds.access_key_id),
        ),
    ]);
    let canonical = format!(
        "GET\n{}\n{}\nhost:{}\n\nhost\n{}",
        req.path,
        canonical_query(&params),
        collapse_spaces(req.host),
        req.payload_hash
    );
    let string_to_sign = format!(
        "{ALGORITHM}\n{amz_date}\n{scope}\n{}",
        hex(&Sha256::digest(canonical.as_bytes()))
    );
    let key = signing_key(
        creds.secret_access_key.expose(),
        &amz_date[..8],
        req.region,
        req.service,
    );
    let signature = hex(&hmac(&key, string_to_sign.as_bytes()));
    params.push(("X-Amz-Signature".into(), signature));
    Presigned { params }
}

/// The query string of a canonical request: names and values URI-encoded, sorted by name
/// then value.
pub fn canonical_query(params: &[(String, String)]) -> String {
    let mut encoded: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (uri_encode(k), uri_encode(v)))
        .collect();
    encoded.sort();
    encoded
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// SigV4's URI encoding: every byte but the unreserved `A-Z a-z 0-9 - _ . ~` as `%XX`.
pub fn uri_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A header value as SigV4 canonicalises it: trimmed, runs of white space as one space.
fn collapse_spaces(v: &str) -> String {
    v.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request")`.
fn signing_key(secret: &str, date: &str, region: &str, service: &str) -> Vec<u8> {
    let k_date = hmac(format!("AWS4{secret}").as_bytes(), date.as_bytes());
    let k_region = hmac(&k_date, region.as_bytes());
    let k_service = hmac(&k_region, service.as_bytes());
    hmac(&k_service, b"aws4_request")
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    // HMAC takes keys of any length: new_from_slice cannot fail.
    match Hmac::<Sha256>::new_from_slice(key) {
        Ok(mut m) => {
            m.update(data);
            m.finalize().into_bytes().to_vec()
        }
        Err(_) => Vec::new(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `yyyyMMdd'T'HHmmss'Z'` in UTC, the `X-Amz-Date` format.
pub fn amz_date(unix_s: u64) -> String {
    let days = (unix_s / 86_400) as i64;
    let secs = unix_s % 86_400;
    let (y, m, d) = model::calendar::civil_from_days(days);
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secret::Secret;

    /// The presigned GET of AWS's S3 documentation, "Authenticating Requests: Using Query
    /// Parameters (AWS Signature Version 4)": examplebucket/test.txt, 2013-05-24, 86400 s,
    /// UNSIGNED-PAYLOAD, with AWS's documented example keys.
    #[test]
    fn aws_documented_presign_example() {
        let creds = Credentials {
            access_key_id: "AKIAIOSFODNN7EXAMPLE".into(),
            secret_access_key: Secret::new("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            session_token: None,
        };
        let req = PresignRequest {
            host: "examplebucket.s3.amazonaws.com",
            path: "/test.txt",
            query: &[],
            region: "us-east-1",
            service: "s3",
            time_s: 1_369_353_600,
            expires_s: 86_400,
            payload_hash: "UNSIGNED-PAYLOAD",
        };
        let p = presign(&creds, &req);
        assert_eq!(
            p.get("X-Amz-Signature"),
            Some("aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        );
        assert_eq!(
            canonical_query(&p.params[..p.params.len() - 1]),
            "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2F\
             us-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&\
             X-Amz-SignedHeaders=host"
        );
    }

    #[test]
    fn dates_and_encoding() {
        assert_eq!(amz_date(0), "19700101T000000Z");
        assert_eq!(amz_date(1_369_353_600), "20130524T000000Z");
        assert_eq!(amz_date(951_782_399), "20000228T235959Z");
        assert_eq!(amz_date(951_868_800), "20000301T000000Z");
        assert_eq!(amz_date(4_102_444_799), "20991231T235959Z");
        assert_eq!(
            uri_encode("kafka-cluster:Connect"),
            "kafka-cluster%3AConnect"
        );
        assert_eq!(uri_encode("a/b+c=d é~"), "a%2Fb%2Bc%3Dd%20%C3%A9~");
    }
}
