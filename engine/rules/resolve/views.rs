//! The auditor's views over what the rule library derived: resolution classes and refused
//! merges, contradictions, an entity's timeline, the most likely cited chain between two
//! entities, and predicted links. Each reads stored and derived facts only (run `tg derive`
//! first) and returns plain data the binary prints as text or JSON.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::names;
use tg_store::{Store, StoreError, Value};

/// Why a view could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ViewError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The rule library has not been run on this store.
    #[error("nothing derived yet: run `tg derive` first")]
    NotDerived,
    /// No entity matches the name given.
    #[error("no entity matches '{0}'")]
    NoEntity(String),
    /// Several entities match the name given.
    #[error("'{name}' matches several entities: {candidates}")]
    Ambiguous {
        /// The name given.
        name: String,
        /// The entity keys it matches.
        candidates: String,
    },
}

fn sym(v: &Value) -> String {
    match v {
        Value::Sym(s) => s.clone(),
        Value::Num(n) => n.to_string(),
    }
}

fn num(v: &Value) -> i64 {
    match v {
        Value::Num(n) => i64::from(*n),
        Value::Sym(s) => s.parse().unwrap_or(0),
    }
}

/// Every derived fact of a relation, as rows of values.
fn derived(store: &Store, rel: &str) -> Result<Vec<Vec<Value>>, ViewError> {
    Ok(store.derived_facts(rel)?.into_iter().map(|(args, _)| args).collect())
}

/// One claim with what its source says and where.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ClaimView {
    /// Claim id.
    pub id: String,
    /// Document.
    pub doc: String,
    /// Subject entity (as extracted).
    pub subject: String,
    /// Relation.
    pub relation: String,
    /// Object entity (as extracted).
    pub object: String,
    /// Modality.
    pub modality: String,
    /// Polarity.
    pub polarity: String,
    /// Asserter.
    pub asserter: String,
    /// The verbatim quote.
    pub quote: String,
    /// The citation `[doc:start-end]`.
    pub citation: String,
    /// Trust tag of the claim.
    pub tag: String,
}

/// Every claim in the store, by id.
pub(crate) fn claims(store: &Store) -> Result<BTreeMap<String, ClaimView>, ViewError> {
    let mut out = BTreeMap::new();
    for args in store.lookup("claim", &[])? {
        let a: Vec<String> = args.iter().map(sym).collect();
        if a.len() != 8 {
            continue;
        }
        let cites = store.supports("claim", &args)?;
        let (quote, citation, tag) = cites.first().map(|c| (c.quote.clone(), format!("[{}:{}-{}]", c.doc, c.start, c.end), c.tag.name().to_string())).unwrap_or_default();
        out.insert(
            a[0].clone(),
            ClaimView {
                id: a[0].clone(),
                doc: a[1].clone(),
                subject: a[2].clone(),
                relation: a[3].clone(),
                object: a[4].clone(),
                modality: a[5].clone(),
                polarity: a[6].clone(),
                asserter: a[7].clone(),
                quote,
                citation,
                tag,
            },
        );
    }
    Ok(out)
}

/// A class of entities judged the same.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ClassView {
    /// The class id (its least entity key).
    pub class: String,
    /// Its canonical entity.
    pub canonical: String,
    /// Its entities.
    pub members: Vec<String>,
    /// How the documents write them.
    pub surface_forms: Vec<String>,
    /// The links that made the class, each with its score and deciding reason.
    pub links: Vec<LinkView>,
}

/// One SAME_AS link (or a pair for review) with its score and reason.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LinkView {
    /// One entity.
    pub a: String,
    /// The other.
    pub b: String,
    /// How alike the names are, in thousandths (1000 for the same name or an alias).
    pub score: i64,
    /// The deciding evidence (an alias statement, a shared identifier or an analyst first, then the name rule).
    pub reason: String,
}

/// A merge the rules refused.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RefusalView {
    /// One entity.
    pub a: String,
    /// The other.
    pub b: String,
    /// Why.
    pub reason: String,
    /// Claims that would change subject or object if the two were merged (those of the
    /// smaller side).
    pub claims_moved: usize,
}

/// What `tg resolve` shows.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ResolveView {
    /// Mentions of named entities (document, entity, surface form).
    pub mentions: usize,
    /// Entities as extracted.
    pub names: usize,
    /// Entities after resolution (classes).
    pub entities: usize,
    /// Classes of more than one entity.
    pub merged: Vec<ClassView>,
    /// Refused merges, most consequential first.
    pub refused: Vec<RefusalView>,
    /// Refused pairs that other links still put in one class.
    pub conflicts: Vec<RefusalView>,
    /// Pairs alike enough to review but below the merge score, best first.
    pub review: Vec<LinkView>,
}

/// Pair → (score, deciding reason) of `same_as` links.
type LinkReasons = BTreeMap<(String, String), (i64, String)>;

/// The score and deciding reason of every `same_as` link, by pair.
fn link_reasons(store: &Store) -> Result<LinkReasons, ViewError> {
    let mut score: BTreeMap<(String, String), i64> = BTreeMap::new();
    for r in derived(store, "er_similarity")? {
        score.insert((sym(&r[0]), sym(&r[1])), num(&r[2]));
    }
    for r in derived(store, "er_org_score")? {
        score.insert((sym(&r[0]), sym(&r[1])), num(&r[2]));
    }
    let mut reasons: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for r in derived(store, "er_match")? {
        reasons.entry((sym(&r[0]), sym(&r[1]))).or_default().push(sym(&r[2]));
    }
    let mut out = BTreeMap::new();
    for r in derived(store, "same_as")? {
        let key = (sym(&r[0]), sym(&r[1]));
        let mut why = reasons.get(&key).cloned().unwrap_or_default();
        // The deciding evidence first: an alias statement or a shared identifier, then the names.
        let evidence = |w: &String| w.starts_with("alias") || w.starts_with("shared identifier");
        why.sort_by_key(|w| (!evidence(w), w.clone()));
        why.dedup();
        let decided = why.is_empty() || why.first().is_some_and(evidence);
        let s = if decided || why.iter().any(|w| w.starts_with("same name")) { 1000 } else { score.get(&key).copied().unwrap_or(1000) };
        // A link without name evidence or an alias is an analyst's acceptance (the only other
        // way into same_as).
        out.insert(key, (s, if why.is_empty() { "accepted by an analyst".into() } else { why.join("; ") }));
    }
    Ok(out)
}

/// Resolution classes, refused merges and conflicts.
pub fn resolve(store: &Store) -> Result<ResolveView, ViewError> {
    let classes = derived(store, "er_class")?;
    if classes.is_empty() {
        return Err(ViewError::NotDerived);
    }
    let mut members: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in &classes {
        members.entry(sym(&r[1])).or_default().push(sym(&r[0]));
    }
    let canon: BTreeMap<String, String> = derived(store, "canonical")?.iter().map(|r| (sym(&r[0]), sym(&r[1]))).collect();
    let named: BTreeSet<String> = classes.iter().map(|r| sym(&r[0])).collect();
    let mut surfaces: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut mentions = 0;
    for m in store.lookup("mention", &[])? {
        let e = sym(&m[1]);
        if named.contains(&e) {
            mentions += 1;
            surfaces.entry(e).or_default().insert(sym(&m[2]));
        }
    }
    let reasons = link_reasons(store)?;
    let class_of_link: BTreeMap<String, String> = classes.iter().map(|r| (sym(&r[0]), sym(&r[1]))).collect();
    let mut links_of: BTreeMap<String, Vec<LinkView>> = BTreeMap::new();
    for ((a, b), (score, reason)) in &reasons {
        if let Some(c) = class_of_link.get(a) {
            links_of.entry(c.clone()).or_default().push(LinkView { a: a.clone(), b: b.clone(), score: *score, reason: reason.clone() });
        }
    }
    let merged = members
        .iter()
        .filter(|(_, m)| m.len() > 1)
        .map(|(c, m)| ClassView {
            links: links_of.get(c).cloned().unwrap_or_default(),
            class: c.clone(),
            canonical: canon.get(c).cloned().unwrap_or_else(|| c.clone()),
            members: m.clone(),
            surface_forms: m.iter().flat_map(|e| surfaces.get(e).into_iter().flatten().cloned()).collect::<BTreeSet<_>>().into_iter().collect(),
        })
        .collect();
    let all = claims(store)?;
    let mut touching: BTreeMap<&str, usize> = BTreeMap::new();
    for c in all.values() {
        *touching.entry(c.subject.as_str()).or_default() += 1;
        if c.object != c.subject {
            *touching.entry(c.object.as_str()).or_default() += 1;
        }
    }
    let class_of: BTreeMap<String, String> = classes.iter().map(|r| (sym(&r[0]), sym(&r[1]))).collect();
    let class_claims = |e: &str| -> usize {
        let c = class_of.get(e).map(String::as_str).unwrap_or(e);
        members.get(c).map_or(touching.get(e).copied().unwrap_or(0), |m| m.iter().map(|x| touching.get(x.as_str()).copied().unwrap_or(0)).sum())
    };
    let view = |r: &Vec<Value>, off: usize| {
        let (a, b) = (sym(&r[off]), sym(&r[off + 1]));
        let moved = class_claims(&a).min(class_claims(&b));
        RefusalView { a, b, reason: sym(&r[off + 2]), claims_moved: moved }
    };
    let mut refused: Vec<RefusalView> = derived(store, "merge_refused")?.iter().map(|r| view(r, 0)).collect();
    refused.sort_by(|x, y| y.claims_moved.cmp(&x.claims_moved).then_with(|| (&x.a, &x.b, &x.reason).cmp(&(&y.a, &y.b, &y.reason))));
    let conflicts = derived(store, "class_conflict")?.iter().map(|r| view(r, 1)).collect();
    let mut review: Vec<LinkView> = derived(store, "er_review")?
        .iter()
        .map(|r| LinkView { a: sym(&r[0]), b: sym(&r[1]), score: num(&r[2]), reason: "similar organisation names, below the merge score".into() })
        .collect();
    review.sort_by(|x, y| y.score.cmp(&x.score).then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b))));
    Ok(ResolveView { mentions, names: classes.len(), entities: members.len(), merged, refused, conflicts, review })
}

/// One contradiction: the kind and both sides.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ContradictionView {
    /// Kind (opposite polarity, asserted vs denied, different values, …).
    pub kind: String,
    /// The heading: the kind with the two sides' actual modalities (`reported vs denied`).
    pub label: String,
    /// One side.
    pub first: ClaimView,
    /// The other side.
    pub second: ClaimView,
}

/// Every derived contradiction, in claim order.
pub fn contradictions(store: &Store) -> Result<Vec<ContradictionView>, ViewError> {
    if store.derived_by()?.is_none() {
        return Err(ViewError::NotDerived);
    }
    let all = claims(store)?;
    let mut out = vec![];
    for r in derived(store, "contradicts")? {
        let (Some(a), Some(b)) = (all.get(&sym(&r[0])), all.get(&sym(&r[1]))) else { continue };
        let label = super::modality::contradiction_label(&sym(&r[2]), &a.modality, &b.modality);
        out.push(ContradictionView { kind: sym(&r[2]), label, first: a.clone(), second: b.clone() });
    }
    Ok(out)
}

/// The resolved entity (its class's canonical entity) a name or key designates.
pub fn find_entity(store: &Store, name: &str) -> Result<String, ViewError> {
    let class_of: BTreeMap<String, String> = derived(store, "resolved")?.iter().map(|r| (sym(&r[0]), sym(&r[1]))).collect();
    find_in(store, name, |e| class_of.get(e).cloned().unwrap_or_else(|| e.clone()))
}

/// The extracted entity (before resolution) a name or key designates: what an analyst's
/// judgement is about.
pub fn find_raw_entity(store: &Store, name: &str) -> Result<String, ViewError> {
    find_in(store, name, |e| e.clone())
}

fn find_in(store: &Store, name: &str, class: impl Fn(&String) -> String) -> Result<String, ViewError> {
    let entities: Vec<String> = store.lookup("entity", &[])?.iter().map(|r| sym(&r[0])).collect();
    if entities.iter().any(|e| e == name) {
        return Ok(class(&name.to_string()));
    }
    let class = &class;
    // The name as written (case aside), then the same name without legal forms, then a part of a name.
    let low = name.trim().to_lowercase().replace(',', "");
    let mut found: BTreeSet<String> = entities.iter().filter(|e| names::name_of_key(e) == low).map(class).collect();
    let want = names::core(names::name_of_key(name));
    if found.is_empty() {
        found = entities.iter().filter(|e| names::core(names::name_of_key(e)) == want).map(class).collect();
    }
    if found.is_empty() {
        found = entities.iter().filter(|e| names::name_of_key(e).contains(&low)).map(class).collect();
    }
    match found.len() {
        0 => Err(ViewError::NoEntity(name.to_string())),
        1 => Ok(found.into_iter().next().unwrap_or_default()),
        _ => Err(ViewError::Ambiguous { name: name.to_string(), candidates: found.into_iter().collect::<Vec<_>>().join(", ") }),
    }
}

/// One claim of a timeline, with its window and what replaced it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TimelineEntry {
    /// Valid from (ISO date, or "" when undated).
    pub from: String,
    /// Valid until (ISO date, "" while open, "closed" when closed without a date).
    pub until: String,
    /// The claim.
    pub claim: ClaimView,
    /// Claims that supersede this one.
    pub superseded_by: Vec<String>,
    /// Claims this one supersedes.
    pub supersedes: Vec<String>,
}

fn iso(d: i64) -> String {
    match d {
        0 => String::new(),
        99991231 => String::new(),
        d if d % 100 == 0 && d % 10000 == 0 => format!("{}", d / 10000),
        d if d % 100 == 0 => format!("{}-{:02}", d / 10000, d / 100 % 100),
        d => format!("{}-{:02}-{:02}", d / 10000, d / 100 % 100, d % 100),
    }
}

/// An entity's claims in valid-time order, with windows and SUPERSEDES links.
pub fn timeline(store: &Store, entity: &str) -> Result<(String, Vec<TimelineEntry>), ViewError> {
    if store.derived_by()?.is_none() {
        return Err(ViewError::NotDerived);
    }
    let class = find_entity(store, entity)?;
    let all = claims(store)?;
    let windows: BTreeMap<String, (i64, i64)> = derived(store, "claim_window")?.iter().map(|r| (sym(&r[0]), (num(&r[1]), num(&r[2])))).collect();
    let closed: BTreeSet<String> = derived(store, "claim_closed")?.iter().map(|r| sym(&r[0])).collect();
    let sup = derived(store, "supersedes")?;
    let mut out = vec![];
    for r in derived(store, "claim_resolved")? {
        if sym(&r[1]) != class && sym(&r[3]) != class {
            continue;
        }
        let id = sym(&r[0]);
        let Some(c) = all.get(&id) else { continue };
        let (f, u) = windows.get(&id).copied().unwrap_or((0, 99991231));
        let until = if u == 99991231 {
            String::new()
        } else if u == 0 && closed.contains(&id) {
            "closed".into()
        } else {
            iso(u)
        };
        out.push(TimelineEntry {
            from: iso(f),
            until,
            claim: c.clone(),
            superseded_by: sup.iter().filter(|s| sym(&s[1]) == id).map(|s| sym(&s[0])).collect(),
            supersedes: sup.iter().filter(|s| sym(&s[0]) == id).map(|s| sym(&s[1])).collect(),
        });
    }
    out.sort_by(|a, b| {
        let key = |e: &TimelineEntry| (e.from.is_empty(), e.from.clone(), e.claim.doc.clone(), e.claim.citation.clone(), e.claim.id.clone());
        key(a).cmp(&key(b))
    });
    Ok((class, out))
}

/// How much a hop of each modality is trusted (a chain's likelihood is the product).
pub fn confidence(modality: &str) -> f64 {
    match modality {
        "assertion" => 0.95,
        "reported" => 0.8,
        "hedged" => 0.5,
        "undecided" => 0.3,
        "question" => 0.2,
        _ => 0.0,
    }
}

/// One hop of a chain.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Hop {
    /// Entity (class) the hop leaves from.
    pub from: String,
    /// Entity (class) the hop reaches.
    pub to: String,
    /// True when the claim reads from → to; false when the chain walks it backwards.
    pub forward: bool,
    /// The claim.
    pub claim: ClaimView,
}

/// The result of `tg path`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PathView {
    /// Start (class).
    pub from: String,
    /// End (class).
    pub to: String,
    /// The chain, if one exists under the filter.
    pub hops: Vec<Hop>,
    /// −log of the chain's likelihood (lower is more likely).
    pub cost: f64,
    /// When the filter left no chain: the hops of the chain that exists without it.
    pub unfiltered_hops: Option<usize>,
}

/// The most likely cited chain from `a` to `b`: shortest under −log confidence over
/// positive, non-denied claims between resolved entities (walked in either direction),
/// with at most `max_hops` hops and only the modalities in `only` (all when empty).
pub fn path(store: &Store, a: &str, b: &str, only: &[String], max_hops: usize) -> Result<PathView, ViewError> {
    if store.derived_by()?.is_none() {
        return Err(ViewError::NotDerived);
    }
    let (from, to) = (find_entity(store, a)?, find_entity(store, b)?);
    let all = claims(store)?;
    let current: BTreeSet<String> = derived(store, "current")?.iter().map(|r| sym(&r[0])).collect();
    let mut edges: Vec<(String, String, String, f64)> = vec![];
    for r in derived(store, "claim_resolved")? {
        let (id, s, o, m, p) = (sym(&r[0]), sym(&r[1]), sym(&r[3]), sym(&r[4]), sym(&r[5]));
        let conf = confidence(&m);
        if p != "positive" || conf == 0.0 || s == o || !current.contains(&id) {
            continue;
        }
        edges.push((id, s, o, -conf.ln()));
    }
    let search = |filter: &[String]| -> Option<(Vec<Hop>, f64)> {
        let usable: Vec<&(String, String, String, f64)> = edges.iter().filter(|e| filter.is_empty() || all.get(&e.0).is_some_and(|c| filter.contains(&c.modality))).collect();
        // Bellman-Ford bounded by hops: best[node] = (cost, hops, previous edge); deterministic
        // because edges are visited in claim-id order and only strictly better costs win.
        // node → (cost, hops, previous edge: claim index, reversed, previous node).
        type Best = BTreeMap<String, (f64, usize, Option<(usize, bool, String)>)>;
        let mut best: Best = BTreeMap::new();
        best.insert(from.clone(), (0.0, 0, None));
        for _ in 0..max_hops {
            let snapshot = best.clone();
            let mut changed = false;
            for (i, e) in usable.iter().enumerate() {
                for (u, v, fwd) in [(&e.1, &e.2, true), (&e.2, &e.1, false)] {
                    let Some(&(cu, hu, _)) = snapshot.get(u) else { continue };
                    if hu >= max_hops {
                        continue;
                    }
                    let cand = cu + e.3;
                    if best.get(v).is_none_or(|(cv, _, _)| cand < *cv - 1e-12) {
                        best.insert(v.clone(), (cand, hu + 1, Some((i, fwd, u.clone()))));
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let (cost, _, _) = *best.get(&to)?;
        let mut hops = vec![];
        let mut at = to.clone();
        while let Some((_, _, Some((i, fwd, prev)))) = best.get(&at).cloned() {
            let e = usable[i];
            hops.push(Hop { from: prev.clone(), to: at.clone(), forward: fwd, claim: all.get(&e.0)?.clone() });
            at = prev;
            if hops.len() > max_hops {
                return None;
            }
        }
        hops.reverse();
        Some((hops, cost))
    };
    if from == to {
        return Ok(PathView { from, to, hops: vec![], cost: 0.0, unfiltered_hops: None });
    }
    match search(only) {
        Some((hops, cost)) => Ok(PathView { from, to, hops, cost, unfiltered_hops: None }),
        None => {
            let unfiltered = if only.is_empty() { None } else { search(&[]).map(|(h, _)| h.len()) };
            Ok(PathView { from, to, hops: vec![], cost: f64::INFINITY, unfiltered_hops: unfiltered })
        }
    }
}

/// `2 hops · 1 asserted · 1 reported`.
pub fn path_summary(hops: &[Hop]) -> String {
    let mut by: BTreeMap<&str, usize> = BTreeMap::new();
    for h in hops {
        *by.entry(h.claim.modality.as_str()).or_default() += 1;
    }
    let word = super::modality::word;
    let mut parts = vec![format!("{} hop{}", hops.len(), if hops.len() == 1 { "" } else { "s" })];
    for m in ["assertion", "reported", "hedged", "undecided", "question"] {
        if let Some(n) = by.get(m) {
            parts.push(format!("{n} {}", word(m)));
        }
    }
    parts.join(" · ")
}

// `tg predict`: engine/resolve/predict.rs.
