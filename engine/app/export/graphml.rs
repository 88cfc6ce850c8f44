//! `tg export --format graphml`: GraphML (directed, parallel edges allowed). Node ids are
//! `kind:id` (`entity:…`, `claim:…`, `document:…`, `derived:…`, `rule:…`); every node has
//! a `label` (its table) and its table's columns; every edge a `label` (its type) and its
//! properties. Keys are declared once per name and domain.

use std::collections::BTreeMap;

use super::tables::{Cell, Kind, Tables};

/// XML text with the five special characters escaped and characters XML 1.0 forbids
/// replaced by U+FFFD.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' => out.push(ch),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The GraphML id of a node of a table.
pub fn node_id(label: &str, id: &str) -> String {
    format!("{}:{id}", label.to_ascii_lowercase())
}

fn ty(k: Kind) -> &'static str {
    match k {
        Kind::Str => "string",
        Kind::Int => "long",
    }
}

/// The whole document (ends with a newline).
pub fn write(t: &Tables) -> String {
    let mut node_keys: BTreeMap<&str, Kind> = BTreeMap::new();
    let mut edge_keys: BTreeMap<&str, Kind> = BTreeMap::new();
    node_keys.insert("label", Kind::Str);
    edge_keys.insert("label", Kind::Str);
    for n in &t.nodes {
        for (c, k) in &n.columns {
            node_keys.insert(c, *k);
        }
    }
    for r in &t.rels {
        for (c, k) in &r.columns {
            edge_keys.insert(c, *k);
        }
    }
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n",
    );
    for (name, k) in &node_keys {
        out.push_str(&format!("  <key id=\"n_{name}\" for=\"node\" attr.name=\"{name}\" attr.type=\"{}\"/>\n", ty(*k)));
    }
    for (name, k) in &edge_keys {
        out.push_str(&format!("  <key id=\"e_{name}\" for=\"edge\" attr.name=\"{name}\" attr.type=\"{}\"/>\n", ty(*k)));
    }
    out.push_str("  <graph id=\"textgraph\" edgedefault=\"directed\">\n");
    for n in &t.nodes {
        for row in &n.rows {
            let id = row.first().map(Cell::text).unwrap_or_default();
            out.push_str(&format!("    <node id=\"{}\">\n      <data key=\"n_label\">{}</data>\n", escape(&node_id(n.label, &id)), n.label));
            for ((c, _), cell) in n.columns.iter().zip(row) {
                out.push_str(&format!("      <data key=\"n_{c}\">{}</data>\n", escape(&cell.text())));
            }
            out.push_str("    </node>\n");
        }
    }
    let mut e = 0usize;
    for r in &t.rels {
        for (a, b, cells) in &r.rows {
            out.push_str(&format!(
                "    <edge id=\"e{e}\" source=\"{}\" target=\"{}\">\n      <data key=\"e_label\">{}</data>\n",
                escape(&node_id(r.from, a)),
                escape(&node_id(r.to, b)),
                r.label
            ));
            for ((c, _), cell) in r.columns.iter().zip(cells) {
                out.push_str(&format!("      <data key=\"e_{c}\">{}</data>\n", escape(&cell.text())));
            }
            out.push_str("    </edge>\n");
            e += 1;
        }
    }
    out.push_str("  </graph>\n</graphml>\n");
    out
}
