//! AWS credentials and region as the AWS SDK for Java's default chains find them, for the
//! sources that need no network: the environment, then the shared profile files
//! (`~/.aws/credentials`, `~/.aws/config`). Sources that need the network (web identity and
//! assumed roles through STS, SSO, container and instance credentials) and `credential_process`
//! are refused with one line naming the setting, so that nothing silently picks other keys.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::secret::Secret;

/// Keys that sign requests. The access key id names the key (it is not secret); the secret
/// access key and the session token are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credentials {
    pub access_key_id: String,
    pub secret_access_key: Secret,
    pub session_token: Option<Secret>,
}

/// Credentials, where they came from (for `--verbose`), and the region the chain names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub credentials: Credentials,
    /// `environment` or `profile NAME`.
    pub source: String,
    /// `AWS_REGION`, else the `region` of the profile in the config file.
    pub region: Option<String>,
}

/// How the chain reads the process environment (a closure, so tests pass their own).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

const NO_CREDENTIALS: &str = "sasl.mechanism=AWS_MSK_IAM found no AWS credentials: set \
     AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys), or \
     keys in a profile of ~/.aws/credentials (AWS_PROFILE, or awsProfileName=\"...\" in \
     sasl.jaas.config)";

/// Find credentials: the profile named by `awsProfileName` first (as `MSKCredentialProvider`
/// puts it before the default chain), else the default chain's order: environment, web
/// identity (refused), the `AWS_PROFILE` (or `default`) profile, container/instance (refused).
pub fn resolve(jaas_profile: Option<&str>, env: Env<'_>) -> Result<Resolved, String> {
    let files = ProfileFiles::read(env)?;
    let region = env_value(env, "AWS_REGION").or_else(|| {
        let name = env_value(env, "AWS_PROFILE").unwrap_or_else(|| "default".into());
        files.profile(&name).and_then(|p| p.get("region").cloned())
    });
    let found = |credentials, source: String| {
        Ok(Resolved {
            credentials,
            source,
            region: region.clone(),
        })
    };
    if let Some(name) = jaas_profile {
        return match files.profile(name) {
            Some(p) => found(
                static_keys(&p, name, "awsProfileName")?,
                format!("profile {name}"),
            ),
            None => Err(format!(
                "awsProfileName=\"{name}\" in sasl.jaas.config: no such profile in {} or {}",
                files.credentials_path.display(),
                files.config_path.display()
            )),
        };
    }
    if let Some(c) = from_env(env)? {
        return found(c, "environment".into());
    }
    if env_value(env, "AWS_WEB_IDENTITY_TOKEN_FILE").is_some() {
        return Err(refused("AWS_WEB_IDENTITY_TOKEN_FILE (web identity)"));
    }
    let named = env_value(env, "AWS_PROFILE");
    let name = named.clone().unwrap_or_else(|| "default".into());
    match files.profile(&name) {
        Some(p) => found(
            static_keys(&p, &name, "AWS_PROFILE")?,
            format!("profile {name}"),
        ),
        None if named.is_some() => Err(format!(
            "AWS_PROFILE={name}: no such profile in {} or {}",
            files.credentials_path.display(),
            files.config_path.display()
        )),
        None => match CONTAINER_KEYS.iter().find(|k| env_value(env, k).is_some()) {
            Some(k) => Err(refused(&format!("{k} (container credentials)"))),
            None => Err(NO_CREDENTIALS.into()),
        },
    }
}

const CONTAINER_KEYS: [&str; 2] = [
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
];

fn refused(what: &str) -> String {
    format!(
        "AWS_MSK_IAM: {what} needs AWS STS or another AWS endpoint, which this tool does not \
         call: export the temporary keys (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, \
         AWS_SESSION_TOKEN), e.g. from `aws configure export-credentials --format env`"
    )
}

fn env_value(env: Env<'_>, key: &str) -> Option<String> {
    env(key)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`); half a pair is an
/// error naming the missing half.
fn from_env(env: Env<'_>) -> Result<Option<Credentials>, String> {
    let id = env_value(env, "AWS_ACCESS_KEY_ID");
    let secret = env_value(env, "AWS_SECRET_ACCESS_KEY");
    match (id, secret) {
        (Some(access_key_id), Some(secret)) => Ok(Some(Credentials {
            access_key_id,
            secret_access_key: Secret::new(secret),
            session_token: env_value(env, "AWS_SESSION_TOKEN").map(Secret::new),
        })),
        (Some(_), None) => Err("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not".into()),
        (None, Some(_)) => Err("AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not".into()),
        (None, None) => Ok(None),
    }
}

/// The static keys of a profile; a profile that gets its keys elsewhere is refused by name.
fn static_keys(
    p: &BTreeMap<String, String>,
    name: &str,
    named_by: &str,
) -> Result<Credentials, String> {
    let get = |k: &str| p.get(k).filter(|v| !v.is_empty()).cloned();
    match (get("aws_access_key_id"), get("aws_secret_access_key")) {
        (Some(access_key_id), Some(secret)) => Ok(Credentials {
            access_key_id,
            secret_access_key: Secret::new(secret),
            session_token: get("aws_session_token").map(Secret::new),
        }),
        _ => {
            let other = ["role_arn", "web_identity_token_file", "credential_process"]
                .into_iter()
                .chain(["sso_session", "sso_start_url", "login_session"])
                .find(|k| get(k).is_some());
            Err(match other {
                Some(k) => refused(&format!("profile {name} ({named_by}) with {k}")),
                None => format!(
                    "profile {name} ({named_by}) has no aws_access_key_id and \
                     aws_secret_access_key"
                ),
            })
        }
    }
}

/// The two shared files, each as profile name -> properties.
struct ProfileFiles {
    credentials_path: PathBuf,
    config_path: PathBuf,
    credentials: BTreeMap<String, BTreeMap<String, String>>,
    config: BTreeMap<String, BTreeMap<String, String>>,
}

impl ProfileFiles {
    fn read(env: Env<'_>) -> Result<ProfileFiles, String> {
        let home = env_value(env, "HOME").unwrap_or_default();
        let path = |key: &str, default: &str| {
            let p = env_value(env, key).unwrap_or_else(|| format!("~/.aws/{default}"));
            match p.strip_prefix("~/") {
                Some(rest) => PathBuf::from(&home).join(rest),
                None => PathBuf::from(p),
            }
        };
        let credentials_path = path("AWS_SHARED_CREDENTIALS_FILE", "credentials");
        let config_path = path("AWS_CONFIG_FILE", "config");
        let load = |p: &PathBuf, key: &str| match std::fs::read_to_string(p) {
            Ok(text) => Ok(parse_ini(&text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
            Err(e) => Err(format!("{}: {e} (set {key})", p.display())),
        };
        let credentials = load(&credentials_path, "AWS_SHARED_CREDENTIALS_FILE")?;
        let mut config = BTreeMap::new();
        // The config file names profiles `[profile NAME]`, except `[default]`.
        for (section, props) in load(&config_path, "AWS_CONFIG_FILE")? {
            let name = match section.strip_prefix("profile ") {
                Some(n) => n.trim().to_string(),
                None if section == "default" => section,
                None => continue,
            };
            config.entry(name).or_insert(props);
        }
        Ok(ProfileFiles {
            credentials_path,
            config_path,
            credentials,
            config,
        })
    }

    /// A profile's properties: the credentials file's win over the config file's.
    fn profile(&self, name: &str) -> Option<BTreeMap<String, String>> {
        let a = self.config.get(name);
        let b = self.credentials.get(name);
        if a.is_none() && b.is_none() {
            return None;
        }
        let mut out = a.cloned().unwrap_or_default();
        out.extend(b.cloned().unwrap_or_default());
        Some(out)
    }
}

/// Sections of an INI file; `#` and `;` start comments, indented lines (sub-properties) are
/// skipped, keys are lower-cased.
fn parse_ini(text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut section: Option<String> = None;
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let l = line.trim();
        if l.is_empty() || l.starts_with(['#', ';']) {
            continue;
        }
        if let Some(s) = l.strip_prefix('[').and_then(|s| s.split(']').next()) {
            let name = s.trim().to_string();
            out.entry(name.clone()).or_default();
            section = Some(name);
        } else if let (Some(s), Some((k, v))) = (&section, l.split_once('=')) {
            let v = v.split(" #").next().unwrap_or(v).trim().to_string();
            if let Some(props) = out.get_mut(s) {
                props.insert(k.trim().to_ascii_lowercase(), v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    fn files(dir: &std::path::Path, credentials: &str, config: &str) -> (String, String) {
        let c = dir.join("credentials");
        let f = dir.join("config");
        std::fs::write(&c, credentials).unwrap();
        std::fs::write(&f, config).unwrap();
        (c.display().to_string(), f.display().to_string())
    }

    #[test]
    fn environment_first_then_profiles() {
        let dir = std::env::temp_dir().join(format!("msk-iam-creds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (c, f) = files(
            &dir,
            "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s1\n\
             [dev]\naws_access_key_id=AKIDDEV\naws_secret_access_key=s2\naws_session_token=t2\n",
            "[default]\nregion = eu-west-1\n[profile dev]\nregion=ap-south-1\n\
             [profile sso]\nsso_session = corp\n",
        );
        let base = [
            ("AWS_SHARED_CREDENTIALS_FILE", c.as_str()),
            ("AWS_CONFIG_FILE", f.as_str()),
        ];
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut v = base.to_vec();
            v.extend_from_slice(extra);
            env_of(&v)
        };
        let r = resolve(None, &with(&[])).unwrap();
        assert_eq!(r.credentials.access_key_id, "AKIDDEFAULT");
        assert_eq!(r.region.as_deref(), Some("eu-west-1"));
        let r = resolve(None, &with(&[("AWS_PROFILE", "dev")])).unwrap();
        assert_eq!(r.credentials.session_token, Some(Secret::new("t2")));
        assert_eq!(r.region.as_deref(), Some("ap-south-1"));
        let e = with(&[
            ("AWS_ACCESS_KEY_ID", "AKIDENV"),
            ("AWS_SECRET_ACCESS_KEY", "s3"),
        ]);
        assert_eq!(resolve(None, &e).unwrap().source, "environment");
        assert_eq!(resolve(Some("dev"), &e).unwrap().source, "profile dev");
        let err = resolve(None, &with(&[("AWS_PROFILE", "sso")])).unwrap_err();
        assert!(
            err.contains("profile sso (AWS_PROFILE) with sso_session"),
            "{err}"
        );
        let err = resolve(Some("nope"), &with(&[])).unwrap_err();
        assert!(err.starts_with("awsProfileName=\"nope\""), "{err}");
        let err = resolve(None, &with(&[("AWS_ACCESS_KEY_ID", "AKID")])).unwrap_err();
        assert!(err.contains("AWS_SECRET_ACCESS_KEY is not"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_found_names_what_to_set() {
        let none = env_of(&[
            ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/c"),
            ("AWS_CONFIG_FILE", "/nonexistent/f"),
        ]);
        let err = resolve(None, &none).unwrap_err();
        assert!(
            err.contains("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"),
            "{err}"
        );
        let web = env_of(&[
            ("AWS_CONFIG_FILE", "/nonexistent/f"),
            ("AWS_WEB_IDENTITY_TOKEN_FILE", "/var/run/token"),
        ]);
        assert!(resolve(None, &web).unwrap_err().contains("web identity"));
    }
}
