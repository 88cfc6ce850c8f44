//! `tg export --format turtle|jsonld`: the graph as RDF. Each claim is an `rdf:Statement`
//! (reified, never asserted as a plain triple: a denied or reported claim is not a fact)
//! with `rdf:subject`, `rdf:predicate` (`rel:RELATION`), `rdf:object`, modality,
//! polarity, asserter (an entity, or the document itself), quote, citation, byte span and
//! tag. Entities carry their `same_as` class (`tg:class`) and `owl:sameAs` links; derived
//! facts name their rule. IRIs are `urn:textgraph:KIND:ID` (ids percent-encoded).

use serde_json::{Map, Value as Json, json};

use super::model::Graph;

/// The vocabulary namespace.
pub const TG: &str = "urn:textgraph:vocab#";
/// The namespace of claim relations.
pub const REL: &str = "urn:textgraph:relation#";
const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const OWL: &str = "http://www.w3.org/2002/07/owl#";
const XSD: &str = "http://www.w3.org/2001/XMLSchema#";

/// Percent-encodes everything but RFC 3986's unreserved characters.
pub fn pct(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The IRI of a node: `urn:textgraph:KIND:ID`.
pub fn iri(kind: &str, id: &str) -> String {
    format!("urn:textgraph:{kind}:{}", pct(id))
}

/// An object of a triple.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Obj {
    Iri(String),
    Lit(String),
    Int(i64),
}

/// A subject with its predicate-object pairs, predicates as (prefix, local) names.
struct Subject {
    iri: String,
    types: Vec<(&'static str, &'static str)>,
    props: Vec<((&'static str, String), Obj)>,
}

fn tg(local: &str) -> (&'static str, String) {
    ("tg", local.to_string())
}

fn subjects(g: &Graph) -> Vec<Subject> {
    let mut out = vec![];
    for d in &g.documents {
        out.push(Subject {
            iri: iri("document", &d.id),
            types: vec![("tg", "Document")],
            props: vec![(tg("id"), Obj::Lit(d.id.clone())), (tg("format"), Obj::Lit(d.format.clone())), (tg("textBlake3"), Obj::Lit(d.text_blake3.clone()))],
        });
    }
    for e in &g.entities {
        let mut props = vec![
            (tg("key"), Obj::Lit(e.id.clone())),
            (tg("entityType"), Obj::Lit(e.entity_type.clone())),
            (tg("name"), Obj::Lit(e.name.clone())),
            (tg("class"), Obj::Iri(iri("entity", &e.class))),
        ];
        for (a, b) in &g.same_as {
            if *a == e.id {
                props.push((("owl", "sameAs".into()), Obj::Iri(iri("entity", b))));
            }
        }
        out.push(Subject { iri: iri("entity", &e.id), types: vec![("tg", "Entity")], props });
    }
    for c in &g.claims {
        let asserter = if c.asserter == "document" { iri("document", &c.doc) } else { iri("entity", &c.asserter) };
        let mut props = vec![
            (("rdf", "subject".into()), Obj::Iri(iri("entity", &c.subject))),
            (("rdf", "predicate".into()), Obj::Iri(format!("{REL}{}", pct(&c.relation)))),
            (("rdf", "object".into()), Obj::Iri(iri("entity", &c.object))),
            (tg("relation"), Obj::Lit(c.relation.clone())),
            (tg("modality"), Obj::Lit(c.modality.clone())),
            (tg("polarity"), Obj::Lit(c.polarity.clone())),
            (tg("asserter"), Obj::Iri(asserter)),
            (tg("quote"), Obj::Lit(c.quote.clone())),
            (tg("citation"), Obj::Lit(c.citation.clone())),
            (tg("document"), Obj::Iri(iri("document", &c.doc))),
            (tg("start"), Obj::Int(c.start as i64)),
            (tg("end"), Obj::Int(c.end as i64)),
            (tg("tag"), Obj::Lit(c.tag.clone())),
        ];
        if !c.valid_from.is_empty() {
            props.push((tg("validFrom"), Obj::Lit(c.valid_from.clone())));
        }
        for (k, v) in &c.attrs {
            let key: String = k.chars().map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' }).collect();
            props.push((tg(&format!("attr_{key}")), Obj::Lit(v.clone())));
        }
        out.push(Subject { iri: iri("claim", &c.id), types: vec![("rdf", "Statement"), ("tg", "Claim")], props });
    }
    for d in &g.derived {
        let mut props = vec![
            (tg("relation"), Obj::Lit(d.relation.clone())),
            (tg("fact"), Obj::Lit(d.fact.clone())),
            (tg("rule"), Obj::Iri(iri("rule", &d.rule))),
            (tg("round"), Obj::Int(i64::from(d.round))),
            (tg("tag"), Obj::Lit("INFERRED".into())),
        ];
        for (_, e) in &d.entities {
            props.push((tg("argument"), Obj::Iri(iri("entity", e))));
        }
        out.push(Subject { iri: iri("fact", &d.id), types: vec![("tg", "DerivedFact")], props });
    }
    for r in &g.rules {
        out.push(Subject { iri: iri("rule", &r.hash), types: vec![("tg", "Rule")], props: vec![(tg("hash"), Obj::Lit(r.hash.clone())), (tg("text"), Obj::Lit(r.text.clone()))] });
    }
    out
}

/// A Turtle string literal (one line: `"…"` with `\\`, `\"`, `\n`, `\r`, `\t`, `\uXXXX`).
pub fn literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7F}' => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn name(prefix: &str, local: &str) -> String {
    if !local.is_empty() && local.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && local.as_bytes()[0].is_ascii_alphabetic() {
        format!("{prefix}:{local}")
    } else {
        let ns = match prefix {
            "rdf" => RDF,
            "owl" => OWL,
            _ => TG,
        };
        format!("<{ns}{}>", pct(local))
    }
}

fn turtle_obj(o: &Obj) -> String {
    match o {
        Obj::Iri(i) => format!("<{i}>"),
        Obj::Lit(s) => literal(s),
        Obj::Int(n) => n.to_string(),
    }
}

/// The graph as Turtle (ends with a newline).
pub fn turtle(g: &Graph) -> String {
    let mut out = format!(
        "# TextGraph export (textgraph-turtle/1)\n@prefix rdf: <{RDF}> .\n@prefix owl: <{OWL}> .\n@prefix xsd: <{XSD}> .\n@prefix tg: <{TG}> .\n@prefix rel: <{REL}> .\n\n"
    );
    for s in subjects(g) {
        out.push_str(&format!("<{}> a {}", s.iri, s.types.iter().map(|(p, l)| name(p, l)).collect::<Vec<_>>().join(", ")));
        for ((p, l), o) in &s.props {
            out.push_str(&format!(" ;\n    {} {}", name(p, l), turtle_obj(o)));
        }
        out.push_str(" .\n\n");
    }
    out
}

fn compact(prefix: &str, local: &str) -> String {
    let ns = match prefix {
        "rdf" => RDF,
        "owl" => OWL,
        _ => TG,
    };
    if local.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') { format!("{prefix}:{local}") } else { format!("{ns}{}", pct(local)) }
}

/// The graph as JSON-LD 1.1 (compacted with a small `@context`; ends with a newline).
pub fn jsonld(g: &Graph) -> String {
    let mut nodes = vec![];
    for s in subjects(g) {
        let mut m = Map::new();
        m.insert("@id".into(), json!(s.iri));
        m.insert("@type".into(), json!(s.types.iter().map(|(p, l)| compact(p, l)).collect::<Vec<_>>()));
        for ((p, l), o) in s.props {
            let v = match o {
                Obj::Iri(i) => json!({"@id": i}),
                Obj::Lit(t) => json!(t),
                Obj::Int(n) => json!(n),
            };
            match m.entry(compact(p, &l)).or_insert_with(|| Json::Array(vec![])) {
                Json::Array(a) => a.push(v),
                other => *other = v,
            }
        }
        nodes.push(Json::Object(m));
    }
    let doc = json!({
        "@context": {"rdf": RDF, "owl": OWL, "xsd": XSD, "tg": TG, "rel": REL},
        "@graph": nodes,
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}
