//! Fetch (API 1) at version 11, for one partition: the last version that names topics (v13+
//! need the topic id) and is not flexible, supported by every broker with streams groups
//! (Kafka 4.0 dropped versions 0-3 only). The records come back as raw bytes: record batches
//! that [`crate::batches`] reads.

use super::EncodeError;
use crate::wire::{DecodeResult, Reader, Writer};

pub const VERSION: i16 = 11;
pub const API_FETCH: i16 = 1;

/// A fetch of one partition from `offset`, read committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchRequest {
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
    pub max_wait_ms: i32,
    /// At most this many bytes in the response (and from the partition).
    pub max_bytes: i32,
}

/// A transaction aborted in the fetched range: its records (from `first_offset`, by
/// `producer_id`) are not to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbortedTransaction {
    pub producer_id: i64,
    pub first_offset: i64,
}

/// What the partition's leader answered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FetchedPartition {
    pub error_code: i16,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    pub log_start_offset: i64,
    pub aborted: Vec<AbortedTransaction>,
    /// Record batches, the last possibly cut short by the size limit.
    pub records: Vec<u8>,
}

impl FetchRequest {
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        let mut w = Writer::new();
        w.i32(-1); // replica id: a consumer
        w.i32(self.max_wait_ms);
        w.i32(1); // min bytes
        w.i32(self.max_bytes);
        w.i8(1); // read committed: aborted transactions are listed
        w.i32(0); // no fetch session
        w.i32(-1);
        w.i32(1); // one topic
        string(&mut w, &self.topic)?;
        w.i32(1); // one partition
        w.i32(self.partition);
        w.i32(-1); // current leader epoch: not known
        w.i64(self.offset);
        w.i64(-1); // log start offset: a consumer's
        w.i32(self.max_bytes);
        w.i32(0); // forgotten topics
        string(&mut w, "")?; // rack id
        Ok(w.into_bytes())
    }
}

fn string(w: &mut Writer, s: &str) -> Result<(), EncodeError> {
    let n = i16::try_from(s.len())
        .map_err(|_| EncodeError(format!("topic name of {} bytes is too long", s.len())))?;
    w.i16(n);
    w.buf.extend_from_slice(s.as_bytes());
    Ok(())
}

/// The answer for `topic`/`partition` in a Fetch v11 response; `None` when the response does
/// not mention it. A top-level error is returned as the partition's error.
pub fn decode_response(
    bytes: &[u8],
    topic: &str,
    partition: i32,
) -> DecodeResult<Option<FetchedPartition>> {
    let mut r = Reader::new(bytes);
    let _throttle = r.i32()?;
    let error_code = r.i16()?;
    let _session = r.i32()?;
    let topics = array_len(&mut r)?;
    let mut found = None;
    if error_code != 0 {
        found = Some(FetchedPartition {
            error_code,
            ..FetchedPartition::default()
        });
    }
    for _ in 0..topics {
        let name = r.nullable_string()?.unwrap_or_default();
        let partitions = array_len(&mut r)?;
        for _ in 0..partitions {
            let p = partition_of(&mut r)?;
            if name == topic && p.0 == partition {
                found = Some(p.1);
            }
        }
    }
    Ok(found)
}

fn partition_of(r: &mut Reader<'_>) -> DecodeResult<(i32, FetchedPartition)> {
    let index = r.i32()?;
    let error_code = r.i16()?;
    let high_watermark = r.i64()?;
    let last_stable_offset = r.i64()?;
    let log_start_offset = r.i64()?;
    let mut aborted = Vec::new();
    let n = r.i32()?;
    for _ in 0..n.max(0) {
        aborted.push(AbortedTransaction {
            producer_id: r.i64()?,
            first_offset: r.i64()?,
        });
    }
    let _preferred_read_replica = r.i32()?;
    let len = r.i32()?;
    let records = if len < 0 {
        Vec::new()
    } else {
        r.bytes(len as usize)?.to_vec()
    };
    Ok((
        index,
        FetchedPartition {
            error_code,
            high_watermark,
            last_stable_offset,
            log_start_offset,
            aborted,
            records,
        },
    ))
}

/// An array's length; a negative one (null) is empty.
fn array_len(r: &mut Reader<'_>) -> DecodeResult<usize> {
    let n = r.i32()?;
    // Every element takes at least a byte: a larger count cannot be real.
    if n > 0 && n as usize > r.remaining() {
        return r.err(format!("array of {n} elements in {} bytes", r.remaining()));
    }
    Ok(n.max(0) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(records: &[u8], aborted: &[(i64, i64)]) -> Vec<u8> {
        let mut w = Writer::new();
        w.i32(0);
        w.i16(0);
        w.i32(0);
        w.i32(1);
        string(&mut w, "__consumer_offsets").unwrap();
        w.i32(1);
        w.i32(7);
        w.i16(0);
        w.i64(120);
        w.i64(118);
        w.i64(3);
        w.i32(aborted.len() as i32);
        for (p, o) in aborted {
            w.i64(*p);
            w.i64(*o);
        }
        w.i32(-1);
        w.i32(records.len() as i32);
        w.buf.extend_from_slice(records);
        w.into_bytes()
    }

    #[test]
    fn a_partition_is_read_back_and_others_are_not_found() {
        let bytes = response(b"batch", &[(5, 100)]);
        let p = decode_response(&bytes, "__consumer_offsets", 7)
            .unwrap()
            .unwrap();
        assert_eq!(
            (p.high_watermark, p.last_stable_offset, p.log_start_offset),
            (120, 118, 3)
        );
        assert_eq!(
            p.aborted,
            [AbortedTransaction {
                producer_id: 5,
                first_offset: 100
            }]
        );
        assert_eq!(p.records, b"batch");
        assert_eq!(
            decode_response(&bytes, "__consumer_offsets", 8).unwrap(),
            None
        );
    }

    #[test]
    fn truncated_responses_are_errors_not_panics() {
        let bytes = response(b"0123456789", &[(1, 2)]);
        for n in 0..bytes.len() {
            let _ = decode_response(&bytes[..n], "__consumer_offsets", 7);
        }
        assert!(decode_response(&bytes[..bytes.len() - 1], "__consumer_offsets", 7).is_err());
    }

    #[test]
    fn the_request_names_one_partition() {
        let req = FetchRequest {
            topic: "__consumer_offsets".into(),
            partition: 7,
            offset: 42,
            max_wait_ms: 500,
            max_bytes: 1 << 20,
        };
        let b = req.encode().unwrap();
        // replica, wait, min, max, isolation, session, epoch, topics count
        assert_eq!(&b[0..4], &(-1i32).to_be_bytes());
        assert_eq!(b[16], 1, "read committed");
        assert_eq!(
            b.len(),
            4 * 4 + 1 + 4 + 4 + 4 + 2 + 18 + 4 + 4 + 4 + 8 + 8 + 4 + 4 + 2
        );
    }
}
