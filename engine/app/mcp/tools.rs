//! The tools `tg mcp` serves: their JSON Schemas and their calls. Each call opens the
//! store, runs the same library function as the matching `tg` command, and returns the
//! answer bounded — at most `limit` items (ranked as the command ranks them) and at most
//! `max_bytes` of JSON — with every claim cited `[doc:start-end]`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value as Json, json};

use tg_store::Store;

/// What the server tells the client about itself (`initialize`).
pub const INSTRUCTIONS: &str = "TextGraph: a byte-cited knowledge graph of one case. Every claim carries its verbatim quote and citation [document:start-end]; modality (assertion, reported, hedged, denied, undecided, question) says how the document puts it, so a reported or denied claim is not a fact. Start with `search` or `communities`, then `why`/`neighbors`/`timeline` on an entity, `path` between two, `explain` for why a derived fact holds. `record_claim` stores an outside claim only if its quote occurs verbatim in the document; it is tagged GENERATED.";

/// Default and largest `limit`.
pub const LIMIT: (u64, u64) = (20, 100);
/// Default and largest `max_bytes`.
pub const MAX_BYTES: (u64, u64) = (20_000, 200_000);

fn bounds() -> Json {
    json!({
        "limit": {"type": "integer", "minimum": 1, "maximum": LIMIT.1, "default": LIMIT.0, "description": "Most items returned (best first)."},
        "max_bytes": {"type": "integer", "minimum": 1000, "maximum": MAX_BYTES.1, "default": MAX_BYTES.0, "description": "Size budget of the answer's JSON; items past it are left out (and counted)."},
    })
}

fn schema(props: Json, required: &[&str], bounded: bool) -> Json {
    let mut p = props.as_object().cloned().unwrap_or_default();
    if bounded && let Some(b) = bounds().as_object() {
        p.extend(b.clone());
    }
    json!({"type": "object", "properties": p, "required": required, "additionalProperties": false})
}

fn entity_prop() -> Json {
    json!({"entity": {"type": "string", "description": "An entity: its key (`Organization:acme trading ltd`) or a name that matches one entity."}})
}

/// The tool descriptions of `tools/list`, in a fixed order.
pub fn list() -> Vec<Json> {
    let modalities = json!(["assertion", "reported", "hedged", "undecided", "question"]);
    let tool = |name: &str, title: &str, description: &str, input: Json| json!({"name": name, "title": title, "description": description, "inputSchema": input, "annotations": {"readOnlyHint": name != "record_claim", "openWorldHint": false}});
    vec![
        tool(
            "search",
            "Search the case",
            "Full-text search over chunks and claims (BM25 with stemming; `ppr` ranks by personalized PageRank from the entities the query names; `hybrid` fuses both). Hits ranked, each cited with its text.",
            schema(json!({"query": {"type": "string", "minLength": 1}, "mode": {"type": "string", "enum": ["bm25", "ppr", "hybrid"], "default": "bm25"}}), &["query"], true),
        ),
        tool(
            "neighbors",
            "Neighbours of an entity",
            "The entities an entity's claims link it to, by relation and direction, most claims first, each with its claims and a citation.",
            schema(entity_prop(), &["entity"], true),
        ),
        tool(
            "why",
            "Who an entity is",
            "The names merged into the entity and why, and every claim about it in valid-time order, cited, with validity windows and contradictions.",
            schema(entity_prop(), &["entity"], true),
        ),
        tool(
            "path",
            "Path between two entities",
            "The most likely cited chain of claims from one entity to another (claims weighted by modality); `modality` keeps only claims of those modalities.",
            schema(
                json!({
                    "from": {"type": "string", "minLength": 1},
                    "to": {"type": "string", "minLength": 1},
                    "modality": {"type": "array", "items": {"type": "string", "enum": modalities}, "description": "Only claims of these modalities (default: all)."},
                    "max_hops": {"type": "integer", "minimum": 1, "maximum": 8, "default": 6},
                }),
                &["from", "to"],
                true,
            ),
        ),
        tool("timeline", "Timeline of an entity", "The entity's claims in valid-time order, with windows and SUPERSEDES links, cited.", schema(entity_prop(), &["entity"], true)),
        tool("contradictions", "Contradictions", "Pairs of claims that cannot both hold: the kind, and each side's claim with quote and citation.", schema(json!({}), &[], true)),
        tool(
            "communities",
            "Communities",
            "The entity graph's communities (largest first), each labelled by c-TF-IDF terms with its representative documents; `entity` gives that entity's community.",
            schema(json!({"entity": {"type": "string", "description": "Only the community of this entity."}}), &[], true),
        ),
        tool(
            "gql",
            "GQL query (read-only)",
            "A GQL / openCypher read query over the case's property-graph view (docs/GQL.md); CREATE and other writes are refused. Rows as JSON.",
            schema(json!({"query": {"type": "string", "minLength": 1}, "params": {"type": "object", "description": "Query parameters ($name), JSON values."}}), &["query"], true),
        ),
        tool(
            "explain",
            "Explain a fact",
            "Why a stored or derived fact holds, down to the cited document bytes: the deciding evidence first, then the proof with each rule's file:line.",
            schema(
                json!({"fact": {"type": "string", "minLength": 1, "description": "The fact, e.g. controls_transitively(\"Organization:a\", \"Organization:b\")."}, "max_bytes": bounds()["max_bytes"].clone()}),
                &["fact"],
                false,
            ),
        ),
        tool(
            "record_claim",
            "Record a claim",
            "Store an outside claim through the same gate as `tg claim record`: the quote must occur verbatim in the document's canonical text, the relation and types must be in the vocabulary; else it is refused with a reason. Stored claims are tagged GENERATED and cited to the quote.",
            schema(
                json!({
                    "doc": {"type": "string", "description": "Document id (path in the corpus)."},
                    "subject": {"type": "string"}, "subject_type": {"type": "string"},
                    "relation": {"type": "string", "description": "A relation of the vocabulary (tg vocab show)."},
                    "object": {"type": "string"}, "object_type": {"type": "string"},
                    "quote": {"type": "string", "description": "Verbatim text of the document that states the claim."},
                    "modality": {"type": "string", "enum": ["assertion", "reported", "hedged", "denied", "undecided", "question"]},
                    "polarity": {"type": "string", "enum": ["positive", "negative"]},
                    "asserter": {"type": "string"}, "asserter_type": {"type": "string"},
                    "occurrence": {"type": "integer", "minimum": 1, "description": "Which occurrence of the quote (from 1) when it occurs more than once."},
                    "near": {"type": "integer", "minimum": 0, "description": "Byte offset: the occurrence nearest to it."},
                    "attributes": {"type": "object", "description": "Extra values (amount, currency, date, …) allowed by the relation."},
                    "source": {"type": "string", "description": "Who proposes it (default: mcp)."},
                }),
                &["doc", "subject", "relation", "object", "quote"],
                false,
            ),
        ),
    ]
}

fn arg_str(args: &Json, k: &str) -> Result<String, String> {
    match &args[k] {
        Json::String(s) if !s.trim().is_empty() => Ok(s.clone()),
        Json::Null => Err(format!("missing argument {k:?}")),
        _ => Err(format!("argument {k:?} must be a non-empty string")),
    }
}

fn arg_uint(args: &Json, k: &str, (default, max): (u64, u64), min: u64) -> Result<u64, String> {
    match &args[k] {
        Json::Null => Ok(default),
        v => match v.as_u64() {
            Some(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!("argument {k:?} must be an integer from {min} to {max}")),
        },
    }
}

fn check_keys(args: &Json, allowed: &[&str]) -> Result<(), String> {
    for k in args.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()).unwrap_or_default() {
        if !allowed.contains(&k.as_str()) {
            return Err(format!("unknown argument {k:?} (expected {})", allowed.join(", ")));
        }
    }
    Ok(())
}

/// Keeps the first `limit` items, then drops items from the end until the JSON fits in
/// `max_bytes` (one item is always kept); returns the envelope with the counts.
pub fn bound(mut extra: serde_json::Map<String, Json>, mut items: Vec<Json>, limit: u64, max_bytes: u64) -> Json {
    let total = items.len();
    items.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    let size = |items: &[Json]| serde_json::to_string(items).map_or(0, |s| s.len()) + serde_json::to_string(&extra).map_or(0, |s| s.len());
    while items.len() > 1 && size(&items) as u64 > max_bytes {
        items.pop();
    }
    extra.insert("total".into(), json!(total));
    extra.insert("shown".into(), json!(items.len()));
    extra.insert("truncated".into(), json!(items.len() < total));
    extra.insert("items".into(), Json::Array(items));
    Json::Object(extra)
}

fn to_items<T: serde::Serialize>(v: &[T]) -> Vec<Json> {
    v.iter().map(|x| serde_json::to_value(x).unwrap_or(Json::Null)).collect()
}

fn fields(pairs: &[(&str, Json)]) -> serde_json::Map<String, Json> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

fn open(db: &Path) -> Result<Store, String> {
    Store::open_existing(db).map_err(|e| e.to_string())
}

/// Runs a tool: `None` for an unknown name, else the `tools/call` result (a tool's own
/// failure — a bad argument, an unknown entity, a refused claim — is `isError: true`).
pub fn call(db: &Path, name: &str, args: &Json) -> Option<Json> {
    let r = match name {
        "search" => search(db, args),
        "neighbors" => neighbors(db, args),
        "why" => why(db, args),
        "path" => path(db, args),
        "timeline" => timeline(db, args),
        "contradictions" => contradictions(db, args),
        "communities" => communities(db, args),
        "gql" => gql(db, args),
        "explain" => explain(db, args),
        "record_claim" => record_claim(db, args),
        _ => return None,
    };
    Some(match r {
        Ok(v) => json!({"content": [{"type": "text", "text": serde_json::to_string_pretty(&v).unwrap_or_default()}], "structuredContent": v, "isError": false}),
        Err(e) => json!({"content": [{"type": "text", "text": e}], "isError": true}),
    })
}

fn limits(args: &Json) -> Result<(u64, u64), String> {
    Ok((arg_uint(args, "limit", LIMIT, 1)?, arg_uint(args, "max_bytes", MAX_BYTES, 1000)?))
}

fn search(db: &Path, args: &Json) -> Result<Json, String> {
    use tg_analytics::search as s;
    check_keys(args, &["query", "mode", "limit", "max_bytes"])?;
    let query = arg_str(args, "query")?;
    let mode_name = args["mode"].as_str().unwrap_or("bm25");
    let mode = s::Mode::parse(mode_name).ok_or_else(|| format!("mode must be bm25, ppr or hybrid, not {mode_name:?}"))?;
    let (limit, max_bytes) = limits(args)?;
    let store = open(db)?;
    let r = s::search(&store, &query, mode, usize::try_from(limit).unwrap_or(20)).map_err(|e| e.to_string())?;
    let v: Json = serde_json::from_str(&s::to_json(&r)).map_err(|e| e.to_string())?;
    let hits = v["hits"].as_array().cloned().unwrap_or_default();
    Ok(bound(fields(&[("query", json!(query)), ("mode", json!(mode_name))]), hits, limit, max_bytes))
}

fn neighbors(db: &Path, args: &Json) -> Result<Json, String> {
    check_keys(args, &["entity", "limit", "max_bytes"])?;
    let e = arg_str(args, "entity")?;
    let (limit, max_bytes) = limits(args)?;
    let (key, mut v) = tg_rules::resolve::entity::neighbours(&open(db)?, &e).map_err(|e| e.to_string())?;
    v.sort_by_key(|n| std::cmp::Reverse(n.claims.len()));
    Ok(bound(fields(&[("entity", json!(key))]), to_items(&v), limit, max_bytes))
}

fn why(db: &Path, args: &Json) -> Result<Json, String> {
    check_keys(args, &["entity", "limit", "max_bytes"])?;
    let e = arg_str(args, "entity")?;
    let (limit, max_bytes) = limits(args)?;
    let v = tg_rules::resolve::entity::why(&open(db)?, &e).map_err(|e| e.to_string())?;
    let contradictions: Vec<Json> = v.contradictions.iter().map(|(a, b, k)| json!({"first": a, "second": b, "kind": k})).collect();
    Ok(bound(
        fields(&[("entity", json!(v.entity)), ("class", serde_json::to_value(&v.class).unwrap_or(Json::Null)), ("contradictions", json!(contradictions))]),
        to_items(&v.claims),
        limit,
        max_bytes,
    ))
}

fn path(db: &Path, args: &Json) -> Result<Json, String> {
    check_keys(args, &["from", "to", "modality", "max_hops", "limit", "max_bytes"])?;
    let (from, to) = (arg_str(args, "from")?, arg_str(args, "to")?);
    let modality: Vec<String> = match &args["modality"] {
        Json::Null => vec![],
        Json::Array(a) => a.iter().map(|m| m.as_str().map(String::from).ok_or_else(|| "modality must be an array of strings".to_string())).collect::<Result<_, _>>()?,
        _ => return Err("modality must be an array of strings".into()),
    };
    for m in &modality {
        if !["assertion", "reported", "hedged", "undecided", "question"].contains(&m.as_str()) {
            return Err(format!("unknown modality {m:?} (assertion, reported, hedged, undecided, question)"));
        }
    }
    let max_hops = arg_uint(args, "max_hops", (6, 8), 1)?;
    let (limit, max_bytes) = limits(args)?;
    let v = tg_rules::resolve::views::path(&open(db)?, &from, &to, &modality, usize::try_from(max_hops).unwrap_or(6)).map_err(|e| e.to_string())?;
    let found = !v.hops.is_empty() || v.from == v.to;
    Ok(bound(
        fields(&[("from", json!(v.from)), ("to", json!(v.to)), ("found", json!(found)), ("cost", json!(format!("{:.6}", v.cost))), ("modality", json!(modality))]),
        to_items(&v.hops),
        limit,
        max_bytes,
    ))
}

fn timeline(db: &Path, args: &Json) -> Result<Json, String> {
    check_keys(args, &["entity", "limit", "max_bytes"])?;
    let e = arg_str(args, "entity")?;
    let (limit, max_bytes) = limits(args)?;
    let (class, v) = tg_rules::resolve::views::timeline(&open(db)?, &e).map_err(|e| e.to_string())?;
    Ok(bound(fields(&[("entity", json!(class))]), to_items(&v), limit, max_bytes))
}

fn contradictions(db: &Path, args: &Json) -> Result<Json, String> {
    check_keys(args, &["limit", "max_bytes"])?;
    let (limit, max_bytes) = limits(args)?;
    let v = tg_rules::resolve::views::contradictions(&open(db)?).map_err(|e| e.to_string())?;
    Ok(bound(fields(&[]), to_items(&v), limit, max_bytes))
}

fn communities(db: &Path, args: &Json) -> Result<Json, String> {
    use tg_analytics::{communities as c, facts};
    check_keys(args, &["entity", "limit", "max_bytes"])?;
    let entity = match &args["entity"] {
        Json::Null => None,
        _ => Some(arg_str(args, "entity")?),
    };
    let (limit, max_bytes) = limits(args)?;
    let store = open(db)?;
    let a = facts::analyse(&store).map_err(|e| e.to_string())?;
    let sel = c::select(&a.graph, &a.communities, entity.as_deref(), None).map_err(|e| e.to_string())?;
    Ok(bound(fields(&[("singletons", json!(sel.singletons.len())), ("rounds", json!(sel.rounds))]), to_items(&sel.communities), limit, max_bytes))
}

fn gql(db: &Path, args: &Json) -> Result<Json, String> {
    use tg_gql::{self as gql, format};
    check_keys(args, &["query", "params", "limit", "max_bytes"])?;
    let query = arg_str(args, "query")?;
    let mut params = BTreeMap::new();
    match &args["params"] {
        Json::Null => {}
        Json::Object(o) => {
            for (k, v) in o {
                params.insert(k.clone(), gql::cli::from_json(v));
            }
        }
        _ => return Err("params must be an object".into()),
    }
    let (limit, max_bytes) = limits(args)?;
    let store = open(db)?;
    let mut graph = gql::view::build(&store, gql::view::Identity::Merged).map_err(|e| e.to_string())?;
    drop(store);
    let table = gql::query(&mut graph, &query, &params, gql::Access::ReadOnly).map_err(|e| e.to_string())?;
    let fmt = format::Format::parse("json").ok_or("no json format")?;
    let v: Json = serde_json::from_str(&format::render(&graph, &table, fmt)).map_err(|e| e.to_string())?;
    let rows = v["rows"].as_array().cloned().unwrap_or_default();
    Ok(bound(fields(&[("columns", v["columns"].clone())]), rows, limit, max_bytes))
}

fn explain(db: &Path, args: &Json) -> Result<Json, String> {
    use crate::reason::view;
    check_keys(args, &["fact", "max_bytes"])?;
    let fact = arg_str(args, "fact")?;
    let max_bytes = arg_uint(args, "max_bytes", MAX_BYTES, 1000)?;
    let store = open(db)?;
    match view::explain_view(&store, &fact, view::ViewOptions { depth: 8, full: false, verify: false }).map_err(|e| e.to_string())? {
        view::Outcome::Holds(ex) => {
            let total = ex.text.len();
            let mut cut = usize::try_from(max_bytes).unwrap_or(usize::MAX).min(total);
            while !ex.text.is_char_boundary(cut) {
                cut -= 1;
            }
            Ok(json!({"fact": fact, "holds": true, "explanation": &ex.text[..cut], "truncated": cut < total, "bytes": total}))
        }
        view::Outcome::Missing(f) => {
            Ok(json!({"fact": f, "holds": false, "explanation": "neither stored nor derived (check the arguments with the neighbors or search tools)", "truncated": false}))
        }
    }
}

fn record_claim(db: &Path, args: &Json) -> Result<Json, String> {
    use tg_rules::claims::{self, render};
    let p: claims::Proposal = serde_json::from_value(args.clone()).map_err(|e| format!("bad claim: {e}"))?;
    if p.quote.as_deref().is_none_or(str::is_empty) {
        return Err("refused (missing_quote): a claim needs the verbatim quote that states it".into());
    }
    let store = open(db)?;
    let vocab = tg_extract::vocab::Vocabulary::builtin();
    match claims::record(&store, vocab, &p, "mcp") {
        Ok(r) => serde_json::from_str(&render::recorded(&r, true).stdout).map_err(|e| e.to_string()),
        Err(claims::Error::Refused(r)) => Err(format!("refused ({}): {}", r.code, r.message)),
        Err(e) => Err(e.to_string()),
    }
}
