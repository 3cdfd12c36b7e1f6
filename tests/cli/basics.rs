//! Global behaviour of the binary: help, version, completions, usage errors, colour.

use crate::support::StreamsGroup;

/// (exit status, stdout, stderr) of `streams-group ARGS` with the variables `env` set.
fn run(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut c = StreamsGroup::new(args);
    for (k, v) in env {
        c = c.env(k, v);
    }
    let out = c.run();
    (out.code(), out.stdout, out.stderr)
}

/// Examples are never wrapped inside a command (a long one continues with ` \\`), and the
/// top-level help lists every exit code.
#[test]
fn help_examples_are_whole_commands_and_every_exit_code_is_listed() {
    let (_, top, _) = run(&["--help"], &[]);
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() > 10, "{commands:?}");
    let mut helps = vec![("".to_string(), top.clone())];
    for c in &commands {
        helps.push((c.clone(), run(&[c, "--help"], &[]).1));
    }
    for (c, help) in &helps {
        let lines: Vec<&str> = help.lines().collect();
        for pair in lines.windows(2) {
            let (prev, next) = (pair[0], pair[1]);
            let wrapped = prev.starts_with("  streams-group ")
                && !prev.ends_with('\\')
                && next.starts_with(' ')
                && !next.starts_with("  streams-group ")
                && !next.trim_start().starts_with('#');
            assert!(!wrapped, "`{c} --help` wraps an example:\n{prev}\n{next}");
        }
    }
    let codes = top.split("Exit codes:").nth(1).expect("exit codes listed");
    for n in ["0 ok", "1 ", "2 ", "3 ", "4 ", "5 ", "6 ", "70 "] {
        assert!(
            codes.contains(n),
            "exit code {n} missing from --help: {codes}"
        );
    }
}

#[test]
fn every_subcommand_has_help_with_an_example() {
    for sub in crate::subcommands() {
        let sub = sub.as_str();
        let (code, out, _) = run(&[sub, "--help"], &[]);
        assert_eq!(code, 0, "{sub}");
        assert!(
            out.contains("Example"),
            "{sub} --help shows an example:\n{out}"
        );
    }
}

#[test]
fn committed_completion_scripts_are_up_to_date() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, _) = run(&["completions", shell], &[]);
        assert_eq!(code, 0);
        let file = std::fs::read_to_string(format!("completions/streams-group.{shell}")).unwrap();
        assert!(
            out == file,
            "regenerate completions/streams-group.{shell} (streams-group completions {shell})"
        );
    }
}

#[test]
fn usage_errors_are_one_line_with_exit_2() {
    let (code, out, err) = run(&["simulate", "--no-such-flag"], &[]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("--help"));
    let (code, _, err) = run(&["frobnicate"], &[]);
    assert_eq!(code, 2);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let args = ["simulate", "--members", "2"];
    let (_, plain, _) = run(&args, &[]);
    assert!(
        !plain.contains('\u{1b}'),
        "not a terminal: no colour by default"
    );
    let (_, forced, _) = run(&[&args[..], &["--color", "always"]].concat(), &[]);
    assert!(forced.contains('\u{1b}'), "--color always colours");
    let (_, never, _) = run(
        &[&args[..], &["--color", "never"]].concat(),
        &[("NO_COLOR", "")],
    );
    assert!(!never.contains('\u{1b}'));
    let (_, no_color, _) = run(
        &[&args[..], &["--color", "auto"]].concat(),
        &[("NO_COLOR", "1")],
    );
    assert!(!no_color.contains('\u{1b}'));
}

#[test]
fn global_options_go_before_or_after_the_subcommand() {
    let a = run(&["--output", "json", "simulate", "--members", "2"], &[]);
    let b = run(&["simulate", "--members", "2", "--output", "json"], &[]);
    assert_eq!(a, b);
    assert!(a.1.starts_with('{'));
}

/// `--bootstrap-server`, `--command-config` and `--timeout` are listed only by the commands that
/// connect; given before the subcommand name they still work; STREAMS_GROUP_BOOTSTRAP_SERVER
/// gives the bootstrap server when no option does.
#[test]
fn connection_options_only_on_commands_that_connect() {
    let options = ["--bootstrap-server", "--command-config", "--timeout"];
    let listed = |args: &[&str]| -> Vec<&str> {
        let (code, out, err) = run(args, &[]);
        assert_eq!(code, 0, "{args:?}: {err}");
        options
            .into_iter()
            .filter(|o| {
                out.lines().any(|l| {
                    let l = l
                        .trim_start()
                        .trim_start_matches("\\fB")
                        .replace("\\-", "-");
                    l.starts_with(&format!("{o} ")) || l.starts_with(&format!("{o}\\fR"))
                })
            })
            .collect()
    };
    let connecting = [
        "simulate",
        "list",
        "describe",
        "diff",
        "check-epoch",
        "lag",
        "topology",
        "reset-offsets",
        "delete-offsets",
        "delete",
        "history",
    ];
    for sub in crate::subcommands() {
        let expected: &[&str] = if connecting.contains(&sub.as_str()) {
            &options
        } else {
            &[]
        };
        assert_eq!(listed(&[&sub, "--help"]), expected, "{sub} --help");
        assert_eq!(listed(&["man", &sub]), expected, "man {sub}");
    }
    for nested in [
        ["diff", "topology"],
        ["diff", "assignment"],
        ["topology", "show"],
    ] {
        assert_eq!(listed(&[nested[0], nested[1], "--help"]), options);
    }
    assert_eq!(listed(&["--help"]), Vec::<&str>::new(), "top-level --help");
    // Nothing listens on ports 9 and 10: the error names the server that was used.
    let used = |args: &[&str], env: &[(&str, &str)]| {
        let (code, _, err) = run(&[args, &["--timeout", "5000"]].concat(), env);
        assert_eq!(code, 3, "{args:?} {env:?}: {err}");
        ["127.0.0.1:9", "127.0.0.1:10"]
            .into_iter()
            .find(|b| err.contains(&format!("{b}:")))
            .unwrap_or_else(|| panic!("{err}"))
    };
    let env = [("STREAMS_GROUP_BOOTSTRAP_SERVER", "127.0.0.1:9")];
    assert_eq!(used(&["list"], &env), "127.0.0.1:9");
    assert_eq!(
        used(&["list", "--bootstrap-server", "127.0.0.1:10"], &env),
        "127.0.0.1:10"
    );
    assert_eq!(
        used(&["--bootstrap-server", "127.0.0.1:10", "list"], &env),
        "127.0.0.1:10"
    );
    assert_eq!(
        used(
            &[
                "--bootstrap-server",
                "127.0.0.1:9",
                "topology",
                "show",
                "group:g"
            ],
            &[]
        ),
        "127.0.0.1:9"
    );
}

/// A reader that goes away ends the program quietly; a full disk is one line and exit 5.
#[test]
fn closed_and_full_stdout_never_panic() {
    use std::io::Read;
    let (mut reader, writer) = std::io::pipe().unwrap();
    let running = StreamsGroup::new(["simulate", "--members", "2000"])
        .stdout(writer)
        .spawn();
    let mut first = [0u8; 16];
    reader.read_exact(&mut first).unwrap();
    // The pipe is closed here, while the report is still being written.
    drop(reader);
    let out = running.wait();
    assert_eq!(out.code(), 0, "{}", out.stderr);
    // A run this big says it is alive (a line per 10 %), and nothing else.
    let err = &out.stderr;
    assert!(err.lines().all(|l| l.starts_with("simulating")), "{err}");

    if std::path::Path::new("/dev/full").exists() {
        let full = || {
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap()
        };
        let out = StreamsGroup::new(["simulate", "--members", "6", "--output", "json"])
            .stdout(full())
            .run();
        let err = &out.stderr;
        assert_eq!(out.code(), 5, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("cannot write the output"), "{err}");
        // --help and --version are output too.
        for args in [&["--help"][..], &["--version"], &["simulate", "--help"]] {
            let out = StreamsGroup::new(args).stdout(full()).run();
            let err = &out.stderr;
            assert_eq!(out.code(), 5, "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.starts_with("error: cannot write the output"), "{err}");
        }
    }
}

/// `-` reads standard input wherever a file is read; an endless input is refused.
#[test]
fn dash_reads_standard_input_and_endless_input_is_refused() {
    let text = std::fs::read_to_string("tests/data/topologies/global-store.txt").unwrap();
    let from_stdin = |args: &[&str]| StreamsGroup::new(args).stdin(text.as_bytes()).run();
    let piped = from_stdin(&["topology", "-", "--application-id", "app", "-o", "json"]);
    let (code, from_file, _) = run(
        &[
            "topology",
            "tests/data/topologies/global-store.txt",
            "--application-id",
            "app",
            "-o",
            "json",
        ],
        &[],
    );
    assert_eq!((piped.code(), code), (0, 0));
    let name = "\"tests/data/topologies/global-store.txt\"";
    assert_eq!(
        piped.stdout,
        from_file.replace(name, "\"-\""),
        "the same report, the file named -"
    );
    let out = from_stdin(&["simulate", "--topology", "-", "--application-id", "app"]);
    assert_eq!(out.code(), 0, "{}", out.stderr);
    if std::path::Path::new("/dev/zero").exists() {
        let (code, _, err) = run(&["topology", "/dev/zero"], &[]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("larger than 128 MiB"), "{err}");
    }
}

/// README, `--help` and the error for an unknown version name the same modelled releases.
#[test]
fn every_modelled_version_is_documented_and_accepted() {
    use model::KafkaVersion;
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let (_, bad, err) = run(&["simulate", "--kafka-version", "9.9"], &[]);
    assert_eq!(bad, "");
    for v in KafkaVersion::ALL {
        let row = if v.name() == v.release() {
            format!("| `{}` |", v.name())
        } else {
            format!("| `{}` (`{}`) |", v.name(), v.release())
        };
        assert!(readme.contains(&row), "README's version table lacks {row}");
        assert!(err.contains(v.name()), "{err}");
        for sub in ["simulate", "check-epoch"] {
            let (_, help, _) = run(&[sub, "--help"], &[]);
            assert!(help.contains(v.name()), "{sub} --help lacks {}", v.name());
        }
        for name in [v.name(), v.release()] {
            let (code, _, err) = run(
                &["simulate", "--members", "2", "--kafka-version", name],
                &[],
            );
            assert_eq!(code, 0, "{name}: {err}");
        }
    }
    // Every release with streams groups is accepted; one served by another release's profile
    // is named with that profile, in a note.
    for (release, v) in model::version::SERVED_RELEASES {
        let (code, _, err) = run(
            &["simulate", "--members", "2", "--kafka-version", release],
            &[],
        );
        assert_eq!(code, 0, "{release}: {err}");
        let note = format!("behaves as {}'s", v.release());
        assert_eq!(
            err.contains(&note),
            release != v.release(),
            "{release}: {err}"
        );
        assert!(readme.contains(release), "README does not name {release}");
    }
}
