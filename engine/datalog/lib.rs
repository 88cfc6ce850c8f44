//! The Datalog engine: a Soufflé-compatible dialect, evaluated semi-naively in memory.
//!
//! Stages, each depending only on earlier ones:
//! `parse` (text → [`ast`]) → `components` (expand `.comp`/`.init`) →
//! `ast2logic` (→ [`logic`]: typed, grounded) → `stratify` → `plan` → `eval`
//! (→ [`eval::Database`]) → `trace` (proof trees) and `io` (facts in, csv out).
//! [`driver`] strings the stages together for `tg run`.
//!
//! The crate is usable alone, as a library: it knows no tg relation and no tg functor
//! (host functors are a table the application hands over, [`host::HostTable`]).
//!
//! ```
//! use tg_datalog::driver::Compiler;
//! use tg_datalog::eval::{Database, EvalConfig, evaluate};
//!
//! let program = "
//!     .decl edge(a: number, b: number)
//!     edge(1, 2). edge(2, 3).
//!     .decl path(a: number, b: number)
//!     path(x, y) :- edge(x, y).
//!     path(x, z) :- path(x, y), edge(y, z).
//! ";
//! let c = Compiler::new().text("example.dl", program).map_err(|e| e.to_string())?;
//! let mut db = Database::new(&c.prog, c.values.clone(), &EvalConfig { provenance: true });
//! evaluate(&c.prog, &c.strata, &mut db).map_err(|d| d.render(&c.sources))?;
//! let path = c.prog.relations.iter().position(|r| r.name == "path").ok_or("no path")?;
//! assert_eq!(db.rels[path].len(), 3);
//! // Why path(1, 3) holds, as a proof tree of rules and facts.
//! let fact = tg_datalog::trace::parse_fact(&c.prog, &mut db, "path(1, 3)").map_err(|e| e.to_string())?;
//! let tree = tg_datalog::trace::explain(&c.prog, &db, &fact, 8).map_err(|e| e.to_string())?;
//! assert!(tree.starts_with("path(1, 3)"));
//! # Ok::<(), String>(())
//! ```
//!
//! `engine/datalog/examples/reachability.rs` adds a host functor
//! (`cargo run -p tg-datalog --example reachability`).

#![forbid(unsafe_code)]

pub mod ast;
pub mod ast2logic;
pub mod components;
pub mod diag;
pub mod driver;
pub mod eval;
pub mod functors;
pub mod host;
pub mod io;
pub mod logic;
pub mod maintain;
pub mod naive;
pub mod parse;
pub mod plan;
pub mod relation;
pub mod stratify;
pub mod trace;
pub mod value;
pub mod witness;

#[cfg(test)]
mod cancel_tests;
