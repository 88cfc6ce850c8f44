//! The store's cache of model answers, keyed by (blake3 of the chunk's text, model,
//! prompt hash): a rebuild replays the answer instead of asking again, so a cached run
//! gives exactly what the first one did. Entries are store settings
//! `llm:cache:KEY` (`meta` keyspace); neither the dump nor the export shows them, and
//! no build without `--llm-extract` reads or writes them. Only answers that could be read
//! are kept: a failed or malformed one is asked again on the next build.

use serde::{Deserialize, Serialize};

use tg_store::{Store, StoreError};

/// Prefix of the cache's settings.
pub const PREFIX: &str = "llm:cache:";

/// One cached answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// blake3 (hex) of the chunk's text.
    pub chunk: String,
    /// The model asked.
    pub model: String,
    /// The prompt's hash ([`super::prompt::Prompt::hash`]).
    pub prompt: String,
    /// The answer's message content.
    pub content: String,
    /// Tokens the server reported for it.
    pub tokens: u64,
}

/// The cache key of a chunk's text under a model and prompt.
pub fn key(chunk_text: &str, model: &str, prompt_hash: &str) -> (String, String) {
    let chunk = blake3::hash(chunk_text.as_bytes()).to_hex().to_string();
    let mut h = blake3::Hasher::new();
    for part in [chunk.as_str(), model, prompt_hash] {
        h.update(part.as_bytes());
        h.update(&[0]);
    }
    (chunk, h.finalize().to_hex()[..32].to_string())
}

/// The cached answer under `key`, if any (an unreadable entry counts as none).
pub fn get(store: &Store, key: &str) -> Result<Option<Entry>, StoreError> {
    Ok(store.setting(&format!("{PREFIX}{key}"))?.and_then(|v| serde_json::from_str(&v).ok()))
}

/// Keeps an answer under `key`.
pub fn put(store: &Store, key: &str, entry: &Entry) -> Result<(), StoreError> {
    let json = serde_json::to_string(entry).map_err(|e| StoreError::Corruption { path: store.path().to_path_buf(), detail: e.to_string() })?;
    store.put_setting(&format!("{PREFIX}{key}"), &json)
}
