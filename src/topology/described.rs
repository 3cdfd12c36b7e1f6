//! A topology as a group's description shows it, made comparable with a topology as members
//! send it (what `simulate`, `diff` and `check-epoch` start from when they read a group).

use std::collections::BTreeSet;

use model::group::GroupDescription;
use model::topology::Topology;

/// The described topology as its members sent it, with the group's topology epoch; `None` when
/// the description has no subtopologies (group not initialised, or topics missing).
///
/// Describe shows the partition counts the coordinator decided for internal topics. Members
/// always send changelogs with 0 partitions (anything else is an invalid topology), so changelog
/// counts are reset to 0 here; repartition counts are kept (a member may fix them), see
/// [`align_decided_counts`].
pub fn topology_of(g: &GroupDescription) -> Option<Topology> {
    let subs = g.topology.subtopologies.as_ref()?;
    let mut subtopologies = subs.clone();
    for s in &mut subtopologies {
        for c in &mut s.state_changelog_topics {
            c.partitions = 0;
        }
    }
    Some(Topology {
        epoch: g.topology.epoch,
        subtopologies,
    })
}

/// Forget the repartition partition counts of a described topology where `sent` (a topology as a
/// member sends it) leaves them to the coordinator (0): the described count is the coordinator's
/// decision, not part of the topology.
pub fn align_decided_counts(described: &mut Topology, sent: &Topology) {
    let unfixed: BTreeSet<&str> = sent
        .subtopologies
        .iter()
        .flat_map(|s| s.repartition_source_topics.iter())
        .filter(|t| t.partitions == 0)
        .map(|t| t.name.as_str())
        .collect();
    for s in &mut described.subtopologies {
        for t in &mut s.repartition_source_topics {
            if unfixed.contains(t.name.as_str()) {
                t.partitions = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::group;
    use crate::topology::topic_counts::topic_metadata;

    #[test]
    fn topology_and_metadata() {
        let g = group("a");
        let t = topology_of(&g).unwrap();
        assert_eq!(t.epoch, 2);
        assert_eq!(t.subtopologies[0].state_changelog_topics[0].partitions, 0);
        assert_eq!(
            t.subtopologies[0].repartition_source_topics[0].partitions,
            6
        );
        let mut sent = t.clone();
        sent.subtopologies[0].repartition_source_topics[0].partitions = 0;
        let mut d = t.clone();
        align_decided_counts(&mut d, &sent);
        assert_eq!(d, sent);

        let md = topic_metadata(&g, 8);
        assert_eq!(md.get("in"), Some(&6));
        assert_eq!(md.get("app-s-changelog"), Some(&6));
        let mut none = g.clone();
        none.topology.subtopologies = None;
        assert!(topology_of(&none).is_none());
        assert!(topic_metadata(&none, 8).is_empty());
    }
}
