//! AWS_MSK_IAM against a real broker without MSK's IAM plugin: the harness's SASL_SSL listener
//! (SCRAM and PLAIN) refuses the mechanism in SaslHandshake, and the tool says so in one line
//! naming what the listener offers (exit 3), without the AWS secret key or session token in any
//! output, also with `--verbose` and `-o json`. MSK's OAUTHBEARER variant against the harness's
//! OAUTHBEARER listener, which validates JWTs: the presigned-request token is refused, exit 3.

use crate::support::command::StreamsGroup;
use crate::support::harness::properties_variant;
use crate::support::Broker;

const SECRET: &str = "wJalrXUtnFEMI-E2E-SENTINEL-SECRET";
const TOKEN: &str = "IQoJb3JpZ2luX2VjE2ESENTINELTOKEN";

#[test]
fn a_listener_without_aws_msk_iam_is_named_with_what_it_offers() {
    let broker = Broker::start_sasl_ssl();
    let bootstrap = broker
        .sasl_ssl_bootstrap
        .clone()
        .expect("SASL_SSL listener");
    // The harness's client file for TLS (its CA), with AWS_MSK_IAM instead of SCRAM.
    let file = properties_variant(
        &broker.client_properties(),
        "client-msk-iam.properties",
        "sasl.",
        "sasl.mechanism=AWS_MSK_IAM\n\
         sasl.jaas.config=software.amazon.msk.auth.iam.IAMLoginModule required;\n\
         sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMClientCallbackHandler\n",
    );
    let file = file.display().to_string();
    for extra in [&[][..], &["--verbose"][..], &["--output", "json"][..]] {
        let mut args = vec![
            "describe",
            "--group",
            "app",
            "--bootstrap-server",
            &bootstrap,
            "--command-config",
            &file,
            "--timeout",
            "15000",
        ];
        args.extend_from_slice(extra);
        let out = StreamsGroup::new(&args)
            .env("AWS_ACCESS_KEY_ID", "AKIDE2ESENTINEL")
            .env("AWS_SECRET_ACCESS_KEY", SECRET)
            .env("AWS_SESSION_TOKEN", TOKEN)
            .env("AWS_REGION", "us-east-1")
            .env("NO_COLOR", "1")
            .run();
        assert_eq!(out.code(), 3, "{extra:?}: {out}");
        let err = out.stderr.trim_end();
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.contains("mechanism AWS_MSK_IAM is not enabled on this listener (it offers:")
                && last.contains("SCRAM-SHA-512"),
            "{extra:?}: {err}"
        );
        if extra.is_empty() {
            assert_eq!(err.lines().count(), 1, "one line: {err}");
        }
        for secret in [SECRET, TOKEN] {
            assert!(
                !out.stdout.contains(secret) && !out.stderr.contains(secret),
                "{extra:?}: {out}"
            );
        }
    }
}

#[test]
fn an_oauthbearer_listener_refuses_msk_tokens_cleanly() {
    let broker = Broker::start_oauth(600);
    let ob = broker.oauth_bootstrap.clone().expect("OAUTH_BOOTSTRAP");
    let file = properties_variant(
        &broker.dir.join("client-oauth.properties"),
        "client-msk-oauth.properties",
        "sasl.",
        "sasl.mechanism=OAUTHBEARER\n\
         sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\n\
         sasl.login.callback.handler.class=software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler\n\
         sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler\n",
    );
    let file = file.display().to_string();
    let args = [
        "list",
        "--bootstrap-server",
        &ob,
        "--command-config",
        &file,
        "--timeout",
        "15000",
    ];
    let out = StreamsGroup::new(args)
        .env("AWS_ACCESS_KEY_ID", "AKIDE2ESENTINEL")
        .env("AWS_SECRET_ACCESS_KEY", SECRET)
        .env("AWS_SESSION_TOKEN", TOKEN)
        .env("AWS_REGION", "us-east-1")
        .env("NO_COLOR", "1")
        .run();
    assert_eq!(out.code(), 3, "{out}");
    assert!(
        out.stderr.contains("SASL authentication with") && out.stderr.contains("invalid_token"),
        "{out}"
    );
    assert_eq!(out.stderr.trim_end().lines().count(), 1, "{out}");
    for secret in [SECRET, TOKEN] {
        assert!(
            !out.stdout.contains(secret) && !out.stderr.contains(secret),
            "{out}"
        );
    }
}
