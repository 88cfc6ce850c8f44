//! Byte encodings of store keys: big-endian integers, so byte order is numeric order.

/// `rel u16 ‖ words (u32 each)`.
pub(super) fn fact_key(rel: u16, words: &[u32]) -> Vec<u8> {
    let mut k = Vec::with_capacity(2 + 4 * words.len());
    k.extend_from_slice(&rel.to_be_bytes());
    for w in words {
        k.extend_from_slice(&w.to_be_bytes());
    }
    k
}

/// Splits a fact key into its relation id and words.
pub(super) fn split_fact_key(k: &[u8]) -> Option<(u16, Vec<u32>)> {
    if k.len() < 2 || !(k.len() - 2).is_multiple_of(4) {
        return None;
    }
    let rel = u16::from_be_bytes([k[0], k[1]]);
    let words = k[2..].chunks_exact(4).map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]])).collect();
    Some((rel, words))
}

/// `fact key ‖ doc u32 ‖ start u64 ‖ end u64`.
pub(super) fn support_key(fact: &[u8], doc: u32, start: u64, end: u64) -> Vec<u8> {
    let mut k = Vec::with_capacity(fact.len() + 20);
    k.extend_from_slice(fact);
    k.extend_from_slice(&doc.to_be_bytes());
    k.extend_from_slice(&start.to_be_bytes());
    k.extend_from_slice(&end.to_be_bytes());
    k
}

/// `doc u32 ‖ fact key ‖ start u64 ‖ end u64`: a document's supports, for retraction.
pub(super) fn doc_index_key(fact: &[u8], doc: u32, start: u64, end: u64) -> Vec<u8> {
    let mut k = Vec::with_capacity(fact.len() + 20);
    k.extend_from_slice(&doc.to_be_bytes());
    k.extend_from_slice(fact);
    k.extend_from_slice(&start.to_be_bytes());
    k.extend_from_slice(&end.to_be_bytes());
    k
}
