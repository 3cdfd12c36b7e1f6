//! SASL/OAUTHBEARER against a broker that validates JWTs with the harness's identity provider
//! (`harness start --security oauthbearer`): the client-credentials grant from the same
//! properties file Apache's tool reads, a token file, and the errors that name their cause.
//! Tokens live 30 s, so the watch runs across more than two of them (the broker sets
//! `connections.max.reauth.ms`: a session ends with its token).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;

use crate::support::harness::properties_variant;
use crate::support::{streams_group, Broker, CommandOutput, StreamsGroup};

const LIFETIME_S: u32 = 30;
const GROUP: &str = "oauth";

fn sg(bootstrap: &str, config: &Path, args: &[&str]) -> CommandOutput {
    let mut all = vec!["--bootstrap-server", bootstrap, "--timeout", "15000"];
    all.extend_from_slice(&["--command-config", config.to_str().unwrap()]);
    all.extend_from_slice(args);
    streams_group(&all)
}

/// A token minted by the identity provider, living `lifetime_s` (negative: already expired).
fn mint(idp: &str, lifetime_s: i64) -> String {
    get(idp, &format!("/mint?lifetime_s={lifetime_s}"))
}

/// The body of the identity provider's answer to `GET path`.
fn get(idp: &str, path: &str) -> String {
    let host = idp.trim_start_matches("http://");
    let mut s = TcpStream::connect(host).expect("the identity provider listens");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer.split("\r\n\r\n").nth(1).unwrap().trim().to_string()
}

/// The harness's properties file with one line replaced (`key=` prefix) or added.
fn variant(broker: &Broker, name: &str, key: &str, line: &str) -> std::path::PathBuf {
    properties_variant(&broker.dir.join("client-oauth.properties"), name, key, line)
}

#[test]
fn oauthbearer_client_credentials_token_files_and_errors() {
    let broker = Broker::start_oauth(LIFETIME_S);
    let ob = broker.oauth_bootstrap.clone().expect("OAUTH_BOOTSTRAP");
    let idp = broker.oauth_idp.clone().expect("OAUTH_IDP");
    let props = broker.dir.join("client-oauth.properties");
    let _app = broker.app(GROUP, 1, 1);
    // The two-minute watch runs beside every other check.
    let watch = LongWatch::start(&broker, &ob);

    let list = sg(&ob, &props, &["list"]);
    assert_eq!(list.code(), 0, "{list}");
    assert!(list.stdout.contains(GROUP), "{list}");
    let describe = sg(&ob, &props, &["describe", "--group", GROUP, "-o", "json"]);
    assert_eq!(describe.code(), 0, "{describe}");
    let history = sg(&ob, &props, &["history", "--group", GROUP]);
    assert_eq!(history.code(), 0, "{history}");
    for out in [&list, &describe, &history] {
        assert!(!out.stdout.contains("streams-group-secret"), "{out}");
    }

    let jaas = "sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule \
                required clientId=\"streams-group\" clientSecret=\"not-the-secret\" scope=\"kafka\";";
    let bad = variant(&broker, "bad-secret.properties", "sasl.jaas.config", jaas);
    let out = sg(&ob, &bad, &["list"]);
    assert_eq!(out.code(), 3, "{out}");
    assert!(out.stderr.contains("invalid_client"), "{out}");
    assert!(!out.stderr.contains("not-the-secret"), "{out}");

    let url = "sasl.oauthbearer.token.endpoint.url=";
    let html = variant(&broker, "html.properties", url, &format!("{url}{idp}/html"));
    let out = sg(&ob, &html, &["list"]);
    assert_eq!(out.code(), 2, "{out}");
    assert!(
        out.stderr.contains("text/html") && out.stderr.contains(url),
        "{out}"
    );

    let token_file = broker.dir.join("token.jwt");
    let file = variant(
        &broker,
        "file.properties",
        url,
        &format!("{url}file://{}", token_file.display()),
    );
    std::fs::write(&token_file, mint(&idp, 600)).unwrap();
    let out = sg(&ob, &file, &["list"]);
    assert_eq!(out.code(), 0, "{out}");
    std::fs::write(&token_file, mint(&idp, -60)).unwrap();
    let out = sg(&ob, &file, &["list"]);
    assert_eq!(out.code(), 2, "{out}");
    assert!(
        out.stderr.contains("expired") && out.stderr.contains(url),
        "{out}"
    );

    https_token_endpoint(&broker, &ob);
    jwks_less_listener(&broker, &props);
    watch.check(&idp);
}

/// A listener that validates with Kafka's default (unsigned tokens, no JWKS) refuses the
/// identity provider's signed token: one line with the broker's answer and the broker setting
/// that decides it, exit 3, no secret and no token.
fn jwks_less_listener(broker: &Broker, props: &Path) {
    let unsecured = broker
        .oauth_unsecured_bootstrap
        .clone()
        .expect("OAUTH_UNSECURED_BOOTSTRAP");
    let out = sg(&unsecured, props, &["list"]);
    assert_eq!(out.code(), 3, "{out}");
    assert_eq!(out.stderr.trim().lines().count(), 1, "{out}");
    assert!(
        out.stderr.contains("sasl.oauthbearer.jwks.endpoint.url"),
        "{out}"
    );
    assert!(
        !out.stderr.contains("streams-group-secret") && !out.stderr.contains("eyJ"),
        "{out}"
    );
}

/// The token endpoint over HTTPS: its CA given in `sasl.jaas.config`'s `ssl.*` options (where
/// Kafka's Java client takes the token endpoint's TLS settings from) works; without them the
/// built-in web PKI roots refuse the harness CA: exit 3, naming the endpoint.
fn https_token_endpoint(broker: &Broker, ob: &str) {
    let https = broker.oauth_idp_https.clone().expect("OAUTH_IDP_HTTPS");
    let url = "sasl.oauthbearer.token.endpoint.url=";
    let base = std::fs::read_to_string(broker.dir.join("client-oauth.properties")).unwrap();
    let jaas = base
        .lines()
        .find(|l| l.starts_with("sasl.jaas.config="))
        .expect("the harness's JAAS line")
        .trim_end_matches(';');
    let ca = broker.ca_pem();
    let with_ca = format!(
        "{jaas} ssl.truststore.type=\"PEM\" ssl.truststore.location=\"{}\";",
        ca.display()
    );
    let endpoint = format!("{url}{https}/token");
    let trusted = variant(broker, "https.properties", url, &endpoint);
    let trusted = properties_variant(
        &trusted,
        "https-ca.properties",
        "sasl.jaas.config=",
        &with_ca,
    );
    let out = sg(ob, &trusted, &["list"]);
    assert_eq!(out.code(), 0, "{out}");
    assert!(out.stdout.contains(GROUP), "{out}");
    let untrusted = variant(broker, "https-no-ca.properties", url, &endpoint);
    let out = sg(ob, &untrusted, &["list"]);
    assert_eq!(out.code(), 3, "{out}");
    assert!(
        out.stderr.contains(&https) && out.stderr.contains("TLS"),
        "{out}"
    );
    assert!(!out.stderr.contains("streams-group-secret"), "{out}");
}

/// `describe --watch` for two minutes (25 samples 5 s apart) with tokens that live 30 s, with
/// a scope of its own so that the identity provider counts its grants: every sample comes, no
/// error, a new token at least every 30 s, and neither the secret nor a token in its output,
/// JSON or recording.
struct LongWatch {
    running: crate::support::Running,
    recording: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

const WATCH_SAMPLES: usize = 25;

impl LongWatch {
    fn start(broker: &Broker, ob: &str) -> LongWatch {
        let dir = tempfile::tempdir().unwrap();
        let recording = dir.path().join("rec.jsonl");
        let props = variant(
            broker,
            "watch.properties",
            "sasl.jaas.config=",
            &jaas_scope("watch"),
        );
        let samples = WATCH_SAMPLES.to_string();
        let running = StreamsGroup::new(["describe", "--bootstrap-server", ob, "--group", GROUP])
            .args(["--command-config", props.to_str().unwrap(), "-o", "json"])
            .args(["--watch", "5", "--samples", &samples])
            .args(["--record", recording.to_str().unwrap()])
            .spawn();
        LongWatch {
            running,
            recording,
            _dir: dir,
        }
    }

    fn check(self, idp: &str) {
        let out = self.running.wait();
        assert_eq!(out.code(), 0, "{out}");
        assert!(!out.stderr.contains("error"), "{out}");
        assert_eq!(
            out.stdout.lines().count(),
            WATCH_SAMPLES,
            "one JSON line a sample: {out}"
        );
        let recorded = std::fs::read_to_string(&self.recording).unwrap();
        assert!(recorded.lines().count() >= WATCH_SAMPLES, "{recorded}");
        for text in [&out.stdout, &out.stderr, &recorded] {
            assert!(
                !text.contains("streams-group-secret"),
                "the secret in {text}"
            );
            // Every JWT starts with the base64url of `{"`.
            assert!(!text.contains("eyJ"), "a token in {text}");
        }
        // 120 s of 30 s tokens, each fetched again after 80% of its life: 5 grants, and the
        // broker ends each session as its token expires.
        let grants: u32 = get(idp, "/grants?scope=watch").trim().parse().unwrap();
        assert!(
            grants >= 4,
            "{grants} token(s) in two minutes of 30 s tokens"
        );
    }
}

/// The harness's JAAS line with another scope.
fn jaas_scope(scope: &str) -> String {
    format!(
        "sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule \
         required clientId=\"streams-group\" clientSecret=\"streams-group-secret\" scope=\"{scope}\";"
    )
}
