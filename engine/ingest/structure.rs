//! Text-level structure detectors, run on every canonical text: cross-references
//! ("see Section 4.2", "Exhibit A"), definitions (`"X" means …`, `(the "Company")`),
//! citations of other documents (file names, FinCEN and SEC release numbers),
//! requirements (MUST / SHALL / REQUIRED) and rationale (WHY / BECAUSE / DECISION /
//! RATIONALE). Each finding carries the span that states it. All regexes are linear.

use std::sync::LazyLock;

use regex::Regex;

use super::model::{Block, Span};

/// One finding: relation-specific values and the span that states it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[allow(missing_docs)] // each field is named in its variant's doc
pub enum Finding {
    /// `xref(doc, kind, target)`: a reference to a part of a document.
    Xref { kind: String, target: String, span: Span },
    /// `definition(doc, term)`.
    Definition { term: String, span: Span },
    /// `cites(doc, target)`: a reference to another document.
    Cites { target: String, span: Span },
    /// `requirement(doc, keyword)`: a sentence with MUST / SHALL / REQUIRED.
    Requirement { keyword: String, span: Span },
    /// `rationale(doc, keyword)`: a block introduced by WHY / BECAUSE / DECISION / RATIONALE.
    Rationale { keyword: String, span: Span },
}

fn re(s: &str) -> Regex {
    Regex::new(s).unwrap_or_else(|e| panic!("{e}"))
}

static XREF: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?i:(section|sections|§|article|clause|exhibit|appendix|schedule|annex|attachment|figure|table|paragraph|item))\s+((?:[A-Z]|\d{1,3}(?:\.\d{1,3}){0,4}|[IVX]{1,6})(?:\([a-z0-9]{1,3}\))?)\b")
});
static SECTION_SIGN: LazyLock<Regex> = LazyLock::new(|| re(r"§\s*(\d{1,4}(?:\.\d{1,3}){0,4}(?:\([a-z0-9]{1,3}\))?)"));
static DEF_MEANS: LazyLock<Regex> = LazyLock::new(|| re(r#"["“]([^"”\n]{1,80})["”]\s+(?:means|shall mean|refers to|is defined as|has the meaning)\b"#));
static DEF_PAREN: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"\((?:(?:the|a|an|hereinafter(?: the)?|collectively(?:,)?(?: the)?|together(?:,)?(?: the)?|each(?:,)? a)\s+)?["“]([^"”\n]{1,80})["”]\)"#)
});
static CITES: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(FIN-\d{4}-[A-Z]\d{3}|(?:Litigation )?Release No\.\s?(?:LR-)?\d{3,6}|LR-\d{3,6}|[A-Za-z0-9_][A-Za-z0-9_\-/]*\.(?:pdf|docx|doc|odt|eml|mbox|csv|tsv|txt|md|html|htm|xlsx|xls|json|yaml|yml|log|rtf|epub))\b")
});
static REQUIREMENT: LazyLock<Regex> = LazyLock::new(|| re(r"\b(MUST NOT|MUST|SHALL NOT|SHALL|REQUIRED|must not|must|shall not|shall|is required to|are required to)\b"));
static RATIONALE_HEAD: LazyLock<Regex> =
    LazyLock::new(|| re(r"^[#*_>\s]*(?:(?i:(why|because|decision|rationale|reason|reasons|reasoning))\b[*_]*\s*(?::|—|-|\n|$)|(Because|Why)\b)"));
static RATIONALE_CAPS: LazyLock<Regex> = LazyLock::new(|| re(r"\b(WHY|BECAUSE|DECISION|RATIONALE)\b"));
static BECAUSE: LazyLock<Regex> = LazyLock::new(|| re(r"\bBecause "));

/// Every finding of a text, in a deterministic order (sorted). `sentences` are the
/// text's sentences in order (see [`super::chunk::sentences`]).
pub fn detect(text: &str, blocks: &[Block], sentences: &[Span]) -> Vec<Finding> {
    let mut out = vec![];
    for c in XREF.captures_iter(text) {
        if let (Some(all), Some(k), Some(t)) = (c.get(0), c.get(1), c.get(2)) {
            let mut kind = k.as_str().to_lowercase();
            if kind == "sections" {
                kind = "section".into();
            }
            if kind == "§" {
                kind = "section".into();
            }
            // "Table 3" and "Item 7" only with a number; a capital letter alone is too noisy for them.
            if matches!(kind.as_str(), "table" | "figure" | "item" | "paragraph") && !t.as_str().starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            out.push(Finding::Xref { kind, target: t.as_str().to_string(), span: (all.start(), all.end()) });
        }
    }
    for c in SECTION_SIGN.captures_iter(text) {
        if let (Some(all), Some(t)) = (c.get(0), c.get(1)) {
            out.push(Finding::Xref { kind: "section".into(), target: t.as_str().to_string(), span: (all.start(), all.end()) });
        }
    }
    for c in DEF_MEANS.captures_iter(text) {
        if let (Some(all), Some(t)) = (c.get(0), c.get(1)) {
            let end = sentence_end(text, all.end());
            out.push(Finding::Definition { term: t.as_str().trim().to_string(), span: (all.start(), end) });
        }
    }
    for c in DEF_PAREN.captures_iter(text) {
        if let (Some(all), Some(t)) = (c.get(0), c.get(1)) {
            out.push(Finding::Definition { term: t.as_str().trim().to_string(), span: (all.start(), all.end()) });
        }
    }
    for c in CITES.captures_iter(text) {
        if let Some(m) = c.get(1) {
            // A bare domain (example.com) or a version number is not a document.
            let t = m.as_str();
            if t.contains("://") || text[..m.start()].ends_with(['@', '/', '.']) {
                continue;
            }
            out.push(Finding::Cites { target: t.to_string(), span: (m.start(), m.end()) });
        }
    }
    // Requirement and rationale keywords: one pass over the text each, then each match is
    // attributed to its sentence (the first keyword of a sentence counts).
    let sentence_of = |pos: usize| -> Option<Span> {
        let i = sentences.partition_point(|s| s.1 <= pos);
        sentences.get(i).copied().filter(|s| s.0 <= pos)
    };
    let mut last: Option<Span> = None;
    for m in REQUIREMENT.find_iter(text) {
        if let Some(s) = sentence_of(m.start())
            && last != Some(s)
        {
            last = Some(s);
            let keyword = m.as_str().to_uppercase().replace("IS REQUIRED TO", "REQUIRED").replace("ARE REQUIRED TO", "REQUIRED");
            out.push(Finding::Requirement { keyword, span: s });
        }
    }
    let mut last: Option<Span> = None;
    for m in RATIONALE_CAPS.find_iter(text) {
        if let Some(s) = sentence_of(m.start())
            && last != Some(s)
        {
            last = Some(s);
            out.push(Finding::Rationale { keyword: m.as_str().to_string(), span: s });
        }
    }
    for m in BECAUSE.find_iter(text) {
        if let Some(s) = sentence_of(m.start())
            && s.0 == m.start()
        {
            out.push(Finding::Rationale { keyword: "BECAUSE".into(), span: s });
        }
    }
    for b in blocks {
        let mut e = (b.span.0 + 200).min(b.span.1).min(text.len());
        while !text.is_char_boundary(e) {
            e -= 1;
        }
        let Some(first) = text.get(b.span.0..e) else { continue };
        if matches!(b.kind, "paragraph" | "section" | "list_item")
            && let Some(c) = RATIONALE_HEAD.captures(first)
            && let Some(k) = c.get(1).or_else(|| c.get(2))
        {
            out.push(Finding::Rationale { keyword: k.as_str().to_uppercase(), span: b.span });
        }
    }
    out.sort();
    out.dedup();
    out
}

/// End of the sentence that contains `from` (bounded to 500 bytes).
fn sentence_end(text: &str, from: usize) -> usize {
    let limit = (from + 500).min(text.len());
    let bytes = text.as_bytes();
    let mut i = from;
    while i < limit {
        if bytes[i] == b'.' || (bytes[i] == b'\n' && i + 1 < text.len() && bytes[i + 1] == b'\n') {
            return if bytes[i] == b'.' { i + 1 } else { i };
        }
        i += 1;
    }
    let mut e = limit;
    while !text.is_char_boundary(e) {
        e -= 1;
    }
    e
}
