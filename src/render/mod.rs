//! Turning report values into text: tables, JSON, colour and progress.

pub mod color;
pub mod describe;
pub mod diff;
pub mod json;
pub mod list;
pub mod out;
pub mod table;
