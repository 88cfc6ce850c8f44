//! `tg export --format csv -o DIR`: one RFC 4180 CSV file per node and relationship table
//! (a header row; relationship files start with the `from` and `to` ids), plus
//! `schema.cypher`: Kuzu's DDL and the `COPY` statement of each file, run from DIR.

use super::cypher::{node_ddl, rel_ddl};
use super::tables::{Cell, Tables};

/// One CSV field: quoted when it holds a comma, quote, CR or LF (quotes doubled).
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) || s.is_empty() { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

fn line(cells: impl Iterator<Item = String>) -> String {
    let mut l = cells.map(|c| field(&c)).collect::<Vec<_>>().join(",");
    l.push('\n');
    l
}

/// The file name of a table.
pub fn file_name(label: &str) -> String {
    format!("{}.csv", label.to_ascii_lowercase())
}

/// Every file of the export: (file name, contents), in a fixed order; `schema.cypher` last.
pub fn write(t: &Tables) -> Vec<(String, String)> {
    let mut files = vec![];
    let mut schema = String::from("// TextGraph export (textgraph-csv/1): run in Kuzu from this folder.\n");
    for n in &t.nodes {
        let mut text = line(n.columns.iter().map(|(c, _)| c.to_string()));
        for row in &n.rows {
            text.push_str(&line(row.iter().map(Cell::text)));
        }
        schema.push_str(&node_ddl(n));
        schema.push('\n');
        files.push((file_name(n.label), text));
    }
    for r in &t.rels {
        let mut text = line(["from", "to"].into_iter().map(String::from).chain(r.columns.iter().map(|(c, _)| c.to_string())));
        for (a, b, cells) in &r.rows {
            text.push_str(&line([a.clone(), b.clone()].into_iter().chain(cells.iter().map(Cell::text))));
        }
        schema.push_str(&rel_ddl(r));
        schema.push('\n');
        files.push((file_name(r.label), text));
    }
    for (label, _) in t.nodes.iter().map(|n| (n.label, ())).chain(t.rels.iter().map(|r| (r.label, ()))) {
        schema.push_str(&format!("COPY {label} FROM '{}' (HEADER=true, PARALLEL=false);\n", file_name(label)));
    }
    files.push(("schema.cypher".into(), schema));
    files
}
