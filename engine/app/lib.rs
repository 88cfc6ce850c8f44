//! The application layer: the build pipeline ([`build`]), derivation, explanations and
//! timelines ([`reason`]), the interactive session ([`repl`]), the graph's exports to
//! other tools ([`export`]), GRAPH_REPORT.md ([`report`]), and the two servers over the
//! store: the MCP server for model clients ([`mcp`]) and the local web console
//! ([`console`]).
//!
//! The top of the library's crate graph: it strings the layers below into what the `tg`
//! commands do, and the CLI is a thin layer over it.

pub mod build;
pub mod console;
pub mod export;
pub mod mcp;
pub mod reason;
pub mod repl;
pub mod report;
