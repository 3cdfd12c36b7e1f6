//! SASL/GSSAPI (Kerberos) against a broker whose GSSAPI listener trusts the harness's KDC
//! (`harness start --security kerberos`: Apache Kerby, realm EXAMPLE.COM): `list` and `describe`
//! of a real Streams app with the properties file Apache's tool reads too (checked with it), and
//! the errors that name their cause. Needs the system's GSS-API library (MIT's
//! libgssapi_krb5.so.2), loaded at run time; no kinit, no KDC installed.

use std::path::{Path, PathBuf};

use crate::support::harness::properties_variant;
use crate::support::{Broker, CommandOutput, StreamsGroup};

const GROUP: &str = "kerberos";

fn sg(broker: &Broker, bootstrap: &str, config: &Path, args: &[&str]) -> CommandOutput {
    let krb5 = broker.krb5_config.clone().expect("KRB5_CONFIG");
    StreamsGroup::new(["--bootstrap-server", bootstrap, "--timeout", "15000"])
        .args(["--command-config", config.to_str().unwrap()])
        .args(args)
        .env("KRB5_CONFIG", krb5)
        .run()
}

/// The harness's properties file with the lines starting with `key` replaced by `line` (or
/// dropped, for an empty `line`).
fn variant(broker: &Broker, name: &str, key: &str, line: &str) -> PathBuf {
    properties_variant(
        &broker.dir.join("client-kerberos.properties"),
        name,
        key,
        line,
    )
}

fn one_error_line(out: &CommandOutput, code: i32, naming: &str) {
    assert_eq!(out.code(), code, "{out}");
    assert_eq!(out.stderr.trim_end().lines().count(), 1, "{out}");
    assert!(out.stderr.contains(naming), "{out}");
}

#[test]
fn gssapi_list_describe_and_errors() {
    if let Err(e) = kafka::gssapi::ffi::system() {
        panic!(
            "the system's GSS-API library ({}) cannot be used ({e:?}): apt-get install \
             libgssapi-krb5-2",
            kafka::gssapi::ffi::LIBRARY
        );
    }
    let broker = Broker::start_kerberos();
    let kb = broker
        .kerberos_bootstrap
        .clone()
        .expect("KERBEROS_BOOTSTRAP");
    let props = broker.dir.join("client-kerberos.properties");
    let _app = broker.app(GROUP, 1, 1);

    let list = sg(&broker, &kb, &props, &["list"]);
    assert_eq!(list.code(), 0, "{list}");
    assert!(list.stdout.contains(GROUP), "{list}");
    // By address: the service's host is its reverse lookup (localhost), as Java's client does.
    let by_address = kb.replace("localhost", "127.0.0.1");
    let describe = sg(
        &broker,
        &by_address,
        &props,
        &["describe", "--group", GROUP, "-o", "json"],
    );
    assert_eq!(describe.code(), 0, "{describe}");
    assert_eq!(
        describe.json()["groups"][0]["group_id"],
        GROUP,
        "{describe}"
    );

    // Apache's tool reads the same file (the harness gives its JVM the krb5.conf).
    let apache = broker.tool_raw(&[
        "--bootstrap-server",
        &kb,
        "--command-config",
        props.to_str().unwrap(),
        "--describe",
        "--group",
        GROUP,
    ]);
    let apache_out = String::from_utf8_lossy(&apache.stdout);
    assert!(apache.status.success(), "{apache_out}");
    assert!(apache_out.contains(GROUP), "{apache_out}");

    ticket_cache(&broker, &kb);
    errors(&broker, &kb);
}

/// `useTicketCache=true`: the tickets of a cache that a keytab login filled (as `kinit -kt`
/// would), read without the keytab.
fn ticket_cache(broker: &Broker, kb: &str) {
    let jaas = "sasl.jaas.config=";
    let module = "com.sun.security.auth.module.Krb5LoginModule required";
    let cache = format!(
        "FILE:{}",
        broker.dir.join("kerberos/client.ccache").display()
    );
    let keytab = broker.dir.join("kerberos/client.keytab");
    let fill = variant(
        broker,
        "fill-cache.properties",
        jaas,
        &format!(
            "{jaas}{module} useKeyTab=true keyTab=\"{}\" principal=\"client@EXAMPLE.COM\" \
             ticketCache=\"{cache}\";",
            keytab.display()
        ),
    );
    let out = sg(broker, kb, &fill, &["list"]);
    assert_eq!(out.code(), 0, "{out}");
    let cached = variant(
        broker,
        "ticket-cache.properties",
        jaas,
        &format!("{jaas}{module} useTicketCache=true ticketCache=\"{cache}\";"),
    );
    let out = sg(broker, kb, &cached, &["list"]);
    assert_eq!(out.code(), 0, "{out}");
    assert!(out.stdout.contains(GROUP), "{out}");
}

/// Each error: one line, its exit code, its cause and the key to fix.
fn errors(broker: &Broker, kb: &str) {
    let jaas = "sasl.jaas.config=";
    let kt = broker.dir.join("kerberos");
    let gone = variant(
        broker,
        "gone.properties",
        jaas,
        &format!(
            "{jaas}com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true \
             keyTab=\"{}\" principal=\"gone@EXAMPLE.COM\";",
            kt.join("gone.keytab").display()
        ),
    );
    let out = sg(broker, kb, &gone, &["list"]);
    one_error_line(&out, 3, "not found in Kerberos database");
    assert!(out.stderr.contains("sasl.jaas.config"), "{out}");

    let no_service = variant(
        broker,
        "no-service.properties",
        "sasl.kerberos.service.name",
        "",
    );
    let out = sg(broker, kb, &no_service, &["list"]);
    one_error_line(&out, 2, "needs sasl.kerberos.service.name");

    let missing = variant(
        broker,
        "missing-keytab.properties",
        jaas,
        &format!(
            "{jaas}com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true \
             keyTab=\"{}\" principal=\"client@EXAMPLE.COM\";",
            kt.join("no-such.keytab").display()
        ),
    );
    let out = sg(broker, kb, &missing, &["list"]);
    one_error_line(&out, 2, "no-such.keytab");
    assert!(out.stderr.contains("fix keyTab"), "{out}");

    silent_kdc(broker, kb);
}

/// A KDC that accepts and never answers costs `--timeout`, not the library's own minute.
fn silent_kdc(broker: &Broker, kb: &str) {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let conf = std::fs::read_to_string(broker.krb5_config.as_ref().unwrap()).unwrap();
    let conf: String = conf
        .lines()
        .map(|l| match l.trim_start().starts_with("kdc =") {
            true => format!("        kdc = 127.0.0.1:{port}\n"),
            false => format!("{l}\n"),
        })
        .collect();
    let silent_conf = broker.dir.join("silent-krb5.conf");
    std::fs::write(&silent_conf, conf).unwrap();
    let props = broker.dir.join("client-kerberos.properties");
    let out = StreamsGroup::new(["list", "--bootstrap-server", kb, "--timeout", "3000"])
        .args(["--command-config", props.to_str().unwrap()])
        .env("KRB5_CONFIG", &silent_conf)
        .guard(std::time::Duration::from_secs(60))
        .run();
    one_error_line(
        &out,
        3,
        "no answer from the KDC within the timeout (3000 ms)",
    );
    drop(silent);
}
