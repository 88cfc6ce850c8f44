//! The Datalog engine: a Soufflé-compatible dialect, evaluated semi-naively in memory.
//!
//! Stages, each depending only on earlier ones:
//! `parse` (text → [`ast`]) → `components` (expand `.comp`/`.init`) →
//! `ast2logic` (→ [`logic`]: typed, grounded) → `stratify` → `plan` → `eval`
//! (→ [`eval::Database`]) → `trace` (proof trees) and `io` (facts in, csv out).
//! [`driver`] strings the stages together for `tg run`.

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
