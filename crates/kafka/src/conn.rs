//! One connection to one broker: TCP (or TLS), ApiVersions negotiation, SASL, and
//! request/response exchange with size-prefixed framing and correlation ids. Every wait is
//! bounded by the configured timeout.

use std::collections::BTreeMap;
use std::future::Future;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use kafka_protocol::messages::{
    ApiKey, ApiVersionsRequest, ApiVersionsResponse, SaslAuthenticateRequest,
    SaslAuthenticateResponse, SaslHandshakeRequest, SaslHandshakeResponse,
};
use kafka_protocol::protocol::{Encodable, StrBytes};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

use super::config::{
    ClientConfig, KerberosConfig, MskIamConfig, OAuthConfig, SaslConfig, SaslMechanism, TokenSource,
};
use super::error::{KafkaError, KafkaResult, SaslFix};
use super::gssapi;
use super::guard::{self, Guarded};
use super::msk_iam;
use super::oauth;
use super::scram::{ScramClient, ScramHash};
use super::tls;
use super::wire::{self, Writer};
use model::codes::ErrorCode;

/// Largest response we accept (bytes).
pub const MAX_FRAME: usize = 256 * 1024 * 1024;

pub const API_STREAMS_GROUP_HEARTBEAT: i16 = 88;
pub const API_STREAMS_GROUP_DESCRIBE: i16 = 89;

const ILLEGAL_SASL_STATE: i16 = 34;

/// A KRaft controller answers ApiVersions with the quorum's APIs (BrokerHeartbeat, 63, which
/// only controllers serve) and none of the group APIs a broker listener has (FindCoordinator,
/// 10): what tells a controller address given by mistake from an old broker.
fn is_controller_listener(versions: &BTreeMap<i16, (i16, i16)>) -> bool {
    const FIND_COORDINATOR: i16 = 10;
    const BROKER_HEARTBEAT: i16 = 63;
    versions.contains_key(&BROKER_HEARTBEAT) && !versions.contains_key(&FIND_COORDINATOR)
}

/// Our highest version per API key (explicit caps; see the wire-protocol reference §4).
pub fn client_max_version(api_key: i16) -> Option<i16> {
    Some(match api_key {
        k if k == ApiKey::ApiVersions as i16 => 3,
        k if k == ApiKey::Metadata as i16 => 12,
        k if k == ApiKey::FindCoordinator as i16 => 4,
        k if k == ApiKey::ListGroups as i16 => 5,
        // 4.1 with unstable APIs exposes v10 (topic ids): never go above 9.
        k if k == ApiKey::OffsetFetch as i16 => 9,
        k if k == ApiKey::ListOffsets as i16 => 9,
        // The last version that names topics; records come back as raw batches.
        k if k == ApiKey::Fetch as i16 => super::codec::fetch::VERSION,
        // Admin actions. OffsetCommit v10 names topics by id (4.1 unstable, 4.2+).
        k if k == ApiKey::OffsetCommit as i16 => 9,
        k if k == ApiKey::OffsetDelete as i16 => 0,
        // v3 (Kafka 4.4) adds an error message the crate cannot read yet.
        k if k == ApiKey::DeleteGroups as i16 => 2,
        // v6 names topics by id or name in another layout; names are all we send.
        k if k == ApiKey::DeleteTopics as i16 => 5,
        k if k == ApiKey::SaslHandshake as i16 => 1,
        k if k == ApiKey::SaslAuthenticate as i16 => 2,
        // Group configs and the coordinator's group.streams.* settings.
        k if k == ApiKey::DescribeConfigs as i16 => 4,
        API_STREAMS_GROUP_DESCRIBE => super::codec::describe::MAX_VERSION,
        API_STREAMS_GROUP_HEARTBEAT => super::codec::heartbeat::MAX_VERSION,
        _ => return None,
    })
}

trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

pub struct Connection {
    io: Box<dyn Io>,
    pub addr: String,
    client_id: String,
    timeout: Duration,
    next_correlation: i32,
    /// Broker's (min, max) per API key.
    pub versions: BTreeMap<i16, (i16, i16)>,
    /// Finalized features (name → max level) from ApiVersions.
    pub finalized_features: BTreeMap<String, i16>,
    /// When the broker ends this SASL session (KIP-368, `connections.max.reauth.ms`), and how
    /// long it was: past it the broker closes the connection, so the client opens a new one.
    session: Option<(Instant, Duration)>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("addr", &self.addr)
            .finish()
    }
}

/// Run `fut` with the timeout; a timeout becomes `KafkaError::Timeout`.
pub async fn bounded<T>(
    timeout: Duration,
    addr: &str,
    what: &str,
    fut: impl Future<Output = KafkaResult<T>>,
) -> KafkaResult<T> {
    match tokio::time::timeout(timeout, fut).await {
        Ok(r) => r,
        Err(_) => Err(KafkaError::Timeout {
            addr: addr.to_string(),
            what: format!("{what}, timeout {} ms", timeout.as_millis()),
        }),
    }
}

pub(crate) fn split_host_port(addr: &str) -> KafkaResult<(String, u16)> {
    let bad = || KafkaError::Config(format!("bad broker address `{addr}` (expected host:port)"));
    let (host, port) = addr.rsplit_once(':').ok_or_else(bad)?;
    let port: u16 = port.parse().map_err(|_| bad())?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err(bad());
    }
    Ok((host.to_string(), port))
}

/// Why no frame could be read.
#[derive(Debug)]
pub enum FrameError {
    Io(std::io::Error),
    /// The size prefix is out of range; the text says what the peer probably is.
    Size(String),
}

/// The first bytes of a frame are read into a buffer this large; it grows as the rest arrives.
const FIRST_READ: usize = 64 * 1024;

/// Read one size-prefixed frame of at most `max` bytes. The buffer grows with the bytes that
/// really arrive: a peer that announces a large frame and sends less costs only what it sent.
pub async fn read_frame<R: AsyncRead + Unpin>(
    io: &mut R,
    max: usize,
) -> Result<Vec<u8>, FrameError> {
    let mut size = [0u8; 4];
    io.read_exact(&mut size).await.map_err(FrameError::Io)?;
    let n = wire::check_frame_size(i32::from_be_bytes(size), max)
        .map_err(|e| FrameError::Size(explain_bad_frame(&size).unwrap_or_else(|| e.to_string())))?;
    let mut buf = Vec::with_capacity(n.min(FIRST_READ));
    (&mut *io)
        .take(n as u64)
        .read_to_end(&mut buf)
        .await
        .map_err(FrameError::Io)?;
    if buf.len() < n {
        return Err(FrameError::Io(std::io::ErrorKind::UnexpectedEof.into()));
    }
    Ok(buf)
}

/// Recognise what a non-Kafka peer sent in place of a frame size.
pub fn explain_bad_frame(first4: &[u8; 4]) -> Option<String> {
    // A TLS record: alert (0x15) or handshake (0x16), protocol version 3.x.
    if matches!(first4[0], 0x15 | 0x16) && first4[1] == 0x03 {
        return Some(
            "the server answered with a TLS alert: this is a TLS listener (set \
             security.protocol=SSL or SASL_SSL in the client properties)"
                .into(),
        );
    }
    if first4 == b"HTTP" {
        return Some("an HTTP server answered, not a Kafka broker (is it the right port?)".into());
    }
    if first4 == b"SSH-" {
        return Some("an SSH server answered, not a Kafka broker (is it the right port?)".into());
    }
    None
}

/// `ListGroups v5 #3, FindCoordinator v6 #4`: what went out, for `--debug` (never its contents).
fn traced_requests(requests: &[RawRequest<'_>], expected: &[(i32, bool)]) -> String {
    requests
        .iter()
        .zip(expected)
        .map(|(r, (correlation, _))| {
            format!(
                "{} v{} #{correlation}",
                crate::trace::api_name(r.api_key),
                r.version
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One request of a [`Connection::pipelined_raw`]: its API, version, encoded body and header
/// layouts.
pub struct RawRequest<'a> {
    pub api_key: i16,
    pub version: i16,
    pub body: &'a [u8],
    pub request_header_flexible: bool,
    pub response_header_flexible: bool,
}

impl<'a> RawRequest<'a> {
    /// A kafka-protocol request of `key` at `version`, `body` encoded already: the header
    /// layouts follow from the API and version.
    fn typed(key: ApiKey, version: i16, body: &'a [u8]) -> RawRequest<'a> {
        RawRequest {
            api_key: key as i16,
            version,
            body,
            request_header_flexible: key.request_header_version(version) >= 2,
            response_header_flexible: key.response_header_version(version) >= 1,
        }
    }
}

fn encode<Req: Encodable>(key: ApiKey, version: i16, req: &Req) -> KafkaResult<BytesMut> {
    let mut body = BytesMut::new();
    req.encode(&mut body, version)
        .map_err(|e| KafkaError::Config(format!("cannot encode {key:?} v{version}: {e}")))?;
    Ok(body)
}

impl Connection {
    /// Connect, do TLS and ApiVersions, then SASL when configured.
    pub async fn open(addr: &str, cfg: &ClientConfig) -> KafkaResult<Connection> {
        let (host, port) = split_host_port(addr)?;
        let t = cfg.timeout;
        crate::trace::line(|| format!("{addr} connecting"));
        let tcp = bounded(t, addr, "TCP connect", async {
            TcpStream::connect((host.as_str(), port))
                .await
                .map_err(|e| KafkaError::Connect {
                    addr: addr.to_string(),
                    detail: e.to_string(),
                })
        })
        .await?;
        let _ = tcp.set_nodelay(true);
        let io: Box<dyn Io> = if cfg.security.uses_tls() {
            let connector = tls::connector(&cfg.tls)?;
            let name = tls::server_name(&host).map_err(|detail| KafkaError::Tls {
                addr: addr.to_string(),
                detail,
            })?;
            let stream = bounded(t, addr, "TLS handshake", async {
                connector
                    .connect(name, tcp)
                    .await
                    .map_err(|e| KafkaError::Tls {
                        addr: addr.to_string(),
                        detail: tls::describe_io_error(&e),
                    })
            })
            .await?;
            Box::new(stream)
        } else {
            Box::new(tcp)
        };
        let mut conn = Connection {
            io,
            addr: addr.to_string(),
            client_id: cfg.client_id.clone(),
            timeout: t,
            next_correlation: 1,
            versions: BTreeMap::new(),
            finalized_features: BTreeMap::new(),
            session: None,
        };
        conn.negotiate_versions().await?;
        if cfg.security.uses_sasl() {
            match cfg.sasl.as_ref() {
                Some(SaslConfig {
                    oauth: Some(oauth), ..
                }) => conn.authenticate_oauth(oauth).await?,
                Some(SaslConfig {
                    msk_iam: Some(iam), ..
                }) => conn.authenticate_msk_iam(iam, &host).await?,
                Some(SaslConfig {
                    kerberos: Some(kerberos),
                    ..
                }) => conn.authenticate_gssapi(kerberos, &host).await?,
                Some(sasl) => {
                    conn.authenticate(sasl.mechanism, &sasl.username, sasl.password.expose())
                        .await?
                }
                None => {}
            }
        }
        Ok(conn)
    }

    /// Whether the broker's session ends soon (within a fifth of its length): a request sent
    /// then could find the connection closed, so the caller opens a new one first.
    pub fn session_ending(&self) -> bool {
        self.session
            .is_some_and(|(end, length)| Instant::now() + length / 5 >= end)
    }

    /// OAUTHBEARER: the token in the initial response; a refusal comes back as a JSON
    /// challenge that the client acknowledges with 0x01 before the broker fails the exchange.
    async fn authenticate_oauth(&mut self, oauth: &OAuthConfig) -> KafkaResult<()> {
        let token = oauth::token(oauth, self.timeout).await?;
        self.sasl_handshake(SaslMechanism::OAuthBearer).await?;
        let first = oauth::initial_response(token.expose(), &oauth.extensions);
        let challenge = self.sasl_step(first).await?;
        if challenge.is_empty() {
            return Ok(());
        }
        let detail = oauth::broker_rejection(&challenge);
        // An MSK token is refused for its keys or their IAM policy, not for JWT settings.
        let fix = match oauth.source {
            TokenSource::MskIam { .. } => SaslFix::AwsIam,
            _ => SaslFix::Token,
        };
        let refused = |addr: &str| KafkaError::Sasl {
            addr: addr.to_string(),
            detail: detail.clone(),
            fix,
        };
        match self.sasl_step(vec![0x01]).await {
            Err(KafkaError::Sasl { .. }) | Ok(_) => Err(refused(&self.addr)),
            Err(other) => Err(other),
        }
    }

    /// AWS_MSK_IAM: one message, the payload signed for the broker's host name (what the Java
    /// client passes the library as the SASL server name); a non-error answer is success.
    async fn authenticate_msk_iam(&mut self, iam: &MskIamConfig, host: &str) -> KafkaResult<()> {
        self.sasl_handshake(SaslMechanism::AwsMskIam).await?;
        let region = msk_iam::region_of_host(host)
            .or_else(|| iam.fallback_region.clone())
            .ok_or_else(|| {
                KafkaError::Config(format!(
                    "AWS_MSK_IAM: the broker host {host} does not name an AWS region \
                     (b-1.CLUSTER.kafka.REGION.amazonaws.com): set AWS_REGION or region in the \
                     AWS profile"
                ))
            })?;
        let payload = msk_iam::payload_now(iam, host, &region);
        self.sasl_step(payload).await.map_err(|e| match e {
            KafkaError::Sasl { addr, detail, .. } => KafkaError::Sasl {
                addr,
                detail: format!(
                    "{detail}; signed for region {region} with the AWS credentials from {}",
                    iam.source
                ),
                fix: SaslFix::AwsIam,
            },
            other => other,
        })?;
        Ok(())
    }

    /// GSSAPI: context tokens, then the security-layer reply, each in a SaslAuthenticate (the
    /// exchange itself is `gssapi::Session`'s); a refusal by the broker is a Kerberos one.
    async fn authenticate_gssapi(&mut self, cfg: &KerberosConfig, host: &str) -> KafkaResult<()> {
        self.sasl_handshake(SaslMechanism::Gssapi).await?;
        let (mut session, mut token) =
            gssapi::Session::start_within(cfg, host, &self.addr, self.timeout).await?;
        loop {
            let challenge = self.sasl_step(token).await.map_err(|e| match e {
                KafkaError::Sasl { addr, detail, .. } => KafkaError::Sasl {
                    addr,
                    detail,
                    fix: SaslFix::Kerberos,
                },
                other => other,
            })?;
            match session.answer(&challenge)? {
                Some(next) => token = next,
                None => return Ok(()),
            }
        }
    }

    fn protocol_error(&self, detail: impl Into<String>) -> KafkaError {
        KafkaError::Protocol {
            addr: self.addr.clone(),
            detail: detail.into(),
        }
    }

    /// Send one request and return the response body (after its header).
    pub async fn roundtrip_raw(
        &mut self,
        api_key: i16,
        version: i16,
        body: &[u8],
        request_header_flexible: bool,
        response_header_flexible: bool,
    ) -> KafkaResult<Vec<u8>> {
        let request = RawRequest {
            api_key,
            version,
            body,
            request_header_flexible,
            response_header_flexible,
        };
        let mut bodies = self.pipelined_raw(&[request]).await?;
        Ok(bodies.remove(0))
    }

    /// `requests` framed back to back, each with the next correlation id, and what each
    /// response must carry: its correlation id and whether its header is flexible.
    fn framed(&mut self, requests: &[RawRequest<'_>]) -> (Vec<u8>, Vec<(i32, bool)>) {
        let mut framed = Vec::new();
        let mut expected = Vec::with_capacity(requests.len());
        for r in requests {
            let correlation = self.next_correlation;
            self.next_correlation = self.next_correlation.wrapping_add(1);
            let mut w = Writer::new();
            wire::write_request_header(
                &mut w,
                r.api_key,
                r.version,
                correlation,
                Some(&self.client_id),
                r.request_header_flexible,
            );
            w.buf.extend_from_slice(r.body);
            framed.extend_from_slice(&wire::frame(&w.buf));
            expected.push((correlation, r.response_header_flexible));
        }
        (framed, expected)
    }

    /// Send `requests` back to back, then read their responses: one round trip in a row for
    /// all of them. A broker handles a connection's requests one at a time, in order, and
    /// answers them in that order (Kafka's protocol guide, "Network"), so the responses come
    /// back as the requests went out; each is matched by its correlation id all the same.
    pub async fn pipelined_raw(
        &mut self,
        requests: &[RawRequest<'_>],
    ) -> KafkaResult<Vec<Vec<u8>>> {
        let (framed, expected) = self.framed(requests);
        let addr = self.addr.clone();
        let what = match requests {
            [one] => format!("response to API {} v{}", one.api_key, one.version),
            many => format!(
                "responses to APIs {}",
                many.iter()
                    .map(|r| format!("{} v{}", r.api_key, r.version))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let timeout = self.timeout;
        let sent = if crate::trace::enabled() {
            traced_requests(requests, &expected)
        } else {
            String::new()
        };
        crate::trace::line(|| format!("{addr} -> {sent}"));
        let began = Instant::now();
        let io = &mut self.io;
        let frames = bounded(timeout, &addr, &what, async {
            let closed = |e: std::io::Error| KafkaError::Connect {
                addr: addr.clone(),
                detail: if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    "the broker closed the connection (does it support this request? right security.protocol?)"
                        .to_string()
                } else {
                    e.to_string()
                },
            };
            io.write_all(&framed).await.map_err(closed)?;
            io.flush().await.map_err(closed)?;
            let mut frames = Vec::with_capacity(expected.len());
            for _ in &expected {
                let frame = read_frame(io, MAX_FRAME).await.map_err(|e| match e {
                    FrameError::Io(e) => closed(e),
                    FrameError::Size(detail) => KafkaError::Protocol {
                        addr: addr.clone(),
                        detail,
                    },
                })?;
                frames.push(frame);
            }
            Ok(frames)
        })
        .await;
        crate::trace::line(|| {
            let took = began.elapsed().as_millis();
            match &frames {
                Ok(f) => {
                    let bytes: usize = f.iter().map(Vec::len).sum();
                    format!("{addr} <- {sent} in {took} ms ({bytes} bytes)")
                }
                Err(e) => format!("{addr} no answer to {sent} after {took} ms: {e}"),
            }
        });
        let frames = frames?;
        let mut bodies = Vec::with_capacity(frames.len());
        for (frame, (correlation, flexible)) in frames.iter().zip(expected) {
            let (got, body) = wire::read_response_header(frame, flexible)
                .map_err(|e| self.protocol_error(e.to_string()))?;
            if got != correlation {
                return Err(self.protocol_error(format!(
                    "correlation id {got} does not match request {correlation} (not a Kafka broker?)"
                )));
            }
            bodies.push(body.to_vec());
        }
        Ok(bodies)
    }

    /// The version to use for `api_key`: min(ours, broker's), or None if the broker lacks it or
    /// its range does not meet ours.
    pub fn version_for(&self, api_key: i16) -> Option<i16> {
        let ours = client_max_version(api_key)?;
        let (min, max) = *self.versions.get(&api_key)?;
        let v = ours.min(max);
        (v >= min).then_some(v)
    }

    /// Send a kafka-protocol request at `version` and decode the response (after the
    /// [`guard`] has checked it).
    pub async fn request<Req: Encodable, Resp: Guarded>(
        &mut self,
        key: ApiKey,
        version: i16,
        req: &Req,
    ) -> KafkaResult<Resp> {
        let body = encode(key, version, req)?;
        let mut bodies = self
            .pipelined_raw(&[RawRequest::typed(key, version, &body)])
            .await?;
        self.decoded(key, version, bodies.remove(0))
    }

    /// Two kafka-protocol requests sent back to back ([`Connection::pipelined_raw`]), each
    /// at its version: their responses in one round trip.
    pub async fn request_pair<A: Encodable, RA: Guarded, B: Encodable, RB: Guarded>(
        &mut self,
        a: (ApiKey, i16, &A),
        b: (ApiKey, i16, &B),
    ) -> KafkaResult<(RA, RB)> {
        let (body_a, body_b) = (encode(a.0, a.1, a.2)?, encode(b.0, b.1, b.2)?);
        let requests = [
            RawRequest::typed(a.0, a.1, &body_a),
            RawRequest::typed(b.0, b.1, &body_b),
        ];
        let mut bodies = self.pipelined_raw(&requests).await?.into_iter();
        let (Some(first), Some(second)) = (bodies.next(), bodies.next()) else {
            return Err(self.protocol_error("fewer responses than requests"));
        };
        Ok((
            self.decoded(a.0, a.1, first)?,
            self.decoded(b.0, b.1, second)?,
        ))
    }

    fn decoded<Resp: Guarded>(
        &self,
        key: ApiKey,
        version: i16,
        bytes: Vec<u8>,
    ) -> KafkaResult<Resp> {
        guard::decode::<Resp>(bytes, version)
            .map_err(|e| self.protocol_error(format!("cannot decode {key:?} v{version}: {e}")))
    }

    /// Negotiated request: picks the version, fails with a clear error when impossible.
    pub async fn negotiated<Req: Encodable, Resp: Guarded>(
        &mut self,
        key: ApiKey,
        min_needed: i16,
        req: &Req,
    ) -> KafkaResult<(i16, Resp)> {
        let v = self.negotiate(key, min_needed)?;
        let resp = self.request(key, v, req).await?;
        Ok((v, resp))
    }

    /// The version [`Connection::negotiated`] would send `key` at: a clear error when none.
    pub fn negotiate(&self, key: ApiKey, min_needed: i16) -> KafkaResult<i16> {
        self.version_for(key as i16)
            .filter(|v| *v >= min_needed)
            .ok_or_else(|| match is_controller_listener(&self.versions) {
                true => KafkaError::Unsupported {
                    detail: format!(
                        "{} is a KRaft controller listener, not a broker: it does not serve {key:?}",
                        self.addr
                    ),
                    hint: "give a broker's address (one of its `listeners`, not a \
                           `controller.quorum.voters` or `controller.quorum.bootstrap.servers` entry)"
                        .into(),
                },
                false => KafkaError::Unsupported {
                    detail: format!(
                        "broker {} does not support {key:?} v{min_needed}+ (it offers {:?})",
                        self.addr,
                        self.versions.get(&(key as i16))
                    ),
                    hint: "this tool needs Apache Kafka 3.8 or later (streams groups: 4.1 or \
                           later, 4.1 with its early-access settings)"
                        .into(),
                },
            })
    }

    async fn negotiate_versions(&mut self) -> KafkaResult<()> {
        let mut version: i16 = 3;
        for _attempt in 0..3 {
            let req = ApiVersionsRequest::default()
                .with_client_software_name(StrBytes::from_static_str("streams-group"))
                .with_client_software_version(StrBytes::from_static_str(env!("CARGO_PKG_VERSION")));
            let mut body = BytesMut::new();
            req.encode(&mut body, version)
                .map_err(|e| KafkaError::Config(format!("cannot encode ApiVersions: {e}")))?;
            // ApiVersions responses always use response header v0.
            let resp = self
                .roundtrip_raw(
                    ApiKey::ApiVersions as i16,
                    version,
                    &body,
                    version >= 3,
                    false,
                )
                .await?;
            let code = match resp.get(0..2) {
                Some(b) => i16::from_be_bytes([b[0], b[1]]),
                None => return Err(self.protocol_error("empty ApiVersions response")),
            };
            // On UNSUPPORTED_VERSION the body is a v0 body listing the broker's range.
            let decode_version = if code == 35 { 0 } else { version };
            let parsed = guard::decode::<ApiVersionsResponse>(resp, decode_version)
                .map_err(|e| self.protocol_error(format!("cannot decode ApiVersions: {e}")))?;
            if code == 35 {
                let broker_max = parsed
                    .api_keys
                    .iter()
                    .find(|k| k.api_key == ApiKey::ApiVersions as i16)
                    .map(|k| k.max_version)
                    .unwrap_or(0);
                let next = broker_max.min(3);
                if next >= version {
                    return Err(self.protocol_error("ApiVersions negotiation did not converge"));
                }
                version = next;
                continue;
            }
            if code != 0 {
                return Err(KafkaError::broker(
                    code,
                    None,
                    format!("ApiVersions from {}", self.addr),
                ));
            }
            self.versions = parsed
                .api_keys
                .iter()
                .map(|k| (k.api_key, (k.min_version, k.max_version)))
                .collect();
            self.finalized_features = parsed
                .finalized_features
                .iter()
                .map(|f| (f.name.to_string(), f.max_version_level))
                .collect();
            return Ok(());
        }
        Err(self.protocol_error("ApiVersions negotiation did not converge"))
    }

    async fn authenticate(
        &mut self,
        mechanism: SaslMechanism,
        username: &str,
        password: &str,
    ) -> KafkaResult<()> {
        let sasl_err = |addr: &str, detail: String| KafkaError::Sasl {
            addr: addr.to_string(),
            detail,
            fix: SaslFix::Credentials,
        };
        self.sasl_handshake(mechanism).await?;
        match mechanism {
            SaslMechanism::Plain => {
                let mut token = Vec::new();
                token.push(0);
                token.extend_from_slice(username.as_bytes());
                token.push(0);
                token.extend_from_slice(password.as_bytes());
                self.sasl_step(token).await?;
            }
            SaslMechanism::OAuthBearer | SaslMechanism::AwsMskIam | SaslMechanism::Gssapi => {
                return Err(sasl_err(
                    &self.addr,
                    format!("{} needs its own settings", mechanism.name()),
                ))
            }
            SaslMechanism::ScramSha256 | SaslMechanism::ScramSha512 => {
                let hash = ScramHash::for_mechanism(mechanism).unwrap_or(ScramHash::Sha256);
                let mut scram = ScramClient::new(hash, username, password);
                let server_first = self.sasl_step(scram.client_first().into_bytes()).await?;
                let server_first = String::from_utf8(server_first).map_err(|_| {
                    sasl_err(&self.addr, "server-first message is not UTF-8".into())
                })?;
                let client_final = scram
                    .client_final(&server_first)
                    .map_err(|e| sasl_err(&self.addr, e.0))?;
                let server_final = self.sasl_step(client_final.into_bytes()).await?;
                let server_final = String::from_utf8(server_final).map_err(|_| {
                    sasl_err(&self.addr, "server-final message is not UTF-8".into())
                })?;
                scram
                    .verify_server_final(&server_final)
                    .map_err(|e| sasl_err(&self.addr, e.0))?;
            }
        }
        Ok(())
    }

    async fn sasl_handshake(&mut self, mechanism: SaslMechanism) -> KafkaResult<()> {
        let hs = SaslHandshakeRequest::default()
            .with_mechanism(StrBytes::from_string(mechanism.name().to_string()));
        let (_, resp): (i16, SaslHandshakeResponse) = self
            .negotiated(ApiKey::SaslHandshake, 1, &hs)
            .await
            .map_err(|e| match e {
                KafkaError::Unsupported { .. } => KafkaError::Sasl {
                    addr: self.addr.clone(),
                    detail: "the broker does not offer SaslHandshake v1, so this is not a SASL \
                             listener"
                        .into(),
                    fix: SaslFix::NotSaslListener,
                },
                other => other,
            })?;
        if resp.error_code == 0 {
            return Ok(());
        }
        let offered: Vec<String> = resp.mechanisms.iter().map(|m| m.to_string()).collect();
        Err(handshake_failure(
            &self.addr,
            mechanism,
            resp.error_code,
            &offered,
        ))
    }

    async fn sasl_step(&mut self, token: Vec<u8>) -> KafkaResult<Vec<u8>> {
        let req = SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(token));
        let (_, resp): (i16, SaslAuthenticateResponse) =
            self.negotiated(ApiKey::SaslAuthenticate, 0, &req).await?;
        if resp.error_code != 0 {
            let msg = resp
                .error_message
                .map(|m| m.to_string())
                .unwrap_or_else(|| "authentication failed".into());
            return Err(KafkaError::Sasl {
                addr: self.addr.clone(),
                detail: format!("{msg} (error {})", resp.error_code),
                fix: SaslFix::Credentials,
            });
        }
        if resp.session_lifetime_ms > 0 {
            let length = Duration::from_millis(resp.session_lifetime_ms as u64);
            self.session = Some((Instant::now() + length, length));
        }
        Ok(resp.auth_bytes.to_vec())
    }
}

/// The error for a refused SaslHandshake. A broker answers ILLEGAL_SASL_STATE (with no
/// mechanisms) when the listener does not do SASL at all, and UNSUPPORTED_SASL_MECHANISM with the
/// listener's mechanisms otherwise; neither is a credentials problem.
fn handshake_failure(
    addr: &str,
    mechanism: SaslMechanism,
    code: i16,
    offered: &[String],
) -> KafkaError {
    let (detail, fix) = if code == ILLEGAL_SASL_STATE {
        (
            "this listener is not a SASL listener (SaslHandshake answered ILLEGAL_SASL_STATE), \
             but security.protocol asks for SASL"
                .to_string(),
            SaslFix::NotSaslListener,
        )
    } else if offered.is_empty() {
        (
            format!(
                "mechanism {} is not enabled on this listener, and it offers no SASL mechanisms \
                 ({})",
                mechanism.name(),
                ErrorCode::from_code(code).name()
            ),
            SaslFix::NotSaslListener,
        )
    } else {
        (
            format!(
                "mechanism {} is not enabled on this listener (it offers: {})",
                mechanism.name(),
                offered.join(", ")
            ),
            SaslFix::Mechanism,
        )
    };
    KafkaError::Sasl {
        addr: addr.to_string(),
        detail,
        fix,
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_controller_listener_is_told_from_a_broker() {
        let of = |keys: &[i16]| keys.iter().map(|k| (*k, (0, 1))).collect();
        // A controller: quorum and registration APIs, no group coordinator.
        assert!(is_controller_listener(&of(&[1, 3, 18, 52, 53, 55, 62, 63])));
        // A broker listener: FindCoordinator, no BrokerHeartbeat.
        assert!(!is_controller_listener(&of(&[0, 1, 3, 10, 18, 88, 89])));
        assert!(!is_controller_listener(&of(&[])));
    }
    use super::*;

    #[test]
    fn host_port_parsing() {
        assert_eq!(split_host_port("a:1").unwrap(), ("a".to_string(), 1));
        assert_eq!(
            split_host_port("[::1]:9092").unwrap(),
            ("::1".to_string(), 9092)
        );
        assert!(split_host_port("nope").is_err());
        assert!(split_host_port(":1").is_err());
        assert!(split_host_port("a:99999").is_err());
    }

    #[test]
    fn non_kafka_peers_are_recognised() {
        assert!(explain_bad_frame(&[0x15, 0x03, 0x03, 0x00])
            .unwrap()
            .contains("TLS listener"));
        assert!(explain_bad_frame(b"HTTP").unwrap().contains("HTTP"));
        assert_eq!(explain_bad_frame(&[0, 0, 0, 1]), None);
    }

    #[test]
    fn offset_fetch_is_capped_at_9() {
        assert_eq!(client_max_version(ApiKey::OffsetFetch as i16), Some(9));
        assert_eq!(client_max_version(API_STREAMS_GROUP_DESCRIBE), Some(1));
        assert_eq!(client_max_version(12345), None);
    }

    #[test]
    fn sasl_handshake_failures_name_what_the_listener_offers() {
        let hint = |e: &KafkaError| match e {
            KafkaError::Sasl { fix, .. } => *fix,
            _ => panic!("not a SASL error: {e}"),
        };
        let plain = handshake_failure("a:1", SaslMechanism::Plain, ILLEGAL_SASL_STATE, &[]);
        assert!(plain.to_string().contains("not a SASL listener"), "{plain}");
        assert_eq!(hint(&plain), SaslFix::NotSaslListener);
        let none = handshake_failure("a:1", SaslMechanism::ScramSha512, 33, &[]);
        assert!(
            none.to_string().contains("offers no SASL mechanisms"),
            "{none}"
        );
        assert!(!none.to_string().contains("offers: "), "{none}");
        let offered = ["PLAIN".to_string(), "SCRAM-SHA-256".to_string()];
        let some = handshake_failure("a:1", SaslMechanism::ScramSha512, 33, &offered);
        assert!(
            some.to_string()
                .contains("(it offers: PLAIN, SCRAM-SHA-256)"),
            "{some}"
        );
        assert_eq!(hint(&some), SaslFix::Mechanism);
    }
}
