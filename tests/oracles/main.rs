//! Differential tests against Apache Kafka's own Java code (docs/dev/oracle.md): the sticky assignor
//! of every modelled release, the GroupMetadataManager in lock-step with the local coordinator,
//! its member order, the Java-order helpers against a JVM, the codecs against kafka-clients,
//! the decoder of `__consumer_offsets` records against Apache's generated record classes, and the
//! AWS_MSK_IAM message against Amazon's `aws-msk-iam-auth`.
//! Java 17+ and Maven are needed: without them the tests fail loudly, they never skip (the codec
//! comparison skips outside CI, `CI=true` makes it fail too).
//!
//! Run one oracle with `cargo test --test oracles coordinator` (or `assignor`, ...).

mod assignor;
mod coordinator;
mod gmm_smoke;
mod jar;
mod java_orders;
mod kafka_codec;
mod member_order;
mod msk_iam;
mod records;

#[path = "../support/mod.rs"]
mod support;
