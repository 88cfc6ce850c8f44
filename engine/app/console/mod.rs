//! `tg console` and `tg export --format html` (issue 23): one viewer page, its script and
//! style embedded in the binary (`viewer.html`; no CDN, no third-party code, no request
//! but to the page's own origin), with the case graph inlined as JSON.
//!
//! The page draws the entity graph (SAME_AS classes as nodes, coloured by type, sized by
//! PageRank; claims as edges), an inspector with the selected entity's cited claims and
//! validity windows, search over names and quotes, a path mode, a filter that hides
//! GENERATED claims (by default) and a valid-time slider. Its state can be set from the
//! address (`#select=KEY&q=…&from=KEY&to=KEY&t=DATE&generated=1`), which links and the
//! browser tests use. `tg console` serves the same page on 127.0.0.1 only.

pub mod server;

use std::collections::BTreeMap;

use serde_json::{Value as Json, json};

use crate::export::model::{Graph, name_of};
use tg_analytics::facts;
use tg_store::{Store, StoreError, Value};

/// The viewer page, with `__TG_DATA__` where the graph's JSON goes.
pub const TEMPLATE: &str = include_str!("viewer.html");

fn date(n: i64) -> String {
    if n <= 0 || n >= 99_991_231 { String::new() } else { format!("{:04}-{:02}-{:02}", n / 10_000, n / 100 % 100, n % 100) }
}

/// The graph the viewer shows, as JSON (sorted, rounded: the same store gives the same text).
pub fn data(store: &Store) -> Result<Json, StoreError> {
    let g = Graph::from_store(store)?;
    let a = facts::analyse(store)?;
    let pagerank: BTreeMap<&str, f64> = a.central.ranking.iter().map(|m| (m.entity.as_str(), m.pagerank)).collect();
    let mut classes: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut type_of: BTreeMap<&str, &str> = BTreeMap::new();
    for e in &g.entities {
        classes.entry(e.class.as_str()).or_default().push(e.id.as_str());
        type_of.insert(e.id.as_str(), e.entity_type.as_str());
    }
    let class_of: BTreeMap<&str, &str> = g.entities.iter().map(|e| (e.id.as_str(), e.class.as_str())).collect();
    let entities: Vec<Json> = classes
        .iter()
        .map(|(rep, members)| {
            let pr = pagerank.get(rep).copied().unwrap_or(0.0);
            let community = a.graph.node_of.get(*rep).and_then(|n| a.communities.of.get(*n)).copied().unwrap_or(0);
            json!({
                "id": rep, "name": name_of(rep), "type": type_of.get(rep).copied().unwrap_or("?"),
                "members": members, "pagerank": (pr * 1e6).round() / 1e6, "community": community,
            })
        })
        .collect();
    let mut window: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for (f, _) in store.derived_facts("claim_window")? {
        if let (Some(Value::Sym(c)), Some(Value::Num(from)), Some(Value::Num(until))) = (f.first(), f.get(1), f.get(2)) {
            window.insert(c.clone(), (i64::from(*from), i64::from(*until)));
        }
    }
    let cls = |k: &str| class_of.get(k).copied().unwrap_or(k).to_string();
    let claims: Vec<Json> = g
        .claims
        .iter()
        .map(|c| {
            let (from, until) = window.get(&c.id).copied().unwrap_or((0, 99_991_231));
            let from = if from > 0 { date(from) } else { c.valid_from.clone() };
            json!({
                "id": c.id, "s": cls(&c.subject), "o": cls(&c.object), "relation": c.relation, "modality": c.modality,
                "polarity": c.polarity, "asserter": c.asserter, "quote": c.quote, "citation": c.citation, "tag": c.tag,
                "from": from, "until": date(until),
            })
        })
        .collect();
    Ok(json!({"format": "textgraph-viewer/1", "documents": g.documents.len(), "entities": entities, "claims": claims}))
}

/// The viewer as one self-contained HTML page (`tg export --format html`, `tg console`).
pub fn html(store: &Store) -> Result<String, StoreError> {
    let text = serde_json::to_string(&data(store)?).unwrap_or_else(|_| "{}".into());
    // `<` never appears raw inside the inline script, so no `</script>` or `<!--` in a
    // quote can end or confuse it.
    Ok(TEMPLATE.replace("__TG_DATA__", &text.replace('<', "\\u003c")))
}
