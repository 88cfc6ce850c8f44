//! The store's integrity check: every table read end to end (so every block's checksum
//! is verified by fjall) and the tables' agreement with each other. `tg verify` runs it
//! before re-hashing citations; `tg build` runs it before writing anything, so a build
//! never starts writing into a corrupt store.

use std::collections::HashMap;

use fjall::Keyspace;

use super::keys::split_fact_key;
use super::{DocRecord, RelSchema, Store, StoreError, Tag};

impl Store {
    /// Reads every table of the store and checks that they agree: document records parse
    /// and match their numbers and texts, the dictionary and its reverse are inverses,
    /// every fact, support, index entry and witness names a declared relation with the
    /// right number of columns, and every symbol they use is in the dictionary.
    /// The first problem is a [`StoreError::Corruption`] naming the table.
    pub fn check(&self) -> Result<(), StoreError> {
        let bad = |table: &str, detail: String| StoreError::Corruption { path: self.path.clone(), detail: format!("table {table}: {detail}") };
        // Every table is read whole first: a block that fails its checksum names its table.
        let tables: [(&str, &Keyspace); 15] = [
            ("meta", &self.meta),
            ("docs", &self.docs),
            ("doc_num", &self.doc_num),
            ("text", &self.text),
            ("dict", &self.dict),
            ("dict_rev", &self.dict_rev),
            ("rels", &self.rels),
            ("facts", &self.facts),
            ("support", &self.support),
            ("doc_idx", &self.doc_idx),
            ("derived", &self.derived),
            ("rules", &self.rules),
            ("changes", &self.changes),
            ("ledger", &self.ledger),
            ("search", &self.search),
        ];
        for (name, ks) in tables {
            for kv in ks.iter() {
                kv.into_inner().map_err(|e| bad(name, super::error::describe(e)))?;
            }
        }
        let read = |name: &str, ks: &Keyspace| -> Result<super::KeyValues, StoreError> {
            ks.iter().map(|kv| kv.into_inner().map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(|e| bad(name, super::error::describe(e)))).collect()
        };
        let u32_key = |table: &str, k: &[u8]| -> Result<u32, StoreError> {
            k.try_into().map(u32::from_be_bytes).map_err(|_| bad(table, format!("key of {} bytes where a number of 4 is expected", k.len())))
        };
        // Schemas.
        let mut rels: HashMap<u16, (String, usize)> = HashMap::new();
        for (k, v) in read("rels", &self.rels)? {
            let name = String::from_utf8_lossy(&k).into_owned();
            let s: RelSchema = serde_json::from_slice(&v).map_err(|e| bad("rels", format!("schema of {name}: {e}")))?;
            if let Some((other, _)) = rels.insert(s.id, (name.clone(), s.columns.len())) {
                return Err(bad("rels", format!("relations {other} and {name} share id {}", s.id)));
            }
        }
        // Documents, their numbers and texts.
        let nums: HashMap<u32, Vec<u8>> = read("doc_num", &self.doc_num)?.into_iter().map(|(k, v)| Ok((u32_key("doc_num", &k)?, v))).collect::<Result<_, StoreError>>()?;
        let mut texts = 0usize;
        for (k, _) in read("text", &self.text)? {
            let n = u32_key("text", &k)?;
            if !nums.contains_key(&n) {
                return Err(bad("text", format!("text of document #{n}, which is not stored")));
            }
            texts += 1;
        }
        let mut docs = 0usize;
        for (k, v) in read("docs", &self.docs)? {
            let id = String::from_utf8_lossy(&k).into_owned();
            let rec: DocRecord = serde_json::from_slice(&v).map_err(|e| bad("docs", format!("record of {id}: {e}")))?;
            if nums.get(&rec.num).map(Vec::as_slice) != Some(k.as_slice()) {
                return Err(bad("doc_num", format!("document {id} has number {} but the number does not name it", rec.num)));
            }
            docs += 1;
        }
        if docs != nums.len() || docs != texts {
            return Err(bad("docs", format!("{docs} document records, {} numbers, {texts} texts", nums.len())));
        }
        // The dictionary both ways.
        let dict = read("dict", &self.dict)?;
        let rev: HashMap<u32, Vec<u8>> = read("dict_rev", &self.dict_rev)?.into_iter().map(|(k, v)| Ok((u32_key("dict_rev", &k)?, v))).collect::<Result<_, StoreError>>()?;
        if dict.len() != rev.len() {
            return Err(bad("dict", format!("{} symbols but {} reverse entries", dict.len(), rev.len())));
        }
        for (k, v) in &dict {
            let id = u32_key("dict", v)?;
            let text: &[u8] = if k.as_slice() == [0xFF] { &[] } else { k };
            if rev.get(&id).map(Vec::as_slice) != Some(text) {
                return Err(bad("dict", format!("symbol {:?} has id {id}, whose reverse entry differs", String::from_utf8_lossy(text))));
            }
            if std::str::from_utf8(text).is_err() {
                return Err(bad("dict", format!("symbol id {id} is not UTF-8 text")));
            }
        }
        // Fact-shaped keys: a declared relation, its arity, symbols in the dictionary.
        let fact = |table: &str, k: &[u8], tail: usize| -> Result<(), StoreError> {
            let body = k.get(..k.len().saturating_sub(tail)).unwrap_or_default();
            let (rel, words) = split_fact_key(body).ok_or_else(|| bad(table, "malformed key".into()))?;
            let (name, arity) = rels.get(&rel).ok_or_else(|| bad(table, format!("key of unknown relation id {rel}")))?;
            if words.len() != *arity {
                return Err(bad(table, format!("a {name} key with {} columns, declared with {arity}", words.len())));
            }
            Ok(())
        };
        for (k, v) in read("facts", &self.facts)? {
            fact("facts", &k, 0)?;
            if v.len() != 5 || Tag::from_byte(v[0]).is_none() {
                return Err(bad("facts", "malformed tag or support count".into()));
            }
        }
        for (k, v) in read("support", &self.support)? {
            fact("support", &k, 20)?;
            let doc = u32::from_be_bytes(k[k.len() - 20..k.len() - 16].try_into().unwrap_or_default());
            if !nums.contains_key(&doc) {
                return Err(bad("support", format!("a citation of document #{doc}, which is not stored")));
            }
            if v.len() != 33 || Tag::from_byte(v[0]).is_none() {
                return Err(bad("support", "malformed tag or hash".into()));
            }
        }
        for (k, _) in read("doc_idx", &self.doc_idx)? {
            if k.len() < 4 + 2 + 16 {
                return Err(bad("doc_idx", "key too short".into()));
            }
            fact("doc_idx", &k[4..], 16)?;
        }
        for (k, v) in read("derived", &self.derived)? {
            fact("derived", &k, 0)?;
            serde_json::from_slice::<super::Derivation>(&v).map_err(|e| bad("derived", format!("witness: {e}")))?;
        }
        for (k, _) in read("changes", &self.changes)? {
            fact("changes", &k, 0)?;
        }
        Ok(())
    }
}
