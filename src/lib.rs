//! `streams-group`: inspect, simulate and check Apache Kafka streams groups (KIP-1071).
//!
//! The library holds no command line: the binary (`main.rs`) owns the arguments (`cli`,
//! `commands/`), the error kinds and the exit codes (`command_error`, `exit`). Data flows one
//! way: gather inputs, compute, build one report value, render it.
//!
//! The domain, pure (no I/O, time injected):
//! * `model`: plain data (tasks, task sets, topologies, heartbeats, described groups, codes);
//! * `java`: the Java collection orders Apache's tie-breaks depend on;
//! * `topology`: parse (JSON, `Topology#describe()` text), configure (internal topics), topic
//!   partition counts, the `topology` report and picture;
//! * `coordinator`: the group coordinator of each modelled Kafka release, and its assignors;
//! * `wire`: the Kafka protocol's primitive encodings (integers, varints, compact strings and
//!   arrays, tagged fields), shared by the wire client and the record decoder;
//! * `history`: the coordinator's decisions read back from `__consumer_offsets`: its records
//!   decoded (and encoded, for tests), which partition holds a group, the group replayed write
//!   by write and the story it tells, each written target recomputed by the local coordinator
//!   (`verify`; `live` reads the partition);
//!
//! Reading inputs and the cluster:
//! * `input`: bounded reads of files and stdin;
//! * `kafka`: the wire client, returning protocol values (groups, offsets, configs);
//! * `snapshot`: the `describe --output json` file, read back;
//! * `source`: where a group or topology comes from (a file, a snapshot, the live cluster), and
//!   which coordinator profile that implies;
//! * `error`: the library's error kinds.
//!
//! One home per feature, the pure part in `mod.rs` (with the report types), the part that talks
//! to the cluster in `live.rs`:
//! * `describe`: `list` and `describe`;
//! * `lag`: warm-up and restoration lag;
//! * `admin`: reset offsets, delete offsets, delete groups;
//! * `watch`: `describe --watch`, recordings and `timeline`;
//! * `diff`: topology vs topology, assignment vs assignment;
//! * `simulate`: simulated Streams clients on a virtual clock, and building a run;
//! * `check_epoch`: the topology epoch dry run.
//!
//! Output: `render` (tables, JSON, colour; never reaches the wire) and `schema` (the JSON
//! Schemas of the reports, generated from their types).

pub mod admin;
pub mod check_epoch;
pub mod coordinator;
pub mod describe;
pub mod diff;
pub mod error;
pub mod history;
pub mod input;
pub mod java;
pub mod kafka;
pub mod lag;
pub mod model;
pub mod render;
pub mod schema;
pub mod simulate;
pub mod snapshot;
pub mod source;
pub mod topology;
pub mod watch;
pub mod wire;
