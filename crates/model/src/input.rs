//! Reading input files with a size cap, so that no input (a wrong path, `/dev/zero`, a log file)
//! can make the tool allocate without bound.

use std::io::{self, Read};
use std::path::Path;

/// The most a topology, snapshot or scenario file may hold.
pub const MAX_DOCUMENT_BYTES: u64 = 128 << 20;
/// The most a properties or PEM file may hold.
pub const MAX_SMALL_FILE_BYTES: u64 = 1 << 20;

/// The whole file as text (`-`: standard input), or an error when it is longer than `cap` bytes
/// or not UTF-8.
pub fn read_text_capped(path: &Path, cap: u64) -> io::Result<String> {
    let bytes = if path == Path::new("-") {
        read_capped(io::stdin().lock(), cap)?
    } else {
        let file = std::fs::File::open(path)?;
        // A regular file says its size: refuse a big one without reading it.
        if file.metadata().is_ok_and(|m| m.is_file() && m.len() > cap) {
            return Err(too_large(cap));
        }
        read_capped(file, cap)?
    };
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

/// At most `cap` bytes of `r`, read in chunks so that refusing an endless input (`/dev/zero`,
/// a pipe) holds no more than `cap` bytes: a growing buffer would hold up to twice that while
/// it moves.
fn read_capped(mut r: impl Read, cap: u64) -> io::Result<Vec<u8>> {
    let chunk_size = (cap + 1).min(1 << 20);
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    let mut total: u64 = 0;
    loop {
        let mut chunk = vec![0u8; chunk_size as usize];
        let mut n = 0;
        while n < chunk.len() {
            match r.read(&mut chunk[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        chunk.truncate(n);
        let n = n as u64;
        if n == 0 {
            break;
        }
        total += n;
        if total > cap {
            return Err(too_large(cap));
        }
        chunks.push(chunk);
    }
    Ok(match chunks.len() {
        1 => chunks.pop().unwrap_or_default(),
        _ => chunks.concat(),
    })
}

fn too_large(cap: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "it is larger than {}, the most this tool reads from such a file (is it the right file?)",
            human(cap)
        ),
    )
}

/// A serde_json error's message without the " at line L column C" it appends: the callers say
/// the position once, in their own `FILE:LINE:COLUMN` form.
pub fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_string()
}

/// A topology, snapshot or scenario file.
pub fn read_document(path: &Path) -> io::Result<String> {
    read_text_capped(path, MAX_DOCUMENT_BYTES)
}

/// `text` as one line of plain text, for an error message that quotes input: each line break
/// (`\n`, `\r\n`, a lone `\r`, vertical tab, form feed, NEL, U+2028, U+2029) becomes one
/// space, and any other control character (ESC, NUL, DEL, ...) or bidirectional override is
/// written as a `\u{..}` escape, so that a file cannot split an error line, send escape sequences
/// to the terminal or reorder what it shows. Tabs stay; everything else is unchanged.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push(' '),
            '\t' => out.push(c),
            c if c.is_control() || is_bidi_control(c) => {
                out.push_str(&c.escape_unicode().to_string())
            }
            c => out.push(c),
        }
    }
    out
}

/// Embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn human(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else if bytes == 1 {
        "1 byte".into()
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_folds_breaks_and_escapes_controls() {
        assert_eq!(one_line("plain text, é ✓\tok"), "plain text, é ✓\tok");
        assert_eq!(one_line("a\nb\r\nc\rd"), "a b c d");
        assert_eq!(one_line("\r\n\r\n"), "  ");
        assert_eq!(one_line("x\u{2028}y\u{85}z\u{b}\u{c}"), "x y z  ");
        assert_eq!(
            one_line("\u{1b}[2Jred\u{0}\u{7f}"),
            "\\u{1b}[2Jred\\u{0}\\u{7f}"
        );
        assert_eq!(one_line("\u{202e}txt.exe"), "\\u{202e}txt.exe");
        assert_eq!(one_line(""), "");
    }

    #[test]
    fn endless_and_oversized_inputs_are_refused_without_reading_them_whole() {
        if Path::new("/dev/zero").exists() {
            let e = read_text_capped(Path::new("/dev/zero"), 4096).unwrap_err();
            assert!(e.to_string().contains("larger than 4 KiB"), "{e}");
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.json");
        std::fs::write(&p, "{}").unwrap();
        assert_eq!(read_text_capped(&p, 2).unwrap(), "{}");
        let e = read_text_capped(&p, 1).unwrap_err();
        assert!(e.to_string().contains("larger than 1 byte,"), "{e}");
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(read_text_capped(&p, 10)
            .unwrap_err()
            .to_string()
            .contains("UTF-8"));
    }
}
