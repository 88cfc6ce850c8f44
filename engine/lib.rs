//! TextGraph: case documents in, a persistent, byte-cited knowledge graph out.
//!
//! The library is a workspace of crates, one per layer (docs/ARCHITECTURE.md draws the
//! graph); this crate re-exports each under a short name so the `tg` binary, the
//! benchmarks and the tests reach every layer through one path, and holds the CLI.

#![forbid(unsafe_code)]

pub use tg_analytics as analytics;
pub use tg_app as app;
pub use tg_datalog as datalog;
pub use tg_extract as extract;
pub use tg_gql as gql;
pub use tg_ingest as ingest;
pub use tg_limits as limits;
pub use tg_llm as llm;
pub use tg_rules as rules;
pub use tg_store as store;
pub use tg_text as text;
