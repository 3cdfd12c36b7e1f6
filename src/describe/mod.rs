//! `list` and `describe`: the streams groups of a cluster, and what each is doing.

pub mod live;
