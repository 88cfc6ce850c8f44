//! An entity as an auditor asks about it: `tg why ENTITY` (who it is — the names merged
//! into it and why — and every claim about it, cited, with its validity window) and
//! `tg neighbors ENTITY` (the entities its claims link it to, by relation and direction).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use super::views::{self, ClassView, TimelineEntry, ViewError};
use tg_store::{Store, Value};

/// What `tg why` shows.
#[derive(Clone, Debug, Serialize)]
pub struct WhyView {
    /// The resolved entity.
    pub entity: String,
    /// Its resolution class, when other names were merged into it.
    pub class: Option<ClassView>,
    /// Claims about it in valid-time order, with windows.
    pub claims: Vec<TimelineEntry>,
    /// Contradictions one of its claims is part of (claim ids and kind).
    pub contradictions: Vec<(String, String, String)>,
}

/// `tg why ENTITY`.
pub fn why(store: &Store, entity: &str) -> Result<WhyView, ViewError> {
    let (class_key, claims) = views::timeline(store, entity)?;
    let class = views::resolve(store)?.merged.into_iter().find(|c| c.canonical == class_key || c.members.contains(&class_key));
    let ids: BTreeSet<&str> = claims.iter().map(|e| e.claim.id.as_str()).collect();
    let contradictions = views::contradictions(store)?
        .into_iter()
        .filter(|c| ids.contains(c.first.id.as_str()) || ids.contains(c.second.id.as_str()))
        .map(|c| (c.first.id, c.second.id, c.kind))
        .collect();
    Ok(WhyView { entity: class_key, class, claims, contradictions })
}

/// `tg why` as text.
pub fn render_why(v: &WhyView) -> String {
    let mut out = format!("{}\n", v.entity);
    if let Some(c) = &v.class {
        let forms: Vec<String> = c.surface_forms.iter().map(|f| format!("{f:?}")).collect();
        let _ = writeln!(out, "  written as: {}", forms.join(", "));
        for l in &c.links {
            let _ = writeln!(out, "  same as: {} = {}  — {}", l.a, l.b, l.reason);
        }
    }
    let _ = writeln!(out, "{} claim{} in valid time:", v.claims.len(), if v.claims.len() == 1 { "" } else { "s" });
    for e in &v.claims {
        let from = if e.from.is_empty() { "undated" } else { e.from.as_str() };
        let until = if e.until.is_empty() { "open" } else { e.until.as_str() };
        let c = &e.claim;
        let _ = writeln!(out, "  {from} … {until}  [{}] {} {} {}  ({}, {}) {}", c.id, c.subject, c.relation, c.object, c.modality, c.asserter, c.citation);
        let _ = writeln!(out, "      {:?}", c.quote);
        for s in &e.superseded_by {
            let _ = writeln!(out, "      superseded by [{s}]");
        }
    }
    for (a, b, kind) in &v.contradictions {
        let _ = writeln!(out, "contradiction: [{a}] vs [{b}] — {kind} (tg contradictions)");
    }
    out
}

/// One neighbour: the entity at the other end, the relation and direction, the claims.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Neighbour {
    /// `out` (the entity is the subject) or `in` (the object).
    pub direction: String,
    /// The relation.
    pub relation: String,
    /// The resolved entity at the other end.
    pub other: String,
    /// Claims linking them, by id.
    pub claims: Vec<String>,
    /// Their modalities, sorted, each once.
    pub modalities: Vec<String>,
    /// The first claim's citation.
    pub citation: String,
}

fn sym(v: Option<&Value>) -> String {
    match v {
        Some(Value::Sym(s)) => s.clone(),
        Some(Value::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

/// `tg neighbors ENTITY`: the resolved entity and its neighbours, sorted by direction,
/// relation and entity.
pub fn neighbours(store: &Store, entity: &str) -> Result<(String, Vec<Neighbour>), ViewError> {
    if store.derived_by()?.is_none() {
        return Err(ViewError::NotDerived);
    }
    let key = views::find_entity(store, entity)?;
    let all = views::claims(store)?;
    // (direction, relation, entity) → (claim ids, modalities).
    type Edges = BTreeMap<(String, String, String), (Vec<String>, BTreeSet<String>)>;
    let mut by: Edges = BTreeMap::new();
    for (r, _) in store.derived_facts("claim_resolved")? {
        let (id, s, rel, o, m) = (sym(r.first()), sym(r.get(1)), sym(r.get(2)), sym(r.get(3)), sym(r.get(4)));
        let hit = if s == key && o != key {
            Some(("out".to_string(), o))
        } else if o == key && s != key {
            Some(("in".to_string(), s))
        } else {
            None
        };
        if let Some((dir, other)) = hit {
            let e = by.entry((dir, rel, other)).or_default();
            e.0.push(id);
            e.1.insert(m);
        }
    }
    let out = by
        .into_iter()
        .map(|((direction, relation, other), (mut claims, modalities))| {
            claims.sort();
            claims.dedup();
            let citation = claims.first().and_then(|c| all.get(c)).map(|c| c.citation.clone()).unwrap_or_default();
            Neighbour { direction, relation, other, claims, modalities: modalities.into_iter().collect(), citation }
        })
        .collect();
    Ok((key, out))
}

/// `tg neighbors` as text.
pub fn render_neighbours(entity: &str, v: &[Neighbour]) -> String {
    let others: BTreeSet<&str> = v.iter().map(|n| n.other.as_str()).collect();
    let mut out = format!("{entity}: {} neighbour{}\n", others.len(), if others.len() == 1 { "" } else { "s" });
    for n in v {
        let arrow = if n.direction == "out" { "→" } else { "←" };
        let _ = writeln!(
            out,
            "  {arrow} {} {}  {} claim{} ({}) {}",
            n.relation,
            n.other,
            n.claims.len(),
            if n.claims.len() == 1 { "" } else { "s" },
            n.modalities.join(", "),
            n.citation
        );
    }
    out
}
