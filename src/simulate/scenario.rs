//! Scenarios: timed steps the simulator applies to the group (README, "Scenario files").

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use model::Topology;

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
    /// Start `count` new instances (processes) of `threads` members (stream threads) each
    /// (default: the run's threads per process).
    AddInstances {
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        threads: Option<u32>,
    },
    /// Members leave the group cleanly (member epoch -1): `members` and every member of
    /// `processes`, each named by its id or a unique prefix of it.
    RemoveMembers {
        #[serde(default)]
        members: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        processes: Vec<String>,
    },
    /// Members stop heartbeating; the coordinator removes them when their session times out.
    /// Named as for `RemoveMembers`.
    Crash {
        #[serde(default)]
        members: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        processes: Vec<String>,
    },
    /// Members restart one after the other, each waiting for the group to settle. Named as
    /// for `RemoveMembers`.
    Restart {
        #[serde(default)]
        members: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        processes: Vec<String>,
    },
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
    /// The action's name in a scenario file.
    pub fn name(&self) -> &'static str {
        match self {
            Action::AddMembers { .. } => "add_members",
            Action::AddInstances { .. } => "add_instances",
            Action::RemoveMembers { .. } => "remove_members",
            Action::Crash { .. } => "crash",
            Action::Restart { .. } => "restart",
            Action::Deploy { .. } => "deploy",
            Action::CreateTopics { .. } => "create_topics",
            Action::SetStandbyReplicas { .. } => "set_standby_replicas",
            Action::Wait { .. } => "wait",
        }
    }

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
        let ids = |verb: &str, members: &[String], processes: &[String]| {
            let mut named = members.to_vec();
            named.extend(processes.iter().map(|p| format!("process {p}")));
            if named.len() <= most {
                format!("{verb} {}", named.join(", "))
            } else if processes.is_empty() {
                format!("{verb} {} members", thousands(members.len() as u64))
            } else {
                format!(
                    "{verb} {} members and {} processes",
                    thousands(members.len() as u64),
                    thousands(processes.len() as u64)
                )
            }
        };
        match self {
            Action::AddMembers { count } => format!("add {count} member(s)"),
            Action::AddInstances { count, threads } => {
                let instances = if *count == 1 { "instance" } else { "instances" };
                match threads {
                    Some(1) => format!("add {count} {instances} × 1 thread"),
                    Some(t) => format!("add {count} {instances} × {t} threads"),
                    None => format!("add {count} {instances}"),
                }
            }
            Action::RemoveMembers { members, processes } => ids("remove", members, processes),
            Action::Crash { members, processes } => ids("crash", members, processes),
            Action::Restart { members, processes } => ids("restart", members, processes),
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
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
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
    /// scenario cannot make a run allocate without bound, and that every step that removes,
    /// crashes or restarts members names some. `members` is how many the run starts with,
    /// `threads_per_process` how many an added instance runs unless its step says.
    pub fn check_limits(&self, members: u64, threads_per_process: u32) -> Result<(), String> {
        let mut total = members;
        for (i, step) in self.steps.iter().enumerate() {
            check_step(step, &mut total, threads_per_process)
                .map_err(|what| format!("step {}: {what}", i + 1))?;
        }
        Ok(())
    }

    /// The most members the run can have: `members` at the start, plus every step's joiners.
    pub fn peak_members(&self, members: u64, threads_per_process: u32) -> u64 {
        let added: u64 = self
            .steps
            .iter()
            .map(|s| joiners(&s.action, threads_per_process))
            .sum();
        members.saturating_add(added)
    }
}

/// The members a step adds.
fn joiners(action: &Action, threads_per_process: u32) -> u64 {
    match action {
        Action::AddMembers { count } => u64::from(*count),
        Action::AddInstances { count, threads } => {
            u64::from(*count) * u64::from(threads.unwrap_or(threads_per_process).max(1))
        }
        _ => 0,
    }
}

/// One step's checks; `total` counts the members the run has after it.
fn check_step(step: &Step, total: &mut u64, threads_per_process: u32) -> Result<(), String> {
    if let Some(t) = step.at_ms {
        if !(0..=MAX_STEP_TIME_MS).contains(&t) {
            return Err(format!(
                "at_ms must be between 0 and {MAX_STEP_TIME_MS}, got {t}"
            ));
        }
    }
    if let Action::AddInstances {
        threads: Some(0), ..
    } = &step.action
    {
        return Err("add_instances: an instance runs at least one thread".into());
    }
    *total += joiners(&step.action, threads_per_process);
    if *total > MAX_MEMBERS {
        return Err(format!(
            "{} takes the run to {total} members; at most {MAX_MEMBERS} are simulated",
            step.action.name()
        ));
    }
    match &step.action {
        Action::RemoveMembers { members, processes }
        | Action::Crash { members, processes }
        | Action::Restart { members, processes }
            if members.is_empty() && processes.is_empty() =>
        {
            Err(format!(
                "{} names no members or processes: give `members` or `processes`",
                step.action.name()
            ))
        }
        Action::CreateTopics { topics } => {
            for (name, n) in topics {
                if !model::topic_name::is_valid_topic_name(name) {
                    return Err(format!(
                        "create_topics: `{name}` is not a valid Kafka topic name (1 to 249 of a-z, A-Z, 0-9, '.', '_', '-')"
                    ));
                }
                if !(1..=MAX_PARTITIONS).contains(n) {
                    return Err(format!(
                        "create_topics: `{name}` needs between 1 and {MAX_PARTITIONS} partitions, got {n}"
                    ));
                }
            }
            Ok(())
        }
        Action::Wait { ms } if !(0..=MAX_STEP_TIME_MS).contains(ms) => Err(format!(
            "wait must be between 0 and {MAX_STEP_TIME_MS} ms, got {ms}"
        )),
        _ => Ok(()),
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
    /// Members added, removed or crashed by scale-out, scale-in and crash. Scale-in and crash
    /// take the last ones, leaving at least one running.
    pub count: u32,
    /// Instead of `count` members: whole instances (processes), for scale-out, scale-in and
    /// crash.
    pub instances: Option<Instances<'a>>,
    /// Instead of a count: exactly these members (ids of `member_ids`), for scale-in, crash and
    /// rolling-bounce.
    pub named: Option<&'a [String]>,
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
    let members = |action: fn(Vec<String>) -> Action| {
        let taken = match (ctx.named, &ctx.instances) {
            (Some(named), _) => named.to_vec(),
            (None, Some(i)) => i.members_of_last(ctx.member_ids),
            (None, None) => {
                let k = (ctx.count as usize)
                    .min(ctx.member_ids.len().saturating_sub(1))
                    .max(1);
                ctx.member_ids[ctx.member_ids.len().saturating_sub(k)..].to_vec()
            }
        };
        action(taken)
    };
    let action = match name {
        "start" => None,
        "scale-out" => Some(match ctx.instances {
            Some(i) => Action::AddInstances {
                count: i.count,
                threads: Some(i.threads_per_process.max(1)),
            },
            None => Action::AddMembers { count: ctx.count },
        }),
        "scale-in" => Some(members(|members| Action::RemoveMembers {
            members,
            processes: vec![],
        })),
        "crash" => Some(members(|members| Action::Crash {
            members,
            processes: vec![],
        })),
        "rolling-bounce" => Some(Action::Restart {
            members: ctx.named.unwrap_or(ctx.member_ids).to_vec(),
            processes: vec![],
        }),
        "deploy" => Some(Action::Deploy {
            topology: ctx.deploy_topology.clone(),
            topology_epoch: ctx.topology_epoch + 1,
        }),
        "create-topics" => Some(Action::CreateTopics {
            topics: ctx.missing_topics.clone(),
        }),
        _ => return None,
    };
    // Topics appear at 20 s; every other step runs once the group has formed.
    let at_ms = (name == "create-topics").then_some(20_000);
    Some(Scenario {
        name: name.to_string(),
        steps: action
            .into_iter()
            .map(|action| Step { at_ms, action })
            .collect(),
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
        let bounce = Action::Restart {
            members: ids(1000),
            processes: vec![],
        };
        assert_eq!(bounce.short_label(), "restart 1,000 members");
        assert!(bounce.label().starts_with("restart p1-t1, p2-t1, "));
        assert!(bounce.label().ends_with(", p1000-t1"));
        let few = Action::Crash {
            members: ids(5),
            processes: vec![],
        };
        assert_eq!(few.short_label(), "crash p1-t1, p2-t1, p3-t1, p4-t1, p5-t1");
        assert_eq!(few.short_label(), few.label());
        let six = Action::RemoveMembers {
            members: ids(6),
            processes: vec![],
        };
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
            named: None,
            topology_epoch: 0,
            missing_topics: &missing,
            deploy_topology: None,
        };
        let step = |name: &str, count: u32| built_in(name, &ctx(count)).unwrap().steps[0].clone();
        let add = step("scale-out", 2).action;
        assert_eq!(
            add,
            Action::AddInstances {
                count: 2,
                threads: Some(2)
            }
        );
        assert_eq!(add.label(), "add 2 instances × 2 threads");
        assert_eq!(
            step("scale-in", 1).action,
            Action::RemoveMembers {
                members: vec!["c-1".into(), "c-2".into()],
                processes: vec![],
            }
        );
        // At least one instance keeps running.
        assert_eq!(
            step("crash", 9).action,
            Action::Crash {
                members: members[2..].to_vec(),
                processes: vec![],
            }
        );
    }

    #[test]
    fn named_members_are_exactly_those_taken() {
        let members = ids(4);
        let named = vec!["p3-t1".to_string(), "p1-t1".to_string()];
        let missing = BTreeMap::new();
        let ctx = BuiltInContext {
            member_ids: &members,
            count: 1,
            instances: None,
            named: Some(&named),
            topology_epoch: 0,
            missing_topics: &missing,
            deploy_topology: None,
        };
        let action = |name: &str| built_in(name, &ctx).unwrap().steps[0].action.clone();
        assert_eq!(action("scale-in").label(), "remove p3-t1, p1-t1");
        assert_eq!(action("crash").label(), "crash p3-t1, p1-t1");
        assert_eq!(action("rolling-bounce").label(), "restart p3-t1, p1-t1");
    }

    #[test]
    fn file_steps_name_processes_or_members() {
        let s: Scenario = serde_json::from_str(
            r#"{"steps": [{"action": "crash", "processes": ["3f2a"]},
                          {"action": "restart", "members": ["p1"], "processes": ["p2"]},
                          {"action": "add_instances", "count": 1}]}"#,
        )
        .unwrap();
        assert_eq!(s.steps[0].action.label(), "crash process 3f2a");
        assert_eq!(s.steps[1].action.label(), "restart p1, process p2");
        assert_eq!(s.steps[2].action.label(), "add 1 instance");
        s.check_limits(2, 2).unwrap();
        let none: Scenario =
            serde_json::from_str(r#"{"steps": [{"action": "remove_members"}]}"#).unwrap();
        assert_eq!(
            none.check_limits(2, 1).unwrap_err(),
            "step 1: remove_members names no members or processes: give `members` or `processes`"
        );
        let big: Scenario =
            serde_json::from_str(r#"{"steps": [{"action": "add_instances", "count": 60000}]}"#)
                .unwrap();
        assert!(big.check_limits(2, 1).is_ok());
        assert!(big
            .check_limits(2, 2)
            .unwrap_err()
            .contains("add_instances takes the run to 120002 members"));
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
