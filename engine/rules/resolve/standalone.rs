//! `tg resolve --names FILE.csv`: resolve a list of `id,name[,type][,attribute…]` rows with
//! exactly the stdlib's identity rules, outside any case, so resolution can be scored
//! against any gold. Columns after the type are attributes named by the header (a date of
//! birth, a year): two records stating one differently are never merged. A column named
//! with `--distinct-within` (a source) works the other way: records sharing its value are
//! never merged.

use crate::rulebook::{self, RulebookError};
use tg_datalog::eval::{Database, EvalConfig, evaluate};
use tg_ingest::formats::csv::records;

/// One name to resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameRow {
    /// The row's id (first column).
    pub id: String,
    /// The name (second column).
    pub name: String,
    /// The type (third column; `Organization` when absent).
    pub ty: String,
    /// Attributes (header name, value) from the columns after the type; empty cells left out.
    pub attributes: Vec<(String, String)>,
}

/// Reads `id,name[,type][,attribute…]` rows. A first row whose first two cells are `id`
/// and `name` (any case) is a header; it names the attribute columns (without one they
/// are `column4`, `column5`, …); a header whose third cell is not `type` has no type
/// column (every row is then an `Organization`). Rows with fewer than two cells or an
/// empty id are reported.
pub fn read_rows(text: &str) -> (Vec<NameRow>, Vec<String>) {
    let delim = if text.lines().next().is_some_and(|l| l.contains('\t') && !l.contains(',')) { b'\t' } else { b',' };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = vec![];
    let mut problems = vec![];
    let mut header: Vec<String> = vec![];
    for (i, (_, cells)) in records(text, delim).enumerate() {
        let cell = |k: usize| cells.get(k).map(|c| c.0.trim().to_string()).unwrap_or_default();
        if i == 0 && cell(0).eq_ignore_ascii_case("id") && cell(1).eq_ignore_ascii_case("name") {
            header = (0..cells.len()).map(cell).collect();
            continue;
        }
        if cells.iter().all(|c| c.0.trim().is_empty()) {
            continue;
        }
        if cells.len() < 2 || cell(0).is_empty() {
            problems.push(format!("record {}: expected id,name[,type]", i + 1));
            continue;
        }
        // The third column is the type unless a header names it otherwise.
        let typed = header.get(2).is_none_or(|h| h.eq_ignore_ascii_case("type"));
        let ty = if !typed || cell(2).is_empty() { "Organization".to_string() } else { cell(2) };
        let attributes = (if typed { 3 } else { 2 }..cells.len())
            .filter(|&k| !cell(k).is_empty())
            .map(|k| (header.get(k).filter(|h| !h.is_empty()).cloned().unwrap_or_else(|| format!("column{}", k + 1)), cell(k)))
            .collect();
        rows.push(NameRow { id: cell(0), name: cell(1), ty, attributes });
    }
    (rows, problems)
}

/// Resolves the rows: each id with its cluster (the least id of its class), in input order.
/// Rows sharing an id are one record. `distinct_within` names attribute columns whose
/// records never repeat an entity (`er_distinct_within`: the sources of a linkage between
/// duplicate-free lists).
pub fn resolve_rows(rows: &[NameRow], distinct_within: &[String]) -> Result<Vec<(String, String)>, RulebookError> {
    let c = rulebook::stdlib()?;
    let prog = &c.prog;
    let rel = |name: &str| prog.relations.iter().position(|r| r.name == name);
    let (Some(input), Some(attribute), Some(class), Some(distinct)) = (rel("er_input"), rel("er_attribute"), rel("er_class"), rel("er_distinct_within")) else {
        return Err(RulebookError::Evaluation("the stdlib has no er_input/er_attribute/er_class/er_distinct_within relation".into()));
    };
    let mut db = Database::new(prog, c.values.clone(), &EvalConfig { provenance: false });
    let mut words = Vec::with_capacity(rows.len() * 3);
    for r in rows {
        words.push(db.values.intern(&r.id));
        words.push(db.values.intern(&r.ty));
        words.push(db.values.intern(&r.name));
    }
    db.load_rows(input, words, false);
    let mut words = vec![];
    for r in rows {
        for (k, v) in &r.attributes {
            words.extend([db.values.intern(&r.id), db.values.intern(k), db.values.intern(v)]);
        }
    }
    db.load_rows(attribute, words, false);
    let words = distinct_within.iter().map(|k| db.values.intern(k)).collect();
    db.load_rows(distinct, words, false);
    evaluate(prog, &c.strata, &mut db).map_err(|d| RulebookError::Evaluation(d.render(&c.sources)))?;
    let mut class_of = std::collections::HashMap::new();
    for row in db.rels[class].rows().chunks_exact(2) {
        class_of.insert(db.values.symbol(row[0]).to_string(), db.values.symbol(row[1]).to_string());
    }
    Ok(rows.iter().map(|r| (r.id.clone(), class_of.get(&r.id).cloned().unwrap_or_else(|| r.id.clone()))).collect())
}
