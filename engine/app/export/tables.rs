//! The graph as typed property-graph tables (node tables and relationship tables), the
//! one shape the Cypher, CSV and GraphML writers share, so the three agree by construction.

use std::collections::BTreeMap;

use super::model::Graph;

/// A column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Text.
    Str,
    /// 64-bit integer.
    Int,
}

/// One cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Text.
    Str(String),
    /// Integer.
    Int(i64),
}

impl Cell {
    /// The cell as text (integers in decimal).
    pub fn text(&self) -> String {
        match self {
            Cell::Str(s) => s.clone(),
            Cell::Int(n) => n.to_string(),
        }
    }
}

/// A node table: label, columns (the first is the primary key `id`), rows sorted by id.
#[derive(Clone, Debug)]
pub struct NodeTable {
    /// Label (Kuzu table name).
    pub label: &'static str,
    /// Column names and types.
    pub columns: Vec<(&'static str, Kind)>,
    /// Rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

/// A relationship table: type, endpoint labels, property columns, rows (from id, to id, cells).
#[derive(Clone, Debug)]
pub struct RelTable {
    /// Relationship type (Kuzu table name).
    pub label: &'static str,
    /// Label of the source nodes.
    pub from: &'static str,
    /// Label of the target nodes.
    pub to: &'static str,
    /// Property names and types.
    pub columns: Vec<(&'static str, Kind)>,
    /// Rows: source id, target id, one cell per property.
    pub rows: Vec<(String, String, Vec<Cell>)>,
}

/// All tables of a graph.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Node tables, in a fixed order.
    pub nodes: Vec<NodeTable>,
    /// Relationship tables, in a fixed order.
    pub rels: Vec<RelTable>,
}

fn s(x: &str) -> Cell {
    Cell::Str(x.to_string())
}

/// A claim's extra values as canonical JSON text (`{}` when none).
pub fn attributes_json(attrs: &BTreeMap<String, String>) -> String {
    serde_json::to_string(attrs).unwrap_or_else(|_| "{}".into())
}

use Kind::{Int, Str};

/// Builds the tables of a graph. Rows keep the graph's (sorted) order.
pub fn tables(g: &Graph) -> Tables {
    let documents = NodeTable {
        label: "Document",
        columns: vec![("id", Str), ("format", Str), ("text_blake3", Str)],
        rows: g.documents.iter().map(|d| vec![s(&d.id), s(&d.format), s(&d.text_blake3)]).collect(),
    };
    let entities = NodeTable {
        label: "Entity",
        columns: vec![("id", Str), ("entity_type", Str), ("name", Str), ("class", Str)],
        rows: g.entities.iter().map(|e| vec![s(&e.id), s(&e.entity_type), s(&e.name), s(&e.class)]).collect(),
    };
    let claims = NodeTable {
        label: "Claim",
        columns: vec![
            ("id", Str),
            ("doc", Str),
            ("subject", Str),
            ("relation", Str),
            ("object", Str),
            ("modality", Str),
            ("polarity", Str),
            ("asserter", Str),
            ("quote", Str),
            ("citation", Str),
            ("start_byte", Int),
            ("end_byte", Int),
            ("tag", Str),
            ("valid_from", Str),
            ("attributes", Str),
        ],
        rows: g
            .claims
            .iter()
            .map(|c| {
                vec![
                    s(&c.id),
                    s(&c.doc),
                    s(&c.subject),
                    s(&c.relation),
                    s(&c.object),
                    s(&c.modality),
                    s(&c.polarity),
                    s(&c.asserter),
                    s(&c.quote),
                    s(&c.citation),
                    Cell::Int(c.start as i64),
                    Cell::Int(c.end as i64),
                    s(&c.tag),
                    s(&c.valid_from),
                    s(&attributes_json(&c.attrs)),
                ]
            })
            .collect(),
    };
    let derived = NodeTable {
        label: "Derived",
        columns: vec![("id", Str), ("relation", Str), ("fact", Str), ("rule", Str), ("rule_round", Int), ("tag", Str)],
        rows: g.derived.iter().map(|d| vec![s(&d.id), s(&d.relation), s(&d.fact), s(&d.rule), Cell::Int(i64::from(d.round)), s("INFERRED")]).collect(),
    };
    let rules = NodeTable { label: "Rule", columns: vec![("id", Str), ("rule_text", Str)], rows: g.rules.iter().map(|r| vec![s(&r.hash), s(&r.text)]).collect() };
    let rel = |label, from, to, columns: Vec<(&'static str, Kind)>, rows| RelTable { label, from, to, columns, rows };
    let rels = vec![
        rel("SUBJECT", "Claim", "Entity", vec![], g.claims.iter().map(|c| (c.id.clone(), c.subject.clone(), vec![])).collect()),
        rel("OBJECT", "Claim", "Entity", vec![], g.claims.iter().map(|c| (c.id.clone(), c.object.clone(), vec![])).collect()),
        rel("ASSERTED_BY", "Claim", "Entity", vec![], g.asserted().map(|c| (c.id.clone(), c.asserter.clone(), vec![])).collect()),
        rel(
            "CITES",
            "Claim",
            "Document",
            vec![("start_byte", Int), ("end_byte", Int), ("quote", Str)],
            g.claims.iter().map(|c| (c.id.clone(), c.doc.clone(), vec![Cell::Int(c.start as i64), Cell::Int(c.end as i64), s(&c.quote)])).collect(),
        ),
        rel(
            "CLAIMED",
            "Entity",
            "Entity",
            vec![("claim", Str), ("relation", Str), ("modality", Str), ("polarity", Str), ("asserter", Str), ("quote", Str), ("citation", Str), ("tag", Str)],
            g.claim_edges()
                .map(|c| {
                    (c.subject.clone(), c.object.clone(), vec![s(&c.id), s(&c.relation), s(&c.modality), s(&c.polarity), s(&c.asserter), s(&c.quote), s(&c.citation), s(&c.tag)])
                })
                .collect(),
        ),
        rel("SAME_AS", "Entity", "Entity", vec![], g.same_as.iter().map(|(a, b)| (a.clone(), b.clone(), vec![])).collect()),
        rel("ARGUMENT", "Derived", "Entity", vec![("position", Int)], g.arguments().map(|(d, i, e)| (d.to_string(), e.to_string(), vec![Cell::Int(i as i64)])).collect()),
        rel("BY_RULE", "Derived", "Rule", vec![], g.derived.iter().map(|d| (d.id.clone(), d.rule.clone(), vec![])).collect()),
    ];
    Tables { nodes: vec![documents, entities, claims, derived, rules], rels }
}
