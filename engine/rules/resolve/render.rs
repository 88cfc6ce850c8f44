//! Text renderings of the auditor's views (`tg resolve`, `tg contradictions`, `tg timeline`,
//! `tg path`, `tg predict`); `--format json` prints the views' serde form instead.

use std::fmt::Write as _;

use super::views::{ClaimView, ContradictionView, PathView, ResolveView, TimelineEntry, path_summary};

fn side(c: &ClaimView) -> String {
    format!("{} {} ({}, {}) {} {:?}", c.asserter, c.modality, c.polarity, c.tag, c.citation, c.quote)
}

/// A score in thousandths as `0.912`.
fn score(s: i64) -> String {
    format!("{}.{:03}", s / 1000, s % 1000)
}

/// `tg resolve`.
pub fn resolve(v: &ResolveView) -> String {
    let mut out = format!("{} mentions → {} entities ({} names)\n", v.mentions, v.entities, v.names);
    if !v.merged.is_empty() {
        let _ = writeln!(out, "\nmerged:");
    }
    for c in &v.merged {
        let _ = writeln!(out, "  {}  ←  {}", c.canonical, c.members.iter().filter(|m| **m != c.canonical).cloned().collect::<Vec<_>>().join(", "));
        if !c.surface_forms.is_empty() {
            let _ = writeln!(out, "    written as: {}", c.surface_forms.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", "));
        }
        for l in &c.links {
            let _ = writeln!(out, "    {}  =  {}  {}  {}", l.a, l.b, score(l.score), l.reason);
        }
    }
    if !v.refused.is_empty() {
        let _ = writeln!(out, "\nrefused merges (by claims the answer would move):");
    }
    for r in &v.refused {
        let _ = writeln!(out, "  {} claim(s)  {}  ≠  {}  — {}", r.claims_moved, r.a, r.b, r.reason);
    }
    if !v.review.is_empty() {
        let _ = writeln!(out, "\nto review (alike, below the merge score; judge with tg resolve --accept/--reject A B):");
    }
    for r in &v.review {
        let _ = writeln!(out, "  {}  {}  ?  {}", score(r.score), r.a, r.b);
    }
    if !v.conflicts.is_empty() {
        let _ = writeln!(out, "\nclasses holding a refused pair (split with tg resolve --reject):");
    }
    for r in &v.conflicts {
        let _ = writeln!(out, "  {}  ≠  {}  — {}", r.a, r.b, r.reason);
    }
    out
}

/// `tg contradictions`.
pub fn contradictions(v: &[ContradictionView]) -> String {
    let mut out = String::new();
    for c in v {
        let _ = writeln!(out, "{} {} {} — {}", c.first.subject, c.first.relation, c.first.object, c.label);
        if (&c.second.subject, &c.second.relation, &c.second.object) != (&c.first.subject, &c.first.relation, &c.first.object) {
            let _ = writeln!(out, "  vs {} {} {}", c.second.subject, c.second.relation, c.second.object);
        }
        let _ = writeln!(out, "  says:  {}", side(&c.first));
        let _ = writeln!(out, "  says:  {}", side(&c.second));
    }
    let _ = writeln!(out, "{} contradiction{}", v.len(), if v.len() == 1 { "" } else { "s" });
    out
}

/// `tg timeline`.
pub fn timeline(entity: &str, v: &[TimelineEntry]) -> String {
    let mut out = format!("{entity}: {} claim{}\n", v.len(), if v.len() == 1 { "" } else { "s" });
    for e in v {
        let from = if e.from.is_empty() { "undated" } else { e.from.as_str() };
        let until = if e.until.is_empty() { "open".to_string() } else { e.until.clone() };
        let c = &e.claim;
        let _ = writeln!(out, "{from} … {until}  {} {} {}  ({}, {}, {}) {}  [{}]", c.subject, c.relation, c.object, c.modality, c.polarity, c.asserter, c.citation, c.id);
        let _ = writeln!(out, "    {:?}", c.quote);
        for s in &e.superseded_by {
            let _ = writeln!(out, "    superseded by {s}");
        }
        for s in &e.supersedes {
            let _ = writeln!(out, "    supersedes {s}");
        }
    }
    out
}

/// `tg path`.
pub fn path(v: &PathView, filter: &[String]) -> String {
    let mut out = String::new();
    if v.hops.is_empty() && v.from != v.to {
        let how = if filter.is_empty() { String::new() } else { format!(" using only {} claims", filter.join("/")) };
        let _ = writeln!(out, "no chain from {} to {}{how}", v.from, v.to);
        if let Some(n) = v.unfiltered_hops {
            let _ = writeln!(out, "a chain of {n} hop{} exists when other modalities are allowed", if n == 1 { "" } else { "s" });
        }
        return out;
    }
    for (i, h) in v.hops.iter().enumerate() {
        let c = &h.claim;
        let arrow = if h.forward { format!("—{}→", c.relation) } else { format!("←{}—", c.relation) };
        let _ = writeln!(out, "{}. {} {arrow} {}", i + 1, h.from, h.to);
        let _ = writeln!(out, "   {} by {} {} {:?}", c.modality, c.asserter, c.citation, c.quote);
    }
    let _ = writeln!(out, "{}", path_summary(&v.hops));
    out
}
