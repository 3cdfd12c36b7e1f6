//! `streams-group`: inspect, simulate and check Apache Kafka streams groups (KIP-1071).
//!
//! This is the tool's library, the top floor of the workspace (docs/dev/architecture.md); the
//! floors below it are crates of their own, as Kafka splits clients, group-coordinator and
//! tools:
//! * `model` (crates/model): plain data (tasks, task sets, assignments, topologies, heartbeats,
//!   described groups, codes) and bounded reads of files and stdin;
//! * `coordinator` (crates/coordinator): the group coordinator of each modelled Kafka release,
//!   its assignors, the Java orders their tie-breaks depend on, and the topic configuration
//!   (`topics`: internal topics, repartition and changelog counts, copartitioning); pure;
//! * `kafka` (crates/kafka): the wire client (connections, TLS/SASL, codecs, record batches,
//!   the protocol's primitive encodings in `kafka::wire`), answering with protocol values.
//!
//! The library holds no command line: the binary (`main.rs`) owns the arguments (`cli`,
//! `commands/`), the error kinds and the exit codes (`command_error`, `exit`). Data flows one
//! way: gather inputs, compute, build one report value, render it.
//!
//! Shared by the features, pure:
//! * `time`: instants and durations, parsed as users write them and printed as people read them;
//! * `topology`: parse (JSON, `Topology#describe()` text), topic partition counts, a described
//!   topology made comparable, topology diff, the `topology` report and picture;
//! * `history`: the coordinator's decisions read back from `__consumer_offsets`: its records
//!   decoded (and encoded, for tests), which partition holds a group, the group replayed write
//!   by write and the story it tells, each written target recomputed by the local coordinator
//!   (`verify`; `live` reads the partition);
//!
//! Reading inputs and the cluster:
//! * `snapshot`: the `describe --output json` file, read back;
//! * `source`: where a group or topology comes from (a file, a snapshot, the live cluster), and
//!   which coordinator profile that implies; `source::live` reads groups from the cluster for
//!   every command (selection, describe with offsets and settings);
//! * `error`: the library's error kinds.
//!
//! One home per feature, the pure part in `mod.rs` (with the report types), the part that talks
//! to the cluster in `live.rs`:
//! * `describe`: `list` and `describe`;
//! * `lag`: warm-up and restoration lag;
//! * `admin`: reset offsets, delete offsets, delete groups;
//! * `watch`: `describe --watch`, recordings and `timeline`;
//! * `diff`: what `diff topology` and `diff assignment` compare, and how;
//! * `simulate`: simulated Streams clients on a virtual clock, and building a run;
//! * `check_epoch`: the topology epoch dry run.
//!
//! Output: `render` (tables, JSON, colour; never reaches the wire) and `schema` (the JSON
//! Schemas of the reports, generated from their types).

pub mod admin;
pub mod check_epoch;
pub mod describe;
pub mod diff;
pub mod error;
pub mod history;
pub mod lag;
pub mod render;
pub mod schema;
pub mod simulate;
pub mod snapshot;
pub mod source;
pub mod time;
pub mod topology;
pub mod watch;
