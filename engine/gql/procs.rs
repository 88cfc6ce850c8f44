//! `CALL tg.search(query [, k [, mode]])`: the store's full-text search as a procedure of
//! the view (issue 22). It reads the copy of the search index the view loaded, so its
//! hits, scores and order are `tg search`'s.

use crate::error::GqlError;
use crate::graph::Graph;
use crate::value::Value;
use tg_analytics::search::{Mode, search_in};

/// The procedure's name, lower-cased.
pub const SEARCH: &str = "tg.search";

/// The fields `tg.search` yields, in order.
pub const FIELDS: &[&str] = &["rank", "score", "kind", "citation", "doc", "start", "end", "text", "chunk", "claim", "relation", "modality", "asserter"];

/// Whether `name` is `tg.search` (case-insensitive, as procedure names are).
pub fn is_search(name: &str) -> bool {
    name.eq_ignore_ascii_case(SEARCH)
}

/// The rows of `tg.search` for evaluated arguments: one list of [`FIELDS`] values per hit.
pub fn search(g: &Graph, args: &[Value]) -> Result<Vec<Vec<Value>>, GqlError> {
    let bad = |m: String| GqlError::semantic("InvalidArgumentType", m);
    let query = match args.first() {
        Some(Value::Str(s)) => s.to_string(),
        _ => return Err(bad("tg.search(query [, k [, mode]]) needs a query string first".into())),
    };
    let k = match args.get(1) {
        None => 10,
        Some(Value::Int(i)) if *i >= 0 => *i as usize,
        Some(v) => return Err(bad(format!("tg.search: k must be a non-negative integer, not {}", v.type_name()))),
    };
    let mode = match args.get(2) {
        None => Mode::Bm25,
        Some(Value::Str(s)) => Mode::parse(s).ok_or_else(|| bad(format!("tg.search: mode must be 'bm25', 'ppr' or 'hybrid', not {s:?}")))?,
        Some(v) => return Err(bad(format!("tg.search: mode must be a string, not {}", v.type_name()))),
    };
    if args.len() > 3 {
        return Err(bad("tg.search takes at most three arguments (query, k, mode)".into()));
    }
    let Some(ix) = &g.search.0 else {
        return Err(GqlError::semantic("ProcedureNotFound", "tg.search needs a store's view (not a --script graph)"));
    };
    let r = search_in(ix.as_ref(), &ix.graph, &query, mode, k).map_err(|e| bad(format!("tg.search: {e}")))?;
    let opt = |x: Option<&String>| x.map_or(Value::Null, |s| Value::str(s));
    Ok(r.hits
        .iter()
        .map(|h| {
            let c = h.claim.as_ref();
            let chunk = if h.claim.is_none() { Value::Int(h.chunk_index.unwrap_or(-1)) } else { Value::Null };
            vec![
                Value::Int(h.rank as i64),
                Value::Float((h.score * 1e4).round() / 1e4),
                Value::str(h.kind),
                Value::str(&h.citation),
                Value::str(&h.doc),
                Value::Int(h.start as i64),
                Value::Int(h.end as i64),
                Value::str(&h.text),
                chunk,
                opt(c.map(|c| &c.id)),
                opt(c.map(|c| &c.relation)),
                opt(c.map(|c| &c.modality)),
                opt(c.map(|c| &c.asserter)),
            ]
        })
        .collect())
}
