//! The auditor's trace (`tg explain`): why a fact holds, readable on one screen.
//!
//! The deciding evidence comes first — the cited source sentences, each with what was read
//! from it — then the proof tree. Each rule is shown by `file:line` and its text. The rule
//! library's scaffolding (entity-resolution steps `er_*`, the temporal and link helpers: see
//! [`tg_rules::rulebook::scaffolding`]) is folded: a premise that is scaffolding is replaced by
//! the facts that are not, found beneath it, and the folded steps are counted in one line;
//! `--full` shows the whole witness tree instead. A fact shown once is not shown again. A
//! `same_as` step shows what decided the merge and the sentences naming both entities.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{Explanation, ReasonError, parse_fact};
use tg_rules::rulebook::scaffolding;
use tg_store::{Store, Value, render_fact as render};

/// How to show a trace.
#[derive(Clone, Copy, Debug)]
pub struct ViewOptions {
    /// Depth limit of the shown tree (folded steps do not count).
    pub depth: usize,
    /// Show every step, scaffolding included (the witness tree as stored).
    pub full: bool,
    /// Re-hash every citation and check every step's rule.
    pub verify: bool,
}

/// What `tg explain` found.
#[derive(Debug)]
pub enum Outcome {
    /// The fact holds: its trace.
    Holds(Explanation),
    /// The relation exists but the fact is neither stored nor derived.
    Missing(String),
}

/// Citations shown per stored fact in the compact view.
const CITES_SHOWN: usize = 3;

/// Where each rule of the last derivation was written: hash → `file:line`.
fn rule_locations(store: &Store) -> Result<BTreeMap<String, String>, ReasonError> {
    let mut out = BTreeMap::new();
    let Some(m) = store.derivation_manifest()? else { return Ok(out) };
    let v: serde_json::Value = serde_json::from_str(&m).unwrap_or_default();
    for r in v["rules"].as_array().into_iter().flatten() {
        if let (Some(h), Some(f), Some(l)) = (r["hash"].as_str(), r["file"].as_str(), r["line"].as_u64()) {
            out.entry(h.to_string()).or_insert_with(|| format!("{f}:{l}"));
        }
    }
    Ok(out)
}

/// The relations of the store, nearest to `name` first (for "did you mean").
fn near_names(store: &Store, name: &str) -> Result<Vec<String>, ReasonError> {
    let mut scored: Vec<(usize, String)> = store
        .relation_names()?
        .into_iter()
        .map(|n| {
            let common = n.split('_').filter(|w| name.split('_').any(|x| x == *w)).count();
            let prefix = n.chars().zip(name.chars()).take_while(|(a, b)| a == b).count();
            (usize::MAX - (common * 100 + prefix), n)
        })
        .filter(|(s, _)| *s < usize::MAX - 2)
        .collect();
    scored.sort();
    Ok(scored.into_iter().take(3).map(|(_, n)| n).collect())
}

/// Why `fact` holds, as [`Outcome`]; an unknown relation is an error naming the nearest ones.
pub fn explain_view(store: &Store, fact: &str, opts: ViewOptions) -> Result<Outcome, ReasonError> {
    let name = fact.trim().split('(').next().unwrap_or_default().trim().to_string();
    // Analytics facts (issue 22) are computed from the store, not stored: their
    // explanation is the analytics' own (the method, then the claims it rests on).
    if tg_analytics::facts::RELATIONS.iter().any(|(n, _)| *n == name) {
        let (rel, args) = parse_fact(store, fact)?;
        if tg_analytics::facts::explain(store, &rel, &args, 1)?.is_none() {
            return Ok(Outcome::Missing(render(&rel, &args)));
        }
        let mut ex = super::explain_with(store, &rel, &args, opts.depth, opts.verify, &rule_locations(store)?)?;
        if opts.verify {
            let _ = writeln!(ex.text, "{}/{} checks passed", ex.checked - ex.failures.len(), ex.checked);
        }
        return Ok(Outcome::Holds(ex));
    }
    if store.schema(&name)?.is_none() {
        let near = near_names(store, &name)?;
        let hint = if near.is_empty() { String::new() } else { format!(" (nearest: {})", near.join(", ")) };
        return Err(ReasonError::UnknownRelation(format!("no relation named {name} in the store{hint}")));
    }
    let (rel, args) = parse_fact(store, fact)?;
    if store.derivation(&rel, &args)?.is_none() && store.supports(&rel, &args)?.is_empty() && rel != "er_judgement" {
        return Ok(Outcome::Missing(render(&rel, &args)));
    }
    let locs = rule_locations(store)?;
    if opts.full {
        let mut ex = super::explain_with(store, &rel, &args, opts.depth, opts.verify, &locs)?;
        if opts.verify {
            let _ = writeln!(ex.text, "{}/{} checks passed", ex.checked - ex.failures.len(), ex.checked);
        }
        return Ok(Outcome::Holds(ex));
    }
    let mut t = Trace { store, locs: &locs, tree: String::new(), evidence: vec![], cited: BTreeSet::new(), shown: BTreeSet::new(), folded: BTreeMap::new() };
    t.node(&rel, &args, opts.depth, "", "")?;
    let mut text = String::new();
    if !t.evidence.is_empty() {
        text.push_str("evidence:\n");
        for (cite, quote, what) in &t.evidence {
            let _ = writeln!(text, "  {cite} {quote:?}");
            for w in what {
                let _ = writeln!(text, "      → {w}");
            }
        }
        text.push_str("proof:\n");
    }
    text.push_str(&t.tree);
    if !t.folded.is_empty() {
        let n: usize = t.folded.values().sum();
        let names: Vec<String> = t.folded.iter().map(|(r, k)| if *k > 1 { format!("{r} ×{k}") } else { r.clone() }).collect();
        let _ = writeln!(text, "({n} rule-library step(s) folded: {}; --full shows them)", names.join(", "));
    }
    let mut ex = Explanation { text, ..Explanation::default() };
    if opts.verify {
        let checks = super::explain_with(store, &rel, &args, opts.depth, true, &locs)?;
        (ex.checked, ex.failures) = (checks.checked, checks.failures);
        for f in &ex.failures {
            let _ = writeln!(ex.text, "FAILED {f}");
        }
        let _ = writeln!(ex.text, "{}/{} checks passed", ex.checked - ex.failures.len(), ex.checked);
    }
    Ok(Outcome::Holds(ex))
}

struct Trace<'a> {
    store: &'a Store,
    locs: &'a BTreeMap<String, String>,
    tree: String,
    /// The evidence section: citation, quote, and what was read from it, in the order met.
    evidence: Vec<(String, String, Vec<String>)>,
    /// Citation and reading pairs already in the evidence section.
    cited: BTreeSet<String>,
    /// Facts already shown in the tree.
    shown: BTreeSet<String>,
    /// Scaffolding steps folded, by relation.
    folded: BTreeMap<String, usize>,
}

fn sym(v: Option<&Value>) -> String {
    match v {
        Some(Value::Sym(s)) => s.clone(),
        Some(Value::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

impl Trace<'_> {
    /// Adds a reading of a citation to the evidence section (once; readings of one
    /// citation are listed under it).
    fn cite(&mut self, cite: String, quote: &str, what: String) {
        if !self.cited.insert(format!("{cite} {what}")) {
            return;
        }
        match self.evidence.iter_mut().find(|(c, _, _)| *c == cite) {
            Some((_, _, w)) => w.push(what),
            None => self.evidence.push((cite, quote.to_string(), vec![what])),
        }
    }

    /// The premises to show for a derived fact: scaffolding premises are replaced by the
    /// facts beneath them that are not (stored `entity`/`mention` facts read only by
    /// scaffolding are the plumbing of resolution, and are folded too).
    fn premises(&mut self, body: &[(String, Vec<Value>)], out: &mut Vec<(String, Vec<Value>)>, seen: &mut BTreeSet<String>) -> Result<(), ReasonError> {
        for (rel, args) in body {
            let key = render(rel, args);
            if !seen.insert(key) {
                continue;
            }
            if !scaffolding(rel) {
                out.push((rel.clone(), args.clone()));
                continue;
            }
            *self.folded.entry(rel.clone()).or_default() += 1;
            if let Some(why) = self.store.derivation(rel, args)? {
                let inner: Vec<(String, Vec<Value>)> = why.body.into_iter().filter(|(r, _)| r != "entity" && r != "mention").collect();
                self.premises(&inner, out, seen)?;
            }
        }
        Ok(())
    }

    fn node(&mut self, rel: &str, args: &[Value], depth: usize, lead: &str, child: &str) -> Result<(), ReasonError> {
        let shown = render(rel, args);
        let again = !self.shown.insert(shown.clone());
        if !tg_analytics::facts::is_relation(rel)
            && let Some(why) = self.store.derivation(rel, args)?
        {
            if again {
                let _ = writeln!(self.tree, "{lead}{shown}  (shown above)");
                return Ok(());
            }
            let text = self.store.rule_text(&why.rule)?.unwrap_or_else(|| "?".into());
            let loc = self.locs.get(&why.rule).cloned().unwrap_or_else(|| format!("rule {}", &why.rule[..12.min(why.rule.len())]));
            let _ = writeln!(self.tree, "{lead}{shown}  [{loc}: {text}]");
            let mut kids: Vec<String> = vec![];
            if rel == "same_as" {
                kids.extend(self.same_as_evidence(args)?);
            }
            let mut premises = vec![];
            self.premises(&why.body, &mut premises, &mut BTreeSet::new())?;
            if depth == 0 && !premises.is_empty() {
                kids.push(format!("… ({} premise(s) below the depth limit; --depth shows more)", premises.len()));
                premises.clear();
            }
            let n = kids.len() + premises.len();
            for (i, k) in kids.iter().enumerate() {
                let last = i + 1 == n;
                let _ = writeln!(self.tree, "{child}{}{k}", if last { "└─ " } else { "├─ " });
            }
            for (i, (br, bargs)) in premises.iter().enumerate() {
                let last = kids.len() + i + 1 == n;
                let l = format!("{child}{}", if last { "└─ " } else { "├─ " });
                let c = format!("{child}{}", if last { "   " } else { "│  " });
                self.node(br, bargs, depth.saturating_sub(1), &l, &c)?;
            }
            return Ok(());
        }
        if rel == "er_judgement" {
            let _ = writeln!(self.tree, "{lead}{shown}  [analyst judgement, recorded with tg resolve --accept/--reject]");
            return Ok(());
        }
        let cites = self.store.supports(rel, args)?;
        if cites.is_empty()
            && let Some((method, premises)) = tg_analytics::facts::explain(self.store, rel, args, 20)?
        {
            // An analytics fact (issue 22): the method, then the claims it rests on.
            let _ = writeln!(self.tree, "{lead}{shown}  [DERIVED by tg analytics: {method}]");
            let n = premises.len();
            for (i, (br, bargs)) in premises.iter().enumerate() {
                let last = i + 1 == n;
                let l = format!("{child}{}", if last { "└─ " } else { "├─ " });
                let c = format!("{child}{}", if last { "   " } else { "│  " });
                if depth > 0 {
                    self.node(br, bargs, depth - 1, &l, &c)?;
                }
            }
            return Ok(());
        }
        if cites.is_empty() {
            let _ = writeln!(self.tree, "{lead}{shown}  [not in the store]");
            return Ok(());
        }
        let tag = cites.iter().map(|c| c.tag).min().map(|t| t.name()).unwrap_or("?");
        let refs: Vec<String> = cites.iter().take(CITES_SHOWN).map(|c| format!("[{}:{}-{}]", c.doc, c.start, c.end)).collect();
        let more = if cites.len() > CITES_SHOWN { format!(" +{} more", cites.len() - CITES_SHOWN) } else { String::new() };
        let _ = writeln!(self.tree, "{lead}{shown}  [{tag}] {}{more}", refs.join(" "));
        let what =
            if rel == "claim" { format!("{} {} {} ({}, {})", sym(args.get(2)), sym(args.get(3)), sym(args.get(4)), sym(args.get(5)), sym(args.get(6))) } else { shown.clone() };
        for c in cites.iter().take(CITES_SHOWN) {
            let cite = format!("[{}:{}-{}]", c.doc, c.start, c.end);
            let cite = if c.verified { cite } else { format!("{cite} ✗ does not re-hash") };
            self.cite(cite, &c.quote, what.clone());
        }
        Ok(())
    }

    /// What decided a merge (the name evidence or alias statement) and the sentences
    /// naming each of the two entities, cited; the sentences go to the evidence section.
    fn same_as_evidence(&mut self, args: &[Value]) -> Result<Vec<String>, ReasonError> {
        let (a, b) = (sym(args.first()), sym(args.get(1)));
        let mut out = vec![];
        let reasons: Vec<String> = self
            .store
            .derived_facts("er_match")?
            .into_iter()
            .filter(|(r, _)| (sym(r.first()) == a && sym(r.get(1)) == b) || (sym(r.first()) == b && sym(r.get(1)) == a))
            .map(|(r, _)| sym(r.get(2)))
            .collect();
        if !reasons.is_empty() {
            out.push(format!("decided by: {} (no refused merge or bridge blocks it)", reasons.join("; ")));
        }
        let mentions = self.store.lookup("mention", &[])?;
        let mut docs_of: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for m in &mentions {
            docs_of.entry(sym(m.get(1))).or_default().insert(sym(m.first()));
        }
        let both: BTreeSet<String> = match (docs_of.get(&a), docs_of.get(&b)) {
            (Some(x), Some(y)) => x.intersection(y).cloned().collect(),
            _ => BTreeSet::new(),
        };
        let mut named = 0;
        for e in [&a, &b] {
            let mut ms: Vec<&Vec<Value>> = mentions.iter().filter(|m| &sym(m.get(1)) == e).collect();
            // A document naming both first, so the two sentences can be read side by side.
            ms.sort_by_key(|m| !both.contains(&sym(m.first())));
            if let Some(m) = ms.first()
                && let Some(c) = self.store.supports("mention", m)?.first()
            {
                let (s, t, sentence) = self.sentence(&c.doc, c.start as usize, c.end as usize)?;
                let cite = format!("[{}:{s}-{t}]", c.doc);
                self.cite(cite, &sentence, format!("names {e} as {:?}", c.quote));
                named += 1;
            }
        }
        if named > 0 {
            out.push(format!("named in: {named} sentence(s), under evidence"));
        }
        Ok(out)
    }

    /// The sentence of document `doc` around bytes `start..end`: its span and text.
    fn sentence(&self, doc: &str, start: usize, end: usize) -> Result<(usize, usize, String), ReasonError> {
        let Some(text) = self.store.text(doc)? else { return Ok((start, end, String::new())) };
        let bytes = text.as_bytes();
        let (start, end) = (start.min(bytes.len()), end.min(bytes.len()));
        let mut s = start;
        while s > 0 && start - s < 300 && !(bytes[s - 1] == b'\n' || (s >= 2 && bytes[s - 1] == b' ' && matches!(bytes[s - 2], b'.' | b'!' | b'?'))) {
            s -= 1;
        }
        let mut t = end;
        while t < bytes.len() && t - end < 300 && bytes[t] != b'\n' && !(matches!(bytes[t], b'.' | b'!' | b'?') && bytes.get(t + 1).is_none_or(|c| c.is_ascii_whitespace())) {
            t += 1;
        }
        if t < bytes.len() && matches!(bytes[t], b'.' | b'!' | b'?') {
            t += 1;
        }
        while !text.is_char_boundary(s) {
            s += 1;
        }
        while !text.is_char_boundary(t) {
            t -= 1;
        }
        Ok((s, t, text.get(s..t).unwrap_or_default().to_string()))
    }
}
