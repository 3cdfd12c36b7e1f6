//! Record batches (magic 2) as a Fetch returns them: framing, the four compression codecs a
//! broker may write (gzip, snappy, lz4, zstd), control batches and aborted transactions.
//!
//! Pure: bytes in, records out. A batch cut short at the end of a response (the size limit
//! falls inside it) ends the read, and the caller fetches again from `next_offset`. Nothing
//! here trusts a length it has not checked: a decompressed batch is bounded, and a malformed
//! one is an error naming its offset.

use std::io::Read;

use super::codec::fetch::AbortedTransaction;
use super::wire::Reader;

/// The most bytes one decompressed batch may take (a broker's batches are at most
/// `message.max.bytes`, 1 MiB by default; this leaves room for large settings).
const MAX_DECOMPRESSED: u64 = 256 * 1024 * 1024;

/// One record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub offset: i64,
    pub timestamp_ms: i64,
    pub key: Option<Vec<u8>>,
    pub value: Option<Vec<u8>>,
}

/// One batch: one write of its producer (for a group coordinator, one decision).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub base_offset: i64,
    pub last_offset: i64,
    /// The batch's largest record timestamp.
    pub max_timestamp_ms: i64,
    /// The records `keep` accepted.
    pub records: Vec<Record>,
}

/// What one response's records held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batches {
    pub batches: Vec<Batch>,
    /// Where the next fetch starts: after the last whole batch read (the offset fetched from
    /// when there was none).
    pub next_offset: Option<i64>,
    pub control_batches: u64,
    pub aborted_batches: u64,
    /// Batches read, by compression codec (`none`, `gzip`, `snappy`, `lz4`, `zstd`).
    pub codecs: std::collections::BTreeMap<&'static str, u64>,
    /// The first batch's base offset (a fetch from an offset that compaction removed starts
    /// at a later one).
    pub first_offset: Option<i64>,
    /// The last offset up to which records are missing: compaction removed whole batches
    /// between two (their offsets do not follow on) or records from inside one (it keeps a
    /// cleaned batch's first and last offsets, so it spans more offsets than it has records).
    pub missing_through: Option<i64>,
}

/// A batch that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordsError(pub String);

impl std::fmt::Display for RecordsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordsError {}

/// The batch header's attributes.
const COMPRESSION: i16 = 0x07;
const TRANSACTIONAL: i16 = 0x10;
const CONTROL: i16 = 0x20;

/// Read the batches in `bytes`, keeping the records whose key `keep` accepts (read
/// committed: batches of the `aborted` transactions and control batches are skipped).
pub fn read_batches(
    bytes: &[u8],
    aborted: &[AbortedTransaction],
    keep: &dyn Fn(&[u8]) -> bool,
) -> Result<Batches, RecordsError> {
    let mut out = Batches::default();
    let mut pending_aborts: Vec<AbortedTransaction> = aborted.to_vec();
    pending_aborts.sort_by_key(|a| a.first_offset);
    let mut aborting: Vec<i64> = Vec::new();
    let mut rest = bytes;
    while rest.len() >= 12 {
        let base_offset = i64::from_be_bytes(rest[0..8].try_into().unwrap_or_default());
        let len = i32::from_be_bytes(rest[8..12].try_into().unwrap_or_default());
        if len < 49 {
            return Err(RecordsError(format!(
                "batch at offset {base_offset} claims {len} bytes, less than a batch header"
            )));
        }
        let total = 12 + len as usize;
        if rest.len() < total {
            break; // cut short by the size limit: fetch again from here
        }
        let (batch, after) = rest.split_at(total);
        rest = after;
        let header = header(base_offset, batch)?;
        out.first_offset.get_or_insert(base_offset);
        if out.next_offset.is_some_and(|next| base_offset < next) {
            return Err(RecordsError(format!(
                "batch at offset {base_offset} comes after one that ended at offset {}",
                out.next_offset.unwrap_or_default() - 1
            )));
        }
        let follows_on = out.next_offset.is_none_or(|next| base_offset <= next);
        let whole = i64::from(header.count) > header.last_offset - base_offset;
        if !follows_on || !whole {
            out.missing_through = Some(match whole {
                true => base_offset - 1,
                false => header.last_offset,
            });
        }
        out.next_offset = Some(header.last_offset.saturating_add(1));
        // Transactions the response says were aborted begin at their first offset.
        while let Some(a) = pending_aborts
            .first()
            .filter(|a| a.first_offset <= header.last_offset)
        {
            aborting.push(a.producer_id);
            pending_aborts.remove(0);
        }
        if header.attributes & CONTROL != 0 {
            out.control_batches += 1;
            // A marker ends its producer's transaction.
            aborting.retain(|p| *p != header.producer_id);
            continue;
        }
        if header.attributes & TRANSACTIONAL != 0 && aborting.contains(&header.producer_id) {
            out.aborted_batches += 1;
            continue;
        }
        *out.codecs
            .entry(codec_name(header.attributes & COMPRESSION))
            .or_default() += 1;
        let records = records(&header, &batch[61..], keep)?;
        out.batches.push(Batch {
            base_offset,
            last_offset: header.last_offset,
            max_timestamp_ms: header.max_timestamp_ms,
            records,
        });
    }
    Ok(out)
}

struct Header {
    base_offset: i64,
    last_offset: i64,
    attributes: i16,
    base_timestamp_ms: i64,
    max_timestamp_ms: i64,
    producer_id: i64,
    count: i32,
}

/// The header of the whole batch `b` (offset and length included).
fn header(base_offset: i64, b: &[u8]) -> Result<Header, RecordsError> {
    let bad = |what: &str| RecordsError(format!("batch at offset {base_offset}: {what}"));
    let mut r = Reader::new(&b[12..]);
    let mut read = || -> Result<Header, crate::wire::DecodeError> {
        let _leader_epoch = r.i32()?;
        let magic = r.i8()?;
        if magic != 2 {
            return r.err(format!(
                "magic {magic} (only record batches of magic 2 are read)"
            ));
        }
        let _crc = r.i32()?;
        let attributes = r.i16()?;
        let last_delta = r.i32()?;
        let base_timestamp_ms = r.i64()?;
        let max_timestamp_ms = r.i64()?;
        let producer_id = r.i64()?;
        let _epoch = r.i16()?;
        let _sequence = r.i32()?;
        let count = r.i32()?;
        let past_end = base_offset.checked_add(i64::from(last_delta) + 1);
        if last_delta < 0 || count < 0 || base_offset < 0 || past_end.is_none() {
            return r.err(format!(
                "base offset {base_offset}, last offset delta {last_delta}, {count} records"
            ));
        }
        Ok(Header {
            base_offset,
            last_offset: base_offset.saturating_add(i64::from(last_delta)),
            attributes,
            base_timestamp_ms,
            max_timestamp_ms,
            producer_id,
            count,
        })
    };
    read().map_err(|e| bad(&e.to_string()))
}

/// The records of a batch (after its 61-byte header), decompressed.
fn records(
    h: &Header,
    body: &[u8],
    keep: &dyn Fn(&[u8]) -> bool,
) -> Result<Vec<Record>, RecordsError> {
    let bad = |what: String| RecordsError(format!("batch at offset {}: {what}", h.base_offset));
    let plain;
    let body = match h.attributes & COMPRESSION {
        0 => body,
        codec => {
            plain = decompress(codec, body).map_err(bad)?;
            &plain[..]
        }
    };
    let mut r = Reader::new(body);
    let mut out = Vec::new();
    for _ in 0..h.count.max(0) {
        let rec = record(&mut r, h).map_err(|e| bad(e.to_string()))?;
        if rec.key.as_deref().is_some_and(keep) {
            out.push(rec);
        }
    }
    Ok(out)
}

fn record(r: &mut Reader<'_>, h: &Header) -> crate::wire::DecodeResult<Record> {
    let len = varint(r)?;
    if len < 0 || len as usize > r.remaining() {
        return r.err(format!("record of {len} bytes in {} left", r.remaining()));
    }
    let mut inner = Reader::new(r.bytes(len as usize)?);
    let _attributes = inner.i8()?;
    let timestamp_delta = varlong(&mut inner)?;
    let offset_delta = varint(&mut inner)?;
    // A record lies inside its batch (a cleaned batch keeps its span, so gaps are fine).
    let span = h.last_offset - h.base_offset;
    if offset_delta < 0 || i64::from(offset_delta) > span {
        return inner.err(format!(
            "record offset delta {offset_delta} outside its batch (0 to {span})"
        ));
    }
    let key = bytes_field(&mut inner)?;
    let value = bytes_field(&mut inner)?;
    // Headers follow; the coordinator writes none, and nothing here needs them.
    Ok(Record {
        offset: h.base_offset + i64::from(offset_delta),
        timestamp_ms: h.base_timestamp_ms.saturating_add(timestamp_delta),
        key,
        value,
    })
}

fn bytes_field(r: &mut Reader<'_>) -> crate::wire::DecodeResult<Option<Vec<u8>>> {
    let n = varint(r)?;
    if n < 0 {
        return Ok(None);
    }
    Ok(Some(r.bytes(n as usize)?.to_vec()))
}

/// A zigzag varint of at most 32 bits.
fn varint(r: &mut Reader<'_>) -> crate::wire::DecodeResult<i32> {
    let v = varlong(r)?;
    i32::try_from(v).or_else(|_| r.err(format!("varint {v} out of range")))
}

/// A zigzag varint of at most 64 bits.
fn varlong(r: &mut Reader<'_>) -> crate::wire::DecodeResult<i64> {
    let mut raw: u64 = 0;
    for shift in (0..70).step_by(7) {
        let b = r.i8()? as u8;
        if shift == 63 && b > 1 {
            return r.err("varint longer than 64 bits");
        }
        raw |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok((raw >> 1) as i64 ^ -((raw & 1) as i64));
        }
    }
    r.err("varint longer than 64 bits")
}

/// The records of a compressed batch, at most [`MAX_DECOMPRESSED`] bytes.
fn decompress(codec: i16, data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let read = |src: &mut dyn Read, out: &mut Vec<u8>| {
        src.take(MAX_DECOMPRESSED + 1)
            .read_to_end(out)
            .map_err(|e| e.to_string())
    };
    match codec {
        1 => read(&mut flate2::read::GzDecoder::new(data), &mut out),
        2 => return snappy(data),
        3 => read(&mut lz4_flex::frame::FrameDecoder::new(data), &mut out),
        4 => {
            let mut d = ruzstd::decoding::StreamingDecoder::new(data).map_err(|e| e.to_string())?;
            read(&mut d, &mut out)
        }
        other => return Err(format!("unknown compression codec {other}")),
    }
    .map_err(|e| format!("cannot decompress ({}): {e}", codec_name(codec)))?;
    if out.len() as u64 > MAX_DECOMPRESSED {
        return Err(format!(
            "decompresses to more than {MAX_DECOMPRESSED} bytes"
        ));
    }
    Ok(out)
}

fn codec_name(codec: i16) -> &'static str {
    match codec {
        0 => "none",
        1 => "gzip",
        2 => "snappy",
        3 => "lz4",
        4 => "zstd",
        _ => "unknown",
    }
}

/// The Java client frames snappy as xerial's `SnappyOutputStream` does (a magic header, then
/// length-prefixed raw snappy blocks); other producers may write one raw block.
fn snappy(data: &[u8]) -> Result<Vec<u8>, String> {
    const MAGIC: &[u8] = b"\x82SNAPPY\x00";
    let raw = |b: &[u8]| -> Result<Vec<u8>, String> {
        let n = snap::raw::decompress_len(b).map_err(|e| format!("snappy: {e}"))?;
        // A block claims its length up front; snappy's densest op (a 3-byte copy of 64 bytes)
        // cannot expand more than 22 times, so a larger claim is corrupt, not allocated.
        if n as u64 > MAX_DECOMPRESSED || n > 22 * b.len() + 32 {
            return Err(format!(
                "snappy block of {} bytes claims {n} bytes",
                b.len()
            ));
        }
        snap::raw::Decoder::new()
            .decompress_vec(b)
            .map_err(|e| format!("snappy: {e}"))
    };
    let Some(mut rest) = data.strip_prefix(MAGIC) else {
        return raw(data);
    };
    rest = rest.get(8..).ok_or("snappy: header cut short")?; // version, compatible version
    let mut out = Vec::new();
    while !rest.is_empty() {
        let len = rest
            .get(..4)
            .map(|b| u32::from_be_bytes(b.try_into().unwrap_or_default()) as usize)
            .ok_or("snappy: block length cut short")?;
        let block = rest.get(4..4 + len).ok_or("snappy: block cut short")?;
        out.extend(raw(block)?);
        if out.len() as u64 > MAX_DECOMPRESSED {
            return Err(format!(
                "decompresses to more than {MAX_DECOMPRESSED} bytes"
            ));
        }
        rest = &rest[4 + len..];
    }
    Ok(out)
}

/// Test-only: compiled for this crate's tests and with the `testing` feature.
#[cfg(any(test, feature = "testing"))]
pub mod build;

#[cfg(test)]
mod tests;
