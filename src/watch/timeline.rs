//! A recording replayed: when each epoch started, who joined or left, which tasks moved from
//! whom to whom, how long each member took to reach its target, and when the group was Stable
//! again.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use super::change::{waits_for_first_target, Change, Progress};
use super::sample::{Sample, Waited};
use super::watcher::Watcher;
use crate::time;
use model::group::{GroupDescription, MemberDescription};
use model::movement::TaskMove;

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
    /// Owner changes no move paired by the last sample: a task dropped that no one took, a
    /// replica added that no one gave up. The `task_moved` events, then these, compose to
    /// what `diff assignment` of the first and the last sample reports, group by group.
    pub unpaired: Vec<Unpaired>,
}

/// An owner change of a task that no move paired by the end of the recording.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Unpaired {
    pub group: String,
    /// `from` (owners that dropped it) or `to` (owners that took it) is empty.
    #[serde(flatten)]
    pub change: TaskMove,
}

/// One thing that happened, with its time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Event {
    pub at: String,
    pub at_ms: i64,
    /// Milliseconds since the first sample.
    pub after_ms: i64,
    /// What happened, by its `kind`.
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
    /// A member that joined after the group's target assignment was computed: the target has
    /// nothing for it (it predates the member), and the member waits for the next one. It has
    /// not reached a target until it reaches one computed with it.
    MemberWaitingForFirstTarget {
        group: String,
        member: String,
        group_epoch: i32,
        target_epoch: i32,
    },
    /// A member owns its target, at the target epoch: see [`CatchUp`] for the times.
    MemberReachedTarget {
        group: String,
        member: String,
        target_epoch: i32,
        took_ms: i64,
        at_most_ms: i64,
    },
    /// No sample for a while: the describe waited, from this event's time for `waited_ms`, for
    /// what `for` names (`describe --watch` records what a late sample waited for).
    SampleLate {
        #[serde(flatten)]
        waited: Waited,
    },
    /// The group is Stable again, `after_ms` after it was last seen leaving Stable (or after the
    /// first sample, if it was not Stable then).
    StableAgain {
        group: String,
        group_epoch: i32,
        after_ms: i64,
    },
}

/// A member on its way to a target: from the first sample that showed the target (its target
/// assignment epoch, or the member itself when it joined later) to the first that showed the
/// member at its target epoch owning exactly its target. Samples are apart, so the time is
/// known to lie between `took_ms` and `at_most_ms` (from the sample before the target was seen).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CatchUp {
    pub group: String,
    pub member: String,
    pub process: String,
    /// The target assignment epoch it reached (or had not reached when it left or the
    /// recording ended).
    pub target_epoch: i32,
    /// When the target was first seen.
    pub target_seen_at: String,
    /// When it was first seen at its target; absent if it left or the recording ended before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reached_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub took_ms: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_most_ms: Option<i64>,
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
    let catch_ups = replay.catch_ups.finish();
    let unpaired = watcher
        .unpaired()
        .into_iter()
        .map(|(group, change)| Unpaired { group, change })
        .collect();
    TimelineReport {
        recording: recording.to_string(),
        samples: samples.len(),
        from: time::rfc3339(start),
        to: time::rfc3339(end),
        duration_ms: end - start,
        events: replay.events,
        catch_ups,
        unpaired,
    }
}

#[derive(Default)]
struct Replay {
    events: Vec<Event>,
    /// Per group: when it was last seen leaving Stable.
    unstable_since: BTreeMap<String, i64>,
    catch_ups: CatchUps,
    seen: BTreeSet<String>,
    /// The previous sample's time.
    before: Option<i64>,
}

impl Replay {
    fn sample(&mut self, s: &Sample, start: i64, changes: Vec<Change>) {
        let at = s.sampled_at_ms;
        let push = |events: &mut Vec<Event>, what: Happening| {
            events.push(Event {
                at: time::rfc3339(at),
                at_ms: at,
                after_ms: at - start,
                what,
            })
        };
        if let Some(waited) = &s.waited {
            // At the time the wait began: after the previous sample, before this one.
            self.events.push(Event {
                at: waited.since.clone(),
                at_ms: waited.wait.since_ms,
                after_ms: waited.wait.since_ms - start,
                what: Happening::Milestone(Milestone::SampleLate {
                    waited: waited.clone(),
                }),
            });
        }
        for g in &s.snapshot.groups {
            if self.seen.insert(g.group_id.clone()) {
                push(&mut self.events, Happening::Milestone(start_of(g)));
            }
        }
        for c in changes.into_iter().filter(|c| !is_step(c)) {
            push(&mut self.events, Happening::Change(c));
        }
        let seen = Seen {
            at,
            before: self.before.unwrap_or(at),
        };
        for g in &s.snapshot.groups {
            for m in self.catch_ups.sample(g, seen, self.before.is_none()) {
                push(&mut self.events, Happening::Milestone(m));
            }
            if let Some(m) = self.stability(g, at) {
                push(&mut self.events, Happening::Milestone(m));
            }
        }
        if s.is_reachable() {
            self.catch_ups.left(s);
        }
        self.before = Some(at);
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
}

/// A sample's time, and the previous sample's.
#[derive(Clone, Copy, Debug)]
struct Seen {
    at: i64,
    before: i64,
}

struct Tracked {
    process: String,
    first: Seen,
    /// The last target epoch it was seen at.
    reached: Option<i32>,
    /// Behind its target in the last sample that showed it.
    behind: bool,
    /// Waiting for its first target: the target assignment epoch that predates it.
    waiting: Option<i32>,
}

/// The member's catch-up and milestone if it reached a new target in this sample (`from`: when
/// its way to the target started, `seen`: this sample); none at the first sample.
fn reached(
    t: &mut Tracked,
    g: &GroupDescription,
    m: &MemberDescription,
    (from, seen): (Seen, Seen),
    first: bool,
) -> Option<(CatchUp, Milestone)> {
    let p = Progress::of(g, m);
    t.behind = !p.caught_up();
    if !p.caught_up() || t.reached == Some(p.target_epoch) {
        return None;
    }
    t.reached = Some(p.target_epoch);
    if first {
        return None;
    }
    let (took_ms, at_most_ms) = (seen.at - from.at, seen.at - from.before);
    let catch_up = CatchUp {
        group: g.group_id.clone(),
        member: m.member_id.clone(),
        process: t.process.clone(),
        target_epoch: p.target_epoch,
        target_seen_at: time::rfc3339(from.at),
        reached_at: Some(time::rfc3339(seen.at)),
        took_ms: Some(took_ms),
        at_most_ms: Some(at_most_ms),
    };
    let milestone = Milestone::MemberReachedTarget {
        group: g.group_id.clone(),
        member: m.member_id.clone(),
        target_epoch: p.target_epoch,
        took_ms,
        at_most_ms,
    };
    Some((catch_up, milestone))
}

/// Members on their way to their targets.
#[derive(Default)]
struct CatchUps {
    done: Vec<CatchUp>,
    /// Per group: the target assignment epoch, and when it was first seen.
    targets: BTreeMap<String, (i32, Seen)>,
    members: BTreeMap<(String, String), Tracked>,
}

impl CatchUps {
    /// Members that reached a new target in this sample, and members first seen waiting for
    /// their first target. At the first sample, how long the members at their target took is
    /// not known.
    fn sample(&mut self, g: &GroupDescription, seen: Seen, first: bool) -> Vec<Milestone> {
        let epoch = g.target_assignment_epoch;
        let target = self
            .targets
            .entry(g.group_id.clone())
            .or_insert((epoch, seen));
        if target.0 != epoch {
            *target = (epoch, seen);
        }
        let target_seen = target.1;
        let mut out = Vec::new();
        for m in &g.members {
            let key = (g.group_id.clone(), m.member_id.clone());
            let new = !self.members.contains_key(&key);
            let t = self.members.entry(key).or_insert_with(|| Tracked {
                process: m.process_id.clone(),
                first: seen,
                reached: None,
                behind: false,
                waiting: waits_for_first_target(g, m).then_some(epoch),
            });
            if t.waiting.is_some_and(|e| e != epoch) {
                t.waiting = None;
            }
            if t.waiting.is_some() {
                t.behind = false;
                if new && !first {
                    out.push(Milestone::MemberWaitingForFirstTarget {
                        group: g.group_id.clone(),
                        member: m.member_id.clone(),
                        group_epoch: g.group_epoch,
                        target_epoch: epoch,
                    });
                }
                continue;
            }
            let from = if t.first.at > target_seen.at {
                t.first
            } else {
                target_seen
            };
            let reached = reached(t, g, m, (from, seen), first);
            if let Some((catch_up, milestone)) = reached {
                self.done.push(catch_up);
                out.push(milestone);
            }
        }
        out
    }

    /// Members no longer described leave their catch-up unfinished (if they were behind: a
    /// member that leaves at its target was on no way anywhere).
    fn left(&mut self, s: &Sample) {
        let gone: Vec<(String, String)> = self
            .members
            .keys()
            .filter(|(g, m)| {
                !s.group(g)
                    .is_some_and(|g| g.members.iter().any(|x| &x.member_id == m))
            })
            .cloned()
            .collect();
        for key in gone {
            if let Some(t) = self.members.remove(&key) {
                self.unfinished(key, t);
            }
        }
    }

    fn unfinished(&mut self, (group, member): (String, String), t: Tracked) {
        let Some(&(epoch, seen)) = self.targets.get(&group) else {
            return;
        };
        if !t.behind {
            return;
        }
        let from = if t.first.at > seen.at { t.first } else { seen };
        self.done.push(CatchUp {
            group,
            member,
            process: t.process,
            target_epoch: epoch,
            target_seen_at: time::rfc3339(from.at),
            reached_at: None,
            took_ms: None,
            at_most_ms: None,
        });
    }

    /// Every catch-up, the unfinished ones of the members still there last.
    fn finish(mut self) -> Vec<CatchUp> {
        for (key, t) in std::mem::take(&mut self.members) {
            self.unfinished(key, t);
        }
        self.done
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
