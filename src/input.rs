//! Reading input files with a size cap, so that no input (a wrong path, `/dev/zero`, a log file)
//! can make the tool allocate without bound.

use std::io::{self, Read};
use std::path::Path;

/// The most a topology, snapshot or scenario file may hold.
pub const MAX_DOCUMENT_BYTES: u64 = 128 << 20;
/// The most a properties or PEM file may hold.
pub const MAX_SMALL_FILE_BYTES: u64 = 1 << 20;

/// The whole file as text, or an error when it is longer than `cap` bytes or not UTF-8.
pub fn read_text_capped(path: &Path, cap: u64) -> io::Result<String> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "it is larger than {}, the most this tool reads from such a file (is it the right file?)",
                human(cap)
            ),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

/// A topology, snapshot or scenario file.
pub fn read_document(path: &Path) -> io::Result<String> {
    read_text_capped(path, MAX_DOCUMENT_BYTES)
}

fn human(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(read_text_capped(&p, 1).is_err());
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(read_text_capped(&p, 10)
            .unwrap_err()
            .to_string()
            .contains("UTF-8"));
    }
}
