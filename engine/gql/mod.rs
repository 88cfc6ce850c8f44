//! GQL / openCypher read queries over a property graph (issue 7): `tg gql`.
//!
//! The path is text → `parse` (pest, `grammar/gql.pest`) → `ast` → `check` (scoping and
//! the compile-time errors openCypher names) → `exec` (clauses) over `eval`
//! (expressions), `pattern` (matching) and `functions`, on a `graph` that is either filled
//! by a CREATE script or built by `view` from a store. `format` renders results and
//! `cli` is the command. Errors (`error`) carry openCypher's error class.

pub mod ast;
pub mod check;
pub mod cli;
pub mod error;
pub mod eval;
pub mod exec;
pub mod format;
pub mod functions;
pub mod graph;
pub mod parse;
pub mod pattern;
pub mod temporal;
pub mod value;
pub mod view;

use std::collections::BTreeMap;

pub use error::{ErrorClass, GqlError};
pub use exec::{Access, Table};
pub use graph::Graph;
pub use value::Value;

/// Parses, checks and runs `query` over `graph`.
pub fn query(graph: &mut Graph, query: &str, params: &BTreeMap<String, Value>, access: Access) -> error::Result<Table> {
    let q = parse::parse_query(query)?;
    check::check(&q)?;
    exec::run(graph, &q, params, access)
}

/// Runs a setup script (statements separated by `;`) into `graph`.
pub fn run_script(graph: &mut Graph, script: &str, params: &BTreeMap<String, Value>) -> error::Result<()> {
    for q in parse::parse_script(script)? {
        check::check(&q)?;
        exec::run(graph, &q, params, Access::ReadWrite)?;
    }
    Ok(())
}
