//! The AWS_MSK_IAM client message (`kafka::msk_iam`) against Amazon's own `aws-msk-iam-auth`
//! 2.4.0, through `streamsgroup.MskIamOracle` on the harness classpath: for each case the
//! library signs with its clock, and our signer, given the library's `x-amz-date` and
//! `x-amz-expires`, must write the same bytes (so the SigV4 signature, the JSON key order and
//! the escaping all agree). The region our host parsing finds must be the library's too. MSK's
//! OAUTHBEARER token is compared the same way, from the library's own
//! `IAMOAuthBearerLoginCallbackHandler`.
//!
//! `cargo test --test oracles msk_iam -- --nocapture` prints one line per case.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use serde_json::{json, Value};

use kafka::config::Secret;
use kafka::msk_iam::credentials::Credentials;
use kafka::msk_iam::{oauth_token, payload, region_of_host};

use crate::support;
use crate::support::gmm_oracle::GmmOracle;

/// One JVM, every request at once; one answer line per request.
fn ask_amazon(requests: &[Value]) -> Vec<Value> {
    GmmOracle::require();
    let input: String = requests.iter().map(|r| format!("{r}\n")).collect();
    let out = support::java_standalone_with(
        &support::kafka_version(),
        "streamsgroup.MskIamOracle",
        &[],
        Some(input.as_bytes()),
    );
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "MskIamOracle failed ({}): {stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Value> = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("oracle JSON"))
        .collect();
    assert_eq!(
        answers.len(),
        requests.len(),
        "one answer per request: {stdout}"
    );
    answers
}

/// Seconds since the epoch of an `X-Amz-Date` (`yyyyMMdd'T'HHmmss'Z'`).
fn unix_of_amz_date(d: &str) -> u64 {
    let n = |r: std::ops::Range<usize>| d[r].parse::<i64>().expect("digits");
    let (y, m, day) = (n(0..4), n(4..6), n(6..8));
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    (days * 86_400 + n(9..11) * 3600 + n(11..13) * 60 + n(13..15)) as u64
}

struct Case {
    access_key: &'static str,
    secret_key: &'static str,
    session_token: Option<&'static str>,
    host: &'static str,
    user_agent: &'static str,
}

const CASES: &[Case] = &[
    Case {
        access_key: "AKIAIOSFODNN7EXAMPLE",
        secret_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        session_token: None,
        host: "b-1.demo.abc123.c2.kafka.us-east-1.amazonaws.com",
        user_agent: "streams-group/0.1.0",
    },
    Case {
        access_key: "ASIAEXAMPLETEMPKEY01",
        secret_key: "s3cr3t+with/slashes=and+plus",
        session_token: Some("IQoJb3JpZ2luX2VjE/+long=token//with+all/sorts=="),
        host: "b-2.prod.x7y8z9.c4.kafka.eu-west-3.amazonaws.com",
        user_agent: "streams-group/0.1.0",
    },
    Case {
        access_key: "ASIACN0000000000000",
        secret_key: "cn-secret",
        session_token: Some("t"),
        host: "b-3.c.kafka.cn-north-1.amazonaws.com.cn",
        user_agent: "a user agent with spaces (and \"quotes\") \\ é",
    },
    Case {
        access_key: "AKIAGOV",
        secret_key: "gov-secret",
        session_token: None,
        host: "b-1.gov.kafka.us-gov-west-1.amazonaws.com",
        user_agent: "aws-msk-iam-auth/2.4.0/streams-group",
    },
    Case {
        access_key: "AKIASERVERLESS",
        secret_key: "serverless-secret",
        session_token: Some("serverless-token"),
        host: "boot-abcd1234.c1.kafka-serverless.ap-southeast-2.amazonaws.com",
        user_agent: "streams-group/0.1.0",
    },
    Case {
        access_key: "AKIAPRIVATELINK",
        secret_key: "pl-secret",
        session_token: None,
        host: "kafka.sa-east-1.vpce.internal.example.com",
        user_agent: "streams-group/0.1.0",
    },
    Case {
        access_key: "AKIAMIXEDCASE",
        secret_key: "mixed-secret",
        session_token: Some("mixed-token"),
        host: "B-1.Demo.Kafka.us-west-2.amazonaws.com.",
        user_agent: "streams-group/0.1.0",
    },
];

#[test]
fn payload_bytes_equal_amazons_library() {
    let requests: Vec<Value> = CASES
        .iter()
        .map(|c| {
            json!({"op": "payload", "access_key": c.access_key, "secret_key": c.secret_key,
                   "session_token": c.session_token, "host": c.host, "user_agent": c.user_agent})
        })
        .collect();
    let answers = ask_amazon(&requests);
    for (c, a) in CASES.iter().zip(&answers) {
        let theirs = B64
            .decode(a["payload"].as_str().expect("payload"))
            .expect("base64");
        let fields: Value = serde_json::from_slice(&theirs).expect("payload JSON");
        let date = fields["x-amz-date"].as_str().expect("x-amz-date");
        let expires: u64 = fields["x-amz-expires"].as_str().unwrap().parse().unwrap();
        // The library's expiry is Instant.now() + 15 min, taken before the signer reads its clock.
        assert!((899..=900).contains(&expires), "x-amz-expires {expires}");
        let region = region_of_host(c.host).expect("a region");
        assert_eq!(Some(region.as_str()), a["region"].as_str(), "{}", c.host);
        let creds = Credentials {
            access_key_id: c.access_key.into(),
            secret_access_key: Secret::new(c.secret_key),
            session_token: c.session_token.map(Secret::new),
        };
        let ours = payload(
            &creds,
            c.host,
            &region,
            c.user_agent,
            unix_of_amz_date(date),
            expires,
        );
        println!(
            "msk_iam {} ({} bytes, token: {}): {}",
            c.host,
            ours.len(),
            c.session_token.is_some(),
            if ours == theirs { "equal" } else { "DIFFERENT" }
        );
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs),
            "payload for {}",
            c.host
        );
    }
}

#[test]
fn regions_of_host_names_equal_amazons_library() {
    let hosts = [
        "b-1.demo.abc123.c2.kafka.us-east-1.amazonaws.com",
        "b-1.demo.abc123.c2.kafka.us-east-1.amazonaws.com.",
        "B-2.Demo.Kafka.EU-CENTRAL-1.AMAZONAWS.COM",
        "b-1.x.kafka.cn-northwest-1.amazonaws.com.cn",
        "b-1.x.kafka.us-gov-east-1.amazonaws.com",
        "boot-x.c2.kafka-serverless.ca-central-1.amazonaws.com",
        "b-1.x.kafka.il-central-1.api.aws",
        "kafka.ap-northeast-3.internal.example.com",
        "localhost",
        "127.0.0.1",
        "broker.example.com",
    ];
    let requests: Vec<Value> = hosts
        .iter()
        .map(|h| json!({"op": "region", "host": h}))
        .collect();
    for (h, a) in hosts.iter().zip(ask_amazon(&requests)) {
        let ours = region_of_host(h);
        println!("msk_iam region of {h}: {ours:?}");
        assert_eq!(ours.as_deref(), a["region"].as_str(), "{h}");
    }
}

/// `%XX` decoding of a query value.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).expect("hex"));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn oauthbearer_tokens_equal_amazons_handler() {
    let cases = [
        (
            "AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            None,
            "us-east-1",
        ),
        (
            "ASIATEMP",
            "s3cr3t+/=",
            Some("IQoJb3JpZ2lu/+tok=="),
            "eu-west-1",
        ),
        ("ASIACN", "cn", Some("t"), "cn-north-1"),
    ];
    let requests: Vec<Value> = cases
        .iter()
        .map(|(id, secret, token, region)| {
            json!({"op": "oauth_token", "access_key": id, "secret_key": secret,
                   "session_token": token, "region": region})
        })
        .collect();
    let answers = ask_amazon(&requests);
    for ((id, secret, token, region), a) in cases.iter().zip(&answers) {
        let theirs = a["token"].as_str().expect("token");
        let url = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(theirs)
            .expect("base64url");
        let url = String::from_utf8(url).expect("UTF-8");
        let param = |name: &str| {
            let query = url.split_once('?').expect("query").1;
            query
                .split('&')
                .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
                .map(percent_decode)
                .unwrap_or_else(|| panic!("{name} missing from {url}"))
        };
        let date = unix_of_amz_date(&param("X-Amz-Date"));
        let expires: u64 = param("X-Amz-Expires").parse().unwrap();
        assert!((899..=900).contains(&expires), "x-amz-expires {expires}");
        // The token's lifetime, as the handler reports it, is the signature's.
        assert_eq!(a["start_time_ms"].as_u64(), Some(date * 1000));
        assert_eq!(a["lifetime_ms"].as_u64(), Some((date + expires) * 1000));
        let creds = Credentials {
            access_key_id: id.to_string(),
            secret_access_key: Secret::new(*secret),
            session_token: token.map(Secret::new),
        };
        let ours = oauth_token(&creds, region, &param("User-Agent"), date, expires);
        println!(
            "msk_iam OAUTHBEARER {region} (token: {}): {}",
            token.is_some(),
            if ours == theirs { "equal" } else { "DIFFERENT" }
        );
        assert_eq!(ours, theirs, "token for {region}: {url}");
    }
}
