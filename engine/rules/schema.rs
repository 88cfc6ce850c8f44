//! The schema every store carries (`stdlib/schema.dl`) and the one mapping from a Datalog
//! column kind to a store column type.

use tg_datalog::logic::Kind;
use tg_store::{ColumnType, Store, StoreError};

/// The schema every store carries, from `stdlib/schema.dl`.
pub const SCHEMA_DL: &str = include_str!("../../stdlib/schema.dl");

/// The store column type that holds values of a Datalog column kind: symbols as
/// dictionary ids, every other kind as its 32-bit word.
pub fn column_type(kind: &Kind) -> ColumnType {
    if *kind == Kind::Symbol { ColumnType::Symbol } else { ColumnType::Number }
}

/// Declares the relations of `stdlib/schema.dl` in the store.
pub fn declare_schema(store: &Store) -> Result<(), StoreError> {
    let compiled = crate::rulebook::compiler()
        .text("stdlib/schema.dl", SCHEMA_DL)
        .map_err(|d| StoreError::Schema { rel: "stdlib/schema.dl".into(), detail: d.to_string() })?;
    for rel in &compiled.prog.relations {
        let cols: Vec<ColumnType> = rel.kinds.iter().map(column_type).collect();
        store.declare(&rel.name, &cols)?;
    }
    Ok(())
}
