//! Result formats of `tg gql`: `table` (aligned, for a terminal), `tsv`, `csv`, `json`,
//! and `tck` (TSV whose cells are openCypher literals, the TCK runner's contract).

use crate::exec::Table;
use crate::functions::fmt_float;
use crate::graph::Graph;
use crate::value::Value;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns with a rule under the header.
    Table,
    /// Tab-separated, strings bare.
    Tsv,
    /// RFC 4180 CSV, strings bare.
    Csv,
    /// `{"columns": […], "rows": [[…]]}`.
    Json,
    /// Tab-separated openCypher literals.
    Tck,
}

impl Format {
    /// Parses a `--format` value (`text`, every other command's name for the readable
    /// form, is the table).
    pub fn parse(s: &str) -> Option<Format> {
        Some(match s {
            "table" | "text" => Format::Table,
            "tsv" => Format::Tsv,
            "csv" => Format::Csv,
            "json" => Format::Json,
            "tck" => Format::Tck,
            _ => return None,
        })
    }
}

fn quote(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('\'');
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\\\"),
            '\'' => o.push_str("\\'"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            '\r' => o.push_str("\\r"),
            c => o.push(c),
        }
    }
    o.push('\'');
    o
}

fn props_lit(g: &Graph, p: crate::graph::Props<'_>) -> String {
    let m = g.props_map(p);
    if m.is_empty() {
        return String::new();
    }
    let inner: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {}", literal(g, v))).collect();
    format!(" {{{}}}", inner.join(", "))
}

fn node_lit(g: &Graph, n: usize) -> String {
    match g.nodes.get(n) {
        Some(node) => {
            let labels: String = node.labels.iter().map(|&l| format!(":{}", g.name(l))).collect();
            let p = props_lit(g, g.node_props(n));
            format!("({labels}{})", if labels.is_empty() { p.trim_start().to_string() } else { p })
        }
        None => "()".into(),
    }
}

fn rel_lit(g: &Graph, r: usize) -> String {
    match g.rels.get(r) {
        Some(rel) => format!("[:{}{}]", g.name(rel.typ), props_lit(g, g.rel_props(r))),
        None => "[]".into(),
    }
}

/// A value in openCypher literal syntax (`'str'`, `[1, 2]`, `(:L {p: 1})`, `<(a)-[:T]->(b)>`).
pub fn literal(g: &Graph, v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => fmt_float(*f),
        Value::Str(s) => quote(s),
        Value::List(l) => format!("[{}]", l.iter().map(|x| literal(g, x)).collect::<Vec<_>>().join(", ")),
        Value::Map(m) => format!("{{{}}}", m.iter().map(|(k, x)| format!("{k}: {}", literal(g, x))).collect::<Vec<_>>().join(", ")),
        Value::Node(n) => node_lit(g, *n),
        Value::Rel(r) => rel_lit(g, *r),
        Value::Temporal(t) => quote(&t.to_string()),
        Value::Duration(d) => quote(&d.to_string()),
        Value::Path(p) => {
            let mut s = String::from("<");
            if let Some(&first) = p.nodes.first() {
                s.push_str(&node_lit(g, first));
            }
            for (i, &r) in p.rels.iter().enumerate() {
                let from = p.nodes.get(i).copied().unwrap_or(0);
                let forward = g.rels.get(r).is_some_and(|rel| rel.src == from);
                let to = p.nodes.get(i + 1).copied().unwrap_or(0);
                if forward {
                    s.push_str(&format!("-{}->{}", rel_lit(g, r), node_lit(g, to)));
                } else {
                    s.push_str(&format!("<-{}-{}", rel_lit(g, r), node_lit(g, to)));
                }
            }
            s.push('>');
            s
        }
    }
}

fn plain(g: &Graph, v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Temporal(t) => t.to_string(),
        Value::Duration(d) => d.to_string(),
        Value::Null => String::new(),
        other => literal(g, other),
    }
}

fn json(g: &Graph, v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::String(fmt_float(*f)), J::Number),
        Value::Str(s) => J::String(s.to_string()),
        Value::Temporal(t) => J::String(t.to_string()),
        Value::Duration(d) => J::String(d.to_string()),
        Value::List(l) => J::Array(l.iter().map(|x| json(g, x)).collect()),
        Value::Map(m) => J::Object(m.iter().map(|(k, x)| (k.clone(), json(g, x))).collect()),
        Value::Node(n) => {
            serde_json::json!({
                "id": n,
                "labels": g.labels(*n),
                "properties": J::Object(g.props_map(g.node_props(*n)).into_iter().map(|(k, v)| (k, json(g, &v))).collect()),
            })
        }
        Value::Rel(r) => {
            let rel = g.rels.get(*r);
            serde_json::json!({
                "id": r,
                "type": g.rel_type(*r).unwrap_or_default(),
                "start": rel.map(|x| x.src),
                "end": rel.map(|x| x.dst),
                "properties": J::Object(g.props_map(g.rel_props(*r)).into_iter().map(|(k, v)| (k, json(g, &v))).collect()),
            })
        }
        Value::Path(p) => serde_json::json!({
            "nodes": p.nodes.iter().map(|&n| json(g, &Value::Node(n))).collect::<Vec<_>>(),
            "relationships": p.rels.iter().map(|&r| json(g, &Value::Rel(r))).collect::<Vec<_>>(),
        }),
    }
}

fn tsv_cell(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r")
}

fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// Renders a result table.
pub fn render(g: &Graph, t: &Table, f: Format) -> String {
    let mut out = String::new();
    match f {
        Format::Tck | Format::Tsv => {
            out.push_str(&t.cols.join("\t"));
            out.push('\n');
            for r in &t.rows {
                let cells: Vec<String> = r.iter().map(|v| if f == Format::Tck { literal(g, v) } else { tsv_cell(&plain(g, v)) }).collect();
                out.push_str(&cells.join("\t"));
                out.push('\n');
            }
        }
        Format::Csv => {
            out.push_str(&t.cols.iter().map(|c| csv_cell(c)).collect::<Vec<_>>().join(","));
            out.push('\n');
            for r in &t.rows {
                out.push_str(&r.iter().map(|v| csv_cell(&plain(g, v))).collect::<Vec<_>>().join(","));
                out.push('\n');
            }
        }
        Format::Json => {
            let rows: Vec<serde_json::Value> = t.rows.iter().map(|r| serde_json::Value::Array(r.iter().map(|v| json(g, v)).collect())).collect();
            let doc = serde_json::json!({ "columns": t.cols, "rows": rows });
            out.push_str(&serde_json::to_string_pretty(&doc).unwrap_or_default());
            out.push('\n');
        }
        Format::Table => {
            let cells: Vec<Vec<String>> = t.rows.iter().map(|r| r.iter().map(|v| literal(g, v).replace('\n', "\\n")).collect()).collect();
            let mut w: Vec<usize> = t.cols.iter().map(|c| c.chars().count()).collect();
            for r in &cells {
                for (i, c) in r.iter().enumerate() {
                    if let Some(x) = w.get_mut(i) {
                        *x = (*x).max(c.chars().count());
                    }
                }
            }
            let line = |r: &[String]| -> String {
                let parts: Vec<String> = r.iter().enumerate().map(|(i, c)| format!("{c:<width$}", width = w.get(i).copied().unwrap_or(0))).collect();
                parts.join(" | ").trim_end().to_string()
            };
            out.push_str(&line(&t.cols));
            out.push('\n');
            out.push_str(&w.iter().map(|&n| "-".repeat(n)).collect::<Vec<_>>().join("-+-"));
            out.push('\n');
            for r in &cells {
                out.push_str(&line(r));
                out.push('\n');
            }
            out.push_str(&format!("({} row{})\n", t.rows.len(), if t.rows.len() == 1 { "" } else { "s" }));
        }
    }
    out
}
