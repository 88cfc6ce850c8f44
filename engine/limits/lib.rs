//! Resource limits shared by the evaluators: tuple, row and memory budgets
//! ([`budget`]), cooperative cancellation ([`cancel`]) and nesting-depth guards for the
//! parsers ([`depth`]). Each ends runaway work with a diagnostic instead of an abort,
//! with the exit statuses of [`exit`].

#![forbid(unsafe_code)]

pub mod budget;
pub mod cancel;
pub mod depth;
pub mod exit;
