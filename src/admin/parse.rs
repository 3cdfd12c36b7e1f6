//! What the user writes for the admin actions, read as Apache's `kafka-streams-groups.sh`
//! reads it: `--input-topic` (`topic` or `topic:0,1`) and `--from-file` (the CSV plan of
//! `CsvUtils`: `topic,partition,offset` or `group,topic,partition,offset`, no header). The
//! times (`--to-datetime`, `--by-duration`) are read by `crate::time::parse`.

use std::collections::BTreeMap;

use model::topic_name::is_valid_topic_name;

use model::TopicPartition;

/// An `--input-topic` value: a topic, with the partitions named after a colon if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicScope {
    pub topic: String,
    /// `None`: every partition of the topic.
    pub partitions: Option<Vec<i32>>,
}

/// `topic` or `topic:0,1,2`.
pub fn topic_scope(s: &str) -> Result<TopicScope, String> {
    let (topic, partitions) = match s.split_once(':') {
        None => (s, None),
        Some((t, ps)) => {
            let parts = ps
                .split(',')
                .map(|p| match p.trim().parse::<i32>() {
                    Ok(n) if n >= 0 => Ok(n),
                    _ => Err(format!(
                        "`{s}`: `{p}` is not a partition number (expected TOPIC or TOPIC:0,1,2)"
                    )),
                })
                .collect::<Result<Vec<i32>, String>>()?;
            (t, Some(parts))
        }
    };
    if !is_valid_topic_name(topic) {
        return Err(format!(
            "`{s}`: `{topic}` is not a topic name (expected TOPIC or TOPIC:0,1,2)"
        ));
    }
    Ok(TopicScope {
        topic: topic.to_string(),
        partitions,
    })
}

/// A `--from-file` plan: new offsets per group, per partition.
pub type FilePlan = BTreeMap<String, BTreeMap<TopicPartition, i64>>;

/// The fields of one CSV line, with RFC 4180 quotes (`"a,b"`, `""` for a quote).
fn csv_fields(line: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut was_quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cur.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cur.push(c),
            (false, '"') if cur.is_empty() && !was_quoted => {
                quoted = true;
                was_quoted = true;
            }
            (false, ',') => {
                out.push(std::mem::take(&mut cur));
                was_quoted = false;
            }
            (false, '"') => return None,
            (false, c) => cur.push(c),
        }
    }
    if quoted {
        return None;
    }
    out.push(cur);
    Some(out)
}

/// A CSV field as it is written: quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `topic,partition,offset` fields as a partition and its offset.
fn plan_entry(fields: &[String]) -> Result<(TopicPartition, i64), String> {
    let [topic, partition, offset] = fields else {
        return Err("expected TOPIC,PARTITION,OFFSET".into());
    };
    if !is_valid_topic_name(topic) {
        return Err(format!("`{topic}` is not a topic name"));
    }
    let partition: i32 = partition
        .trim()
        .parse()
        .ok()
        .filter(|p| *p >= 0)
        .ok_or_else(|| format!("`{partition}` is not a partition number"))?;
    let offset: i64 = offset
        .trim()
        .parse()
        .map_err(|_| format!("`{offset}` is not an offset"))?;
    Ok(((topic.clone(), partition), offset))
}

/// The `--from-file` CSV. With exactly one group and a three-column first line, every line is
/// `topic,partition,offset` (for that group); otherwise every line is
/// `group,topic,partition,offset`. Blank lines are skipped; a bad line is named by number.
pub fn csv_plan(text: &str, groups: &[String]) -> Result<FilePlan, String> {
    let lines: Vec<(usize, Vec<String>)> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            csv_fields(l)
                .map(|f| (n, f))
                .ok_or_else(|| format!("line {n}: unbalanced quotes in `{l}`"))
        })
        .collect::<Result<_, _>>()?;
    let single = match groups {
        [g] if lines.first().is_some_and(|(_, f)| plan_entry(f).is_ok()) => Some(g),
        _ => None,
    };
    let mut plan = FilePlan::new();
    for (n, fields) in &lines {
        let (group, entry) = match single {
            Some(g) => (g.clone(), plan_entry(fields)),
            None => match fields.split_first() {
                Some((g, rest)) if fields.len() == 4 && !g.is_empty() => {
                    (g.clone(), plan_entry(rest))
                }
                _ => (
                    String::new(),
                    Err(
                        "expected GROUP,TOPIC,PARTITION,OFFSET (or TOPIC,PARTITION,OFFSET \
                         with one group)"
                            .into(),
                    ),
                ),
            },
        };
        let (tp, offset) = entry.map_err(|e| format!("line {n}: {e}"))?;
        if plan
            .entry(group)
            .or_default()
            .insert(tp.clone(), offset)
            .is_some()
        {
            return Err(format!(
                "line {n}: partition {}-{} appears twice",
                tp.0, tp.1
            ));
        }
    }
    if plan.is_empty() {
        return Err("the file holds no offsets".into());
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_scopes() {
        assert_eq!(
            topic_scope("in").unwrap(),
            TopicScope {
                topic: "in".into(),
                partitions: None
            }
        );
        assert_eq!(topic_scope("in:0,2").unwrap().partitions, Some(vec![0, 2]));
        for bad in ["in:", "in:x", "in:-1", ":0", "a b", "in:0:1"] {
            assert!(topic_scope(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn csv_formats_as_csvutils_writes_them() {
        let one = vec!["app".to_string()];
        let p = csv_plan("in,0,5\nin,1,7\n", &one).unwrap();
        assert_eq!(p["app"][&("in".to_string(), 1)], 7);
        // With the group column, even for one group.
        let p = csv_plan("app,in,0,5\r\nother,in,0,1\n", &one).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p["other"][&("in".to_string(), 0)], 1);
        // Two groups: the group column is required.
        let two = vec!["a".to_string(), "b".to_string()];
        let e = csv_plan("in,0,5\n", &two).unwrap_err();
        assert!(e.starts_with("line 1: expected GROUP"), "{e}");
        let e = csv_plan("in,0,5\n\nin,x,1\n", &one).unwrap_err();
        assert_eq!(e, "line 3: `x` is not a partition number");
        let e = csv_plan("in,0,5\nin,0,6\n", &one).unwrap_err();
        assert!(e.contains("line 2") && e.contains("twice"), "{e}");
        assert!(csv_plan("\n\n", &one).is_err());
        let p = csv_plan("\"a,b\",in,0,5\n", &one).unwrap();
        assert!(p.contains_key("a,b"));
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("in"), "in");
    }
}
