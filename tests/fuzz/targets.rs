//! The targets' runs: one function per parser or decoder, with the checks it must pass.

use std::collections::BTreeMap;
use std::time::Duration;

use bytes::BytesMut;
use kafka_protocol::protocol::Encodable;

use kafka::codec::describe::{DescribeRequest, DescribeResponse};
use kafka::codec::heartbeat::{WireHeartbeatRequest, WireHeartbeatResponse};
use kafka::guard::{self, Guarded};

use super::{one_line, round_trip, sig, text, untracked, Outcome};

pub(crate) fn describe_response(input: &[u8]) -> Outcome {
    let mut out = Vec::new();
    for v in 0..=1 {
        let decoded = DescribeResponse::decode(input, v);
        if let Ok(r) = &decoded {
            for g in &r.groups {
                let _ = g.to_model();
            }
        }
        out.push(round_trip(
            "StreamsGroupDescribe response",
            v,
            decoded,
            |r| r.encode(v),
            |b| DescribeResponse::decode(b, v),
        )?);
    }
    Ok(out.join("|"))
}

pub(crate) fn describe_request(input: &[u8]) -> Outcome {
    let mut out = Vec::new();
    for v in 0..=1 {
        out.push(round_trip(
            "StreamsGroupDescribe request",
            v,
            DescribeRequest::decode(input, v),
            |r| r.encode(v),
            |b| DescribeRequest::decode(b, v),
        )?);
    }
    Ok(out.join("|"))
}

pub(crate) fn heartbeat_response(input: &[u8]) -> Outcome {
    let mut out = Vec::new();
    for v in 0..=1 {
        let decoded = WireHeartbeatResponse::decode(input, v);
        if let Ok(r) = &decoded {
            let _ = r.to_model(v);
        }
        out.push(round_trip(
            "StreamsGroupHeartbeat response",
            v,
            decoded,
            |r| r.encode(v),
            |b| WireHeartbeatResponse::decode(b, v),
        )?);
    }
    Ok(out.join("|"))
}

pub(crate) fn heartbeat_request(input: &[u8]) -> Outcome {
    let mut out = Vec::new();
    for v in 0..=1 {
        let decoded = WireHeartbeatRequest::decode(input, v);
        if let Ok(r) = &decoded {
            let _ = r.to_model();
        }
        out.push(round_trip(
            "StreamsGroupHeartbeat request",
            v,
            decoded,
            |r| r.encode(v),
            |b| WireHeartbeatRequest::decode(b, v),
        )?);
    }
    Ok(out.join("|"))
}

pub(crate) fn encode_kp<R: Encodable>(r: &R, v: i16) -> Result<Vec<u8>, String> {
    let mut b = BytesMut::new();
    r.encode(&mut b, v).map_err(|e| e.to_string())?;
    Ok(b.to_vec())
}

/// A kafka-protocol response through our guard, at every version we read. The guard must not
/// refuse what the crate itself reads: a decoded response, encoded again by the crate, reads the
/// same through the guard as through the crate alone. (Not required: that the crate's encoder
/// gives back the input. It does not always: an unknown tagged field numbered 2^31 or more is
/// counted but not written, which only matters to brokers.)
pub(crate) fn kp_response<R: Guarded + Encodable + PartialEq + std::fmt::Debug>(
    input: &[u8],
) -> Outcome {
    let (lo, hi) = R::SCHEMA.versions;
    let mut out = Vec::new();
    for v in lo..=hi {
        let value = match guard::decode::<R>(input.to_vec(), v) {
            Ok(r) => r,
            Err(e) => {
                out.push(sig(e));
                continue;
            }
        };
        untracked(|| {
            let Ok(bytes) = encode_kp(&value, v) else {
                return Ok(());
            };
            let Ok(plain) = R::decode(&mut bytes::Bytes::from(bytes.clone()), v) else {
                return Ok(());
            };
            match guard::decode::<R>(bytes, v) {
                Ok(guarded) if guarded == plain => Ok(()),
                Ok(_) => Err(format!(
                    "{} v{v}: the guard changed the value",
                    R::SCHEMA.name
                )),
                Err(e) => Err(format!(
                    "{} v{v}: the guard refuses what the crate reads: {e}",
                    R::SCHEMA.name
                )),
            }
        })?;
        out.push(format!("ok v{v}"));
    }
    Ok(out.join("|"))
}

/// A response frame as it comes off the socket: size prefix, header, body.
pub(crate) fn response_frame(input: &[u8]) -> Outcome {
    use kafka::conn::{read_frame, FrameError};
    let mut io = input;
    let frame = kafka::client::block_on(read_frame(&mut io, 1 << 28))
        .map_err(|e| format!("no runtime: {e}"))?;
    match frame {
        Err(FrameError::Io(e)) => Ok(sig(e)),
        Err(FrameError::Size(e)) => {
            one_line(&e)?;
            Ok(sig(e))
        }
        Ok(f) => {
            let mut out = Vec::new();
            for flexible in [false, true] {
                match kafka::wire::read_response_header(&f, flexible) {
                    Ok((_, body)) => {
                        let _ = DescribeResponse::decode(body, 1);
                        out.push("ok".to_string())
                    }
                    Err(e) => out.push(sig(e)),
                }
            }
            Ok(out.join("|"))
        }
    }
}

/// SCRAM server messages (the auth bytes of SaslAuthenticate responses).
pub(crate) fn scram(input: &[u8]) -> Outcome {
    use kafka::scram::{ScramClient, ScramHash};
    // PBKDF2 runs `i=` times: keep counts small so that 10,000 inputs stay quick (the range
    // check itself is unit-tested in scram.rs).
    let t = text(input);
    let t: String = t
        .split(',')
        .map(|p| match p.strip_prefix("i=") {
            Some(n) if n.len() > 2 && n.bytes().all(|b| b.is_ascii_digit()) => "i=99".into(),
            _ => p.to_string(),
        })
        .collect::<Vec<_>>()
        .join(",");
    let (first, last) = t.split_once('\n').unwrap_or((&t, ""));
    let mut c = ScramClient::with_nonce(ScramHash::Sha256, "alice", "alice-secret", "fuzznonce");
    let r = c.client_final(first);
    let s1 = match &r {
        Ok(m) => {
            if m.contains("alice-secret") {
                return Err(format!("client-final message holds the password: {m:?}"));
            }
            "ok".to_string()
        }
        Err(e) => {
            one_line(e)?;
            sig(e)
        }
    };
    let s2 = match c.verify_server_final(last) {
        Ok(()) => "ok".to_string(),
        Err(e) => {
            one_line(&e)?;
            sig(e)
        }
    };
    Ok(format!("{s1}|{s2}"))
}

pub(crate) fn describe_text(input: &[u8]) -> Outcome {
    let t = text(input);
    match streams_group::topology::parse_describe_with_notes(&t, "app") {
        Err(e) => {
            one_line(&e)?;
            Ok(sig(e))
        }
        Ok((topology, notes)) => {
            configure(&topology)?;
            Ok(format!("ok {} notes", notes.len()))
        }
    }
}

/// What `streams-group topology FILE` does after parsing: configure with 4 partitions per
/// source topic.
pub(crate) fn configure(t: &model::Topology) -> Result<(), String> {
    let mut md = BTreeMap::new();
    for s in &t.subtopologies {
        for topic in &s.source_topics {
            md.insert(topic.clone(), 4);
        }
    }
    if let Err(e) = coordinator::topics::configure(t, &md) {
        one_line(&e)?;
    }
    Ok(())
}

pub(crate) fn topology_json(input: &[u8]) -> Outcome {
    let t = text(input);
    let parsed = streams_group::topology::parse_topology(&t, Some("app"));
    match parsed {
        Err(e) => {
            one_line(&e)?;
            Ok(sig(e))
        }
        Ok(topology) => {
            configure(&topology)?;
            if streams_group::topology::detect_format(&t).ok()
                == Some(streams_group::topology::TopologyFormat::Json)
            {
                let again = serde_json::to_string(&topology).map_err(|e| e.to_string())?;
                match streams_group::topology::parse_json(&again) {
                    Ok(back) if back == topology => {}
                    Ok(back) => {
                        return Err(format!(
                            "parse, write, parse changed the topology:\n{topology:?}\n{back:?}"
                        ))
                    }
                    Err(e) => return Err(format!("our own JSON of it does not parse: {e}")),
                }
            }
            Ok("ok".into())
        }
    }
}

pub(crate) fn snapshot(input: &[u8]) -> Outcome {
    use streams_group::snapshot::*;
    use streams_group::topology::described::topology_of;
    use streams_group::topology::topic_counts::topic_metadata;
    let t = text(input);
    let s = match parse_snapshot(&t, "s.json") {
        Err(e) => {
            one_line(&e)?;
            return Ok(sig(e));
        }
        Ok(s) => s,
    };
    let mut out = vec!["ok".to_string()];
    for wanted in [None, Some("wordcount"), Some("nope")] {
        match find_group(&s, wanted) {
            Err(e) => {
                one_line(&e)?;
                out.push(sig(e));
            }
            Ok(g) => {
                if let Some(t) = topology_of(g) {
                    configure(&t)?;
                }
                let _ = topic_metadata(g, 4);
                out.push("found".into());
            }
        }
    }
    Ok(out.join("|"))
}

pub(crate) fn scenario(input: &[u8]) -> Outcome {
    let t = text(input);
    match serde_json::from_str::<streams_group::simulate::scenario::Scenario>(&t) {
        Err(e) => {
            one_line(&e)?;
            Ok(sig(e))
        }
        Ok(s) => {
            for step in &s.steps {
                let _ = step.action.label();
            }
            match s.check_limits(6, 2) {
                Ok(()) => Ok("ok".into()),
                Err(e) => {
                    one_line(&e)?;
                    Ok(sig(e))
                }
            }
        }
    }
}

pub(crate) fn properties(input: &[u8]) -> Outcome {
    use kafka::config::*;
    let t = text(input);
    let props = parse_properties(&t);
    let load = |props: &BTreeMap<String, String>| {
        from_properties("localhost:9092", Duration::from_secs(5), props, None)
            .map(|cfg| format!("{cfg:?}"))
            .map_err(|e| e.0)
    };
    let got = load(&props);
    if let Err(e) = &got {
        one_line(e)?;
    }
    // What is shown (the configuration's Debug, or the error) must not depend on the password:
    // the same file with another password shows the same.
    let mut other = props.clone();
    let mut changed = false;
    if let Some(p) = other.get_mut("sasl.password") {
        *p = format!("{p}-other");
        changed = true;
    }
    if let Some(j) = other.get_mut("sasl.jaas.config") {
        if let Some(p) = jaas_option(j, "password").filter(|p| !p.is_empty()) {
            if let Some(i) = j.find(&format!("password=\"{p}\"")) {
                j.insert_str(i + "password=\"".len() + p.len(), "-other");
                changed = true;
            }
        }
    }
    if changed && load(&other) != got {
        return Err(format!(
            "what is shown depends on the password: {got:?} / {:?}",
            load(&other)
        ));
    }
    Ok(match got {
        Ok(_) => "ok".into(),
        Err(e) => sig(e),
    })
}

/// `input::one_line` itself: one line of plain text out, plain text unchanged.
pub(crate) fn one_line_target(input: &[u8]) -> Outcome {
    let t = text(input);
    let out = model::input::one_line(&t);
    if let Some(c) = out.chars().find(|c| {
        (c.is_control() && *c != '\t')
            || matches!(c, '\u{2028}' | '\u{2029}')
            || model::input::is_bidi_control(*c)
    }) {
        return Err(format!("one_line({t:?}) = {out:?} holds {c:?}"));
    }
    let plain = |c: char| {
        !c.is_control()
            && !model::input::is_bidi_control(c)
            && !matches!(c, '\u{2028}' | '\u{2029}')
    };
    if t.chars().all(|c| plain(c) || c == '\t') && out != t {
        return Err(format!("one_line changed plain text {t:?} to {out:?}"));
    }
    // Every plain character survives, in order (escapes only add characters).
    let mut got = out.chars();
    if !t.chars().filter(|c| plain(*c)).all(|k| got.any(|g| g == k)) {
        return Err(format!("one_line({t:?}) = {out:?} lost text"));
    }
    Ok(format!("{}", out.len().min(8)))
}

/// The admin actions' user input: the CSV plan (one group and two), and every line as a
/// datetime, a duration and a topic scope. Errors are one line; a plan read back from its own
/// CSV is the same plan.
pub(crate) fn admin_input(input: &[u8]) -> Outcome {
    use streams_group::admin::parse::*;
    use streams_group::time::{parse_datetime, parse_iso_duration};
    let t = text(input);
    let mut out = Vec::new();
    for groups in [vec!["app".to_string()], vec!["a".into(), "b".into()]] {
        match csv_plan(&t, &groups) {
            Err(e) => {
                one_line(&e)?;
                out.push(sig(e));
            }
            Ok(plan) => {
                let mut csv = String::new();
                for (g, parts) in &plan {
                    for ((topic, p), o) in parts {
                        csv.push_str(&format!("{},{topic},{p},{o}\n", csv_field(g)));
                    }
                }
                let back = csv_plan(&csv, &["x".into(), "y".into()])
                    .map_err(|e| format!("our own CSV of the plan does not parse: {e}"))?;
                if back != plan {
                    return Err(format!(
                        "the plan changed through its CSV: {plan:?} / {back:?}"
                    ));
                }
                out.push("ok".into());
            }
        }
    }
    for line in t.lines().take(8) {
        for r in [
            parse_datetime(line).map(|_| ()),
            parse_iso_duration(line).map(|_| ()),
            topic_scope(line).map(|_| ()),
        ] {
            out.push(match r {
                Ok(()) => "ok".into(),
                Err(e) => {
                    one_line(&e)?;
                    sig(e)
                }
            });
        }
    }
    Ok(out.join("|"))
}

/// The key and value of a coordinator record in one fuzz input: an int16 key length (the top
/// bit set for a tombstone, which has no value), the key, then the value.
pub(crate) fn split_record(input: &[u8]) -> (&[u8], Option<&[u8]>) {
    let Some((head, rest)) = input.split_first_chunk::<2>() else {
        return (input, None);
    };
    let n = u16::from_be_bytes(*head);
    let (key, value) = rest.split_at(usize::from(n & 0x7fff).min(rest.len()));
    (key, (n & 0x8000 == 0).then_some(value))
}

pub(crate) fn coordinator_record(input: &[u8]) -> Outcome {
    use streams_group::history::{decode, encode::encode, group_of};
    let (key, value) = split_record(input);
    let filter = group_of(key);
    let d = match decode(key, value) {
        Ok(d) => d,
        Err(e) => {
            one_line(&e)?;
            return Ok(sig(e));
        }
    };
    untracked(|| {
        let r = &d.record;
        if let Some(group) = r.group_id() {
            if filter != Some((r.record_type(), group)) {
                return Err(format!("group_of says {filter:?} of a decoded {r:?}"));
            }
        }
        // Our own encoding decodes, to the same record or, once normalized (epochs of an
        // active subtopology split over two entries), to a record that no longer changes.
        let again = |r: &streams_group::history::CoordinatorRecord| {
            let (k, v) = encode(r)?;
            Some(decode(&k, v.as_deref()).map(|d| d.record))
        };
        if let Some(once) = again(r) {
            let once = once.map_err(|e| format!("our encoding of {r:?} does not decode: {e}"))?;
            if &once != r && again(&once) != Some(Ok(once.clone())) {
                return Err(format!(
                    "decode, encode, decode does not settle: {r:?}\n{once:?}"
                ));
            }
        }
        Ok(format!(
            "ok {} tombstone={} unknown={} trailing={}",
            r.record_type(),
            r.is_tombstone(),
            d.unknown_tagged_fields.min(2),
            d.trailing_bytes.min(2)
        ))
    })
}

/// Record batches as a Fetch response carries them, in every codec: read committed, every
/// record kept. What is read must be consistent: offsets in order, the next fetch after the
/// last whole batch, missing offsets only behind it.
pub(crate) fn record_batches(input: &[u8]) -> Outcome {
    use kafka::batches::read_batches;
    let read = match read_batches(input, &[], &|_| true) {
        Ok(r) => r,
        Err(e) => {
            one_line(&e)?;
            return Ok(sig(e));
        }
    };
    untracked(|| {
        let mut last = i64::MIN;
        for b in &read.batches {
            if b.records.iter().any(|r| r.offset < b.base_offset) && b.base_offset >= 0 {
                return Err(format!("a record before its batch's base offset: {b:?}"));
            }
            last = last.max(b.last_offset);
        }
        if let (Some(next), Some(missing)) = (read.next_offset, read.missing_through) {
            if missing >= next {
                return Err(format!("missing through {missing}, next fetch at {next}"));
            }
        }
        let records: usize = read.batches.iter().map(|b| b.records.len()).sum();
        Ok(format!(
            "batches:{} records:{} control:{} codecs:{:?} last:{}",
            read.batches.len().min(3),
            records.min(3),
            read.control_batches.min(2),
            read.codecs.keys().collect::<Vec<_>>(),
            (last == i64::MIN) as u8
        ))
    })
}
