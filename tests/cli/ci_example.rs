//! The "Checking a deployment in CI" example (tests/data/ci-example.sh, included verbatim in
//! docs/check-epoch.md) runs exactly as written, with `streams-group` on PATH.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::streams_group_bin;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// A CI workspace: the script, the binary on PATH, a snapshot, a topology and an epoch.
fn workspace(topology: &str, epoch: &str, with_snapshot: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(streams_group_bin(), bin.join("streams-group")).unwrap();
    std::fs::copy(data("ci-example.sh"), dir.path().join("ci-example.sh")).unwrap();
    if with_snapshot {
        std::fs::copy(
            data("snapshots/wordcount-epoch3.json"),
            dir.path().join("group.json"),
        )
        .unwrap();
    }
    std::fs::copy(
        data(&format!("topologies/{topology}")),
        dir.path().join("topology.txt"),
    )
    .unwrap();
    std::fs::write(dir.path().join("topology.epoch"), format!("{epoch}\n")).unwrap();
    dir
}

fn run(dir: &Path) -> (i32, String, String) {
    run_with(dir, None)
}

fn run_with(dir: &Path, kafka_version: Option<&str>) -> (i32, String, String) {
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("sh");
    cmd.arg("ci-example.sh")
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("KAFKA_VERSION");
    if let Some(v) = kafka_version {
        cmd.env("KAFKA_VERSION", v);
    }
    let o = cmd.output().expect("sh runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn the_same_topology_passes_on_the_recorded_broker() {
    let dir = workspace("wordcount-named-store.txt", "3", true);
    let (code, out, err) = run(dir.path());
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("ACCEPTED (same topology at topology epoch 3)"),
        "{out}"
    );
    assert!(out.ends_with("ok: topology epoch 3 is accepted\n"), "{out}");
}

#[test]
fn a_changed_topology_is_blocked_on_a_4_4_broker_with_the_way_to_deploy_it() {
    let dir = workspace("wordcount-renamed-store.txt", "4", true);
    let (code, out, err) = run(dir.path());
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("REJECTED: INVALID_REQUEST — Topology updates are not supported yet."),
        "{out}"
    );
    assert!(out.contains("new application.id"), "{out}");
    assert!(
        out.contains("Exit status decided by: the Kafka 4.4.0 coordinator"),
        "{out}"
    );
    assert!(
        err.contains("blocked: the coordinator would reject topology epoch 4"),
        "{err}"
    );
}

#[test]
fn under_the_kip_rules_a_bumped_epoch_passes() {
    let dir = workspace("wordcount-renamed-store.txt", "4", true);
    let (code, out, err) = run_with(dir.path(), Some("kip"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("ACCEPTED (update to topology epoch 4)"),
        "{out}"
    );
    assert!(out.ends_with("ok: topology epoch 4 is accepted\n"), "{out}");
}

#[test]
fn under_the_kip_rules_a_forgotten_bump_fails_the_job() {
    let dir = workspace("wordcount-renamed-store.txt", "3", true);
    let (code, out, err) = run_with(dir.path(), Some("kip"));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("REJECTED: STREAMS_INVALID_TOPOLOGY_EPOCH"),
        "{out}"
    );
    assert!(
        err.contains("blocked: the coordinator would reject topology epoch 3"),
        "{err}"
    );
}

#[test]
fn missing_snapshot_is_bad_input() {
    let dir = workspace("wordcount-named-store.txt", "3", false);
    let (code, _, err) = run(dir.path());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("group.json: cannot read the snapshot"),
        "{err}"
    );
    assert!(err.contains("check-epoch: bad usage or input"), "{err}");
}

#[test]
fn the_check_epoch_guide_carries_the_script_verbatim() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/check-epoch.md"))
            .unwrap();
    let script = std::fs::read_to_string(data("ci-example.sh")).unwrap();
    assert!(
        readme.contains(&format!("```sh\n{script}```")),
        "docs/check-epoch.md must include tests/data/ci-example.sh verbatim in a ```sh block"
    );
}
