//! Record batches written as a broker writes them (magic 2), for the tests and the fuzzer's
//! seeds: [`super::read_batches`] reads exactly what is built here.

use super::COMPRESSION;

/// A zigzag varint.
fn varint(out: &mut Vec<u8>, v: i64) {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    loop {
        let b = (z & 0x7f) as u8;
        z >>= 7;
        if z == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn record(offset_delta: i64, ts_delta: i64, key: Option<&[u8]>, value: Option<&[u8]>) -> Vec<u8> {
    let mut body = vec![0u8];
    varint(&mut body, ts_delta);
    varint(&mut body, offset_delta);
    for f in [key, value] {
        match f {
            Some(b) => {
                varint(&mut body, b.len() as i64);
                body.extend_from_slice(b);
            }
            None => varint(&mut body, -1),
        }
    }
    varint(&mut body, 0); // headers
    let mut out = Vec::new();
    varint(&mut out, body.len() as i64);
    out.extend(body);
    out
}

/// A batch to write: its first offset, attributes (codec in the low 3 bits, transactional,
/// control), producer id, and each record's key and value (None: null).
pub struct BatchSpec<'a> {
    pub base: i64,
    pub attributes: i16,
    pub producer: i64,
    pub records: Vec<KeyValue<'a>>,
}

/// A record's key and value (None: null).
pub type KeyValue<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);

/// `plain` compressed with `codec` (1 gzip, 2 snappy in xerial framing, 3 lz4 frame; anything
/// else: as is), as the Java client writes it.
pub fn compress(codec: i16, plain: &[u8]) -> Vec<u8> {
    use std::io::Write;
    match codec {
        0 => plain.to_vec(),
        1 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            let _ = e.write_all(plain);
            e.finish().unwrap_or_default()
        }
        2 => {
            // xerial framing, as the Java client writes it
            let block = snap::raw::Encoder::new()
                .compress_vec(plain)
                .unwrap_or_default();
            let mut out = b"\x82SNAPPY\x00".to_vec();
            out.extend(1i32.to_be_bytes());
            out.extend(1i32.to_be_bytes());
            out.extend((block.len() as u32).to_be_bytes());
            out.extend(block);
            out
        }
        3 => {
            let mut e = lz4_flex::frame::FrameEncoder::new(Vec::new());
            let _ = e.write_all(plain);
            e.finish().unwrap_or_default()
        }
        _ => plain.to_vec(),
    }
}

/// The batch, framed as in a Fetch response (CRC not computed: this reader does not check it).
pub fn batch(b: &BatchSpec<'_>) -> Vec<u8> {
    let mut plain = Vec::new();
    for (i, (k, v)) in b.records.iter().enumerate() {
        plain.extend(record(i as i64, i as i64 * 10, *k, *v));
    }
    let body = compress(b.attributes & COMPRESSION, &plain);
    let mut after_len = Vec::new();
    after_len.extend(0i32.to_be_bytes()); // leader epoch
    after_len.push(2); // magic
    after_len.extend(0u32.to_be_bytes()); // crc (not checked)
    after_len.extend(b.attributes.to_be_bytes());
    after_len.extend((b.records.len() as i32 - 1).max(0).to_be_bytes());
    after_len.extend(1_000i64.to_be_bytes());
    after_len.extend(1_000i64.to_be_bytes());
    after_len.extend(b.producer.to_be_bytes());
    after_len.extend(0i16.to_be_bytes());
    after_len.extend(0i32.to_be_bytes());
    after_len.extend((b.records.len() as i32).to_be_bytes());
    after_len.extend(body);
    let mut out = b.base.to_be_bytes().to_vec();
    out.extend((after_len.len() as i32).to_be_bytes());
    out.extend(after_len);
    out
}
