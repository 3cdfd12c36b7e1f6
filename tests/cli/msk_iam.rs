//! `sasl.mechanism=AWS_MSK_IAM` from the outside, without MSK: where the credentials come from,
//! the one-line errors (exit 2) when none are usable, and that the secret key and the session
//! token never reach stdout or stderr, not even with `--verbose`. The broker side (a listener
//! without AWS_MSK_IAM, exit 3) is `tests/e2e/live.rs`; the payload's bytes are checked against
//! Amazon's library in `tests/oracles/msk_iam.rs`.

use std::path::{Path, PathBuf};

use crate::support::command::StreamsGroup;

const SECRET: &str = "wJalrXUtnFEMI-SENTINEL-SECRET-KEY";
const TOKEN: &str = "IQoJb3JpZ2luX2VjSENTINELSESSIONTOKEN";

const AWS_VARS: [&str; 10] = [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_REGION",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_ROLE_ARN",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_DEFAULT_REGION",
];

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("msk-iam-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join(".aws")).unwrap();
    d
}

fn command_config(d: &Path, jaas_options: &str) -> String {
    let f = d.join("msk.properties");
    std::fs::write(
        &f,
        format!(
            "security.protocol=SASL_SSL\nsasl.mechanism=AWS_MSK_IAM\n\
             sasl.jaas.config=software.amazon.msk.auth.iam.IAMLoginModule required{jaas_options};\n\
             sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMClientCallbackHandler\n"
        ),
    )
    .unwrap();
    f.display().to_string()
}

/// `streams-group list` against a closed port, with HOME at `d` and only `env` of AWS's vars.
fn list(d: &Path, config: &str, env: &[(&str, &str)], verbose: bool) -> (i32, String, String) {
    let mut args = vec![
        "list",
        "--bootstrap-server",
        "b-1.demo.kafka.us-east-1.amazonaws.com.invalid:1",
        "--command-config",
        config,
        "--timeout",
        "5000",
    ];
    if verbose {
        args.push("--verbose");
    }
    let mut c = StreamsGroup::new(&args).env("HOME", d).env("NO_COLOR", "1");
    for v in AWS_VARS {
        c = c.env_remove(v);
    }
    c = c
        .env("AWS_SHARED_CREDENTIALS_FILE", d.join(".aws/credentials"))
        .env("AWS_CONFIG_FILE", d.join(".aws/config"));
    for (k, v) in env {
        c = c.env(k, v);
    }
    let out = c.run();
    (out.code(), out.stdout, out.stderr)
}

fn assert_one_line_exit_2(r: &(i32, String, String), needles: &[&str]) {
    let (code, out, err) = r;
    assert_eq!(*code, 2, "stdout: {out}\nstderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} missing from: {err}");
    }
}

#[test]
fn no_usable_credentials_is_one_line_naming_what_to_set() {
    let d = dir("none");
    let cfg = command_config(&d, "");
    let r = list(&d, &cfg, &[], false);
    assert_one_line_exit_2(
        &r,
        &[
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_PROFILE",
            "awsProfileName",
        ],
    );
    let r = list(&d, &cfg, &[("AWS_ACCESS_KEY_ID", "AKIDONLY")], false);
    assert_one_line_exit_2(&r, &["AWS_SECRET_ACCESS_KEY is not"]);
    let r = list(
        &d,
        &cfg,
        &[("AWS_WEB_IDENTITY_TOKEN_FILE", "/var/run/t")],
        false,
    );
    assert_one_line_exit_2(&r, &["AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_SESSION_TOKEN"]);
    let r = list(&d, &cfg, &[("AWS_PROFILE", "missing")], false);
    assert_one_line_exit_2(&r, &["AWS_PROFILE=missing: no such profile"]);
    let roles = command_config(&d, " awsRoleArn=\"arn:aws:iam::123456789012:role/r\"");
    let r = list(&d, &roles, &[], false);
    assert_one_line_exit_2(&r, &["awsRoleArn", "STS"]);
    // A profile that assumes a role is named, not silently skipped.
    std::fs::write(
        d.join(".aws/config"),
        "[profile ops]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = default\n",
    )
    .unwrap();
    let named = command_config(&d, " awsProfileName=\"ops\"");
    let r = list(&d, &named, &[], false);
    assert_one_line_exit_2(&r, &["profile ops (awsProfileName) with role_arn"]);
}

/// With credentials from the environment or a profile, the configuration is accepted and the
/// tool goes on to connect (exit 3 here: nothing listens); neither the secret key nor the session
/// token appears anywhere, with or without `--verbose`.
#[test]
fn credentials_are_found_and_never_printed() {
    let d = dir("found");
    let cfg = command_config(&d, "");
    let env = [
        ("AWS_ACCESS_KEY_ID", "AKIDSENTINEL"),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
        ("AWS_SESSION_TOKEN", TOKEN),
    ];
    std::fs::write(
        d.join(".aws/credentials"),
        format!("[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = {SECRET}\n"),
    )
    .unwrap();
    let profile = command_config(&d, " awsProfileName=\"dev\"");
    for (config, env) in [(&cfg, &env[..]), (&profile, &[][..])] {
        for verbose in [false, true] {
            let (code, out, err) = list(&d, config, env, verbose);
            assert_eq!(code, 3, "stdout: {out}\nstderr: {err}");
            for secret in [SECRET, TOKEN] {
                assert!(!out.contains(secret) && !err.contains(secret), "{out}{err}");
            }
        }
    }
}

/// MSK's OAUTHBEARER variant (`IAMOAuthBearerLoginCallbackHandler`): the same credentials, and
/// the region from the environment (the handler signs for `kafka.REGION.amazonaws.com`).
#[test]
fn msk_oauthbearer_needs_a_region_and_prints_no_secret() {
    let d = dir("oauth");
    let f = d.join("msk-oauth.properties");
    std::fs::write(
        &f,
        "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n\
         sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\n\
         sasl.login.callback.handler.class=software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler\n\
         sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler\n",
    )
    .unwrap();
    let cfg = f.display().to_string();
    let keys = [
        ("AWS_ACCESS_KEY_ID", "AKIDSENTINEL"),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
        ("AWS_SESSION_TOKEN", TOKEN),
    ];
    let r = list(&d, &cfg, &keys, false);
    assert_one_line_exit_2(
        &r,
        &["IAMOAuthBearerLoginCallbackHandler", "set AWS_REGION"],
    );
    let r = list(&d, &cfg, &[("AWS_REGION", "us-east-1")], false);
    assert_one_line_exit_2(&r, &["AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"]);
    let mut env = keys.to_vec();
    env.push(("AWS_REGION", "us-east-1"));
    for verbose in [false, true] {
        let (code, out, err) = list(&d, &cfg, &env, verbose);
        assert_eq!(code, 3, "stdout: {out}\nstderr: {err}");
        for secret in [SECRET, TOKEN] {
            assert!(!out.contains(secret) && !err.contains(secret), "{out}{err}");
        }
    }
}
