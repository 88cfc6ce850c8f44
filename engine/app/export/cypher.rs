//! `tg export --format cypher`: a Cypher script, one statement per line. It opens with
//! Kuzu's schema (`CREATE NODE TABLE …` / `CREATE REL TABLE …`), then creates every node,
//! then every relationship by matching its endpoints' ids. Without the schema lines the
//! rest is plain openCypher (Neo4j, Memgraph).

use super::tables::{Cell, Kind, NodeTable, RelTable, Tables};

/// A Cypher string literal: single quotes, backslash escapes (one line, always).
pub fn literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

fn value(c: &Cell) -> String {
    match c {
        Cell::Str(s) => literal(s),
        Cell::Int(n) => n.to_string(),
    }
}

fn kind(k: Kind) -> &'static str {
    match k {
        Kind::Str => "STRING",
        Kind::Int => "INT64",
    }
}

/// Kuzu's DDL of a node table.
pub fn node_ddl(t: &NodeTable) -> String {
    let cols: Vec<String> = t.columns.iter().map(|(n, k)| format!("`{n}` {}", kind(*k))).collect();
    format!("CREATE NODE TABLE {}({}, PRIMARY KEY(`id`));", t.label, cols.join(", "))
}

/// Kuzu's DDL of a relationship table.
pub fn rel_ddl(t: &RelTable) -> String {
    let mut parts = vec![format!("FROM {} TO {}", t.from, t.to)];
    parts.extend(t.columns.iter().map(|(n, k)| format!("`{n}` {}", kind(*k))));
    parts.push("MANY_MANY".into());
    format!("CREATE REL TABLE {}({});", t.label, parts.join(", "))
}

fn props(columns: &[(&'static str, Kind)], cells: &[Cell]) -> String {
    let p: Vec<String> = columns.iter().zip(cells).map(|((n, _), c)| format!("`{n}`: {}", value(c))).collect();
    format!("{{{}}}", p.join(", "))
}

/// The whole script (ends with a newline).
pub fn write(t: &Tables) -> String {
    let mut out = String::from("// TextGraph export (textgraph-cypher/1): Kuzu schema, then nodes, then relationships.\n");
    for n in &t.nodes {
        out.push_str(&node_ddl(n));
        out.push('\n');
    }
    for r in &t.rels {
        out.push_str(&rel_ddl(r));
        out.push('\n');
    }
    for n in &t.nodes {
        for row in &n.rows {
            out.push_str(&format!("CREATE (:{} {});\n", n.label, props(&n.columns, row)));
        }
    }
    for r in &t.rels {
        for (a, b, cells) in &r.rows {
            let p = if r.columns.is_empty() { String::new() } else { format!(" {}", props(&r.columns, cells)) };
            out.push_str(&format!("MATCH (a:{} {{`id`: {}}}), (b:{} {{`id`: {}}}) CREATE (a)-[:{}{p}]->(b);\n", r.from, literal(a), r.to, literal(b), r.label));
        }
    }
    out
}
