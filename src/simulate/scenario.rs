//! Scenarios: timed steps the simulator applies to the group (README, "Scenario files").

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::Topology;

/// A scenario: steps run one after the other. A step starts when the previous one has settled
/// (the group is Stable) or at its `at_ms`, whichever the step says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub steps: Vec<Step>,
}

// No deny_unknown_fields here: serde cannot combine it with the flattened action, whose own
// variants reject unknown fields instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Run at this virtual time instead of when the group has settled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<i64>,
    #[serde(flatten)]
    pub action: Action,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Start `count` new members (in new processes, `threads_per_process` each).
    AddMembers { count: u32 },
    /// Members leave the group cleanly (member epoch -1).
    RemoveMembers { members: Vec<String> },
    /// Members stop heartbeating; the coordinator removes them when their session times out.
    Crash { members: Vec<String> },
    /// Members restart one after the other, each waiting for the group to settle.
    Restart { members: Vec<String> },
    /// Every member restarts in turn onto a new topology (rolling deploy).
    Deploy {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        topology: Option<Topology>,
        topology_epoch: i32,
    },
    /// Topics appear in the cluster (topic → partitions).
    CreateTopics { topics: BTreeMap<String, i32> },
    /// Change the group's number of standby replicas.
    SetStandbyReplicas { num_standby_replicas: u32 },
    /// Let virtual time pass.
    Wait { ms: i64 },
}

/// The most member ids a step's label in a table lists; beyond it the label counts them.
pub const LISTED_MEMBERS: usize = 5;

impl Action {
    /// The step as the JSON report names it: every member id.
    pub fn label(&self) -> String {
        self.label_listing(usize::MAX)
    }

    /// The step as a table cell names it: up to [`LISTED_MEMBERS`] member ids, else how many
    /// (`restart 1,000 members`).
    pub fn short_label(&self) -> String {
        self.label_listing(LISTED_MEMBERS)
    }

    fn label_listing(&self, most: usize) -> String {
        let ids = |verb: &str, members: &[String]| {
            if members.len() <= most {
                format!("{verb} {}", members.join(", "))
            } else {
                format!("{verb} {} members", thousands(members.len() as u64))
            }
        };
        match self {
            Action::AddMembers { count } => format!("add {count} member(s)"),
            Action::RemoveMembers { members } => ids("remove", members),
            Action::Crash { members } => ids("crash", members),
            Action::Restart { members } => ids("restart", members),
            Action::Deploy { topology_epoch, .. } => {
                format!("rolling deploy at topology epoch {topology_epoch}")
            }
            Action::CreateTopics { topics } => {
                let names: Vec<&str> = topics.keys().map(String::as_str).collect();
                format!("create topics {}", names.join(", "))
            }
            Action::SetStandbyReplicas {
                num_standby_replicas,
            } => {
                format!("set standby replicas to {num_standby_replicas}")
            }
            Action::Wait { ms } => format!("wait {ms} ms"),
        }
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The most members a run may have at once, counting those a scenario adds.
pub const MAX_MEMBERS: u64 = 100_000;
/// The most partitions the simulator gives one topic (the command line's bound too).
pub const MAX_PARTITIONS: i32 = 100_000;
/// The latest virtual time a step may name: a bit over a day.
pub const MAX_STEP_TIME_MS: i64 = 100_000_000;

impl Scenario {
    /// Checks every count in the file against the limits the command line has, so that a
    /// scenario cannot make a run allocate without bound. `members` is how many the run
    /// starts with.
    pub fn check_limits(&self, members: u64) -> Result<(), String> {
        let mut total = members;
        for (i, step) in self.steps.iter().enumerate() {
            let at = |what: String| format!("step {}: {what}", i + 1);
            if let Some(t) = step.at_ms {
                if !(0..=MAX_STEP_TIME_MS).contains(&t) {
                    return Err(at(format!(
                        "at_ms must be between 0 and {MAX_STEP_TIME_MS}, got {t}"
                    )));
                }
            }
            match &step.action {
                Action::AddMembers { count } => {
                    total += u64::from(*count);
                    if total > MAX_MEMBERS {
                        return Err(at(format!(
                            "add_members takes the run to {total} members; at most {MAX_MEMBERS} are simulated"
                        )));
                    }
                }
                Action::CreateTopics { topics } => {
                    for (name, n) in topics {
                        if !crate::topology::topic_name::is_valid_topic_name(name) {
                            return Err(at(format!(
                                "create_topics: `{name}` is not a valid Kafka topic name (1 to 249 of a-z, A-Z, 0-9, '.', '_', '-')"
                            )));
                        }
                        if !(1..=MAX_PARTITIONS).contains(n) {
                            return Err(at(format!(
                                "create_topics: `{name}` needs between 1 and {MAX_PARTITIONS} partitions, got {n}"
                            )));
                        }
                    }
                }
                Action::Wait { ms } if !(0..=MAX_STEP_TIME_MS).contains(ms) => {
                    return Err(at(format!(
                        "wait must be between 0 and {MAX_STEP_TIME_MS} ms, got {ms}"
                    )));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// Names of the built-in scenarios.
pub const BUILT_IN: &[&str] = &[
    "start",
    "scale-out",
    "scale-in",
    "crash",
    "rolling-bounce",
    "deploy",
    "create-topics",
];

/// What the built-in scenarios need to know about the run.
pub struct BuiltInContext<'a> {
    pub member_ids: &'a [String],
    /// Members added, removed or crashed by scale-out, scale-in and crash.
    pub count: u32,
    /// Instead of `count` members: whole instances (processes), for scale-out, scale-in and
    /// crash.
    pub instances: Option<Instances<'a>>,
    pub topology_epoch: i32,
    pub missing_topics: &'a BTreeMap<String, i32>,
    pub deploy_topology: Option<Topology>,
}

/// Instances (processes) for scale-out, scale-in and crash to add, remove or crash.
#[derive(Clone, Copy, Debug)]
pub struct Instances<'a> {
    pub count: u32,
    /// The process of each member of `member_ids`, in the same order.
    pub processes: &'a [String],
    /// Members a new instance runs (stream threads).
    pub threads_per_process: u32,
}

impl Instances<'_> {
    /// The members of the last `count` processes (in order of first appearance), leaving at
    /// least one process running.
    fn members_of_last(&self, member_ids: &[String]) -> Vec<String> {
        let mut order: Vec<&str> = Vec::new();
        for p in self.processes {
            if !order.contains(&p.as_str()) {
                order.push(p);
            }
        }
        let k = (self.count as usize)
            .min(order.len().saturating_sub(1))
            .max(1);
        let last = &order[order.len().saturating_sub(k)..];
        member_ids
            .iter()
            .zip(self.processes)
            .filter(|(_, p)| last.contains(&p.as_str()))
            .map(|(m, _)| m.clone())
            .collect()
    }
}

/// A built-in scenario by name, or `None` for an unknown name.
pub fn built_in(name: &str, ctx: &BuiltInContext<'_>) -> Option<Scenario> {
    let k = (ctx.count as usize)
        .min(ctx.member_ids.len().saturating_sub(1))
        .max(1);
    let last_k = |k: usize| -> Vec<String> {
        match &ctx.instances {
            Some(i) => i.members_of_last(ctx.member_ids),
            None => ctx.member_ids[ctx.member_ids.len().saturating_sub(k)..].to_vec(),
        }
    };
    let added = ctx.instances.map_or(ctx.count, |i| {
        i.count.saturating_mul(i.threads_per_process.max(1))
    });
    let steps = match name {
        "start" => vec![],
        "scale-out" => vec![Step {
            at_ms: None,
            action: Action::AddMembers { count: added },
        }],
        "scale-in" => vec![Step {
            at_ms: None,
            action: Action::RemoveMembers { members: last_k(k) },
        }],
        "crash" => vec![Step {
            at_ms: None,
            action: Action::Crash { members: last_k(k) },
        }],
        "rolling-bounce" => vec![Step {
            at_ms: None,
            action: Action::Restart {
                members: ctx.member_ids.to_vec(),
            },
        }],
        "deploy" => vec![Step {
            at_ms: None,
            action: Action::Deploy {
                topology: ctx.deploy_topology.clone(),
                topology_epoch: ctx.topology_epoch + 1,
            },
        }],
        "create-topics" => vec![Step {
            at_ms: Some(20_000),
            action: Action::CreateTopics {
                topics: ctx.missing_topics.clone(),
            },
        }],
        _ => return None,
    };
    Some(Scenario {
        name: name.to_string(),
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("p{i}-t1")).collect()
    }

    #[test]
    fn long_member_lists_are_counted_in_tables_and_kept_in_json() {
        let bounce = Action::Restart { members: ids(1000) };
        assert_eq!(bounce.short_label(), "restart 1,000 members");
        assert!(bounce.label().starts_with("restart p1-t1, p2-t1, "));
        assert!(bounce.label().ends_with(", p1000-t1"));
        let few = Action::Crash { members: ids(5) };
        assert_eq!(few.short_label(), "crash p1-t1, p2-t1, p3-t1, p4-t1, p5-t1");
        assert_eq!(few.short_label(), few.label());
        let six = Action::RemoveMembers { members: ids(6) };
        assert_eq!(six.short_label(), "remove 6 members");
    }

    #[test]
    fn instances_are_whole_processes() {
        let members: Vec<String> = ["a-1", "a-2", "b-1", "b-2", "c-1", "c-2"]
            .map(String::from)
            .to_vec();
        let processes: Vec<String> = members.iter().map(|m| m[..1].to_string()).collect();
        let missing = BTreeMap::new();
        let ctx = |count: u32| BuiltInContext {
            member_ids: &members,
            count: 1,
            instances: Some(Instances {
                count,
                processes: &processes,
                threads_per_process: 2,
            }),
            topology_epoch: 0,
            missing_topics: &missing,
            deploy_topology: None,
        };
        let step = |name: &str, count: u32| built_in(name, &ctx(count)).unwrap().steps[0].clone();
        assert_eq!(step("scale-out", 2).action, Action::AddMembers { count: 4 });
        assert_eq!(
            step("scale-in", 1).action,
            Action::RemoveMembers {
                members: vec!["c-1".into(), "c-2".into()]
            }
        );
        // At least one instance keeps running.
        assert_eq!(
            step("crash", 9).action,
            Action::Crash {
                members: members[2..].to_vec()
            }
        );
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
