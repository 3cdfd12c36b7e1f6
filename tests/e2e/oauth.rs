//! SASL/OAUTHBEARER against a broker that validates JWTs with the harness's identity provider
//! (`harness start --security oauthbearer`): the client-credentials grant from the same
//! properties file Apache's tool reads, a token file, and the errors that name their cause.
//! Tokens live 30 s, so the watch runs across more than two of them (the broker sets
//! `connections.max.reauth.ms`: a session ends with its token).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;

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
    let host = idp.trim_start_matches("http://");
    let mut s = TcpStream::connect(host).expect("the identity provider listens");
    write!(
        s,
        "GET /mint?lifetime_s={lifetime_s} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer.split("\r\n\r\n").nth(1).unwrap().trim().to_string()
}

/// The harness's properties file with one line replaced (`key=` prefix) or added.
fn variant(broker: &Broker, name: &str, key: &str, line: &str) -> std::path::PathBuf {
    let base = std::fs::read_to_string(broker.dir.join("client-oauth.properties")).unwrap();
    let mut text: String = base
        .lines()
        .filter(|l| !l.starts_with(key))
        .map(|l| format!("{l}\n"))
        .collect();
    text.push_str(line);
    text.push('\n');
    let path = broker.dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn oauthbearer_client_credentials_token_files_and_errors() {
    let broker = Broker::start_oauth(LIFETIME_S);
    let ob = broker.oauth_bootstrap.clone().expect("OAUTH_BOOTSTRAP");
    let idp = broker.oauth_idp.clone().expect("OAUTH_IDP");
    let props = broker.dir.join("client-oauth.properties");
    let _app = broker.app(GROUP, 1, 1);

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

    watch_outlives_two_tokens(&ob, &props);
}

/// 15 samples 5 s apart: 70 s, more than two 30 s tokens; every sample comes, no error.
fn watch_outlives_two_tokens(ob: &str, props: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("rec.jsonl");
    let out = StreamsGroup::new(["describe", "--bootstrap-server", ob, "--group", GROUP])
        .args(["--command-config", props.to_str().unwrap()])
        .args([
            "--watch",
            "5",
            "--samples",
            "15",
            "--record",
            rec.to_str().unwrap(),
        ])
        .spawn()
        .wait();
    assert_eq!(out.code(), 0, "{out}");
    assert!(!out.stderr.contains("error"), "{out}");
    let recorded = std::fs::read_to_string(&rec).unwrap();
    assert!(recorded.lines().count() >= 15, "{recorded}");
}
