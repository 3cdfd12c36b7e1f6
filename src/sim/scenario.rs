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

impl Action {
    pub fn label(&self) -> String {
        match self {
            Action::AddMembers { count } => format!("add {count} member(s)"),
            Action::RemoveMembers { members } => format!("remove {}", members.join(", ")),
            Action::Crash { members } => format!("crash {}", members.join(", ")),
            Action::Restart { members } => format!("restart {}", members.join(", ")),
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
    pub count: u32,
    pub topology_epoch: i32,
    pub missing_topics: &'a BTreeMap<String, i32>,
    pub deploy_topology: Option<Topology>,
}

/// A built-in scenario by name, or `None` for an unknown name.
pub fn built_in(name: &str, ctx: &BuiltInContext<'_>) -> Option<Scenario> {
    let k = (ctx.count as usize)
        .min(ctx.member_ids.len().saturating_sub(1))
        .max(1);
    let last_k = |k: usize| -> Vec<String> {
        ctx.member_ids[ctx.member_ids.len().saturating_sub(k)..].to_vec()
    };
    let steps = match name {
        "start" => vec![],
        "scale-out" => vec![Step {
            at_ms: None,
            action: Action::AddMembers { count: ctx.count },
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
