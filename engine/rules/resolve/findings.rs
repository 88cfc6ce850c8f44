//! What a derivation found, in one line an investigator reads first — "1 contradiction,
//! 3 merges, 2 refused merges, 1 structuring pattern" — and the commands that show each.
//! `tg derive` prints it after its counts; it reads only the stored and derived facts.

use std::collections::BTreeMap;

use serde::Serialize;

use super::views::{self, ViewError};
use tg_store::Store;

/// One kind of finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// How many.
    pub count: usize,
    /// What, singular ("contradiction", "structuring pattern").
    pub what: String,
    /// The command that shows them.
    pub look: String,
}

/// Relations of the stdlib and the bundled rule files worth naming: singular, plural.
const LABELS: &[(&str, &str, &str)] = &[
    ("controls_transitively", "control link", "control links"),
    ("indirect_beneficial_owner", "indirect beneficial owner", "indirect beneficial owners"),
    ("structuring", "structuring pattern", "structuring patterns"),
    ("layering_chain", "layering chain", "layering chains"),
    ("round_trip", "round trip", "round trips"),
    ("paid_by_common_owner", "payment by a common owner", "payments by a common owner"),
    ("total_mismatch", "stated total the wires do not add up to", "stated totals the wires do not add up to"),
    ("self_dealing", "self-dealing pattern", "self-dealing patterns"),
    ("possible_shell", "possible shell", "possible shells"),
    ("needs_corroboration", "claim needing corroboration", "claims needing corroboration"),
];

/// `n what` with a plural `s` when `n != 1` ("1 merge", "2 refused merges").
pub fn counted(n: usize, what: &str) -> String {
    match LABELS.iter().find(|(_, one, _)| *one == what) {
        Some((_, one, _)) if n == 1 => format!("1 {one}"),
        Some((_, _, many)) => format!("{n} {many}"),
        None if n == 1 => format!("1 {what}"),
        None => format!("{n} {what}s"),
    }
}

/// A shell-quoted argument (single quotes; a quote inside is closed, escaped, reopened).
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The findings of the store's derived layer; `case_heads` are the relations the case's own
/// rule files derive (each is reported, with the first fact to explain).
pub fn findings(store: &Store, case_heads: &[String], layer: &crate::layer::Snapshot) -> Result<Vec<Finding>, ViewError> {
    let mut out = vec![];
    let contradictions = views::contradictions(store)?.len();
    out.push(Finding { count: contradictions, what: "contradiction".into(), look: "tg contradictions".into() });
    match views::resolve(store) {
        Ok(r) => {
            out.push(Finding { count: r.merged.len(), what: "merge".into(), look: "tg resolve".into() });
            out.push(Finding { count: r.refused.len(), what: "refused merge".into(), look: "tg resolve".into() });
            if !r.review.is_empty() {
                out.push(Finding { count: r.review.len(), what: "pair to review".into(), look: "tg resolve".into() });
            }
        }
        Err(ViewError::NotDerived) => {}
        Err(e) => return Err(e),
    }
    let labels: BTreeMap<&str, &str> = LABELS.iter().map(|(r, one, _)| (*r, *one)).collect();
    let mut rels: Vec<&str> = LABELS.iter().map(|(r, _, _)| *r).filter(|r| !case_heads.iter().any(|h| h == r)).collect();
    rels.extend(case_heads.iter().map(String::as_str));
    for rel in rels {
        let empty = std::collections::BTreeSet::new();
        let facts = layer.get(rel).unwrap_or(&empty);
        let is_case = case_heads.iter().any(|h| h == rel);
        if facts.is_empty() && !is_case {
            continue;
        }
        let what = labels.get(rel).map_or_else(|| format!("{rel} fact"), |l| (*l).to_string());
        let look = match facts.first() {
            Some(f) => format!("tg explain {}", quoted(f)),
            None => format!("(no {rel} fact derived)"),
        };
        out.push(Finding { count: facts.len(), what, look });
    }
    let pairs: std::collections::BTreeSet<(String, String)> = store
        .derived_facts("predicted_link")?
        .iter()
        .filter_map(|(a, _)| match (a.first(), a.get(1)) {
            (Some(x), Some(y)) => Some((format!("{x:?}"), format!("{y:?}"))),
            _ => None,
        })
        .collect();
    if !pairs.is_empty() {
        out.push(Finding { count: pairs.len(), what: "predicted link".into(), look: "tg predict".into() });
    }
    Ok(out)
}

/// `found: …` and the distinct commands to look, one a line.
pub fn render(found: &[Finding]) -> String {
    if found.is_empty() {
        return String::new();
    }
    let line: Vec<String> = found.iter().map(|f| counted(f.count, &f.what)).collect();
    let mut out = format!("found: {}\n", line.join(", "));
    let mut seen = vec![];
    for f in found.iter().filter(|f| f.count > 0) {
        if !seen.contains(&&f.look) {
            seen.push(&f.look);
        }
    }
    if !seen.is_empty() {
        out.push_str("look:\n");
        for l in seen {
            out.push_str(&format!("  {l}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts are pluralised; each command is listed once, none for empty findings.
    #[test]
    fn renders_counts_and_distinct_commands() {
        let f = |count, what: &str, look: &str| Finding { count, what: what.into(), look: look.into() };
        let out = render(&[f(1, "contradiction", "tg contradictions"), f(2, "merge", "tg resolve"), f(1, "refused merge", "tg resolve"), f(0, "structuring pattern", "x")]);
        assert_eq!(out, "found: 1 contradiction, 2 merges, 1 refused merge, 0 structuring patterns\nlook:\n  tg contradictions\n  tg resolve\n");
        assert_eq!(quoted("a'b"), "'a'\\''b'");
    }
}
