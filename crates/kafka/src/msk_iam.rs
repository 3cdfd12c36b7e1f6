//! Amazon MSK's IAM access control: the `AWS_MSK_IAM` SASL mechanism as Amazon's
//! `aws-msk-iam-auth` library speaks it. The client's one message is a JSON object holding a
//! SigV4-presigned `kafka-cluster:Connect` request for the broker's host name; the broker
//! answers a JSON object (its request id) and authorizes the session with IAM.
//!
//! - `sigv4`: the presigning (pure, time as an argument)
//! - `credentials`: the keys and region from the environment and the shared profile files

pub mod credentials;
pub mod sigv4;

use std::time::{SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use credentials::Credentials;
use sigv4::{PresignRequest, Presigned, EMPTY_PAYLOAD_SHA256};

/// The mechanism's name in SaslHandshake.
pub const MECHANISM: &str = "AWS_MSK_IAM";
/// `AuthenticationRequestParams.VERSION_1`: the payload's `version`.
pub const PAYLOAD_VERSION: &str = "2020_10_22";
/// The SigV4 service name MSK checks (`kafka-cluster`, also the IAM action prefix).
pub const SERVICE: &str = "kafka-cluster";
/// `AWS4SignedPayloadGenerator.EXPIRY_DURATION_MINUTES` (15) in seconds.
pub const EXPIRES_S: u64 = 900;

/// What the payload says the client is; the broker logs it.
pub fn user_agent() -> String {
    format!("streams-group/{}", env!("CARGO_PKG_VERSION"))
}

/// The session's AWS settings, resolved when the configuration is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MskIamConfig {
    pub credentials: Credentials,
    /// Where the credentials came from (`environment`, `profile NAME`).
    pub source: String,
    /// The region when a broker's host name does not tell it (`AWS_REGION`, the profile's).
    pub fallback_region: Option<String>,
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The payload for `host` signed now.
pub fn payload_now(cfg: &MskIamConfig, host: &str, region: &str) -> Vec<u8> {
    payload(
        &cfg.credentials,
        host,
        region,
        &user_agent(),
        unix_now(),
        EXPIRES_S,
    )
}

/// MSK's OAUTHBEARER token signed now, and when it expires (unix seconds).
pub fn oauth_token_now(cfg: &MskIamConfig, region: &str) -> (String, u64) {
    let now = unix_now();
    let token = oauth_token(&cfg.credentials, region, &user_agent(), now, EXPIRES_S);
    (token, now + EXPIRES_S)
}

/// MSK's OAUTHBEARER token, as `IAMOAuthBearerLoginCallbackHandler` makes it: the presigned
/// `kafka-cluster:Connect` request for `kafka.REGION.amazonaws.com` (not the broker's name),
/// with a `User-Agent` parameter after the signature, as a URL
/// (`https://HOST?` and the parameters in the order they were added, SigV4-encoded), in
/// unpadded URL-safe base64.
pub fn oauth_token(
    creds: &Credentials,
    region: &str,
    user_agent: &str,
    time_s: u64,
    expires_s: u64,
) -> String {
    let host = format!("kafka.{region}.amazonaws.com");
    let mut params = presign_connect(creds, &host, region, time_s, expires_s).params;
    params.push(("User-Agent".into(), user_agent.into()));
    let query: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{}={}", sigv4::uri_encode(k), sigv4::uri_encode(v)))
        .collect();
    URL_SAFE_NO_PAD.encode(format!("https://{host}?{}", query.join("&")))
}

/// `AWS4SignedPayloadGenerator.presignRequest`: `GET https://HOST/?Action=kafka-cluster:Connect`
/// presigned for the `kafka-cluster` service.
fn presign_connect(
    creds: &Credentials,
    host: &str,
    region: &str,
    time_s: u64,
    expires_s: u64,
) -> Presigned {
    sigv4::presign(
        creds,
        &PresignRequest {
            host,
            path: "/",
            query: &[("Action", "kafka-cluster:Connect")],
            region,
            service: SERVICE,
            time_s,
            expires_s,
            payload_hash: EMPTY_PAYLOAD_SHA256,
        },
    )
}

/// The client's message, byte for byte what `AWS4SignedPayloadGenerator.signedPayload` writes:
/// the presigned request's query parameters (names lower-cased), `version`, `user-agent` and
/// the `host` header, as Jackson serializes the library's `HashMap` of them.
pub fn payload(
    creds: &Credentials,
    host: &str,
    region: &str,
    user_agent: &str,
    time_s: u64,
    expires_s: u64,
) -> Vec<u8> {
    let presigned = presign_connect(creds, host, region, time_s, expires_s);
    let mut fields: Vec<(String, &str)> = presigned
        .params
        .iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str()))
        .collect();
    fields.push(("version".into(), PAYLOAD_VERSION));
    fields.push(("user-agent".into(), user_agent));
    fields.push(("host".into(), host));
    // The iteration order of Java's HashMap for these keys (a 16-bucket table: bucket by
    // `h ^ h >>> 16` of String.hashCode, ties in insertion order). The broker reads the JSON
    // by key; the order only makes our bytes equal to the library's (tests/oracles/msk_iam.rs).
    fields.sort_by_key(|(k, _)| JAVA_HASHMAP_ORDER.iter().position(|o| o == k));
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{}", json_string(k), json_string(v)))
        .collect();
    format!("{{{}}}", body.join(",")).into_bytes()
}

const JAVA_HASHMAP_ORDER: [&str; 11] = [
    "x-amz-date",
    "x-amz-signedheaders",
    "x-amz-signature",
    "host",
    "action",
    "x-amz-expires",
    "x-amz-security-token",
    "version",
    "x-amz-algorithm",
    "x-amz-credential",
    "user-agent",
];

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// The region of a broker host as `RegionUtils.extractRegionFromHost` finds it without a
/// network: the label just before an AWS DNS suffix (`b-1.c.kafka.us-east-1.amazonaws.com`),
/// else the first region-shaped label anywhere in the name. `None` means: use the fallback.
pub fn region_of_host(host: &str) -> Option<String> {
    let bare = host.trim().trim_end_matches('.').to_ascii_lowercase();
    for suffix in AWS_DNS_SUFFIXES {
        if let Some(head) = bare.strip_suffix(suffix) {
            let label = head.rsplit('.').next().unwrap_or(head);
            if region_shaped(label) {
                return Some(label.to_string());
            }
        }
    }
    bare.split('.')
        .find(|l| region_shaped(l))
        .map(str::to_string)
}

/// The DNS suffixes of AWS's partitions (the SDK's partition metadata), longest first.
const AWS_DNS_SUFFIXES: [&str; 9] = [
    ".amazonaws.com.cn",
    ".api.amazonwebservices.com.cn",
    ".amazonaws.com",
    ".api.aws",
    ".c2s.ic.gov",
    ".sc2s.sgov.gov",
    ".cloud.adc-e.uk",
    ".csp.hci.ic.gov",
    ".amazonaws.eu",
];

/// Shaped like a region id of the AWS partitions' patterns (`us-east-1`, `us-gov-west-1`,
/// `cn-north-1`, `us-isob-east-1`, `eusc-de-east-1`): lower-case letters, dash-separated
/// words, a final number.
fn region_shaped(label: &str) -> bool {
    let parts: Vec<&str> = label.split('-').collect();
    parts.len() >= 3
        && parts.len() <= 4
        && (2..=4).contains(&parts[0].len())
        && parts[0].bytes().all(|b| b.is_ascii_lowercase())
        && parts[1..parts.len() - 1]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        && parts[parts.len() - 1].bytes().all(|b| b.is_ascii_digit())
        && !parts[parts.len() - 1].is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_from_msk_host_names() {
        let cases = [
            (
                "b-1.demo.abc123.c2.kafka.us-east-1.amazonaws.com",
                Some("us-east-1"),
            ),
            ("B-2.Demo.kafka.eu-west-3.amazonaws.com.", Some("eu-west-3")),
            (
                "b-1.x.kafka.cn-north-1.amazonaws.com.cn",
                Some("cn-north-1"),
            ),
            (
                "b-1.x.kafka.us-gov-west-1.amazonaws.com",
                Some("us-gov-west-1"),
            ),
            (
                "boot-abc.c1.kafka-serverless.ap-southeast-2.amazonaws.com",
                Some("ap-southeast-2"),
            ),
            (
                "kafka.me-central-1.internal.example.com",
                Some("me-central-1"),
            ),
            ("localhost", None),
            ("10.0.0.1", None),
            ("b-1.x.kafka.amazonaws.com", None),
        ];
        for (host, want) in cases {
            assert_eq!(region_of_host(host).as_deref(), want, "{host}");
        }
    }
}
