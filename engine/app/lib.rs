//! The application layer: the build pipeline ([`build`]), derivation, explanations and
//! timelines ([`reason`]), and the interactive session ([`repl`]).
//!
//! The top of the library's crate graph: it strings the layers below into what the `tg`
//! commands do, and the CLI is a thin layer over it.

pub mod build;
pub mod reason;
pub mod repl;
