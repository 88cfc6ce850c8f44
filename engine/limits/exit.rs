//! The exit statuses every `tg` command ends with: one table for the whole program
//! (docs/CLI.md, "Exit codes", says the same). Library layers return these codes where a
//! command's outcome is theirs to judge (a GQL script, an import, a REPL run); the CLI
//! passes them through and uses them for everything else.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success: the command did what was asked and the answer is yes |
//! | 1 | the answer is no: a check failed (`verify`, `audit check`), a fact is not there (`explain`), a query failed, or some inputs were refused and others kept |
//! | 2 | error: bad arguments or input, a refused input, a budget passed, a store that cannot be opened |

/// Success.
pub const OK: u8 = 0;
/// The answer is no: a failed check, a missing fact, a failed query, a partial import.
pub const NO: u8 = 1;
/// An error: bad arguments or input, a refusal, a budget passed, an unusable store.
pub const ERROR: u8 = 2;
