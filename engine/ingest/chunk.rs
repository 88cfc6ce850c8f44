//! Deterministic, sentence-aware, bounded chunks of a canonical text.
//!
//! The text is first cut at the boundaries of sections, pages, messages, tables and
//! code blocks (so a chunk never straddles two of them), then each region is split
//! into sentences, and sentences are packed greedily into chunks of at most
//! [`MAX_CHUNK_BYTES`](super::limits::MAX_CHUNK_BYTES). A sentence longer than that
//! is cut at the last whitespace before the limit (or at a character boundary), so
//! gigantic lines cost linear time. Each chunk names the innermost block holding it,
//! which makes chunks hierarchical: section → chunk.

use std::cmp::Reverse;
use std::sync::LazyLock;

use regex::Regex;

use super::limits::MAX_CHUNK_BYTES;
use super::model::{Block, Span, trim_span};

/// Block kinds whose boundaries chunks never cross.
const BOUNDARY_KINDS: [&str; 7] = ["section", "page", "message", "table", "code", "chapter", "attachment"];

/// Candidate sentence ends: sentence punctuation and blank lines.
static BREAKS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[.!?]|\n\r?\n").unwrap_or_else(|e| panic!("{e}")));

/// The sentences of `text[start..end]`, trimmed, none longer than the chunk limit.
pub fn sentences(text: &str, start: usize, end: usize) -> Vec<Span> {
    let end = end.min(text.len());
    let bytes = text.as_bytes();
    let mut out = vec![];
    let mut s = start;
    let Some(region) = text.get(start..end) else { return out };
    for m in BREAKS.find_iter(region) {
        let i = start + m.start();
        if i < s {
            continue;
        }
        // A run without any break: cut it before it outgrows a chunk.
        while i - s > MAX_CHUNK_BYTES {
            let c = split_point(text, s, s + MAX_CHUNK_BYTES);
            push_bounded(text, (s, c), &mut out);
            s = c;
        }
        if bytes[i] == b'\n' {
            push_bounded(text, (s, i), &mut out);
            s = i;
            continue;
        }
        let mut j = i + 1;
        while j < end && matches!(bytes[j], b'"' | b'\'' | b')' | b']') {
            j += 1;
        }
        if j < end && !bytes[j].is_ascii_whitespace() {
            continue;
        }
        // Not after a single capital ("J. Doe") or a common abbreviation.
        let word = text[s..i].rsplit(char::is_whitespace).next().unwrap_or("");
        let abbrev = (word.len() == 1 && word.chars().all(|c| c.is_uppercase()))
            || matches!(word, "Mr" | "Mrs" | "Ms" | "Dr" | "No" | "Inc" | "Ltd" | "Corp" | "Co" | "St" | "vs" | "e.g" | "i.e" | "U.S" | "etc" | "Jr" | "Sr");
        if !abbrev {
            push_bounded(text, (s, j), &mut out);
            s = j;
        }
    }
    while end - s > MAX_CHUNK_BYTES {
        let c = split_point(text, s, s + MAX_CHUNK_BYTES);
        push_bounded(text, (s, c), &mut out);
        s = c;
    }
    push_bounded(text, (s, end), &mut out);
    out
}

/// A cut at or before `i`: after the last whitespace in the second half of `[s, i)`, else a char boundary.
fn split_point(text: &str, s: usize, i: usize) -> usize {
    let half = s + (i - s) / 2;
    let mut k = i;
    while k > half {
        if text.as_bytes()[k - 1].is_ascii_whitespace() {
            return k;
        }
        k -= 1;
    }
    let mut c = i;
    while c > s + 1 && !text.is_char_boundary(c) {
        c -= 1;
    }
    c
}

fn push_bounded(text: &str, span: Span, out: &mut Vec<Span>) {
    let (s, e) = trim_span(text, span);
    if s < e {
        out.push((s, e));
    }
}

/// The sentences of a text, never crossing the boundary of a section, page, message,
/// table or code block.
pub fn region_sentences(text: &str, blocks: &[Block]) -> Vec<Span> {
    let mut cuts: Vec<usize> = vec![0, text.len()];
    for b in blocks.iter().filter(|b| BOUNDARY_KINDS.contains(&b.kind)) {
        cuts.push(b.span.0);
        cuts.push(b.span.1);
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = vec![];
    for w in cuts.windows(2) {
        out.extend(sentences(text, w[0], w[1]));
    }
    out
}

/// The chunks of a text (from its [`region_sentences`]): spans and the innermost
/// enclosing block (if any). Sentences are packed greedily up to the size limit, and a
/// chunk never spans two regions.
pub fn chunks(blocks: &[Block], sentences: &[Span]) -> Vec<(Span, Option<usize>)> {
    let mut cuts: Vec<usize> = blocks.iter().filter(|b| BOUNDARY_KINDS.contains(&b.kind)).flat_map(|b| [b.span.0, b.span.1]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut spans = vec![];
    let mut cur: Option<Span> = None;
    for &s in sentences {
        // A region boundary between the current chunk and this sentence closes the chunk.
        let crosses = |c: Span| {
            let i = cuts.partition_point(|&x| x <= c.0);
            cuts.get(i).is_some_and(|&x| x <= s.0)
        };
        cur = match cur {
            Some(c) if s.1 - c.0 <= MAX_CHUNK_BYTES && !crosses(c) => Some((c.0, s.1)),
            Some(c) => {
                spans.push(c);
                Some(s)
            }
            None => Some(s),
        };
    }
    if let Some(c) = cur {
        spans.push(c);
    }
    // Innermost block containing each chunk: a sweep over blocks sorted by (start, longest first).
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| (blocks[i].span.0, Reverse(blocks[i].span.1), i));
    let mut stack: Vec<usize> = vec![];
    let mut j = 0;
    let mut out = Vec::with_capacity(spans.len());
    for (s, e) in spans {
        while j < order.len() && blocks[order[j]].span.0 <= s {
            let b = order[j];
            while stack.last().is_some_and(|&t| blocks[t].span.1 <= blocks[b].span.0) {
                stack.pop();
            }
            stack.push(b);
            j += 1;
        }
        while stack.last().is_some_and(|&t| blocks[t].span.1 <= s) {
            stack.pop();
        }
        let parent = stack.iter().rev().find(|&&t| blocks[t].span.0 <= s && blocks[t].span.1 >= e).copied();
        out.push(((s, e), parent));
    }
    out
}
