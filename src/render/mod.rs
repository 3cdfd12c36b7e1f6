//! Turning report values into text: tables, JSON, colour and progress. Every report reaches
//! stdout through [`out`]; nothing here computes what a report says.

pub mod admin;
pub mod check_epoch;
pub mod color;
pub mod describe;
pub mod diff;
pub mod history;
pub mod json;
pub mod lag;
pub mod list;
pub mod out;
pub mod picture;
pub mod simulate;
pub mod table;
pub mod timeline;
pub mod topology;
pub mod watch;
