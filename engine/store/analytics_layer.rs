//! Where the analytics facts live (issue 22, docs/SEARCH.md): in the derived layer, beside
//! the rules' conclusions, written by `tg derive` after the rules ran (they read the
//! `same_as` classes the rules derive), in one batch of their own that also records which
//! derivation they follow. A reader trusts them only while that derivation is the last
//! one and no fact changed since ([`Store::analytics_current`]); otherwise it recomputes.

use super::{ColumnType, DerivedFact, Store, StoreError};

/// Meta key: blake3 of the derivation manifest the analytics facts were computed after.
const MARKER: &str = "analytics_of";

impl Store {
    /// Replaces the derived facts of the relations `rels` (and only those) with `facts`,
    /// in one atomic batch that records `rules` (hash, text) and marks the facts as
    /// computed after the current derivation. A relation is declared (with its columns)
    /// when a fact needs it; one no fact needs is not. Returns (written, removed).
    pub fn replace_analytics(&self, rels: &[(&str, &[ColumnType])], facts: &[DerivedFact], rules: &[(String, String)]) -> Result<(usize, usize), StoreError> {
        for (name, cols) in rels {
            if self.schema(name)?.is_none() && facts.iter().any(|f| f.rel == *name) {
                self.declare(name, cols)?;
            }
        }
        let schemas = self.schemas()?;
        let prefixes: Vec<Vec<u8>> = rels.iter().filter_map(|(name, _)| schemas.get(*name)).map(|s| s.id.to_be_bytes().to_vec()).collect();
        let mut batch = self.db.batch();
        let (written, removed) = self.diff_derived(&mut batch, &schemas, facts, &prefixes)?;
        for (hash, text) in rules {
            batch.insert(&self.rules, hash.as_str(), text.as_str());
        }
        batch.insert(&self.meta, MARKER, self.derivation_mark()?.as_str());
        batch.commit().map_err(|e| self.err(e))?;
        Ok((written, removed))
    }

    /// Whether the stored analytics facts describe the store as it is: they were computed
    /// after the last derivation, and no fact appeared or disappeared since.
    pub fn analytics_current(&self) -> Result<bool, StoreError> {
        let Some(mark) = self.meta.get(MARKER).map_err(|e| self.err(e))? else { return Ok(false) };
        Ok(mark.as_ref() == self.derivation_mark()?.as_bytes() && !self.has_changes()?)
    }

    /// blake3 (hex) of the last derivation's manifest (of nothing before the first).
    fn derivation_mark(&self) -> Result<String, StoreError> {
        let m = self.derivation_manifest()?.unwrap_or_default();
        Ok(blake3::hash(m.as_bytes()).to_hex().to_string())
    }
}
