//! TextGraph: case documents in, a persistent, byte-cited knowledge graph out.
//!
//! Today the crate holds the reasoning core, [`datalog`]: a Soufflé-compatible
//! Datalog engine with stratified semi-naive evaluation and derivation
//! witnesses. `docs/ARCHITECTURE.md` maps the layers that build on it.

#![warn(missing_docs)]

pub mod analytics;
pub mod budget;
pub mod cancel;
pub mod claims;
pub mod console;
pub mod datalog;
pub mod depth;
pub mod export;
pub mod extract;
pub mod gql;
pub mod ingest;
pub mod llm;
pub mod mcp;
pub mod reason;
pub mod repl;
pub mod report;
pub mod resolve;
pub mod rulebook;
pub mod sniff;
pub mod store;
