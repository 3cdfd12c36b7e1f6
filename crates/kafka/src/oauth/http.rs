//! Just enough HTTP/1.1 for an OAuth token endpoint: one POST, `Connection: close`, the answer
//! read to its end (bounded), over TCP or TLS. Errors are plain words for the caller to wrap;
//! they never hold the request, which carries the client secret.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::config::TlsConfig;
use crate::tls;

/// An answer's status, content type (lower case, parameters dropped) and body.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
}

/// A token endpoint answer is a small JSON object; anything past this is not one.
const MAX_ANSWER_BYTES: u64 = 1 << 20;

/// The parts of an http(s) URL a request needs.
#[derive(Debug, PartialEq, Eq)]
pub struct Url {
    pub https: bool,
    pub host: String,
    pub port: u16,
    pub path: String,
}

pub fn parse_url(url: &str) -> Result<Url, String> {
    let (https, rest) = if let Some(r) = url.strip_prefix("https://") {
        (true, r)
    } else if let Some(r) = url.strip_prefix("http://") {
        (false, r)
    } else {
        return Err("not an http or https URL".into());
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let default_port = if https { 443 } else { 80 };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => {
            let port = p.parse().map_err(|_| format!("bad port '{p}'"))?;
            (h.trim_start_matches('[').trim_end_matches(']'), port)
        }
        _ => (authority, default_port),
    };
    if host.is_empty() {
        return Err("no host".into());
    }
    Ok(Url {
        https,
        host: host.to_string(),
        port,
        path: path.to_string(),
    })
}

/// POST a form (over TLS with `tls_config` for an `https` URL); `authorization` is a whole
/// header value (it holds a secret: never echoed).
pub async fn post_form(
    url: &Url,
    tls_config: &TlsConfig,
    authorization: &str,
    form: &str,
    timeout: Duration,
) -> Result<Answer, String> {
    let request = format!(
        "POST {} HTTP/1.1\r\nHost: {}:{}\r\nAuthorization: {authorization}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{form}",
        url.path,
        url.host,
        url.port,
        form.len()
    );
    let exchange = async {
        let tcp = TcpStream::connect((url.host.as_str(), url.port))
            .await
            .map_err(|e| e.to_string())?;
        if !url.https {
            return exchange(tcp, request.as_bytes()).await;
        }
        let connector = tls::connector(tls_config).map_err(|e| e.to_string())?;
        let name = tls::server_name(&url.host)?;
        let stream = connector
            .connect(name, tcp)
            .await
            .map_err(|e| format!("TLS: {}", tls::describe_io_error(&e)))?;
        exchange(stream, request.as_bytes()).await
    };
    tokio::time::timeout(timeout, exchange)
        .await
        .map_err(|_| format!("no answer within {timeout:?}"))?
}

async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(
    mut s: S,
    request: &[u8],
) -> Result<Answer, String> {
    s.write_all(request).await.map_err(|e| e.to_string())?;
    s.flush().await.map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    let mut limited = (&mut s).take(MAX_ANSWER_BYTES + 1);
    // A TLS peer that closes without close_notify still delivered its whole answer.
    if let Err(e) = limited.read_to_end(&mut raw).await {
        if raw.is_empty() {
            return Err(e.to_string());
        }
    }
    if raw.len() as u64 > MAX_ANSWER_BYTES {
        return Err("the answer is larger than 1 MiB".into());
    }
    parse_answer(&raw)
}

/// Split a whole HTTP/1.1 answer into status, content type and (de-chunked) body.
pub fn parse_answer(raw: &[u8]) -> Result<Answer, String> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("not an HTTP answer (no header end)")?;
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .strip_prefix("HTTP/1.")
        .and_then(|r| r.get(2..5))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| "not an HTTP answer (no status line)".to_string())?;
    let mut content_type = String::new();
    let mut chunked = false;
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let v = v.trim().to_ascii_lowercase();
        match k.trim().to_ascii_lowercase().as_str() {
            "content-type" => content_type = v.split(';').next().unwrap_or("").trim().into(),
            "transfer-encoding" => chunked = v.contains("chunked"),
            _ => {}
        }
    }
    let body = &raw[end + 4..];
    let body = if chunked {
        dechunk(body)?
    } else {
        body.to_vec()
    };
    Ok(Answer {
        status,
        content_type,
        body,
    })
}

fn dechunk(mut b: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let eol = b
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a truncated chunked body")?;
        let size_text = String::from_utf8_lossy(&b[..eol]);
        let size_hex = size_text.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_hex, 16).map_err(|_| "a bad chunk size")?;
        b = &b[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        if b.len() < size {
            return Err("a truncated chunked body".into());
        }
        out.extend_from_slice(&b[..size]);
        b = b.get(size + 2..).unwrap_or_default();
    }
}

/// `application/x-www-form-urlencoded` escaping (RFC 6749 asks for it on client ids and secrets
/// in the Basic header too).
pub fn form_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_split() {
        let u = parse_url("http://127.0.0.1:8080/realms/x/token").unwrap();
        assert_eq!(
            (u.https, u.host.as_str(), u.port),
            (false, "127.0.0.1", 8080)
        );
        assert_eq!(u.path, "/realms/x/token");
        let u = parse_url("https://idp.example.com").unwrap();
        assert_eq!((u.port, u.path.as_str()), (443, "/"));
        assert!(parse_url("ftp://x").is_err());
    }

    #[test]
    fn answers_are_parsed_with_and_without_chunks() {
        let a = parse_answer(
            b"HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json; charset=utf-8\r\n\
              Content-Length: 2\r\n\r\n{}",
        )
        .unwrap();
        assert_eq!(
            (a.status, a.content_type.as_str()),
            (401, "application/json")
        );
        assert_eq!(a.body, b"{}");
        let a = parse_answer(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!(a.body, b"abcde");
        assert!(parse_answer(b"SSH-2.0-OpenSSH").is_err());
    }

    #[test]
    fn form_values_are_escaped() {
        assert_eq!(form_escape("a b&c=d/é"), "a+b%26c%3Dd%2F%C3%A9");
    }
}
