//! The classes of one package of a jar, by name, size and CRC-32, read from the jar's central
//! directory (no entry is inflated): two releases whose lists are equal ship the same bytes of
//! that package, so an oracle run against one checks the other's code too.

use std::path::Path;

/// End of central directory record: its signature, and its size without the comment.
const END_SIGNATURE: u32 = 0x0605_4b50;
const END_LEN: usize = 22;
/// Central directory file header: its signature, and its size before the name.
const ENTRY_SIGNATURE: u32 = 0x0201_4b50;
const ENTRY_LEN: usize = 46;

/// `name size crc32` of every `.class` entry under `package` (`org/apache/.../`), sorted by
/// name, one per line. Panics, naming the jar, when it cannot be read as a zip file or holds no
/// class of `package`.
pub fn package_classes(jar: &Path, package: &str) -> String {
    let bytes = std::fs::read(jar).unwrap_or_else(|e| panic!("cannot read {}: {e}", jar.display()));
    let fail =
        |why: &str| -> ! { panic!("{} is not a zip file we can read: {why}", jar.display()) };
    // The end record sits in the last 22 bytes plus a comment of at most 65,535.
    let floor = bytes.len().saturating_sub(END_LEN + usize::from(u16::MAX));
    let end = (floor..=bytes.len().saturating_sub(END_LEN))
        .rev()
        .find(|&i| u32_at(&bytes, i) == END_SIGNATURE)
        .unwrap_or_else(|| fail("no end of central directory record"));
    let entries = usize::from(u16_at(&bytes, end + 10));
    let mut at = u32_at(&bytes, end + 16) as usize;
    if entries == usize::from(u16::MAX) || at == u32::MAX as usize {
        fail("a zip64 archive");
    }
    let mut classes = Vec::new();
    for _ in 0..entries {
        if at + ENTRY_LEN > bytes.len() || u32_at(&bytes, at) != ENTRY_SIGNATURE {
            fail("a central directory entry out of place");
        }
        let crc = u32_at(&bytes, at + 16);
        let size = u32_at(&bytes, at + 24);
        let name_len = usize::from(u16_at(&bytes, at + 28));
        let skip = usize::from(u16_at(&bytes, at + 30)) + usize::from(u16_at(&bytes, at + 32));
        let name = bytes
            .get(at + ENTRY_LEN..at + ENTRY_LEN + name_len)
            .unwrap_or_else(|| fail("an entry name past the end"));
        let name = String::from_utf8_lossy(name);
        if name.starts_with(package) && name.ends_with(".class") {
            classes.push(format!("{name} {size} {crc:08x}"));
        }
        at += ENTRY_LEN + name_len + skip;
    }
    if classes.is_empty() {
        panic!("{} holds no class under {package}", jar.display());
    }
    classes.sort();
    classes.join("\n")
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    bytes
        .get(at..at + 2)
        .map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}
