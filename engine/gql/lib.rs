//! GQL / openCypher read queries over a property graph (issue 7): `tg gql`.
//!
//! The path is text → `parse` (pest, `grammar/gql.pest`) → `ast` → `check` (scoping and
//! the compile-time errors openCypher names) → `exec` (clauses) over `eval`
//! (expressions), `pattern` (matching) and `functions`, on a `graph` that is either filled
//! by a CREATE script or built by `view` from a store. `format` renders results and
//! `cli` is the command. Errors (`error`) carry openCypher's error class.

#![forbid(unsafe_code)]

pub mod ast;
pub mod check;
pub mod cli;
pub mod error;
pub mod eval;
pub mod exec;
pub mod format;
pub mod functions;
pub mod graph;
pub mod load;
pub mod parse;
pub mod pattern;
pub mod procs;
pub mod scan;
pub mod slot;
pub mod temporal;
pub mod totals;
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
    check::check(&q).map_err(|e| locate(e, &q, query))?;
    exec::run(graph, &q, params, access)
}

/// Gives a compile-time error a `line:col`: an undefined variable's first use, else the
/// start of the clause the check failed in.
fn locate(e: GqlError, q: &ast::Query, src: &str) -> GqlError {
    if e.pos.is_some() {
        return e;
    }
    if e.detail != Some("UndefinedVariable") {
        return match e.offset {
            Some(o) => e.at(src, o),
            None => e,
        };
    }
    let Some(name) = e.message.split('`').nth(1).map(str::to_string) else { return e };
    let mut best: Option<usize> = None;
    let mut visit = |x: &ast::Expr| {
        x.walk(&mut |y| {
            if let ast::Expr::Var(n, p) = y
                && *n == name
                && best.is_none_or(|b| *p < b)
            {
                best = Some(*p);
            }
        })
    };
    for part in &q.parts {
        for c in &part.clauses {
            match &c.kind {
                ast::ClauseKind::Match { filter, .. } => filter.iter().for_each(&mut visit),
                ast::ClauseKind::Unwind { expr, .. } => visit(expr),
                ast::ClauseKind::With { proj, filter } => {
                    proj.items.iter().for_each(|i| visit(&i.expr));
                    proj.order.iter().for_each(|(x, _)| visit(x));
                    filter.iter().for_each(&mut visit);
                }
                ast::ClauseKind::Return(proj) => {
                    proj.items.iter().for_each(|i| visit(&i.expr));
                    proj.order.iter().for_each(|(x, _)| visit(x));
                }
                ast::ClauseKind::Create(_) | ast::ClauseKind::Write(_) | ast::ClauseKind::Call { .. } => {}
            }
        }
    }
    match (best, e.offset) {
        (Some(p), _) | (None, Some(p)) => e.at(src, p),
        (None, None) => e,
    }
}

/// Runs a setup script (statements separated by `;`) into `graph`.
pub fn run_script(graph: &mut Graph, script: &str, params: &BTreeMap<String, Value>) -> error::Result<()> {
    for q in parse::parse_script(script)? {
        check::check(&q).map_err(|e| locate(e, &q, script))?;
        exec::run(graph, &q, params, Access::ReadWrite)?;
    }
    Ok(())
}
