//! Text types every layer shares: byte spans and the canonical document model
//! ([`document`]), sentences and chunks ([`chunk`]), name normalisation and
//! similarity ([`names`]), search terms ([`terms`]), tg's own regexes ([`pattern`]) and
//! file sniffing for messages ([`sniff`]).
//!
//! The leaf of the crate graph: it depends on no other tg crate, so ingest (which
//! produces documents) and extraction (which reads them) meet here without depending on
//! each other.

#![forbid(unsafe_code)]

pub mod chunk;
pub mod document;
pub mod names;
pub mod pattern;
pub mod sniff;
pub mod terms;
