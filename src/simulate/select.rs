//! Naming what a step changes: processes and members by their id or by a unique prefix of it
//! (a real group's ids are UUIDs), and the one-line errors that list what exists.

use std::collections::{HashMap, HashSet};

/// What a name is looked up among.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Process,
    Member,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Process => "process",
            Kind::Member => "member",
        }
    }

    fn plural(self) -> &'static str {
        match self {
            Kind::Process => "processes",
            Kind::Member => "members",
        }
    }
}

/// Why a name names no id, or more than one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// No id is the name or starts with it.
    Unknown { kind: Kind, name: String },
    /// The name is no id but starts several.
    Ambiguous {
        kind: Kind,
        name: String,
        matches: Vec<String>,
    },
}

/// The most ids an error message lists; beyond it, it counts the rest.
pub const LISTED_IDS: usize = 10;

/// Ids to look names up among: each once, in their order (for messages) and sorted (for
/// lookups, so that naming every member of a big group stays quick).
#[derive(Clone, Debug)]
pub struct IdIndex<'a> {
    kind: Kind,
    in_order: Vec<&'a str>,
    sorted: Vec<&'a str>,
}

impl<'a> IdIndex<'a> {
    pub fn new(kind: Kind, ids: impl IntoIterator<Item = &'a str>) -> Self {
        let mut seen = HashSet::new();
        let in_order: Vec<&str> = ids.into_iter().filter(|id| seen.insert(*id)).collect();
        let mut sorted = in_order.clone();
        sorted.sort_unstable();
        IdIndex {
            kind,
            in_order,
            sorted,
        }
    }

    /// The ids in their order.
    pub fn in_order(&self) -> &[&'a str] {
        &self.in_order
    }

    /// The one id that `name` names: the id itself, else the only id it is a prefix of. An
    /// empty name names nothing.
    pub fn resolve(&self, name: &str) -> Result<&'a str, NameError> {
        let rest = &self.sorted[self.sorted.partition_point(|id| *id < name)..];
        // Sorted: the id itself comes before the longer ids it begins.
        if rest.first() == Some(&name) {
            return Ok(rest[0]);
        }
        let starting = if name.is_empty() {
            0
        } else {
            rest.iter().take_while(|id| id.starts_with(name)).count()
        };
        match starting {
            0 => Err(NameError::Unknown {
                kind: self.kind,
                name: name.to_string(),
            }),
            1 => Ok(rest[0]),
            n => Err(NameError::Ambiguous {
                kind: self.kind,
                name: name.to_string(),
                matches: rest[..n].iter().map(|s| s.to_string()).collect(),
            }),
        }
    }

    /// [`IdIndex::resolve`], its error as one line (`origin` says where the name came from:
    /// " in the scenario", " in --process").
    pub fn resolve_or_say(&self, name: &str, origin: &str) -> Result<&'a str, String> {
        self.resolve(name)
            .map_err(|e| e.message(origin, &self.in_order))
    }
}

/// Ids joined with ", ": the first [`LISTED_IDS`], then how many more.
pub fn listing<S: AsRef<str>>(ids: &[S]) -> String {
    let shown: Vec<&str> = ids.iter().take(LISTED_IDS).map(AsRef::as_ref).collect();
    let mut out = shown.join(", ");
    if ids.len() > LISTED_IDS {
        out.push_str(&format!(" and {} more", ids.len() - LISTED_IDS));
    }
    out
}

impl NameError {
    /// The error as one line: `origin` says where the name came from (" in the scenario",
    /// " in --process"), `ids` what exists, all of it running.
    pub fn message(&self, origin: &str, ids: &[&str]) -> String {
        match self {
            NameError::Unknown { kind, name } => format!(
                "unknown {} `{name}`{origin}; running {} are: {}",
                kind.noun(),
                kind.plural(),
                listing(ids)
            ),
            NameError::Ambiguous {
                kind,
                name,
                matches,
            } => format!(
                "ambiguous {} `{name}`{origin}: {} running {} start with it ({}); give more of the id",
                kind.noun(),
                matches.len(),
                kind.plural(),
                listing(matches)
            ),
        }
    }
}

/// Where the names of [`named_members`] came from, for its errors: " in --member", " in the
/// scenario".
#[derive(Clone, Copy, Debug)]
pub struct Origins<'s> {
    pub members: &'s str,
    pub processes: &'s str,
}

/// The running members a step names: `members` (ids or unique prefixes among `member_ids`),
/// then every member of each of `processes` (ids or unique prefixes among the processes of
/// the members, `processes_of` in the same order as `member_ids`), each once, in the order
/// named.
pub fn named_members(
    members: &[String],
    processes: &[String],
    member_ids: &[&str],
    processes_of: &[&str],
    origins: Origins<'_>,
) -> Result<Vec<String>, String> {
    for (names, origin) in [(members, origins.members), (processes, origins.processes)] {
        let mut seen = HashSet::new();
        if let Some(twice) = names.iter().find(|n| !seen.insert(n.as_str())) {
            return Err(format!("`{twice}` is listed twice{origin}"));
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut taken: HashSet<&str> = HashSet::new();
    if !members.is_empty() {
        let ids = IdIndex::new(Kind::Member, member_ids.iter().copied());
        for name in members {
            let id = ids.resolve_or_say(name, origins.members)?;
            if taken.insert(id) {
                out.push(id.to_string());
            }
        }
    }
    if !processes.is_empty() {
        let ids = IdIndex::new(Kind::Process, processes_of.iter().copied());
        let mut by_process: HashMap<&str, Vec<&str>> = HashMap::new();
        for (m, p) in member_ids.iter().zip(processes_of) {
            by_process.entry(p).or_default().push(m);
        }
        for name in processes {
            let p = ids.resolve_or_say(name, origins.processes)?;
            for m in by_process.get(p).into_iter().flatten() {
                if taken.insert(m) {
                    out.push(m.to_string());
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const UUIDS: [&str; 3] = [
        "3f2a9c4e-1b7d-4e8a-9f60-2c5d8e1a7b34",
        "3f9b0d12-6a4c-4b1e-8d2f-7e3a5c9b1d60",
        "a71c5e28-9d3b-4f06-b4e1-58c2d7a9e013",
    ];

    fn resolve<'a>(kind: Kind, name: &str, ids: &[&'a str]) -> Result<&'a str, NameError> {
        IdIndex::new(kind, ids.iter().copied()).resolve(name)
    }

    const NO: Origins = Origins {
        members: "",
        processes: "",
    };

    #[test]
    fn an_id_or_a_unique_prefix_names_it() {
        assert_eq!(resolve(Kind::Process, "a7", &UUIDS), Ok(UUIDS[2]));
        assert_eq!(resolve(Kind::Process, "3f2", &UUIDS), Ok(UUIDS[0]));
        assert_eq!(resolve(Kind::Process, UUIDS[1], &UUIDS), Ok(UUIDS[1]));
        assert_eq!(
            resolve(Kind::Process, "b", &UUIDS),
            Err(NameError::Unknown {
                kind: Kind::Process,
                name: "b".into()
            })
        );
        // Longer than every id.
        assert!(resolve(Kind::Process, &format!("{}0", UUIDS[2]), &UUIDS).is_err());
    }

    #[test]
    fn an_exact_id_wins_over_the_longer_ids_it_begins() {
        let ids = ["p1-t10", "p1-t1", "p1-t11", "p1-t1-r3"];
        assert_eq!(resolve(Kind::Member, "p1-t1", &ids), Ok("p1-t1"));
        assert_eq!(resolve(Kind::Member, "p1-t10", &ids), Ok("p1-t10"));
        assert_eq!(resolve(Kind::Member, "p1-t1-", &ids), Ok("p1-t1-r3"));
        assert!(resolve(Kind::Member, "p1-t", &ids).is_err());
    }

    #[test]
    fn ambiguous_and_unknown_names_list_what_exists() {
        let e = resolve(Kind::Process, "3f", &UUIDS).unwrap_err();
        assert_eq!(
            e,
            NameError::Ambiguous {
                kind: Kind::Process,
                name: "3f".into(),
                matches: vec![UUIDS[0].into(), UUIDS[1].into()],
            }
        );
        assert_eq!(
            e.message(" in --process", &UUIDS),
            format!(
                "ambiguous process `3f` in --process: 2 running processes start with it ({}, {}); \
                 give more of the id",
                UUIDS[0], UUIDS[1]
            )
        );
        let e = resolve(Kind::Member, "zz", &UUIDS).unwrap_err();
        assert_eq!(
            e.message(" in the scenario", &["p1-t1", "p2-t1"]),
            "unknown member `zz` in the scenario; running members are: p1-t1, p2-t1"
        );
        // An empty name names nothing, even among one id.
        assert!(resolve(Kind::Member, "", &["p1-t1"]).is_err());
    }

    #[test]
    fn long_lists_are_shortened() {
        let ids: Vec<String> = (1..=25).map(|i| format!("p{i}")).collect();
        let l = listing(&ids);
        assert!(l.starts_with("p1, p2, "), "{l}");
        assert!(l.ends_with("p10 and 15 more"), "{l}");
        assert_eq!(listing(&ids[..3]), "p1, p2, p3");
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let e = resolve(Kind::Process, "p", &refs).unwrap_err();
        assert!(e
            .message("", &refs)
            .contains("25 running processes start with it (p1, "));
    }

    #[test]
    fn named_members_are_those_named_then_those_of_named_processes() {
        let members = ["a-1", "a-2", "b-1", "b-2", "c-1"];
        let processes = ["a", "a", "b", "b", "c"];
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let got = named_members(
            &names(&["c", "a-2"]),
            &names(&["b", "a"]),
            &members,
            &processes,
            NO,
        )
        .unwrap();
        assert_eq!(got, ["c-1", "a-2", "b-1", "b-2", "a-1"]);
        let origins = Origins {
            members: " in --member",
            processes: " in --process",
        };
        let e = named_members(&[], &names(&["d"]), &members, &processes, origins).unwrap_err();
        assert_eq!(
            e,
            "unknown process `d` in --process; running processes are: a, b, c"
        );
        let e = named_members(&names(&["a-"]), &[], &members, &processes, origins).unwrap_err();
        assert!(
            e.starts_with("ambiguous member `a-` in --member: 2 running"),
            "{e}"
        );
    }
}
