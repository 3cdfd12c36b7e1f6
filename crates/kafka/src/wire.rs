//! Primitive encodings of the Kafka protocol: big-endian integers, unsigned varints, compact
//! (flexible-version) strings, arrays and tagged-field sections, plus request/response framing.
//! Pure, no I/O: the wire client (this crate) and the tool's decoder of the coordinator's records
//! in `__consumer_offsets` (`history::records`) share it.
//!
//! The [`Reader`] never panics: every read checks the remaining length and returns a
//! [`DecodeError`]. Array counts are checked against the bytes left (every element takes at least
//! one byte), so garbage cannot make it allocate huge buffers.

use std::fmt;

/// A response (or request) that could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub what: String,
    pub offset: usize,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed message: {} at byte {}",
            self.what, self.offset
        )
    }
}

impl std::error::Error for DecodeError {}

pub type DecodeResult<T> = Result<T, DecodeError>;

/// A cursor over a byte slice.
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn rest(&self) -> &'a [u8] {
        &self.buf[self.pos..]
    }

    pub fn err<T>(&self, what: impl Into<String>) -> DecodeResult<T> {
        Err(DecodeError {
            what: what.into(),
            offset: self.pos,
        })
    }

    pub fn bytes(&mut self, n: usize) -> DecodeResult<&'a [u8]> {
        if n > self.remaining() {
            return self.err(format!(
                "truncated: need {n} bytes, {} left",
                self.remaining()
            ));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> DecodeResult<[u8; N]> {
        let s = self.bytes(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub fn i8(&mut self) -> DecodeResult<i8> {
        Ok(i8::from_be_bytes(self.array()?))
    }
    pub fn i16(&mut self) -> DecodeResult<i16> {
        Ok(i16::from_be_bytes(self.array()?))
    }
    pub fn u16(&mut self) -> DecodeResult<u16> {
        Ok(u16::from_be_bytes(self.array()?))
    }
    pub fn i32(&mut self) -> DecodeResult<i32> {
        Ok(i32::from_be_bytes(self.array()?))
    }
    pub fn i64(&mut self) -> DecodeResult<i64> {
        Ok(i64::from_be_bytes(self.array()?))
    }
    pub fn bool(&mut self) -> DecodeResult<bool> {
        Ok(self.i8()? != 0)
    }

    /// Unsigned varint, at most 5 bytes (32 bits).
    pub fn uvarint(&mut self) -> DecodeResult<u32> {
        let mut value: u32 = 0;
        for i in 0..5 {
            let b = self.array::<1>()?[0];
            if i == 4 && b > 0x0f {
                return self.err("unsigned varint too long");
            }
            value |= u32::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.err("unsigned varint too long")
    }

    /// Compact length: uvarint(N+1), 0 = null.
    fn compact_len(&mut self) -> DecodeResult<Option<usize>> {
        let n = self.uvarint()?;
        Ok(if n == 0 { None } else { Some((n - 1) as usize) })
    }

    pub fn compact_nullable_string(&mut self) -> DecodeResult<Option<String>> {
        match self.compact_len()? {
            None => Ok(None),
            Some(n) => {
                let start = self.pos;
                let b = self.bytes(n)?;
                match std::str::from_utf8(b) {
                    Ok(s) => Ok(Some(s.to_string())),
                    Err(_) => Err(DecodeError {
                        what: "string is not UTF-8".into(),
                        offset: start,
                    }),
                }
            }
        }
    }

    pub fn compact_string(&mut self) -> DecodeResult<String> {
        match self.compact_nullable_string()? {
            Some(s) => Ok(s),
            None => self.err("null in a non-nullable string"),
        }
    }

    pub fn compact_nullable_bytes(&mut self) -> DecodeResult<Option<Vec<u8>>> {
        match self.compact_len()? {
            None => Ok(None),
            Some(n) => Ok(Some(self.bytes(n)?.to_vec())),
        }
    }

    /// The element count of a compact array, checked against the bytes left.
    pub fn compact_array_len(&mut self) -> DecodeResult<Option<usize>> {
        let n = self.compact_len()?;
        if let Some(n) = n {
            if n > self.remaining() {
                return self.err(format!(
                    "array of {n} elements cannot fit in {} bytes",
                    self.remaining()
                ));
            }
        }
        Ok(n)
    }

    pub fn compact_nullable_array<T>(
        &mut self,
        mut f: impl FnMut(&mut Reader<'a>) -> DecodeResult<T>,
    ) -> DecodeResult<Option<Vec<T>>> {
        match self.compact_array_len()? {
            None => Ok(None),
            Some(n) => {
                // `n` is the peer's word, checked only against the bytes left (one per element);
                // reserve no more memory than those bytes, and let real elements grow it.
                let mut v =
                    Vec::with_capacity(n.min(self.remaining() / std::mem::size_of::<T>().max(1)));
                for _ in 0..n {
                    v.push(f(self)?);
                }
                Ok(Some(v))
            }
        }
    }

    pub fn compact_array<T>(
        &mut self,
        f: impl FnMut(&mut Reader<'a>) -> DecodeResult<T>,
    ) -> DecodeResult<Vec<T>> {
        match self.compact_nullable_array(f)? {
            Some(v) => Ok(v),
            None => self.err("null in a non-nullable array"),
        }
    }

    /// Nullable struct marker: -1 = null, 1 = present.
    pub fn struct_present(&mut self) -> DecodeResult<bool> {
        match self.i8()? {
            -1 => Ok(false),
            1 => Ok(true),
            x => self.err(format!("bad nullable-struct marker {x}")),
        }
    }

    /// Skip a tagged-field section (no tags are known in the streams schemas).
    pub fn skip_tagged_fields(&mut self) -> DecodeResult<()> {
        let count = self.uvarint()?;
        let mut last: Option<u32> = None;
        for _ in 0..count {
            let tag = self.uvarint()?;
            if last.is_some_and(|l| tag <= l) {
                return self.err("tagged fields out of order");
            }
            last = Some(tag);
            let size = self.uvarint()? as usize;
            self.bytes(size)?;
        }
        Ok(())
    }

    /// Non-flexible nullable string: int16 length, -1 = null.
    pub fn nullable_string(&mut self) -> DecodeResult<Option<String>> {
        let n = self.i16()?;
        if n < 0 {
            return Ok(None);
        }
        let start = self.pos;
        let b = self.bytes(n as usize)?;
        match std::str::from_utf8(b) {
            Ok(s) => Ok(Some(s.to_string())),
            Err(_) => Err(DecodeError {
                what: "string is not UTF-8".into(),
                offset: start,
            }),
        }
    }

    pub fn expect_end(&self) -> DecodeResult<()> {
        if self.remaining() == 0 {
            Ok(())
        } else {
            self.err(format!("{} unexpected trailing bytes", self.remaining()))
        }
    }
}

/// An append-only byte buffer with the protocol's encodings.
#[derive(Default)]
pub struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
    pub fn i8(&mut self, v: i8) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn i16(&mut self, v: i16) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn i64(&mut self, v: i64) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn bool(&mut self, v: bool) {
        self.buf.push(u8::from(v));
    }
    pub fn uvarint(&mut self, mut v: u32) {
        while v >= 0x80 {
            self.buf.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }
    fn compact_len(&mut self, n: usize) {
        // Lengths beyond u32 cannot occur for anything we build in memory.
        self.uvarint(u32::try_from(n + 1).unwrap_or(u32::MAX));
    }
    pub fn compact_string(&mut self, s: &str) {
        self.compact_len(s.len());
        self.buf.extend_from_slice(s.as_bytes());
    }
    pub fn compact_nullable_string(&mut self, s: Option<&str>) {
        match s {
            None => self.uvarint(0),
            Some(s) => self.compact_string(s),
        }
    }
    pub fn compact_bytes(&mut self, b: &[u8]) {
        self.compact_len(b.len());
        self.buf.extend_from_slice(b);
    }
    pub fn compact_array<T>(&mut self, items: &[T], mut f: impl FnMut(&mut Writer, &T)) {
        self.compact_len(items.len());
        for it in items {
            f(self, it);
        }
    }
    pub fn compact_nullable_array<T>(
        &mut self,
        items: Option<&[T]>,
        f: impl FnMut(&mut Writer, &T),
    ) {
        match items {
            None => self.uvarint(0),
            Some(items) => self.compact_array(items, f),
        }
    }
    /// An empty tagged-field section.
    pub fn empty_tagged_fields(&mut self) {
        self.uvarint(0);
    }
    /// Non-flexible nullable string (int16 length).
    pub fn nullable_string(&mut self, s: Option<&str>) {
        match s {
            None => self.i16(-1),
            Some(s) => {
                self.i16(i16::try_from(s.len()).unwrap_or(i16::MAX));
                let n = s.len().min(i16::MAX as usize);
                self.buf.extend_from_slice(&s.as_bytes()[..n]);
            }
        }
    }
}

/// Request header v1 (non-flexible) or v2 (flexible: adds an empty tagged-field section). The
/// client id keeps its int16 length even in v2.
pub fn write_request_header(
    w: &mut Writer,
    api_key: i16,
    api_version: i16,
    correlation_id: i32,
    client_id: Option<&str>,
    flexible: bool,
) {
    w.i16(api_key);
    w.i16(api_version);
    w.i32(correlation_id);
    w.nullable_string(client_id);
    if flexible {
        w.empty_tagged_fields();
    }
}

/// Read a response header (v0: correlation id; v1: plus tagged fields) and return the
/// correlation id and the body.
pub fn read_response_header(frame: &[u8], flexible: bool) -> DecodeResult<(i32, &[u8])> {
    let mut r = Reader::new(frame);
    let id = r.i32()?;
    if flexible {
        r.skip_tagged_fields()?;
    }
    Ok((id, r.rest()))
}

/// Prefix a message with its int32 size.
pub fn frame(message: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(message.len() + 4);
    out.extend_from_slice(&(message.len() as i32).to_be_bytes());
    out.extend_from_slice(message);
    out
}

/// Check a received frame size: non-negative and not above `max`.
pub fn check_frame_size(size: i32, max: usize) -> DecodeResult<usize> {
    if size < 0 || size as usize > max {
        return Err(DecodeError {
            what: format!("frame size {size} out of range (max {max})"),
            offset: 0,
        });
    }
    Ok(size as usize)
}

pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn uvarint_matches_kafka_examples() {
        for (v, bytes) in [
            (0u32, vec![0x00]),
            (1, vec![0x01]),
            (127, vec![0x7f]),
            (128, vec![0x80, 0x01]),
            (300, vec![0xac, 0x02]),
            (u32::MAX, vec![0xff, 0xff, 0xff, 0xff, 0x0f]),
        ] {
            let mut w = Writer::new();
            w.uvarint(v);
            assert_eq!(w.buf, bytes, "{v}");
            assert_eq!(Reader::new(&bytes).uvarint().unwrap(), v);
        }
        assert!(Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x1f])
            .uvarint()
            .is_err());
        assert!(Reader::new(&[0x80]).uvarint().is_err());
    }

    #[test]
    fn compact_strings_and_arrays() {
        let mut w = Writer::new();
        w.compact_string("ab");
        w.compact_nullable_string(None);
        w.compact_array(&[1i32, 2], |w, v| w.i32(*v));
        w.compact_nullable_array::<i32>(None, |w, v| w.i32(*v));
        w.compact_array::<i32>(&[], |w, v| w.i32(*v));
        assert_eq!(
            w.buf,
            vec![3, b'a', b'b', 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 1]
        );
        let mut r = Reader::new(&w.buf);
        assert_eq!(r.compact_string().unwrap(), "ab");
        assert_eq!(r.compact_nullable_string().unwrap(), None);
        assert_eq!(r.compact_array(|r| r.i32()).unwrap(), vec![1, 2]);
        assert_eq!(r.compact_nullable_array(|r| r.i32()).unwrap(), None);
        assert_eq!(r.compact_array(|r| r.i32()).unwrap(), Vec::<i32>::new());
        r.expect_end().unwrap();
    }

    #[test]
    fn huge_array_count_is_rejected_without_allocating() {
        // uvarint 0x0fffffff elements with 2 bytes left.
        let bytes = [0xff, 0xff, 0xff, 0x7f, 0, 0];
        assert!(Reader::new(&bytes).compact_array(|r| r.i8()).is_err());
    }

    #[test]
    fn tagged_fields_are_skipped_by_size() {
        // two tags: 0 with 2 bytes, 5 with 1 byte; then an int8
        let bytes = [2, 0, 2, 0xaa, 0xbb, 5, 1, 0xcc, 7];
        let mut r = Reader::new(&bytes);
        r.skip_tagged_fields().unwrap();
        assert_eq!(r.i8().unwrap(), 7);
        // out of order tags
        assert!(Reader::new(&[2, 5, 0, 1, 0]).skip_tagged_fields().is_err());
    }

    #[test]
    fn request_header_v2_keeps_int16_client_id() {
        let mut w = Writer::new();
        write_request_header(&mut w, 89, 0, 7, Some("cli"), true);
        assert_eq!(
            w.buf,
            vec![0, 89, 0, 0, 0, 0, 0, 7, 0, 3, b'c', b'l', b'i', 0]
        );
        let framed = frame(&w.buf);
        assert_eq!(&framed[..4], &[0, 0, 0, 14]);
        let (id, body) = read_response_header(&[0, 0, 0, 7, 0, 42], true).unwrap();
        assert_eq!((id, body), (7, &[42u8][..]));
        assert!(read_response_header(&[0, 0], false).is_err());
        assert!(check_frame_size(-1, 100).is_err());
        assert!(check_frame_size(101, 100).is_err());
    }

    #[test]
    fn hex_round_trip() {
        assert_eq!(from_hex("00ff10").unwrap(), vec![0, 255, 16]);
        assert_eq!(to_hex(&[0, 255, 16]), "00ff10");
        assert!(from_hex("0").is_none());
        assert!(from_hex("zz").is_none());
    }

    proptest! {
        #[test]
        fn reader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut r = Reader::new(&bytes);
            let _ = r.compact_array(|r| r.compact_nullable_string());
            let mut r = Reader::new(&bytes);
            let _ = r.skip_tagged_fields();
            let _ = r.nullable_string();
        }

        #[test]
        fn uvarint_round_trips(v in any::<u32>()) {
            let mut w = Writer::new();
            w.uvarint(v);
            prop_assert_eq!(Reader::new(&w.buf).uvarint().unwrap(), v);
        }
    }
}
