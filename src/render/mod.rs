//! Turning report values into text: tables, JSON, colour and progress.

pub mod color;
pub mod diff;
pub mod json;
pub mod table;
