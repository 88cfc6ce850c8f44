//! The `tg` binary's command bodies that grew past a few lines, one module each, so
//! `main.rs` keeps to argument parsing and dispatch.

pub mod derive;
pub mod progress;
pub mod table;
