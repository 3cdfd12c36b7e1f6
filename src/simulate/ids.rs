//! The ids simulated joiners get.
//!
//! Kafka gives every new member ids it draws at random: the Streams client's member id is
//! Kafka's `Uuid.randomUuid().toString()` (16 random bytes, version 4, as 22 characters of
//! URL-safe base64 without padding, never starting with `-`), and a new Kafka Streams process
//! draws its process id with `java.util.UUID.randomUUID()`. Apache's assignor breaks ties
//! between equally good members by these ids, so an outcome that depends on them is one of
//! many. A run either names joiners with readable placeholders (`p4`, `p4-t1`: the run every
//! report shows first) or draws Kafka-shaped ids from a seeded generator (the other samples).
//!
//! Either way a joiner keeps its placeholder as its *label*: scenarios name members and
//! processes by label, and samples are compared label by label.

use std::collections::BTreeMap;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Where joiners' ids come from.
pub enum Ids {
    /// The label is the id.
    Placeholders,
    /// Kafka-shaped random ids, the same process id for every thread of a process.
    Random {
        rng: Box<ChaCha8Rng>,
        processes: BTreeMap<String, String>,
    },
}

impl Ids {
    /// Random ids drawn from `seed`.
    pub fn random(seed: u64) -> Ids {
        Ids::Random {
            rng: Box::new(ChaCha8Rng::seed_from_u64(seed)),
            processes: BTreeMap::new(),
        }
    }

    /// The id of the process labelled `label` (the same for each of its members).
    pub fn process(&mut self, label: &str) -> String {
        match self {
            Ids::Placeholders => label.to_string(),
            Ids::Random { rng, processes } => processes
                .entry(label.to_string())
                .or_insert_with(|| process_id(rng))
                .clone(),
        }
    }

    /// The id of a new member labelled `label`.
    pub fn member(&mut self, label: &str) -> String {
        match self {
            Ids::Placeholders => label.to_string(),
            Ids::Random { rng, .. } => member_id(rng),
        }
    }
}

/// 16 random bytes with the version-4 and IETF-variant bits set, as Java's UUIDs have them.
fn uuid_bytes(rng: &mut ChaCha8Rng) -> [u8; 16] {
    let mut b = [0u8; 16];
    rng.fill_bytes(&mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    b
}

/// A member id as a Kafka Streams client makes one (`Uuid.randomUuid().toString()`).
pub fn member_id(rng: &mut ChaCha8Rng) -> String {
    loop {
        let id = URL_SAFE_NO_PAD.encode(uuid_bytes(rng));
        // Kafka draws again when the text would start with '-' (or be a reserved id, which a
        // version-4 UUID never is).
        if !id.starts_with('-') {
            return id;
        }
    }
}

/// A process id as Kafka Streams makes one (`UUID.randomUUID().toString()`).
pub fn process_id(rng: &mut ChaCha8Rng) -> String {
    uuid::Uuid::from_bytes(uuid_bytes(rng)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_shape_kafka_gives_them() {
        let mut ids = Ids::random(7);
        for i in 0..200 {
            let m = ids.member(&format!("p1-t{i}"));
            assert_eq!(m.len(), 22, "{m}");
            assert!(!m.starts_with('-'), "{m}");
            assert!(m
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
            let bytes = URL_SAFE_NO_PAD.decode(&m).unwrap();
            assert_eq!(bytes[6] >> 4, 4, "version 4");
        }
        let p = ids.process("p1");
        let parsed = uuid::Uuid::parse_str(&p).unwrap();
        assert_eq!(parsed.get_version_num(), 4);
        assert_eq!(p.len(), 36);
        assert_eq!(ids.process("p1"), p, "one id per process");
        assert_ne!(ids.process("p2"), p);
    }

    #[test]
    fn the_same_seed_draws_the_same_ids_and_placeholders_are_labels() {
        let draw = |seed| {
            let mut ids = Ids::random(seed);
            (ids.process("p1"), ids.member("p1-t1"))
        };
        assert_eq!(draw(1), draw(1));
        assert_ne!(draw(1), draw(2));
        let mut p = Ids::Placeholders;
        assert_eq!(
            (p.process("p3"), p.member("p3-t2")),
            ("p3".into(), "p3-t2".into())
        );
    }
}
