//! The network edges: a silent bootstrap address listed before a live broker, SASL against a
//! listener without SASL, request values the protocol cannot carry, and `--timeout 0`. The broker
//! tests need Java 17+ and Maven (the harness fails loudly without them, never skips).

use std::io::{ErrorKind, Read};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use crate::support::tmux::Tmux;
use crate::support::{
    streams_group, streams_group_bin, streams_group_guarded, wait_for, Broker, CommandOutput,
};

/// Far above the few seconds a silent bootstrap address may cost, and below the 30 s default
/// `--timeout` it used to cost: only a hang, or the old behaviour, trips it.
const HANG_GUARD: Duration = Duration::from_secs(20);

/// Run the binary under the hang guard ([`streams_group_guarded`]). Returns the output and the
/// wall-clock time it took (printed, never asserted).
fn run_guarded(args: &[&str]) -> (CommandOutput, Duration) {
    let t0 = Instant::now();
    let out = streams_group_guarded(args, HANG_GUARD);
    (out, t0.elapsed())
}

/// A listener that accepts connections, holds them open and never answers, for the rest of the
/// test process.
fn silent_server() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let mut held: Vec<TcpStream> = Vec::new();
        for s in l.incoming().flatten() {
            held.push(s);
        }
    });
    addr
}

fn one_error_line(err: &str) {
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.starts_with("error:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn sasl_properties(dir: &std::path::Path, mechanism: &str) -> std::path::PathBuf {
    let module = if mechanism == "PLAIN" {
        "org.apache.kafka.common.security.plain.PlainLoginModule"
    } else {
        "org.apache.kafka.common.security.scram.ScramLoginModule"
    };
    let file = dir.join(format!("sasl-plaintext-{mechanism}.properties"));
    std::fs::write(
        &file,
        format!(
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism={mechanism}\n\
             sasl.jaas.config={module} required username=\"alice\" password=\"alice-secret\";\n"
        ),
    )
    .unwrap();
    file
}

#[test]
fn silent_bootstrap_address_and_sasl_against_a_plaintext_listener() {
    let broker = Broker::start();
    let list = format!("{},{}", silent_server(), broker.bootstrap);
    // Default --timeout (30 s): the silent address must not cost it.
    for args in [
        vec!["list", "--bootstrap-server", &list],
        vec![
            "describe",
            "--group",
            "no-such-app",
            "--bootstrap-server",
            &list,
        ],
    ] {
        let (out, took) = run_guarded(&args);
        let err = &out.stderr;
        eprintln!("`{}` with a silent first address: {took:?}", args[0]);
        // list finds no groups (0); describe hears GROUP_ID_NOT_FOUND from the broker (4).
        let expected = if args[0] == "list" { 0 } else { 4 };
        assert_eq!(out.status.code(), Some(expected), "{err}");
    }

    // The broker's KRaft controller listener given by mistake: named as one, with the way out.
    let props = std::fs::read_to_string(broker.dir.join("server.properties")).unwrap();
    let controller = props
        .lines()
        .find_map(|l| l.strip_prefix("controller.quorum.bootstrap.servers="))
        .expect("the harness names its controller listener");
    let (out, _) = run_guarded(&["list", "--bootstrap-server", controller]);
    let err = &out.stderr;
    // It answered, with what it is: exit 4, as for any cluster that answers with an error.
    assert_eq!(out.status.code(), Some(4), "{err}");
    one_error_line(err);
    assert!(
        err.contains("is a KRaft controller listener, not a broker"),
        "{err}"
    );
    assert!(!err.contains("3.8 or later"), "{err}");

    // The harness's PLAINTEXT listener has no SASL: say so, not "wrong password".
    for mechanism in ["PLAIN", "SCRAM-SHA-512"] {
        let props = sasl_properties(&broker.dir, mechanism);
        let (out, _) = run_guarded(&[
            "list",
            "--bootstrap-server",
            &broker.bootstrap,
            "--command-config",
            props.to_str().unwrap(),
        ]);
        let err = &out.stderr;
        assert_eq!(out.status.code(), Some(3), "{err}");
        one_error_line(err);
        assert!(err.contains("not a SASL listener"), "{err}");
        assert!(err.contains("security.protocol"), "{err}");
        assert!(!err.contains("offers: )"), "{err}");
        assert!(!err.contains("password"), "{err}");
    }
}

/// A listener that must never hear from us; `heard` says whether anything connected.
struct Witness(TcpListener);

impl Witness {
    fn new() -> Witness {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.set_nonblocking(true).unwrap();
        Witness(l)
    }
    fn addr(&self) -> String {
        self.0.local_addr().unwrap().to_string()
    }
    fn heard(&self) -> bool {
        match self.0.accept() {
            Ok((mut s, _)) => {
                let mut b = [0u8; 1];
                let _ = s.read(&mut b);
                true
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => false,
            Err(e) => panic!("witness listener: {e}"),
        }
    }
}

#[test]
fn group_ids_the_protocol_cannot_carry_are_usage_errors_before_anything_is_sent() {
    let witness = Witness::new();
    let addr = witness.addr();
    let long = "g".repeat(32_768);
    let topology = format!("{}/tests/data/topologies", env!("CARGO_MANIFEST_DIR"));
    let topology_file = std::fs::read_dir(&topology)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a JSON topology in tests/data/topologies");
    let topology_file = topology_file.to_str().unwrap();
    let diff_arg = format!("group:{long}");
    let cases: Vec<Vec<&str>> = vec![
        vec!["describe", "--group", &long],
        vec!["lag", "--group", &long],
        vec!["simulate", "--from-group", &long],
        vec!["diff", "topology", &diff_arg, topology_file],
        vec![
            "check-epoch",
            "--group",
            &long,
            "--topology",
            topology_file,
            "--topology-epoch",
            "0",
        ],
    ];
    for mut args in cases {
        args.extend(["--bootstrap-server", &addr]);
        let (out, _) = run_guarded(&args);
        let err = &out.stderr;
        assert_eq!(out.status.code(), Some(2), "{}: {err:.300}", args[0]);
        one_error_line(err);
        assert!(err.contains("32768 bytes"), "{err:.300}");
        assert!(err.contains("32767"), "{err:.300}");
        assert!(err.len() < 300, "the id is not echoed whole: {err:.300}");
        assert!(!witness.heard(), "{}: nothing may be sent", args[0]);
    }
}

#[test]
fn a_zero_timeout_is_refused() {
    for t in ["0", "-1", "2147483648"] {
        let timeout = format!("--timeout={t}");
        let out = streams_group(&["list", "--bootstrap-server", "127.0.0.1:1", &timeout]);
        let err = &out.stderr;
        assert_eq!(out.status.code(), Some(2), "--timeout {t}: {err}");
        one_error_line(err);
        assert!(err.contains("--timeout"), "{err}");
    }
    let out = streams_group(&[
        "list",
        "--bootstrap-server",
        "127.0.0.1:1",
        "--timeout",
        "0",
    ]);
    assert!(out.stderr.contains("at least 1"), "{}", out.stderr);
}

/// The hang guard itself: a command that would wait for a silent server far longer than the guard
/// is killed, and the test fails saying it hung.
#[test]
fn the_hang_guard_kills_a_command_that_does_not_end() {
    let silent = silent_server();
    let hung = std::panic::catch_unwind(|| {
        streams_group_guarded(
            &["list", "--bootstrap-server", &silent, "--timeout", "600000"],
            Duration::from_secs(1),
        )
    });
    let message = match hung {
        Ok(out) => panic!("not killed: {out:?}"),
        Err(e) => e.downcast::<String>().map(|s| *s).unwrap_or_default(),
    };
    assert!(
        message.starts_with("the command hung: `streams-group list"),
        "{message}"
    );
}

/// On a terminal, a reading that waits over a second says what for and since when (the
/// watch's `waiting since ...` line), and clears it when it ends; here a bootstrap server that
/// accepts connections and never answers, until `--timeout`.
#[test]
fn a_describe_that_waits_says_so_on_a_terminal() {
    let silent = silent_server();
    let tmux = Tmux::new("e2e-waiting");
    let cmd = format!(
        "{} describe --group g --bootstrap-server {silent} --timeout 8000; echo EXIT=$?; sleep 60",
        streams_group_bin().display()
    );
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "wait",
        "-x",
        "220",
        "-y",
        "10",
        &cmd,
    ]);
    let note = wait_for("the waiting note", Duration::from_secs(20), || {
        let s = tmux.screen_of("wait");
        s.lines()
            .find(|l| l.contains("waiting since") && l.contains("bootstrap servers"))
            .map(str::to_string)
    });
    eprintln!("waiting note: {note}");
    let end = wait_for("the exit", Duration::from_secs(30), || {
        let s = tmux.screen_of("wait");
        s.contains("EXIT=").then_some(s)
    });
    assert!(end.contains("EXIT=3"), "{end}");
    assert!(
        !end.contains("waiting since"),
        "the note is cleared at the end: {end}"
    );
}
