//! `java.lang.String`'s `hashCode` and `compareTo`, both defined over UTF-16 code units.

use std::cmp::Ordering;

/// `String.hashCode()`: `s[0]*31^(n-1) + ... + s[n-1]` over the UTF-16 code units of `s`,
/// in wrapping 32-bit arithmetic (Java's `int`).
pub fn java_string_hash(s: &str) -> i32 {
    if s.is_ascii() {
        // ASCII bytes are their own UTF-16 code units.
        return s
            .bytes()
            .fold(0i32, |h, b| h.wrapping_mul(31).wrapping_add(i32::from(b)));
    }
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// `String.compareTo`: lexicographic over UTF-16 code units, a proper prefix first.
/// Differs from Rust's byte order only when a supplementary character (a surrogate pair,
/// 0xD800..0xDFFF) meets a BMP character at or above U+E000.
pub fn java_string_cmp(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        return a.cmp(b);
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_hashes() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        // Values printed by a JVM.
        assert_eq!(java_string_hash("hello"), 99162322);
        assert_eq!(java_string_hash("p1-t1"), 104941001);
    }

    #[test]
    fn utf16_order_differs_from_utf8_for_surrogates() {
        // U+10000 is D800 DC00 in UTF-16, below U+E000; in UTF-8 it sorts above.
        assert_eq!(java_string_cmp("\u{10000}", "\u{E000}"), Ordering::Less);
        assert_eq!("\u{10000}".cmp("\u{E000}"), Ordering::Greater);
        assert_eq!(java_string_cmp("ab", "abc"), Ordering::Less);
    }
}
