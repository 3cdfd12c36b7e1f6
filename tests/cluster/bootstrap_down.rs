//! A bootstrap list whose brokers are all down: exit 3 within `--timeout`, naming each address.

use std::time::Duration;

use crate::support::streams_group_guarded;

/// A loopback port with nothing listening (bound, read, released).
fn closed_port() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().to_string()
}

#[test]
fn every_bootstrap_broker_down_is_exit_3_naming_each() {
    let addrs: Vec<String> = (0..3).map(|_| closed_port()).collect();
    let list = addrs.join(",");
    for args in [
        vec!["describe", "--group", "g"],
        vec!["list"],
        vec!["lag", "--group", "g"],
    ] {
        let mut all = vec!["--bootstrap-server", list.as_str(), "--timeout", "5000"];
        all.extend(args.iter().copied());
        // Hang guard only: the command must end by itself within --timeout (plus start-up).
        let out = streams_group_guarded(&all, Duration::from_secs(60));
        let err = &out.stderr;
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        for a in &addrs {
            assert!(
                err.contains(a.as_str()),
                "{args:?} does not name {a}: {err}"
            );
        }
    }
}
