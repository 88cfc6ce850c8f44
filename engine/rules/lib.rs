//! The rule library layer: the fact schema ([`schema`]), the built-in rules and case rule
//! files ([`rulebook`]), tg's host functors ([`host`]), entity resolution ([`resolve`]),
//! the claims ledger and its verbatim gate ([`claims`]), and snapshots of the derived
//! layer ([`layer`]).
//!
//! It sits on the Datalog engine, the store and extraction; the build pipeline, `derive`,
//! GQL and the REPL build on it.

#![forbid(unsafe_code)]

pub mod claims;
pub mod host;
pub mod layer;
pub mod resolve;
pub mod rulebook;
pub mod schema;
