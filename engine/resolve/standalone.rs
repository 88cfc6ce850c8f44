//! `tg resolve --names FILE.csv`: resolve a list of `id,name[,type]` rows with exactly the
//! stdlib's identity rules, outside any case, so resolution can be scored against any gold.

use crate::datalog::eval::{Database, EvalConfig, evaluate};
use crate::ingest::formats::csv::records;
use crate::rulebook::{self, RulebookError};

/// One name to resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameRow {
    /// The row's id (first column).
    pub id: String,
    /// The name (second column).
    pub name: String,
    /// The type (third column; `Organization` when absent).
    pub ty: String,
}

/// Reads `id,name[,type]` rows. A first row whose first two cells are `id` and `name`
/// (any case) is a header. Rows with fewer than two cells or an empty id are reported.
pub fn read_rows(text: &str) -> (Vec<NameRow>, Vec<String>) {
    let delim = if text.lines().next().is_some_and(|l| l.contains('\t') && !l.contains(',')) { b'\t' } else { b',' };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = vec![];
    let mut problems = vec![];
    for (i, (_, cells)) in records(text, delim).into_iter().enumerate() {
        let cell = |k: usize| cells.get(k).map(|c| c.0.trim().to_string()).unwrap_or_default();
        if i == 0 && cell(0).eq_ignore_ascii_case("id") && cell(1).eq_ignore_ascii_case("name") {
            continue;
        }
        if cells.iter().all(|c| c.0.trim().is_empty()) {
            continue;
        }
        if cells.len() < 2 || cell(0).is_empty() {
            problems.push(format!("record {}: expected id,name[,type]", i + 1));
            continue;
        }
        let ty = if cell(2).is_empty() { "Organization".to_string() } else { cell(2) };
        rows.push(NameRow { id: cell(0), name: cell(1), ty });
    }
    (rows, problems)
}

/// Resolves the rows: each id with its cluster (the least id of its class), in input order.
/// Rows sharing an id are one record.
pub fn resolve_rows(rows: &[NameRow]) -> Result<Vec<(String, String)>, RulebookError> {
    let c = rulebook::stdlib()?;
    let prog = &c.prog;
    let rel = |name: &str| prog.relations.iter().position(|r| r.name == name);
    let (Some(input), Some(class)) = (rel("er_input"), rel("er_class")) else {
        return Err(RulebookError::Program("the stdlib has no er_input/er_class relation".into()));
    };
    let mut db = Database::new(prog, c.values.clone(), &EvalConfig { provenance: false });
    let mut words = Vec::with_capacity(rows.len() * 3);
    for r in rows {
        words.push(db.values.intern(&r.id));
        words.push(db.values.intern(&r.ty));
        words.push(db.values.intern(&r.name));
    }
    db.load_rows(input, words, false);
    evaluate(prog, &c.strata, &mut db).map_err(|d| RulebookError::Program(d.render(&c.sources)))?;
    let mut class_of = std::collections::HashMap::new();
    for row in db.rels[class].rows().chunks_exact(2) {
        class_of.insert(db.values.symbol(row[0]).to_string(), db.values.symbol(row[1]).to_string());
    }
    Ok(rows.iter().map(|r| (r.id.clone(), class_of.get(&r.id).cloned().unwrap_or_else(|| r.id.clone()))).collect())
}
