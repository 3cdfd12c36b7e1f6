//! Reading a recording back: one [`Sample`] per line, as `describe --watch --record` appends
//! them. A line that is not a sample is named by its number; a last line cut short (the watch
//! was killed mid-write, or the file was copied while it grew) is said to be truncated.

use std::fmt;

use super::sample::Sample;
use model::group::SNAPSHOT_SCHEMA_VERSION;

/// Why a recording cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordingError {
    /// 1-based; 0 for the recording as a whole.
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for RecordingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => f.write_str(&self.problem),
            n => write!(f, "line {n}: {}", self.problem),
        }
    }
}

/// Every sample of `text`, in order. Blank lines are skipped.
pub fn parse(text: &str) -> Result<Vec<Sample>, RecordingError> {
    let mut samples = Vec::new();
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fail = |problem: String| RecordingError {
            line: i + 1,
            problem,
        };
        // Only a last line without its newline can be a write cut short.
        let cut = i + 1 == lines.len();
        let sample: Sample = serde_json::from_str(line).map_err(|e| {
            fail(if cut && (e.is_eof() || e.is_syntax()) {
                format!("the sample is truncated (the recording was cut short?): {e}")
            } else {
                format!("not a recorded sample (a recording holds one JSON object per line): {e}")
            })
        })?;
        if sample.snapshot.schema_version != SNAPSHOT_SCHEMA_VERSION {
            return Err(fail(format!(
                "schema_version {} is not one this build reads (it reads {SNAPSHOT_SCHEMA_VERSION})",
                sample.snapshot.schema_version
            )));
        }
        samples.push(sample);
    }
    if samples.is_empty() {
        return Err(RecordingError {
            line: 0,
            problem: "the recording holds no samples".into(),
        });
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"{"sampled_at":"1970-01-01T00:00:01.000Z","sampled_at_ms":1000,"schema_version":1,"groups":[]}"#;

    #[test]
    fn lines_are_samples_and_blank_lines_are_skipped() {
        let text = format!("{ONE}\n\n{ONE}\n");
        assert_eq!(parse(&text).unwrap().len(), 2);
    }

    #[test]
    fn a_bad_or_cut_line_is_named() {
        let cut = format!("{ONE}\n{}", &ONE[..40]);
        let e = parse(&cut).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.problem.contains("truncated"), "{e}");
        let e = parse(&format!("{ONE}\n{{\"x\":1}}\n{ONE}\n")).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            e.to_string().starts_with("line 2: not a recorded sample"),
            "{e}"
        );
        let e = parse(&ONE.replace("\"schema_version\":1", "\"schema_version\":9")).unwrap_err();
        assert!(e.to_string().contains("schema_version 9"), "{e}");
        assert_eq!(parse("\n \n").unwrap_err().line, 0);
    }
}
