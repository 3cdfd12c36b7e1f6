//! The local coordinator walks a group's members in the order Apache's `TimelineHashMap` of
//! members does (`coordinator::member_order`), which is the order the sticky assignor's ties
//! depend on. Checked against Apache's own group (the GMM oracle's `member_order`) after joins
//! and leaves of members with Kafka Streams-style random ids, through several table resizes.

use std::collections::BTreeMap;

use coordinator::{Coordinator, GroupConfig, RequestContext};
use model::KafkaVersion;
use model::{HeartbeatRequest, Subtopology, TaskSet, Topology};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::gmm_oracle::GmmOracle;

/// A member id as Kafka Streams makes them: a random UUID in Kafka's URL-safe base64.
fn member_id(rng: &mut ChaCha8Rng) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    (0..22)
        .map(|_| ALPHABET[rng.gen_range(0..64)] as char)
        .collect()
}

fn request(group: &str, member: &str, epoch: i32) -> HeartbeatRequest {
    let joining = epoch == 0;
    HeartbeatRequest {
        group_id: group.into(),
        member_id: member.into(),
        member_epoch: epoch,
        rebalance_timeout_ms: if joining { 60_000 } else { -1 },
        topology: joining.then(|| Topology {
            epoch: 0,
            subtopologies: vec![Subtopology {
                id: "0".into(),
                source_topics: vec![format!("{group}-in")],
                ..Subtopology::default()
            }],
        }),
        process_id: Some(format!("{member}-process")),
        active_tasks: Some(TaskSet::new()),
        standby_tasks: Some(TaskSet::new()),
        warmup_tasks: Some(TaskSet::new()),
        ..HeartbeatRequest::default()
    }
}

#[test]
fn member_order_matches_apaches_timeline_hash_map() {
    GmmOracle::require();
    let mut apache = GmmOracle::start("4.4.0", &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // The oracle's clock never goes back: one timeline for every round.
    let mut now = 0;
    for round in 0..5 {
        let group = format!("order-{round}");
        let topics = BTreeMap::from([(format!("{group}-in"), 4)]);
        apache.set_topics(&topics);
        let mut ours = Coordinator::for_version(KafkaVersion::V4_4, GroupConfig::default());
        let mut members: Vec<String> = Vec::new();
        for step in 0..120 {
            now += 10;
            let ctx = RequestContext {
                now_ms: now,
                client_id: "c".into(),
                client_host: "/127.0.0.1".into(),
            };
            let leave = !members.is_empty() && rng.gen_bool(0.3);
            let req = if leave {
                let m = members.remove(rng.gen_range(0..members.len()));
                HeartbeatRequest {
                    member_epoch: -1,
                    rebalance_timeout_ms: -1,
                    topology: None,
                    active_tasks: None,
                    standby_tasks: None,
                    warmup_tasks: None,
                    ..request(&group, &m, -1)
                }
            } else {
                let m = member_id(&mut rng);
                members.push(m.clone());
                request(&group, &m, 0)
            };
            let theirs = apache.heartbeat(&req, now, "c", "/127.0.0.1");
            let mine = ours.heartbeat(&req, &ctx, &topics);
            assert_eq!(theirs.response.error, mine.response.error, "step {step}");
            let expected = theirs.group.map(|g| g.member_order).unwrap_or_default();
            let got: Vec<String> = ours
                .group(&group)
                .map(|g| g.member_order().into_iter().map(String::from).collect())
                .unwrap_or_default();
            assert_eq!(got, expected, "round {round}, step {step}");
        }
    }
}
