//! Names to entity keys: an outside claim's subject, object and asserter resolve to
//! entities the store already has, or become new entities (tagged GENERATED).
//!
//! In order: a key given as such (`Organization:acme trading ltd`); the key the
//! extractor's own finders and normalisation give the name (`extract::entities`); an
//! entity of that normalised name under any vocabulary type; a `mention` or `coref` of
//! the claim's document with that surface (`Acme` → its defined term's entity); and an
//! entity linked to one of those keys by `same_as` (stored or derived, when the store
//! has that relation). Several candidates are narrowed by the type the caller gave, then
//! by the types the relation allows; still several is a refusal, none a new entity.

use std::collections::BTreeSet;

use super::{Error, Refusal};
use tg_extract::entities::{collapse, find, name_key};
use tg_extract::vocab::Vocabulary;
use tg_store::{Store, Value};

/// An entity a name resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Entity key (`Type:normalised name`).
    pub key: String,
    /// Its type.
    pub kind: String,
    /// False when the claim creates it.
    pub existing: bool,
}

fn sym(s: &str) -> Value {
    Value::Sym(s.to_string())
}

/// The stored types of an entity key.
fn types_of(store: &Store, key: &str) -> Result<Vec<String>, Error> {
    Ok(store
        .lookup("entity", &[sym(key)])?
        .into_iter()
        .filter_map(|r| match r.get(1) {
            Some(Value::Sym(t)) => Some(t.clone()),
            _ => None,
        })
        .collect())
}

/// Entities linked to `key` by `same_as(A, B)` in either direction (stored or derived).
fn same_as(store: &Store, key: &str) -> Result<BTreeSet<String>, Error> {
    let mut out = BTreeSet::new();
    if store.schema("same_as")?.is_none_or(|s| s.columns.len() < 2) {
        return Ok(out);
    }
    let rows: Vec<Vec<Value>> = store.lookup("same_as", &[])?.into_iter().chain(store.derived_facts("same_as")?.into_iter().map(|(r, _)| r)).collect();
    for r in rows {
        match (&r[0], &r[1]) {
            (Value::Sym(a), Value::Sym(b)) if a == key => out.insert(b.clone()),
            (Value::Sym(a), Value::Sym(b)) if b == key => out.insert(a.clone()),
            _ => false,
        };
    }
    Ok(out)
}

/// Resolves `name` (the claim's `side`: subject, object or asserter) in document `doc`.
/// `given` is the type the caller stated, `allowed` the types the relation allows there.
pub fn entity(store: &Store, vocab: &Vocabulary, doc: &str, name: &str, given: Option<&str>, side: &str, allowed: &[String]) -> Result<Resolved, Error> {
    let types: Vec<&String> = vocab.types.keys().collect();
    let type_list = || types.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ");
    if let Some(t) = given
        && !vocab.types.contains_key(t)
    {
        return Err(Refusal::new("bad_type", format!("{side} type {t} is not in the vocabulary; types: {}", type_list())).into());
    }
    let name = collapse(name);
    if name.is_empty() {
        return Err(Refusal::new("missing_field", format!("field \"{side}\" is required")).into());
    }
    // A key given as such.
    if let Some((t, rest)) = name.split_once(':')
        && vocab.types.contains_key(t)
        && !rest.is_empty()
    {
        if given.is_some_and(|g| g != t) {
            return Err(Refusal::new("bad_type", format!("{side} {name:?} is a {t} key but its type is given as {}", given.unwrap_or_default())).into());
        }
        let existing = types_of(store, &name)?.iter().any(|x| x == t);
        return Ok(Resolved { key: name.clone(), kind: t.to_string(), existing });
    }
    // What the extractor would make of the name: a mention covering all of it.
    let found = find(&name, (0, name.len()), None).into_iter().find(|m| m.span == (0, name.len()));
    let mut keys: BTreeSet<String> = BTreeSet::new();
    if let Some(m) = &found {
        keys.insert(m.key.clone());
    }
    for t in &types {
        keys.insert(format!("{t}:{}", name_key(&name)));
    }
    for rel in ["mention", "coref"] {
        for r in store.lookup(rel, &[sym(doc)])? {
            let (surface, entity) = match (rel, &r[..]) {
                ("mention", [_, Value::Sym(e), Value::Sym(s)]) | ("coref", [_, Value::Sym(s), Value::Sym(e)]) => (s, e),
                _ => continue,
            };
            if collapse(surface) == name {
                keys.insert(entity.clone());
            }
        }
    }
    let mut existing: BTreeSet<(String, String)> = BTreeSet::new();
    for k in &keys {
        for t in types_of(store, k)? {
            existing.insert((k.clone(), t));
        }
    }
    if existing.is_empty() {
        for k in &keys {
            for other in same_as(store, k)? {
                for t in types_of(store, &other)? {
                    existing.insert((other.clone(), t));
                }
            }
        }
    }
    let mut pick: Vec<(String, String)> = existing.into_iter().filter(|(_, t)| given.is_none_or(|g| g == t)).collect();
    if pick.len() > 1 {
        let fits: Vec<(String, String)> = pick.iter().filter(|(_, t)| allowed.contains(t)).cloned().collect();
        if !fits.is_empty() {
            pick = fits;
        }
    }
    match pick.len() {
        1 => {
            let (key, kind) = pick.remove(0);
            Ok(Resolved { key, kind, existing: true })
        }
        0 => {
            // A new entity: the type given, else the finders', else the only one allowed.
            let kind = match (given, &found) {
                (Some(t), _) => t.to_string(),
                (None, Some(m)) => m.kind.to_string(),
                (None, None) if allowed.len() == 1 => allowed[0].clone(),
                (None, None) => {
                    return Err(Refusal::new(
                        "untyped_entity",
                        format!("no entity of the store is named {name:?} and its type cannot be told from the name; give {side}_type (one of: {})", type_list()),
                    )
                    .into());
                }
            };
            let key = match &found {
                Some(m) if m.kind == kind => m.key.clone(),
                _ => format!("{kind}:{}", name_key(&name)),
            };
            Ok(Resolved { key, kind, existing: false })
        }
        _ => {
            let list: Vec<String> = pick.iter().map(|(k, _)| k.clone()).collect();
            Err(Refusal::new("ambiguous_entity", format!("{side} {name:?} names several entities: {}; give {side}_type or the entity key", list.join(", "))).into())
        }
    }
}
