//! SASL/OAUTHBEARER (RFC 7628) as Kafka's Java client does it: a JWT from a file or from the
//! client-credentials grant, cached for the session and fetched again when 80% of its lifetime
//! has passed (Kafka's `sasl.login.refresh.window.factor` default), sent in the client's
//! initial response. Tokens and secrets never enter an error or a `Debug` output.

pub mod http;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;

use crate::config::{CachedToken, OAuthConfig, Secret, TokenSource};
use crate::error::{KafkaError, KafkaResult, SaslFix};

const URL_KEY: &str = "sasl.oauthbearer.token.endpoint.url";

/// Kafka's default `sasl.login.refresh.window.factor`: a new token after 80% of the lifetime.
const REFRESH_WINDOW: f64 = 0.8;

/// The session's current token, fetched again when its refresh time has come.
pub async fn token(cfg: &OAuthConfig, timeout: Duration) -> KafkaResult<Secret> {
    let now = SystemTime::now();
    if let Some(t) = cfg.cache.get().filter(|t| now < t.refresh_at) {
        return Ok(t.token);
    }
    let token = match &cfg.source {
        TokenSource::File(path) => read_token_file(path)?,
        TokenSource::ClientCredentials { .. } => client_credentials(&cfg.source, timeout).await?,
        TokenSource::MskIam { iam, region } => {
            // Not a JWT: its lifetime is the signature's.
            let (token, expires) = crate::msk_iam::oauth_token_now(iam, region);
            let expires_at = UNIX_EPOCH + Duration::from_secs(expires);
            return Ok(cache(cfg, token, now, expires_at));
        }
    };
    let expires_at = UNIX_EPOCH
        + Duration::from_secs(jwt_expiry(&token).map_err(|why| {
            KafkaError::Config(format!("{}: the token {why}", source_name(&cfg.source)))
        })?);
    if expires_at <= now {
        return Err(KafkaError::Config(format!(
            "{}: the token expired at {} (unix seconds): get a fresh one",
            source_name(&cfg.source),
            expires_at
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_secs()
        )));
    }
    Ok(cache(cfg, token, now, expires_at))
}

/// Keep `token` for the session until 80% of its lifetime.
fn cache(cfg: &OAuthConfig, token: String, now: SystemTime, expires_at: SystemTime) -> Secret {
    let lifetime = expires_at.duration_since(now).unwrap_or_default();
    let cached = CachedToken {
        token: Secret::new(token),
        refresh_at: now + lifetime.mul_f64(REFRESH_WINDOW),
        expires_at,
    };
    cfg.cache.set(cached.clone());
    cached.token
}

/// How an error names where the token came from (the setting to fix).
fn source_name(s: &TokenSource) -> String {
    match s {
        TokenSource::File(p) => format!("{URL_KEY}=file://{}", p.display()),
        TokenSource::ClientCredentials { endpoint, .. } => format!("{URL_KEY}={endpoint}"),
        TokenSource::MskIam { .. } => format!(
            "sasl.login.callback.handler.class={}",
            crate::config::MSK_OAUTH_HANDLER
        ),
    }
}

fn read_token_file(path: &std::path::Path) -> KafkaResult<String> {
    let text = model::input::read_text_capped(path, model::input::MAX_SMALL_FILE_BYTES)
        .map_err(|e| KafkaError::Config(format!("{URL_KEY}=file://{}: {e}", path.display())))?;
    Ok(text.trim().to_string())
}

/// The client-credentials grant (RFC 6749 4.4): the id and secret in a Basic header, as
/// Kafka's `ClientSecretRequestFormatter` sends them, the scope in the form.
async fn client_credentials(source: &TokenSource, timeout: Duration) -> KafkaResult<String> {
    let TokenSource::ClientCredentials {
        endpoint,
        client_id,
        client_secret,
        scope,
        tls,
    } = source
    else {
        return Err(KafkaError::Config("no token endpoint".into()));
    };
    let url = http::parse_url(endpoint)
        .map_err(|why| KafkaError::Config(format!("{URL_KEY}={endpoint}: {why}")))?;
    let pair = format!(
        "{}:{}",
        http::form_escape(client_id),
        http::form_escape(client_secret.expose())
    );
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(pair)
    );
    let mut form = "grant_type=client_credentials".to_string();
    if let Some(s) = scope {
        form.push_str(&format!("&scope={}", http::form_escape(s)));
    }
    let answer = http::post_form(&url, tls, &basic, &form, timeout)
        .await
        .map_err(|why| KafkaError::Sasl {
            addr: endpoint.clone(),
            detail: format!("the token endpoint ({URL_KEY}) did not answer: {why}"),
            fix: SaslFix::TokenEndpoint,
        })?;
    access_token(endpoint, &answer)
}

/// The access token of a token endpoint's answer, or the error that names the cause: the
/// identity provider's `error_description` when it refused, the content type when it is no
/// JSON (a login page: the URL is wrong).
pub fn access_token(endpoint: &str, a: &http::Answer) -> KafkaResult<String> {
    let json: Option<serde_json::Value> = serde_json::from_slice(&a.body).ok();
    let field = |k: &str| {
        json.as_ref()
            .and_then(|j| j.get(k))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    if json.is_none() {
        let kind = if a.content_type.is_empty() {
            "no content type"
        } else {
            &a.content_type
        };
        return Err(KafkaError::Config(format!(
            "{URL_KEY}={endpoint}: the token endpoint answered HTTP {} with {kind}, not a JSON \
             token: is the URL the identity provider's token endpoint?",
            a.status
        )));
    }
    if let Some(err) = field("error") {
        let why = field("error_description").unwrap_or_default();
        return Err(KafkaError::Sasl {
            addr: endpoint.to_string(),
            detail: format!(
                "the identity provider refused the client (HTTP {}): {err}: {why}",
                a.status
            ),
            fix: SaslFix::OAuthClient,
        });
    }
    match field("access_token") {
        Some(t) if a.status == 200 => Ok(t),
        _ => Err(KafkaError::Config(format!(
            "{URL_KEY}={endpoint}: the token endpoint answered HTTP {} without an access_token",
            a.status
        ))),
    }
}

/// The `exp` claim (seconds since the epoch) of a JWT, read without checking its signature:
/// the broker checks the token, the client only needs to know when to fetch the next one.
pub fn jwt_expiry(token: &str) -> Result<u64, String> {
    let mut parts = token.split('.');
    let (Some(_), Some(payload), Some(_), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("is not a JWT (three base64url parts separated by dots)".into());
    };
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|_| "is not a JWT (its payload is not base64url)".to_string())?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|_| "is not a JWT (its payload is not JSON)".to_string())?;
    match claims.get("exp").and_then(|e| e.as_f64()) {
        Some(exp) if exp >= 0.0 => Ok(exp as u64),
        _ => Err("has no exp claim (Kafka needs one)".into()),
    }
}

/// The client's initial response (RFC 7628 3.1, as Kafka's
/// `OAuthBearerClientInitialResponse.toBytes`): `n,,` then `auth=Bearer TOKEN` and each
/// extension as `key=value`, every one followed by 0x01, and a final 0x01.
pub fn initial_response(token: &str, extensions: &[(String, String)]) -> Vec<u8> {
    let mut m = format!("n,,\x01auth=Bearer {token}");
    for (k, v) in extensions {
        m.push_str(&format!("\x01{k}={v}"));
    }
    m.push_str("\x01\x01");
    m.into_bytes()
}

/// The broker's error challenge (`{"status":"invalid_token","scope":...}`), put in words.
pub fn broker_rejection(challenge: &[u8]) -> String {
    let json: Option<serde_json::Value> = serde_json::from_slice(challenge).ok();
    let field = |k: &str| {
        json.as_ref()
            .and_then(|j| j.get(k))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    match (field("status"), field("scope")) {
        (Some(s), Some(scope)) => {
            format!("the broker refused the token: status {s}, scope {scope}")
        }
        (Some(s), None) => format!("the broker refused the token: status {s}"),
        _ => "the broker refused the token".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwt(claims: &str) -> String {
        let e = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
        format!("{}.{}.sig", e(r#"{"alg":"RS256"}"#), e(claims))
    }

    #[test]
    fn the_initial_response_is_kafkas() {
        assert_eq!(
            initial_response("t.o.k", &[]),
            b"n,,\x01auth=Bearer t.o.k\x01\x01"
        );
        let ext = [("logicalCluster".to_string(), "lkc-1".to_string())];
        assert_eq!(
            initial_response("t", &ext),
            b"n,,\x01auth=Bearer t\x01logicalCluster=lkc-1\x01\x01"
        );
    }

    #[test]
    fn expiry_is_read_from_the_payload() {
        assert_eq!(
            jwt_expiry(&jwt(r#"{"sub":"a","exp":1700000000}"#)),
            Ok(1700000000)
        );
        assert!(jwt_expiry(&jwt(r#"{"sub":"a"}"#))
            .unwrap_err()
            .contains("exp"));
        assert!(jwt_expiry("opaque-token")
            .unwrap_err()
            .contains("not a JWT"));
    }

    #[test]
    fn the_brokers_challenge_is_put_in_words() {
        let m = broker_rejection(br#"{"status":"invalid_token", "scope":"kafka"}"#);
        assert_eq!(
            m,
            "the broker refused the token: status invalid_token, scope kafka"
        );
        assert_eq!(broker_rejection(b"?"), "the broker refused the token");
    }

    fn answer(status: u16, content_type: &str, body: &str) -> http::Answer {
        http::Answer {
            status,
            content_type: content_type.into(),
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn token_endpoint_answers_name_their_cause() {
        let ok = answer(
            200,
            "application/json",
            r#"{"access_token":"a.b.c","expires_in":30}"#,
        );
        assert_eq!(access_token("u", &ok).unwrap(), "a.b.c");
        let refused = answer(
            401,
            "application/json",
            r#"{"error":"invalid_client","error_description":"wrong secret"}"#,
        );
        let e = access_token("u", &refused).unwrap_err().to_string();
        assert!(e.contains("invalid_client: wrong secret"), "{e}");
        let html = access_token("u", &answer(200, "text/html", "<html>")).unwrap_err();
        assert!(
            matches!(html, KafkaError::Config(ref m) if m.contains("text/html")),
            "{html}"
        );
    }
}
