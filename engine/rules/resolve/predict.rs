//! `tg predict` (issue 20): each predicted pair once, with the score of every method
//! (`link_score`, stdlib/links.dl), ranked by one method — adamic-adar unless `--method`
//! names another. Which pairs are candidates at all (never a person and a place) is the
//! rule library's decision (`candidate_link`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use super::views::ViewError;
use tg_store::{Store, Value};

/// The method pairs are ranked by when none is asked for.
pub const DEFAULT_METHOD: &str = "adamic-adar";

/// One predicted link: the pair and every method's score.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Prediction {
    /// One entity.
    pub x: String,
    /// The other.
    pub y: String,
    /// The method the ranking uses.
    pub method: String,
    /// Its score in thousandths.
    pub score: i64,
    /// Every method's score for the pair, in thousandths, by method name.
    pub scores: BTreeMap<String, i64>,
}

fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::Sym(s)) => s.clone(),
        Some(Value::Num(n)) => n.to_string(),
        None => String::new(),
    }
}

fn number(v: Option<&Value>) -> i64 {
    match v {
        Some(Value::Num(n)) => i64::from(*n),
        _ => 0,
    }
}

/// The pairs the rule library predicts (`predicted_link`) by `method` (any method when
/// `None`), each once with all its scores, best first by `method` (or
/// [`DEFAULT_METHOD`]), then by key; at most `top`.
pub fn predict(store: &Store, method: Option<&str>, top: usize) -> Result<Vec<Prediction>, ViewError> {
    if store.derived_by()?.is_none() {
        return Err(ViewError::NotDerived);
    }
    let rows = |rel: &str| -> Result<Vec<Vec<Value>>, ViewError> { Ok(store.derived_facts(rel)?.into_iter().map(|(a, _)| a).collect()) };
    let pairs: BTreeSet<(String, String)> =
        rows("predicted_link")?.iter().filter(|r| method.is_none_or(|m| text(r.get(2)) == m)).map(|r| (text(r.first()), text(r.get(1)))).collect();
    let mut scores: BTreeMap<(String, String), BTreeMap<String, i64>> = BTreeMap::new();
    for r in rows("link_score")? {
        let pair = (text(r.first()), text(r.get(1)));
        if pairs.contains(&pair) {
            scores.entry(pair).or_default().insert(text(r.get(2)), number(r.get(3)));
        }
    }
    for r in rows("predicted_link")? {
        let pair = (text(r.first()), text(r.get(1)));
        if pairs.contains(&pair) {
            scores.entry(pair).or_default().entry(text(r.get(2))).or_insert(number(r.get(3)));
        }
    }
    let by = method.unwrap_or(DEFAULT_METHOD).to_string();
    let mut out: Vec<Prediction> = scores.into_iter().map(|((x, y), s)| Prediction { score: s.get(&by).copied().unwrap_or(0), method: by.clone(), x, y, scores: s }).collect();
    out.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| (&a.x, &a.y).cmp(&(&b.x, &b.y))));
    out.truncate(top);
    Ok(out)
}

fn thousandths(n: i64) -> String {
    format!("{}.{:03}", n / 1000, n % 1000)
}

/// The text form: `1.343  adamic-adar  X — Y  (common-neighbours 2.000, jaccard 1.000, …)`.
pub fn render(v: &[Prediction]) -> String {
    let mut out = String::new();
    for p in v {
        let others: Vec<String> = p.scores.iter().filter(|(m, _)| **m != p.method).map(|(m, s)| format!("{m} {}", thousandths(*s))).collect();
        let _ = write!(out, "{}  {}  {} — {}", thousandths(p.score), p.method, p.x, p.y);
        if !others.is_empty() {
            let _ = write!(out, "  ({})", others.join(", "));
        }
        out.push('\n');
    }
    if v.is_empty() {
        out.push_str("no links predicted\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One line per pair: the ranking score first, the other methods after it.
    #[test]
    fn one_line_per_pair_with_every_score() {
        let scores: BTreeMap<String, i64> = [("adamic-adar", 1343), ("common-neighbours", 2000), ("jaccard", 500)].iter().map(|(m, s)| (m.to_string(), *s)).collect();
        let p = Prediction { x: "A".into(), y: "B".into(), method: "adamic-adar".into(), score: 1343, scores };
        assert_eq!(render(&[p]), "1.343  adamic-adar  A — B  (common-neighbours 2.000, jaccard 0.500)\n");
        assert_eq!(render(&[]), "no links predicted\n");
    }
}
