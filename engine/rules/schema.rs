//! The schema every store carries (`stdlib/schema.dl`) and the one mapping from a Datalog
//! column kind to a store column type.

use tg_datalog::logic::Kind;
use tg_store::{ColumnType, Store, StoreError};

/// The schema every store carries, from `stdlib/schema.dl`.
pub const SCHEMA_DL: &str = include_str!("../../stdlib/schema.dl");

/// The store column type that holds values of a Datalog column kind: symbols as
/// dictionary ids, numbers as their 32-bit word; `None` for the kinds the store does not
/// hold (floats, unsigned, records, ADTs), whose relations stay in memory.
pub fn column_type(kind: Kind) -> Option<ColumnType> {
    match kind {
        Kind::Symbol => Some(ColumnType::Symbol),
        Kind::Number => Some(ColumnType::Number),
        _ => None,
    }
}

/// Declares the relations of `stdlib/schema.dl` in the store.
pub fn declare_schema(store: &Store) -> Result<(), StoreError> {
    let compiled = crate::rulebook::compiler().text("stdlib/schema.dl", SCHEMA_DL).map_err(|d| StoreError::Schema { rel: "stdlib/schema.dl".into(), detail: d.to_string() })?;
    for rel in &compiled.prog.relations {
        let cols: Option<Vec<ColumnType>> = rel.kinds.iter().map(|k| column_type(*k)).collect();
        let cols =
            cols.ok_or_else(|| StoreError::Schema { rel: rel.name.clone(), detail: "stdlib/schema.dl declares a column the store cannot hold (only symbol and number)".into() })?;
        store.declare(&rel.name, &cols)?;
    }
    Ok(())
}
