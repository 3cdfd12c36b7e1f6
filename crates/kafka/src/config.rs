//! Client configuration: the `--command-config` Java-properties file (Kafka and librdkafka key
//! names) turned into a [`ClientConfig`]. Secrets never appear in `Debug` output or errors.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

pub use super::msk_iam::MskIamConfig;
pub use super::secret::Secret;

/// Parse Java `.properties` text: `#`/`!` comments, `key=value`, `key: value`, `key value`,
/// backslash escapes (`\t \n \r \f \uXXXX`, others literal) and line continuations.
pub fn parse_properties(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    // Join logical lines first.
    let mut logical: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    for raw in text.lines() {
        let line = match &current {
            Some(_) => raw.trim_start(),
            None => {
                let t = raw.trim_start();
                if t.is_empty() || t.starts_with('#') || t.starts_with('!') {
                    continue;
                }
                t
            }
        };
        // An odd number of trailing backslashes continues the line.
        let trailing = line.chars().rev().take_while(|c| *c == '\\').count();
        let (body, cont) = if trailing % 2 == 1 {
            (&line[..line.len() - 1], true)
        } else {
            (line, false)
        };
        let acc = current.get_or_insert_with(String::new);
        acc.push_str(body);
        if !cont {
            logical.push(current.take().unwrap_or_default());
        }
    }
    if let Some(rest) = current {
        logical.push(rest);
    }
    for line in logical {
        let chars: Vec<char> = line.chars().collect();
        // Find the key end: first unescaped '=', ':' or whitespace.
        let mut i = 0;
        let mut key_raw = String::new();
        while i < chars.len() {
            let c = chars[i];
            if c == '\\' && i + 1 < chars.len() {
                key_raw.push(c);
                key_raw.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if c == '=' || c == ':' || c.is_whitespace() {
                break;
            }
            key_raw.push(c);
            i += 1;
        }
        // Skip whitespace, then one separator, then whitespace.
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i < chars.len() && (chars[i] == '=' || chars[i] == ':') {
            i += 1;
        }
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let value_raw: String = chars[i..].iter().collect();
        out.insert(unescape(&key_raw), unescape(&value_raw));
    }
    out
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = (0..4).filter_map(|_| it.next()).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push_str("\\u");
                        out.push_str(&hex);
                    }
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecurityProtocol {
    Plaintext,
    Ssl,
    SaslPlaintext,
    SaslSsl,
}

impl SecurityProtocol {
    pub fn uses_tls(self) -> bool {
        matches!(self, SecurityProtocol::Ssl | SecurityProtocol::SaslSsl)
    }
    pub fn uses_sasl(self) -> bool {
        matches!(
            self,
            SecurityProtocol::SaslPlaintext | SecurityProtocol::SaslSsl
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaslMechanism {
    Plain,
    ScramSha256,
    ScramSha512,
    OAuthBearer,
    /// Amazon MSK's IAM access control (`crate::msk_iam`).
    AwsMskIam,
    Gssapi,
}

impl SaslMechanism {
    pub fn name(self) -> &'static str {
        match self {
            SaslMechanism::Plain => "PLAIN",
            SaslMechanism::ScramSha256 => "SCRAM-SHA-256",
            SaslMechanism::ScramSha512 => "SCRAM-SHA-512",
            SaslMechanism::OAuthBearer => "OAUTHBEARER",
            SaslMechanism::AwsMskIam => super::msk_iam::MECHANISM,
            SaslMechanism::Gssapi => "GSSAPI",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaslConfig {
    pub mechanism: SaslMechanism,
    pub username: String,
    pub password: Secret,
    /// OAUTHBEARER's token source (`None` for the other mechanisms).
    pub oauth: Option<OAuthConfig>,
    /// AWS_MSK_IAM's credentials (`None` for the other mechanisms).
    pub msk_iam: Option<MskIamConfig>,
    /// GSSAPI's Kerberos settings (`None` for the other mechanisms).
    pub kerberos: Option<KerberosConfig>,
}

/// GSSAPI (Kerberos) as Kafka's Java client reads it: the broker's service name, and the
/// `Krb5LoginModule` options of `sasl.jaas.config` that say where the client's key is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KerberosConfig {
    /// `sasl.kerberos.service.name` (or the JAAS option `serviceName`): the first part of the
    /// broker's principal, `kafka/broker-host@REALM`.
    pub service_name: String,
    /// `principal=`: the client's principal, also sent as the authorization id.
    pub principal: Option<String>,
    /// `keyTab=` with `useKeyTab=true`; `None`: tickets from a ticket cache.
    pub keytab: Option<PathBuf>,
    /// `ticketCache=` (a ccache name); `None`: the default (`KRB5CCNAME`) for
    /// `useTicketCache=true`, memory for a keytab.
    pub ticket_cache: Option<String>,
}

/// Where OAUTHBEARER tokens come from, as Kafka's `OAuthBearerLoginCallbackHandler` reads
/// `sasl.oauthbearer.token.endpoint.url`: a `file:` URL or an OAuth token endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenSource {
    /// A file holding one JWT, re-read when the token it held nears its expiry.
    File(PathBuf),
    /// The client-credentials grant against a token endpoint (http or https).
    ClientCredentials {
        endpoint: String,
        client_id: String,
        client_secret: Secret,
        scope: Option<String>,
        /// TLS for an `https` endpoint: the `ssl.*` options of `sasl.jaas.config`, as Kafka's
        /// `JaasOptionsUtils.createSSLSocketFactory` reads them (not the connection's).
        tls: Box<TlsConfig>,
    },
    /// MSK's OAUTHBEARER variant: a presigned request made for each token (`crate::msk_iam`).
    MskIam { iam: MskIamConfig, region: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OAuthConfig {
    pub source: TokenSource,
    /// SASL extensions (`extension_NAME="value"` JAAS options), sent with the token.
    pub extensions: Vec<(String, String)>,
    /// The session's tokens, shared by its connections.
    pub cache: TokenCache,
}

/// A token and when to fetch the next one.
#[derive(Clone, Debug)]
pub struct CachedToken {
    pub token: Secret,
    pub refresh_at: SystemTime,
    pub expires_at: SystemTime,
}

/// The tokens a session fetched; clones of a configuration share it, so that every connection
/// of a session uses one token until it nears its expiry.
#[derive(Clone, Default)]
pub struct TokenCache(pub Arc<Mutex<Option<CachedToken>>>);

impl TokenCache {
    pub fn get(&self) -> Option<CachedToken> {
        self.0.lock().ok().and_then(|c| c.clone())
    }
    pub fn set(&self, t: CachedToken) {
        if let Ok(mut c) = self.0.lock() {
            *c = Some(t);
        }
    }
}

/// A cache is state, not a setting: two configurations differ by their settings only.
impl PartialEq for TokenCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for TokenCache {}

impl fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenCache")
    }
}

/// Where certificates or a key come from: PEM (a file or inline) or a PKCS12 store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyMaterial {
    /// A PEM file.
    File(PathBuf),
    /// Inline PEM (may contain a private key, hence redacted).
    Inline(Secret),
    /// A PKCS12 key or trust store, with its password (read by `crate::pkcs12`).
    Pkcs12(Pkcs12Store),
}

/// Where a PKCS12 store comes from: its file, its password and the settings that named them
/// (errors name the settings, never the password).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pkcs12Store {
    pub path: PathBuf,
    pub password: Secret,
    /// `ssl.truststore.password` or `ssl.keystore.password`.
    pub password_key: &'static str,
    /// `ssl.truststore.location` or `ssl.keystore.location`.
    pub location_key: &'static str,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsConfig {
    /// CA certificates; `None` means the built-in web PKI roots.
    pub ca: Option<KeyMaterial>,
    /// Client certificate chain (mTLS).
    pub cert_chain: Option<KeyMaterial>,
    /// Client private key (mTLS).
    pub key: Option<KeyMaterial>,
    /// Verify the broker's host name (ssl.endpoint.identification.algorithm=https, default).
    pub verify_hostname: bool,
}

#[derive(Clone, Debug)]
pub struct ClientConfig {
    pub bootstrap: Vec<String>,
    pub client_id: String,
    pub timeout: Duration,
    pub security: SecurityProtocol,
    pub tls: TlsConfig,
    pub sasl: Option<SaslConfig>,
    /// Keys that were present but not used (reported with --verbose).
    pub ignored_keys: Vec<String>,
}

impl ClientConfig {
    pub fn plaintext(bootstrap: &str, timeout: Duration) -> Self {
        ClientConfig {
            bootstrap: split_bootstrap(bootstrap),
            client_id: "streams-group".into(),
            timeout,
            security: SecurityProtocol::Plaintext,
            tls: TlsConfig {
                verify_hostname: true,
                ..TlsConfig::default()
            },
            sasl: None,
            ignored_keys: Vec::new(),
        }
    }
}

pub fn split_bootstrap(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(String::from)
        .collect()
}

/// A configuration problem (exit 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientConfigError(pub String);

impl fmt::Display for ClientConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ClientConfigError {}

/// Pull `name="value"` (or `name=value`) out of a JAAS line. Quoted values are skipped while
/// looking for `name`; an unquoted value is a token, as Kafka's JAAS parser reads it, so
/// `username=password="x"` is malformed (None) rather than a user named `password="x"`.
pub fn jaas_option(jaas: &str, name: &str) -> Option<String> {
    let bytes: Vec<char> = jaas.chars().collect();
    let pat: Vec<char> = name.chars().collect();
    let mut i = 0;
    while i + pat.len() <= bytes.len() {
        if bytes[i] == '"' {
            // Skip a quoted value: a name inside one is not an option.
            i += 1;
            while i < bytes.len() && bytes[i] != '"' {
                i += if bytes[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        let before_ok = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        if before_ok && bytes[i..i + pat.len()] == pat[..] {
            let mut j = i + pat.len();
            while j < bytes.len() && bytes[j].is_whitespace() {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == '=' {
                j += 1;
                while j < bytes.len() && bytes[j].is_whitespace() {
                    j += 1;
                }
                if j < bytes.len() && bytes[j] == '"' {
                    let mut v = String::new();
                    j += 1;
                    while j < bytes.len() && bytes[j] != '"' {
                        if bytes[j] == '\\' && j + 1 < bytes.len() {
                            j += 1;
                        }
                        v.push(bytes[j]);
                        j += 1;
                    }
                    return Some(v);
                }
                let v: String = bytes[j..]
                    .iter()
                    .take_while(|c| !c.is_whitespace() && !matches!(c, ';' | '=' | '"'))
                    .collect();
                if matches!(bytes.get(j + v.chars().count()), Some('=' | '"')) {
                    return None;
                }
                return Some(v);
            }
        }
        i += 1;
    }
    None
}

const KNOWN_IGNORED: &[&str] = &[
    "client.id",
    "request.timeout.ms",
    "default.api.timeout.ms",
    "bootstrap.servers",
    "ssl.protocol",
    "ssl.enabled.protocols",
];

/// How many of [`TLS_KEYS`] (the first) are Kafka's names; the others are librdkafka's.
const KAFKA_TLS_KEYS: usize = 11;

/// The keys of the TLS settings this tool reads: Kafka's, then librdkafka's.
const TLS_KEYS: &[&str] = &[
    "ssl.truststore.type",
    "ssl.truststore.location",
    "ssl.truststore.certificates",
    "ssl.truststore.password",
    "ssl.keystore.type",
    "ssl.keystore.location",
    "ssl.keystore.key",
    "ssl.keystore.certificate.chain",
    "ssl.keystore.password",
    "ssl.key.password",
    "ssl.endpoint.identification.algorithm",
    "ssl.ca.location",
    "ssl.certificate.location",
    "ssl.key.location",
    "ssl.key.pem",
    "ssl.certificate.pem",
    "ssl.ca.pem",
    "enable.ssl.certificate.verification",
];

/// The keys of the SASL settings this tool reads.
const SASL_KEYS: &[&str] = &[
    "sasl.mechanism",
    "sasl.mechanisms",
    "sasl.jaas.config",
    "sasl.username",
    "sasl.password",
    "sasl.login.callback.handler.class",
    // AWS_MSK_IAM's `IAMClientCallbackHandler`: the mechanism implies it.
    "sasl.client.callback.handler.class",
    "sasl.oauthbearer.token.endpoint.url",
    "sasl.oauthbearer.client.credentials.client.id",
    "sasl.oauthbearer.client.credentials.client.secret",
    "sasl.oauthbearer.scope",
    // Read by the Java client's own token check; the broker checks the token anyway.
    "sasl.oauthbearer.scope.claim.name",
    "sasl.oauthbearer.sub.claim.name",
    "sasl.kerberos.service.name",
];

/// The parsed properties, with relative paths taken from the file's directory.
struct Props<'a> {
    props: &'a BTreeMap<String, String>,
    base_dir: Option<&'a Path>,
}

impl Props<'_> {
    fn get(&self, k: &str) -> Option<String> {
        self.props.get(k).map(|s| s.trim().to_string())
    }

    fn path(&self, p: String) -> PathBuf {
        let pb = PathBuf::from(&p);
        match self.base_dir {
            Some(d) if pb.is_relative() => d.join(pb),
            _ => pb,
        }
    }

    /// An upper-case type name (`ssl.truststore.type`), empty when not set.
    fn kind(&self, k: &str) -> String {
        self.get(k).unwrap_or_default().to_ascii_uppercase()
    }
}

/// Build the client configuration from the properties (already parsed) and the CLI globals.
pub fn from_properties(
    bootstrap: &str,
    timeout: Duration,
    props: &BTreeMap<String, String>,
    base_dir: Option<&Path>,
) -> Result<ClientConfig, ClientConfigError> {
    let p = Props { props, base_dir };
    let mut cfg = ClientConfig::plaintext(bootstrap, timeout);
    if let Some(s) = p.get("security.protocol") {
        cfg.security = security_protocol(&s)?;
    }
    if let Some(c) = p.get("client.id") {
        // Every request header carries it.
        super::limits::check_string("client.id", &c)
            .map_err(|e| ClientConfigError(e.to_string()))?;
        cfg.client_id = c;
    }
    truststore(&p, &mut cfg.tls)?;
    keystore(&p, &mut cfg.tls)?;
    tls_checks(&p, &mut cfg.tls)?;
    if cfg.security.uses_sasl() {
        cfg.sasl = Some(sasl(&p)?);
    }
    let used =
        |k: &str| k == "security.protocol" || TLS_KEYS.contains(&k) || SASL_KEYS.contains(&k);
    cfg.ignored_keys = props
        .keys()
        .filter(|k| !used(k) && !KNOWN_IGNORED.contains(&k.as_str()))
        .cloned()
        .collect();
    Ok(cfg)
}

fn security_protocol(p: &str) -> Result<SecurityProtocol, ClientConfigError> {
    match p.to_ascii_uppercase().as_str() {
        "PLAINTEXT" => Ok(SecurityProtocol::Plaintext),
        "SSL" => Ok(SecurityProtocol::Ssl),
        "SASL_PLAINTEXT" => Ok(SecurityProtocol::SaslPlaintext),
        "SASL_SSL" => Ok(SecurityProtocol::SaslSsl),
        other => Err(ClientConfigError(format!(
            "security.protocol={other} is not supported (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)"
        ))),
    }
}

/// The CA: Kafka's truststore settings (PEM only) or librdkafka's; the last given wins.
fn truststore(p: &Props<'_>, tls: &mut TlsConfig) -> Result<(), ClientConfigError> {
    let ts_type = p.kind("ssl.truststore.type");
    if let Some(loc) = p.get("ssl.truststore.location") {
        if ts_type == "PKCS12" {
            tls.ca = Some(pkcs12(p, loc, "ssl.truststore")?);
        } else if ts_type == "JKS" || (ts_type.is_empty() && !looks_pem(&loc)) {
            return Err(ClientConfigError(format!(
                "ssl.truststore.location={loc}: JKS truststores are not supported; convert it to \
                 PKCS12 (keytool -importkeystore -srckeystore {loc} -destkeystore ca.p12 \
                 -deststoretype PKCS12) and set ssl.truststore.type=PKCS12, or to PEM \
                 (keytool -exportcert -rfc -alias <ca> -keystore {loc} -file ca.pem) and set \
                 ssl.truststore.type=PEM"
            )));
        } else {
            tls.ca = Some(KeyMaterial::File(p.path(loc)));
        }
    }
    if let Some(pem) = p.get("ssl.truststore.certificates") {
        tls.ca = Some(KeyMaterial::Inline(Secret::new(pem)));
    }
    if let Some(loc) = p.get("ssl.ca.location") {
        tls.ca = Some(KeyMaterial::File(p.path(loc)));
    }
    if let Some(pem) = p.get("ssl.ca.pem") {
        tls.ca = Some(KeyMaterial::Inline(Secret::new(pem)));
    }
    Ok(())
}

/// A PKCS12 store at `loc`, opened with `{prefix}.password` (Kafka's Java client needs one for
/// PKCS12; so does this reader). A keystore whose key has a password of its own
/// (`ssl.key.password`) is refused: PKCS12 stores made by keytool and OpenSSL use one password.
fn pkcs12(
    p: &Props<'_>,
    loc: String,
    prefix: &'static str,
) -> Result<KeyMaterial, ClientConfigError> {
    let (location_key, password_key) = match prefix {
        "ssl.truststore" => ("ssl.truststore.location", "ssl.truststore.password"),
        _ => ("ssl.keystore.location", "ssl.keystore.password"),
    };
    let Some(password) = p.get(password_key) else {
        return Err(ClientConfigError(format!(
            "{location_key}={loc} is a PKCS12 store and {password_key} is not set: set it to the \
             store's password"
        )));
    };
    if prefix == "ssl.keystore" {
        if let Some(key_password) = p.get("ssl.key.password") {
            if key_password != password {
                return Err(ClientConfigError(
                    "ssl.key.password differs from ssl.keystore.password: a PKCS12 keystore has \
                     one password for the store and its key; remove ssl.key.password or make \
                     them equal"
                        .into(),
                ));
            }
        }
    }
    Ok(KeyMaterial::Pkcs12(Pkcs12Store {
        path: p.path(loc),
        password: Secret::new(password),
        password_key,
        location_key,
    }))
}

/// The client certificate chain and key for mutual TLS: a PEM keystore, inline PEM, or
/// librdkafka's settings; the last given wins.
fn keystore(p: &Props<'_>, tls: &mut TlsConfig) -> Result<(), ClientConfigError> {
    let ks_type = p.kind("ssl.keystore.type");
    if let Some(loc) = p.get("ssl.keystore.location") {
        if ks_type == "PKCS12" {
            let store = pkcs12(p, loc, "ssl.keystore")?;
            tls.cert_chain = Some(store.clone());
            tls.key = Some(store);
        } else if ks_type == "PEM" {
            // A PEM keystore file holds both the key and the chain.
            tls.cert_chain = Some(KeyMaterial::File(p.path(loc.clone())));
            tls.key = Some(KeyMaterial::File(p.path(loc)));
        } else {
            return Err(ClientConfigError(format!(
                "ssl.keystore.location={loc}: {} keystores are not supported; convert it to \
                 PKCS12 (keytool -importkeystore -srckeystore {loc} -destkeystore client.p12 \
                 -deststoretype PKCS12) and set ssl.keystore.type=PKCS12, or to PEM and set \
                 ssl.keystore.type=PEM (or use ssl.keystore.key / ssl.keystore.certificate.chain)",
                if ks_type.is_empty() { "JKS" } else { &ks_type }
            )));
        }
    }
    if let Some(k) = p.get("ssl.keystore.key") {
        tls.key = Some(KeyMaterial::Inline(Secret::new(k)));
    }
    if let Some(c) = p.get("ssl.keystore.certificate.chain") {
        tls.cert_chain = Some(KeyMaterial::Inline(Secret::new(c)));
    }
    if let Some(loc) = p.get("ssl.certificate.location") {
        tls.cert_chain = Some(KeyMaterial::File(p.path(loc)));
    }
    if let Some(loc) = p.get("ssl.key.location") {
        tls.key = Some(KeyMaterial::File(p.path(loc)));
    }
    if let Some(k) = p.get("ssl.key.pem") {
        tls.key = Some(KeyMaterial::Inline(Secret::new(k)));
    }
    if let Some(c) = p.get("ssl.certificate.pem") {
        tls.cert_chain = Some(KeyMaterial::Inline(Secret::new(c)));
    }
    Ok(())
}

/// Host-name verification, and what is refused: encrypted keys, no verification, half a
/// client identity.
fn tls_checks(p: &Props<'_>, tls: &mut TlsConfig) -> Result<(), ClientConfigError> {
    // A PKCS12 keystore's key password is its store's (checked with the keystore).
    let pkcs12_keystore = p.kind("ssl.keystore.type") == "PKCS12";
    if p.props.contains_key("ssl.key.password") && !pkcs12_keystore {
        return Err(ClientConfigError(
            "ssl.key.password: encrypted PEM private keys are not supported; use an unencrypted \
             PEM key or a PKCS12 keystore (ssl.keystore.type=PKCS12)"
                .into(),
        ));
    }
    if let Some(a) = p.props.get("ssl.endpoint.identification.algorithm") {
        tls.verify_hostname = !a.trim().is_empty();
    }
    if let Some(v) = p.get("enable.ssl.certificate.verification") {
        if v.eq_ignore_ascii_case("false") {
            return Err(ClientConfigError(
                "enable.ssl.certificate.verification=false is not supported; give the CA with \
                 ssl.ca.location"
                    .into(),
            ));
        }
    }
    if tls.cert_chain.is_some() != tls.key.is_some() {
        return Err(ClientConfigError(
            "mTLS needs both a client certificate chain and a private key".into(),
        ));
    }
    Ok(())
}

/// The SASL mechanism and credentials (from `sasl.jaas.config`, or librdkafka's settings).
fn sasl(p: &Props<'_>) -> Result<SaslConfig, ClientConfigError> {
    let mech = p
        .get("sasl.mechanism")
        .or_else(|| p.get("sasl.mechanisms"))
        .unwrap_or_else(|| "GSSAPI".into());
    let mechanism = match mech.to_ascii_uppercase().as_str() {
        "PLAIN" => SaslMechanism::Plain,
        "SCRAM-SHA-256" => SaslMechanism::ScramSha256,
        "SCRAM-SHA-512" => SaslMechanism::ScramSha512,
        "OAUTHBEARER" => return oauth(p),
        "AWS_MSK_IAM" => return msk_iam(p),
        "GSSAPI" => return kerberos(p),
        other => {
            return Err(ClientConfigError(format!(
                "sasl.mechanism={other} is not supported (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, \
                 OAUTHBEARER, AWS_MSK_IAM, GSSAPI)"
            )))
        }
    };
    let jaas = p.get("sasl.jaas.config").unwrap_or_default();
    let username = p
        .get("sasl.username")
        .or_else(|| jaas_option(&jaas, "username"));
    let password = p
        .get("sasl.password")
        .or_else(|| jaas_option(&jaas, "password"));
    let (Some(username), Some(password)) = (username, password) else {
        return Err(ClientConfigError(
            "SASL needs a username and a password: set sasl.jaas.config (username=\"...\" \
             password=\"...\") or sasl.username and sasl.password"
                .into(),
        ));
    };
    Ok(SaslConfig {
        mechanism,
        username,
        password: Secret::new(password),
        oauth: None,
        msk_iam: None,
        kerberos: None,
    })
}

/// `sasl.login.callback.handler.class` of MSK's OAUTHBEARER variant.
pub const MSK_OAUTH_HANDLER: &str =
    "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler";

/// MSK's OAUTHBEARER: the token is a presigned request made here, signed for the region of the
/// AWS default chain (the handler does not look at the broker's name).
fn msk_oauth(jaas: &str) -> Result<SaslConfig, ClientConfigError> {
    let iam = msk_credentials(jaas)?;
    let Some(region) = iam.fallback_region.clone() else {
        return Err(ClientConfigError(format!(
            "sasl.login.callback.handler.class={MSK_OAUTH_HANDLER} signs for the AWS region of \
             the environment: set AWS_REGION (or region in the AWS profile)"
        )));
    };
    Ok(SaslConfig {
        mechanism: SaslMechanism::OAuthBearer,
        username: String::new(),
        password: Secret::default(),
        oauth: Some(OAuthConfig {
            source: TokenSource::MskIam { iam, region },
            extensions: Vec::new(),
            cache: TokenCache::default(),
        }),
        msk_iam: None,
        kerberos: None,
    })
}

/// AWS_MSK_IAM, configured as Amazon documents it for Java clients (`IAMLoginModule` in
/// `sasl.jaas.config`, optionally `awsProfileName`); the credentials are found now, from the
/// process environment and the shared profile files (`crate::msk_iam::credentials`).
fn msk_iam(p: &Props<'_>) -> Result<SaslConfig, ClientConfigError> {
    let jaas = p.get("sasl.jaas.config").unwrap_or_default();
    Ok(SaslConfig {
        mechanism: SaslMechanism::AwsMskIam,
        username: String::new(),
        password: Secret::default(),
        oauth: None,
        msk_iam: Some(msk_credentials(&jaas)?),
        kerberos: None,
    })
}

/// The AWS credentials of the JAAS options (`awsProfileName`; `awsRoleArn` refused) and the
/// environment.
fn msk_credentials(jaas: &str) -> Result<MskIamConfig, ClientConfigError> {
    if jaas_option(jaas, "awsRoleArn").is_some() {
        return Err(ClientConfigError(
            "awsRoleArn in sasl.jaas.config: assuming a role needs AWS STS, which this tool does \
             not call: remove it and export the role's temporary keys (AWS_ACCESS_KEY_ID, \
             AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), e.g. from `aws sts assume-role`"
                .into(),
        ));
    }
    let profile = jaas_option(jaas, "awsProfileName");
    let env = |k: &str| std::env::var(k).ok();
    let found = super::msk_iam::credentials::resolve(profile.as_deref(), &env)
        .map_err(ClientConfigError)?;
    Ok(MskIamConfig {
        credentials: found.credentials,
        source: found.source,
        fallback_region: found.region,
    })
}

/// OAUTHBEARER, with the keys Kafka's Java client reads: the token endpoint URL (or a `file:`
/// URL), and the client credentials from their 4.1+ settings or the older JAAS options.
fn oauth(p: &Props<'_>) -> Result<SaslConfig, ClientConfigError> {
    const URL_KEY: &str = "sasl.oauthbearer.token.endpoint.url";
    let jaas = p.get("sasl.jaas.config").unwrap_or_default();
    let setting = |key: &str, jaas_name: &str| p.get(key).or_else(|| jaas_option(&jaas, jaas_name));
    if p.get("sasl.login.callback.handler.class")
        .is_some_and(|c| c == MSK_OAUTH_HANDLER)
    {
        return msk_oauth(&jaas);
    }
    let Some(url) = p.get(URL_KEY).filter(|u| !u.is_empty()) else {
        return Err(ClientConfigError(format!(
            "sasl.mechanism=OAUTHBEARER needs {URL_KEY}: the identity provider's token endpoint \
             (https://...) or a token file (file:///path)"
        )));
    };
    let source = if let Some(path) = url.strip_prefix("file://") {
        TokenSource::File(PathBuf::from(path))
    } else if url.starts_with("http://") || url.starts_with("https://") {
        let id = setting("sasl.oauthbearer.client.credentials.client.id", "clientId");
        let secret = setting(
            "sasl.oauthbearer.client.credentials.client.secret",
            "clientSecret",
        );
        let (Some(client_id), Some(secret)) = (id, secret) else {
            return Err(ClientConfigError(
                "OAUTHBEARER with a token endpoint needs the client credentials: set \
                 sasl.jaas.config (clientId=\"...\" clientSecret=\"...\") or \
                 sasl.oauthbearer.client.credentials.client.id and .client.secret"
                    .into(),
            ));
        };
        TokenSource::ClientCredentials {
            endpoint: url,
            client_id,
            client_secret: Secret::new(secret),
            scope: setting("sasl.oauthbearer.scope", "scope").filter(|s| !s.is_empty()),
            tls: Box::new(login_tls(p, &jaas)?),
        }
    } else {
        return Err(ClientConfigError(format!(
            "{URL_KEY}={url}: not an http, https or file URL"
        )));
    };
    Ok(SaslConfig {
        mechanism: SaslMechanism::OAuthBearer,
        username: String::new(),
        password: Secret::default(),
        oauth: Some(OAuthConfig {
            source,
            extensions: jaas_extensions(&jaas),
            cache: TokenCache::default(),
        }),
        msk_iam: None,
        kerberos: None,
    })
}

/// GSSAPI, with the keys Kafka's Java client reads: the service name (Kafka's setting or the
/// JAAS option, as `KerberosLogin.getServiceName` takes either) and `Krb5LoginModule`'s
/// `useKeyTab`/`keyTab`/`principal` or `useTicketCache`/`ticketCache`.
fn kerberos(p: &Props<'_>) -> Result<SaslConfig, ClientConfigError> {
    const MODULE: &str = "com.sun.security.auth.module.Krb5LoginModule required";
    let jaas = p.get("sasl.jaas.config").unwrap_or_default();
    let option = |name: &str| jaas_option(&jaas, name).filter(|v| !v.trim().is_empty());
    let flag = |name: &str| option(name).is_some_and(|v| v.eq_ignore_ascii_case("true"));
    let Some(service_name) = p
        .get("sasl.kerberos.service.name")
        .filter(|s| !s.is_empty())
        .or_else(|| option("serviceName"))
    else {
        return Err(ClientConfigError(
            "sasl.mechanism=GSSAPI needs sasl.kerberos.service.name: the first part of the \
             broker's Kerberos principal (kafka for kafka/broker-host@REALM)"
                .into(),
        ));
    };
    let principal = option("principal");
    let keytab = if flag("useKeyTab") {
        let (Some(keytab), Some(_)) = (option("keyTab"), &principal) else {
            return Err(ClientConfigError(format!(
                "sasl.jaas.config: useKeyTab=true needs keyTab=\"/path/client.keytab\" and \
                 principal=\"name@REALM\" ({MODULE} useKeyTab=true keyTab=\"...\" \
                 principal=\"...\";)"
            )));
        };
        Some(p.path(keytab))
    } else if flag("useTicketCache") {
        None
    } else {
        return Err(ClientConfigError(format!(
            "sasl.mechanism=GSSAPI needs sasl.jaas.config={MODULE} useKeyTab=true \
             keyTab=\"/path/client.keytab\" principal=\"name@REALM\"; (or useTicketCache=true \
             for the tickets of kinit)"
        )));
    };
    Ok(SaslConfig {
        mechanism: SaslMechanism::Gssapi,
        username: String::new(),
        password: Secret::default(),
        oauth: None,
        msk_iam: None,
        kerberos: Some(KerberosConfig {
            service_name,
            principal,
            keytab,
            ticket_cache: option("ticketCache"),
        }),
    })
}

/// The TLS settings of an HTTPS token endpoint. Kafka's Java client takes them from the `ssl.*`
/// options inside `sasl.jaas.config` (`JaasOptionsUtils.getSslClientConfig`, clients 4.4 line
/// 92), not from the connection's `ssl.*` settings; without any, the JDK's default trust store
/// (here the built-in web PKI roots) with host-name verification. The same rules as the
/// connection's: PEM or PKCS12 stores, JKS refused with its conversion hint.
fn login_tls(p: &Props<'_>, jaas: &str) -> Result<TlsConfig, ClientConfigError> {
    // Kafka's own names only: the JAAS options go through Kafka's client SSL ConfigDef.
    let options: BTreeMap<String, String> = TLS_KEYS[..KAFKA_TLS_KEYS]
        .iter()
        .filter_map(|k| jaas_option(jaas, k).map(|v| (k.to_string(), v)))
        .collect();
    let jp = Props {
        props: &options,
        base_dir: p.base_dir,
    };
    let in_jaas = |e: ClientConfigError| ClientConfigError(format!("sasl.jaas.config: {e}"));
    let mut tls = TlsConfig {
        verify_hostname: true,
        ..TlsConfig::default()
    };
    truststore(&jp, &mut tls).map_err(in_jaas)?;
    keystore(&jp, &mut tls).map_err(in_jaas)?;
    tls_checks(&jp, &mut tls).map_err(in_jaas)?;
    Ok(tls)
}

/// The `extension_NAME="value"` options of a JAAS line, as (NAME, value).
fn jaas_extensions(jaas: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (at, _) in jaas.match_indices("extension_") {
        let name: String = jaas[at..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if let Some(v) = jaas_option(jaas, &name) {
            let ext = name["extension_".len()..].to_string();
            if !out.iter().any(|(n, _)| *n == ext) {
                out.push((ext, v));
            }
        }
    }
    out
}

fn looks_pem(loc: &str) -> bool {
    let l = loc.to_ascii_lowercase();
    l.ends_with(".pem") || l.ends_with(".crt") || l.ends_with(".cer")
}

/// Read the `--command-config` file and build the configuration.
pub fn load(
    bootstrap: &str,
    timeout: Duration,
    command_config: Option<&Path>,
) -> Result<ClientConfig, ClientConfigError> {
    match command_config {
        None => Ok(ClientConfig::plaintext(bootstrap, timeout)),
        Some(p) => {
            let text = model::input::read_text_capped(p, model::input::MAX_SMALL_FILE_BYTES)
                .map_err(|e| {
                    ClientConfigError(format!(
                        "cannot read the client properties file {}: {e}",
                        p.display()
                    ))
                })?;
            let props = parse_properties(&text);
            from_properties(bootstrap, timeout, &props, p.parent())
                .map_err(|e| ClientConfigError(format!("{}: {}", p.display(), e.0)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_syntax() {
        let text = "# comment\n! also comment\n  a=1\nb: 2\nc 3\nd = spaced value  \n\
                    e=line\\\n    continued\nf=tab\\there\\u0041\\\\\ng\\:h=colon key\nempty=\n";
        let p = parse_properties(text);
        assert_eq!(p["a"], "1");
        assert_eq!(p["b"], "2");
        assert_eq!(p["c"], "3");
        assert_eq!(p["d"], "spaced value  ");
        assert_eq!(p["e"], "linecontinued");
        assert_eq!(p["f"], "tab\thereA\\");
        assert_eq!(p["g:h"], "colon key");
        assert_eq!(p["empty"], "");
        assert_eq!(p.len(), 8);
    }

    #[test]
    fn jaas_parsing() {
        let j = r#"org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="p=\"q\";";"#;
        assert_eq!(jaas_option(j, "username").as_deref(), Some("alice"));
        assert_eq!(jaas_option(j, "password").as_deref(), Some("p=\"q\";"));
        assert_eq!(
            jaas_option(
                "PlainLoginModule required username=bob password=x;",
                "password"
            )
            .as_deref(),
            Some("x")
        );
        assert_eq!(jaas_option("nothing", "username"), None);
        // Found by the fuzzer: the password must not become part of the user name.
        let j = r#"ScramLoginModule required username=password="e";"#;
        assert_eq!(jaas_option(j, "username"), None);
        let j = r#"ScramLoginModule required username="password=e" password="real";"#;
        assert_eq!(jaas_option(j, "username").as_deref(), Some("password=e"));
        assert_eq!(jaas_option(j, "password").as_deref(), Some("real"));
    }

    fn props(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn sasl_ssl_with_pem_truststore() {
        let p = props(&[
            ("security.protocol", "SASL_SSL"),
            ("sasl.mechanism", "SCRAM-SHA-512"),
            (
                "sasl.jaas.config",
                r#"org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="secret-pw";"#,
            ),
            ("ssl.truststore.type", "PEM"),
            ("ssl.truststore.location", "ca.pem"),
            ("ssl.endpoint.identification.algorithm", ""),
            ("linger.ms", "5"),
        ]);
        let c =
            from_properties("h:1", Duration::from_secs(1), &p, Some(Path::new("/etc/x"))).unwrap();
        assert_eq!(c.security, SecurityProtocol::SaslSsl);
        let s = c.sasl.clone().unwrap();
        assert_eq!(s.mechanism, SaslMechanism::ScramSha512);
        assert_eq!(s.username, "u");
        assert_eq!(s.password.expose(), "secret-pw");
        assert_eq!(
            c.tls.ca,
            Some(KeyMaterial::File(PathBuf::from("/etc/x/ca.pem")))
        );
        assert!(!c.tls.verify_hostname);
        assert_eq!(c.ignored_keys, vec!["linger.ms".to_string()]);
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("secret-pw"), "{dbg}");
    }

    /// The token endpoint's TLS comes from the JAAS options, not from the connection's.
    #[test]
    fn https_token_endpoint_tls_from_jaas_options() {
        let oauth_tls = |jaas: &str| -> Result<TlsConfig, ClientConfigError> {
            let p = props(&[
                ("security.protocol", "SASL_SSL"),
                ("sasl.mechanism", "OAUTHBEARER"),
                (
                    "sasl.oauthbearer.token.endpoint.url",
                    "https://idp:8443/token",
                ),
                ("ssl.truststore.type", "PEM"),
                ("ssl.truststore.location", "broker-ca.pem"),
                ("sasl.jaas.config", jaas),
            ]);
            let c = from_properties("h:1", Duration::from_secs(1), &p, Some(Path::new("/etc/x")))?;
            match c.sasl.and_then(|s| s.oauth).map(|o| o.source) {
                Some(TokenSource::ClientCredentials { tls, .. }) => Ok(*tls),
                other => panic!("{other:?}"),
            }
        };
        let m = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required \
                 clientId=\"c\" clientSecret=\"s\"";
        let none = oauth_tls(&format!("{m};")).unwrap();
        assert_eq!(
            none.ca, None,
            "web PKI roots, as the JDK's default trust store"
        );
        assert!(none.verify_hostname);
        let pem = oauth_tls(&format!(
            r#"{m} ssl.truststore.type="PEM" ssl.truststore.location="idp-ca.pem" ssl.endpoint.identification.algorithm="";"#
        ))
        .unwrap();
        assert_eq!(
            pem.ca,
            Some(KeyMaterial::File(PathBuf::from("/etc/x/idp-ca.pem")))
        );
        assert!(!pem.verify_hostname);
        let jks = oauth_tls(&format!(r#"{m} ssl.truststore.location="idp.jks";"#)).unwrap_err();
        assert!(
            jks.0
                .starts_with("sasl.jaas.config: ssl.truststore.location=idp.jks: JKS"),
            "{jks}"
        );
    }

    #[test]
    fn librdkafka_names() {
        let p = props(&[
            ("security.protocol", "sasl_plaintext"),
            ("sasl.mechanisms", "PLAIN"),
            ("sasl.username", "u"),
            ("sasl.password", "pw"),
            ("ssl.ca.location", "/ca.pem"),
        ]);
        let c = from_properties("h:1", Duration::from_secs(1), &p, None).unwrap();
        assert_eq!(c.sasl.unwrap().mechanism, SaslMechanism::Plain);
        assert_eq!(c.tls.ca, Some(KeyMaterial::File(PathBuf::from("/ca.pem"))));
        assert!(c.tls.verify_hostname);
    }

    /// What needs a call to AWS is refused before any credentials are looked for.
    #[test]
    fn msk_roles_are_refused_by_name() {
        let err = |extra: &[(&str, &str)]| {
            let mut p = vec![("security.protocol", "SASL_SSL")];
            p.extend_from_slice(extra);
            from_properties("h:1", Duration::from_secs(1), &props(&p), None)
                .unwrap_err()
                .0
        };
        let e = err(&[
            ("sasl.mechanism", "AWS_MSK_IAM"),
            (
                "sasl.jaas.config",
                "software.amazon.msk.auth.iam.IAMLoginModule required \
                 awsRoleArn=\"arn:aws:iam::123456789012:role/r\";",
            ),
        ]);
        assert!(e.starts_with("awsRoleArn in sasl.jaas.config"), "{e}");
        let e = err(&[
            ("sasl.mechanism", "OAUTHBEARER"),
            ("sasl.login.callback.handler.class", MSK_OAUTH_HANDLER),
            (
                "sasl.jaas.config",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required \
                 awsRoleArn=\"arn:aws:iam::123456789012:role/r\";",
            ),
        ]);
        assert!(e.starts_with("awsRoleArn in sasl.jaas.config"), "{e}");
    }

    #[test]
    fn jks_and_bad_values_are_clear_errors() {
        let e = from_properties(
            "h:1",
            Duration::from_secs(1),
            &props(&[("ssl.truststore.location", "/x/truststore.jks")]),
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("convert it to"), "{e}");
        assert!(e.0.contains("ssl.truststore.type=PKCS12"), "{e}");
        let e = from_properties(
            "h:1",
            Duration::from_secs(1),
            &props(&[
                ("security.protocol", "SASL_SSL"),
                ("sasl.mechanism", "GSSAPI"),
            ]),
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("GSSAPI"));
        let e = from_properties(
            "h:1",
            Duration::from_secs(1),
            &props(&[
                ("security.protocol", "SASL_SSL"),
                ("sasl.mechanism", "PLAIN"),
            ]),
            None,
        )
        .unwrap_err();
        assert!(e.0.contains("username"));
    }

    /// GSSAPI from the keys Kafka's Java client reads (issue #34), and what is missing named.
    #[test]
    fn gssapi_from_the_krb5_login_module_options() {
        let parse = |pairs: &[(&str, &str)]| {
            let mut all = vec![
                ("security.protocol", "SASL_PLAINTEXT"),
                ("sasl.mechanism", "GSSAPI"),
            ];
            all.extend_from_slice(pairs);
            from_properties(
                "h:1",
                Duration::from_secs(1),
                &props(&all),
                Some(Path::new("/e")),
            )
        };
        let jaas = r#"com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true keyTab="k/client.keytab" principal="client@EXAMPLE.COM";"#;
        let c = parse(&[
            ("sasl.kerberos.service.name", "kafka"),
            ("sasl.jaas.config", jaas),
        ])
        .unwrap();
        let s = c.sasl.unwrap();
        assert_eq!(s.mechanism, SaslMechanism::Gssapi);
        let k = s.kerberos.unwrap();
        assert_eq!(k.service_name, "kafka");
        assert_eq!(k.principal.as_deref(), Some("client@EXAMPLE.COM"));
        assert_eq!(k.keytab, Some(PathBuf::from("/e/k/client.keytab")));
        assert_eq!(k.ticket_cache, None);
        assert!(c.ignored_keys.is_empty(), "{:?}", c.ignored_keys);

        // The JAAS option serviceName does as well; a ticket cache needs no keytab.
        let jaas = r#"com.sun.security.auth.module.Krb5LoginModule required useTicketCache=true serviceName="kafka" ticketCache="FILE:/tmp/cc";"#;
        let k = parse(&[("sasl.jaas.config", jaas)])
            .unwrap()
            .sasl
            .unwrap()
            .kerberos
            .unwrap();
        assert_eq!((k.service_name.as_str(), k.keytab), ("kafka", None));
        assert_eq!(k.ticket_cache.as_deref(), Some("FILE:/tmp/cc"));

        let e = parse(&[(
            "sasl.jaas.config",
            jaas.replace(r#"serviceName="kafka""#, "").as_str(),
        )])
        .unwrap_err();
        assert!(e.0.contains("needs sasl.kerberos.service.name"), "{e}");
        let e = parse(&[
            ("sasl.kerberos.service.name", "kafka"),
            ("sasl.jaas.config", "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true principal=\"c@R\";"),
        ])
        .unwrap_err();
        assert!(e.0.contains("useKeyTab=true needs keyTab="), "{e}");
        let e = parse(&[("sasl.kerberos.service.name", "kafka")]).unwrap_err();
        assert!(e.0.contains("useKeyTab=true"), "{e}");
    }

    #[test]
    fn bootstrap_list() {
        assert_eq!(split_bootstrap(" a:1, b:2,,"), vec!["a:1", "b:2"]);
    }

    /// PKCS12 stores are read with their passwords (issue #34); what cannot work is refused
    /// before connecting, naming the setting.
    #[test]
    fn pkcs12_key_and_trust_stores() {
        let parse = |pairs: &[(&str, &str)]| {
            from_properties(
                "h:1",
                Duration::from_secs(1),
                &props(pairs),
                Some(Path::new("/etc/x")),
            )
        };
        let c = parse(&[
            ("security.protocol", "SSL"),
            ("ssl.truststore.type", "PKCS12"),
            ("ssl.truststore.location", "ca.p12"),
            ("ssl.truststore.password", "ts-pw"),
            ("ssl.keystore.type", "pkcs12"),
            ("ssl.keystore.location", "/k/client.p12"),
            ("ssl.keystore.password", "ks-pw"),
            ("ssl.key.password", "ks-pw"),
        ])
        .unwrap();
        let Some(KeyMaterial::Pkcs12(ts)) = &c.tls.ca else {
            panic!("{:?}", c.tls.ca)
        };
        assert_eq!(ts.path, PathBuf::from("/etc/x/ca.p12"));
        assert_eq!(ts.password.expose(), "ts-pw");
        assert_eq!(ts.password_key, "ssl.truststore.password");
        let Some(KeyMaterial::Pkcs12(ks)) = &c.tls.key else {
            panic!("{:?}", c.tls.key)
        };
        assert_eq!(ks.path, PathBuf::from("/k/client.p12"));
        assert_eq!(c.tls.cert_chain, c.tls.key);
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("ts-pw") && !dbg.contains("ks-pw"), "{dbg}");

        let e = parse(&[
            ("ssl.truststore.type", "PKCS12"),
            ("ssl.truststore.location", "ca.p12"),
        ])
        .unwrap_err();
        assert!(e.0.contains("ssl.truststore.password is not set"), "{e}");
        let e = parse(&[
            ("ssl.keystore.type", "PKCS12"),
            ("ssl.keystore.location", "k.p12"),
            ("ssl.keystore.password", "a"),
            ("ssl.key.password", "b"),
        ])
        .unwrap_err();
        assert!(e.0.contains("ssl.key.password differs"), "{e}");
        // An encrypted PEM key is still refused.
        let e = parse(&[("ssl.key.password", "b")]).unwrap_err();
        assert!(e.0.contains("encrypted PEM private keys"), "{e}");
    }
}
