//! What a derivation changed in the store's derived layer, relation by relation: the
//! facts it added and the ones it removed. `tg derive` prints it, so a rule file that
//! drops conclusions (or a `--dry-run` that would) says so instead of doing it silently.

use std::collections::{BTreeMap, BTreeSet};

use tg_store::{DerivedFact, Store, StoreError, render_fact};

/// The derived facts of a layer, rendered (`rel("a", 1)`), by relation.
pub type Snapshot = BTreeMap<String, BTreeSet<String>>;

/// One relation's change.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RelationChange {
    /// The relation.
    pub relation: String,
    /// Facts derived now that were not before.
    pub added: usize,
    /// Facts derived before that are not now.
    pub removed: usize,
    /// Facts of the relation derived now.
    pub total: usize,
}

/// The store's derived layer as it is.
pub fn snapshot(store: &Store) -> Result<Snapshot, StoreError> {
    let mut out = Snapshot::new();
    for rel in store.relation_names()? {
        let facts = store.derived_facts(&rel)?;
        if !facts.is_empty() {
            out.insert(rel.clone(), facts.iter().map(|(args, _)| render_fact(&rel, args)).collect());
        }
    }
    Ok(out)
}

/// A layer made of `facts` (what a dry run would store).
pub fn snapshot_of(facts: &[DerivedFact]) -> Snapshot {
    let mut out = Snapshot::new();
    for f in facts {
        out.entry(f.rel.clone()).or_default().insert(render_fact(&f.rel, &f.args));
    }
    out
}

/// The relations whose derived facts differ between `before` and `after`, by name.
pub fn diff(before: &Snapshot, after: &Snapshot) -> Vec<RelationChange> {
    let empty = BTreeSet::new();
    let names: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    names
        .into_iter()
        .filter_map(|rel| {
            let (b, a) = (before.get(rel).unwrap_or(&empty), after.get(rel).unwrap_or(&empty));
            let added = a.difference(b).count();
            let removed = b.difference(a).count();
            (added + removed > 0).then(|| RelationChange { relation: rel.clone(), added, removed, total: a.len() })
        })
        .collect()
}

/// One line per changed relation (`+4 thread_attachment (4 now)`), the rule library's
/// scaffolding ([`crate::rulebook::scaffolding`]) folded into one line, or "unchanged".
pub fn render(changes: &[RelationChange]) -> String {
    if changes.is_empty() {
        return "  derived layer unchanged\n".into();
    }
    let mut out = String::new();
    let (mut added, mut removed, mut folded) = (0, 0, 0);
    for c in changes {
        if crate::rulebook::scaffolding(&c.relation) {
            (added, removed, folded) = (added + c.added, removed + c.removed, folded + 1);
            continue;
        }
        out.push_str(&format!("  {} {} ({} now)\n", signed(c.added, c.removed), c.relation, c.total));
    }
    if folded > 0 {
        out.push_str(&format!("  {} in {folded} helper relation(s) of the rule library (er_*, …; --format json lists each)\n", signed(added, removed)));
    }
    out
}

/// `+2 -1`, `+2` or `-1`.
fn signed(added: usize, removed: usize) -> String {
    let mut parts = vec![];
    if added > 0 {
        parts.push(format!("+{added}"));
    }
    if removed > 0 {
        parts.push(format!("-{removed}"));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(rows: &[(&str, &str)]) -> Snapshot {
        let mut s = Snapshot::new();
        for (r, f) in rows {
            s.entry(r.to_string()).or_default().insert(f.to_string());
        }
        s
    }

    /// Added, removed and vanished relations are all counted; equal layers give nothing.
    #[test]
    fn diff_counts_both_ways() {
        let before = snap(&[("a", "a(1)"), ("a", "a(2)"), ("b", "b(1)")]);
        let after = snap(&[("a", "a(2)"), ("a", "a(3)"), ("a", "a(4)")]);
        let d = diff(&before, &after);
        assert_eq!(d, vec![RelationChange { relation: "a".into(), added: 2, removed: 1, total: 3 }, RelationChange { relation: "b".into(), added: 0, removed: 1, total: 0 }]);
        assert_eq!(render(&d), "  +2 -1 a (3 now)\n  -1 b (0 now)\n");
        let helpers =
            vec![RelationChange { relation: "er_key".into(), added: 3, removed: 0, total: 3 }, RelationChange { relation: "node".into(), added: 1, removed: 2, total: 1 }];
        assert_eq!(render(&helpers), "  +4 -2 in 2 helper relation(s) of the rule library (er_*, …; --format json lists each)\n");
        assert!(diff(&after, &after).is_empty());
    }
}
