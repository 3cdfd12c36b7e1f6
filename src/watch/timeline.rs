//! A recording replayed: when each epoch started, who joined or left, which tasks moved from
//! whom to whom, how long each member took to reach its target, and when the group was Stable
//! again.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use super::change::{Change, Progress};
use super::clock;
use super::sample::Sample;
use super::watcher::Watcher;
use crate::model::group::GroupDescription;

/// The `timeline` report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TimelineReport {
    /// The recording file, as given.
    pub recording: String,
    pub samples: usize,
    /// The first and the last sample's time (RFC 3339, UTC).
    pub from: String,
    pub to: String,
    pub duration_ms: i64,
    /// What happened, in time order.
    pub events: Vec<Event>,
    /// Each time a member was behind its target: since when, and when it reached it.
    pub catch_ups: Vec<CatchUp>,
}

/// One thing that happened, with its time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Event {
    pub at: String,
    pub at_ms: i64,
    /// Milliseconds since the first sample.
    pub after_ms: i64,
    #[serde(flatten)]
    pub what: Happening,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Happening {
    /// A change between two samples (as `describe --watch` shows them).
    Change(Change),
    Milestone(Milestone),
}

/// What the timeline adds to the changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Milestone {
    /// The group as the recording first shows it.
    Start {
        group: String,
        state: String,
        group_epoch: i32,
        target_assignment_epoch: i32,
        members: usize,
    },
    /// A member owns its target, at the target epoch.
    MemberReachedTarget {
        group: String,
        member: String,
        target_epoch: i32,
        took_ms: i64,
    },
    /// The group is Stable again, `after_ms` after it was last seen leaving Stable (or after the
    /// first sample, if it was not Stable then).
    StableAgain {
        group: String,
        group_epoch: i32,
        after_ms: i64,
    },
}

/// A member on its way to a target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CatchUp {
    pub group: String,
    pub member: String,
    pub process: String,
    /// The target assignment epoch it reached (or was behind at the end).
    pub target_epoch: i32,
    /// When it was first seen behind its target.
    pub behind_since: String,
    /// When it was first seen at its target; absent if it left or the recording ended before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reached_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub took_ms: Option<i64>,
}

/// Changes the timeline leaves out: they are every heartbeat's small steps, summed up by the
/// catch-ups and milestones.
fn is_step(c: &Change) -> bool {
    matches!(
        c,
        Change::MemberEpoch { .. } | Change::MemberProgress { .. } | Change::Lag { .. }
    )
}

/// The timeline of `samples` (in recording order; at least one).
pub fn build(recording: &str, samples: &[Sample]) -> TimelineReport {
    let start = samples.first().map_or(0, |s| s.sampled_at_ms);
    let end = samples.last().map_or(0, |s| s.sampled_at_ms);
    let mut replay = Replay::default();
    let mut watcher = Watcher::new();
    for s in samples {
        let changes = watcher.observe(s);
        replay.sample(s, start, changes);
    }
    replay.finish();
    TimelineReport {
        recording: recording.to_string(),
        samples: samples.len(),
        from: clock::rfc3339(start),
        to: clock::rfc3339(end),
        duration_ms: end - start,
        events: replay.events,
        catch_ups: replay.catch_ups,
    }
}

#[derive(Default)]
struct Replay {
    events: Vec<Event>,
    catch_ups: Vec<CatchUp>,
    /// Per group: when it was last seen leaving Stable.
    unstable_since: BTreeMap<String, i64>,
    /// Per (group, member): the catch-up under way, and since when (ms).
    behind: BTreeMap<(String, String), (i64, CatchUp)>,
    seen: BTreeSet<String>,
}

impl Replay {
    fn sample(&mut self, s: &Sample, start: i64, changes: Vec<Change>) {
        let at = s.sampled_at_ms;
        let push = |events: &mut Vec<Event>, what: Happening| {
            events.push(Event {
                at: clock::rfc3339(at),
                at_ms: at,
                after_ms: at - start,
                what,
            })
        };
        for g in &s.snapshot.groups {
            if self.seen.insert(g.group_id.clone()) {
                push(&mut self.events, Happening::Milestone(start_of(g)));
            }
        }
        for c in changes.into_iter().filter(|c| !is_step(c)) {
            push(&mut self.events, Happening::Change(c));
        }
        for g in &s.snapshot.groups {
            for m in self.members(g, at) {
                push(&mut self.events, Happening::Milestone(m));
            }
            if let Some(m) = self.stability(g, at) {
                push(&mut self.events, Happening::Milestone(m));
            }
        }
        if s.is_reachable() {
            self.left(s);
        }
    }

    /// Members that fell behind their target or reached it in this sample.
    fn members(&mut self, g: &GroupDescription, at: i64) -> Vec<Milestone> {
        let mut out = Vec::new();
        for m in &g.members {
            let key = (g.group_id.clone(), m.member_id.clone());
            let progress = Progress::of(g, m);
            match (progress.caught_up(), self.behind.get_mut(&key)) {
                (false, None) => {
                    let c = CatchUp {
                        group: g.group_id.clone(),
                        member: m.member_id.clone(),
                        process: m.process_id.clone(),
                        target_epoch: progress.target_epoch,
                        behind_since: clock::rfc3339(at),
                        reached_at: None,
                        took_ms: None,
                    };
                    self.behind.insert(key, (at, c));
                }
                (false, Some((_, c))) => c.target_epoch = progress.target_epoch,
                (true, Some(_)) => {
                    let Some((since, mut c)) = self.behind.remove(&key) else {
                        continue;
                    };
                    c.target_epoch = progress.target_epoch;
                    c.reached_at = Some(clock::rfc3339(at));
                    c.took_ms = Some(at - since);
                    self.catch_ups.push(c);
                    out.push(Milestone::MemberReachedTarget {
                        group: g.group_id.clone(),
                        member: m.member_id.clone(),
                        target_epoch: progress.target_epoch,
                        took_ms: at - since,
                    });
                }
                (true, None) => {}
            }
        }
        out
    }

    /// The group Stable again after it was not.
    fn stability(&mut self, g: &GroupDescription, at: i64) -> Option<Milestone> {
        let stable = g.state == "Stable";
        match (stable, self.unstable_since.get(&g.group_id).copied()) {
            (false, None) => {
                self.unstable_since.insert(g.group_id.clone(), at);
                None
            }
            (true, Some(since)) => {
                self.unstable_since.remove(&g.group_id);
                Some(Milestone::StableAgain {
                    group: g.group_id.clone(),
                    group_epoch: g.group_epoch,
                    after_ms: at - since,
                })
            }
            _ => None,
        }
    }

    /// Catch-ups of members (or groups) no longer described end unfinished.
    fn left(&mut self, s: &Sample) {
        let gone: Vec<(String, String)> = self
            .behind
            .keys()
            .filter(|(g, m)| {
                !s.group(g)
                    .is_some_and(|g| g.members.iter().any(|x| &x.member_id == m))
            })
            .cloned()
            .collect();
        for key in gone {
            if let Some((_, c)) = self.behind.remove(&key) {
                self.catch_ups.push(c);
            }
        }
    }

    /// Catch-ups still under way when the recording ends.
    fn finish(&mut self) {
        let open = std::mem::take(&mut self.behind);
        self.catch_ups.extend(open.into_values().map(|(_, c)| c));
    }
}

fn start_of(g: &GroupDescription) -> Milestone {
    Milestone::Start {
        group: g.group_id.clone(),
        state: g.state.clone(),
        group_epoch: g.group_epoch,
        target_assignment_epoch: g.target_assignment_epoch,
        members: g.members.len(),
    }
}

#[cfg(test)]
mod tests;
