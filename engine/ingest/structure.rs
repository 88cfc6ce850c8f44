//! Text-level structure detectors, run on every canonical text: cross-references
//! ("see Section 4.2", "Exhibit A"), definitions (`"X" means …`, `(the "Company")`),
//! citations of other documents (file names, FinCEN and SEC release numbers),
//! requirements (MUST / SHALL / REQUIRED) and rationale (WHY / BECAUSE / DECISION /
//! RATIONALE). Each finding carries the span that states it. All regexes are linear.

use std::sync::LazyLock;

use regex::Regex;

use tg_text::document::{Block, Span};

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
    /// `doc_identifier(doc, id)`: the number a document gives itself ("Advisory: Issue 13A",
    /// a leading "FIN-2020-A006").
    Identifier { id: String, span: Span },
    /// `withdraws(doc, target)`: a sentence withdrawing or rescinding another document.
    Withdraws { target: String, span: Span },
    /// `rescinded(doc, cue)`: the document says of itself that it was rescinded or withdrawn.
    Rescinded { cue: String, span: Span },
}

fn re(s: &str) -> Regex {
    tg_text::pattern::constant(s)
}

/// Every span-level detector in one alternation, so the text is scanned once: cross-references
/// (`x`), section signs (`s`/`st`), `"X" means` (`m`/`mt`), `(the "X")` (`p`/`pt`), document
/// citations (`c`), requirement keywords (`r`), capitalised rationale words (`w`), "Because" (`b`).
/// Leftmost-first: where two would overlap, the earlier alternative wins.
static SCAN: LazyLock<Regex> = LazyLock::new(|| {
    big(&[
        r"(?P<m>[\x22“](?P<mt>[^\x22”\n]+)[\x22”][ \t\n]+(?:means|shall mean|refers to|is defined as|has the meaning)(?-u:\b))",
        r"(?P<p>\((?:(?:the|a|an|hereinafter(?: the)?|collectively,?(?: the)?|together,?(?: the)?|each,? a)[ \t\n]+)?[\x22“](?P<pt>[^\x22”\n]+)[\x22”]\))",
        r"(?P<x>(?-u:\b)(?i:section|sections|article|clause|exhibit|appendix|schedule|annex|attachment|figure|table|paragraph|item)[ \t\n]+(?:[A-Z]|[0-9]{1,3}(?:\.[0-9]{1,3}){0,4}|[IVX]{1,6})(?:\([a-z0-9]{1,3}\))?(?-u:\b))",
        r"(?P<s>§[ \t]*(?P<st>[0-9]{1,4}(?:\.[0-9]{1,3}){0,4}(?:\([a-z0-9]{1,3}\))?))",
        r"(?P<c>(?-u:\b)(?:FIN-[0-9]{4}-[A-Z][0-9]{3}|(?:Litigation )?Release No\. ?(?:LR-)?[0-9]{3,6}|LR-[0-9]{3,6}|[A-Za-z0-9_][A-Za-z0-9_\-/]*\.(?:pdf|docx|doc|odt|eml|mbox|csv|tsv|txt|md|html|htm|xlsx|xls|json|yaml|yml|log|rtf|epub))(?-u:\b))",
        r"(?P<r>(?-u:\b)(?:MUST NOT|MUST|SHALL NOT|SHALL|REQUIRED|must not|must|shall not|shall|is required to|are required to)(?-u:\b))",
        r"(?P<w>(?-u:\b)(?:WHY|BECAUSE|DECISION|RATIONALE)(?-u:\b))",
        r"(?P<b>(?-u:\b)Because )",
    ]
    .join("|"))
});

/// A regex with a larger lazy-DFA cache (the scanner's alternation has many states).
fn big(s: &str) -> Regex {
    tg_text::pattern::constant_large(s)
}
static RATIONALE_HEAD: LazyLock<Regex> =
    LazyLock::new(|| re(r"^[#*_>\s]*(?:(?i:(why|because|decision|rationale|reason|reasons|reasoning))\b[*_]*\s*(?::|—|-|\n|$)|(Because|Why)\b)"));

/// Every finding of a text, in a deterministic order (sorted). `sentences` are the
/// text's sentences in order (see [`tg_text::chunk::sentences`]).
pub fn detect(text: &str, blocks: &[Block], sentences: &[Span]) -> Vec<Finding> {
    let mut out = vec![];
    let sentence_of = |pos: usize| -> Option<Span> {
        let i = sentences.partition_point(|s| s.1 <= pos);
        sentences.get(i).copied().filter(|s| s.0 <= pos)
    };
    // The first requirement / rationale keyword of a sentence counts.
    let mut last_req: Option<Span> = None;
    let mut last_why: Option<Span> = None;
    for c in SCAN.captures_iter(text) {
        let Some(all) = c.get(0) else { continue };
        let span = (all.start(), all.end());
        if let Some(m) = c.name("x") {
            // "Exhibit A": the keyword is the first word, the target the last.
            let mut words = m.as_str().split_ascii_whitespace();
            let (Some(k), Some(t)) = (words.next(), words.next_back()) else { continue };
            let mut kind = k.to_ascii_lowercase();
            if kind == "sections" {
                kind = "section".into();
            }
            // "Table 3" and "Item 7" only with a number; a capital letter alone is too noisy for them.
            if matches!(kind.as_str(), "table" | "figure" | "item" | "paragraph") && !t.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            out.push(Finding::Xref { kind, target: t.to_string(), span });
        } else if let Some(t) = c.name("st") {
            out.push(Finding::Xref { kind: "section".into(), target: t.as_str().to_string(), span });
        } else if let Some(t) = c.name("mt").or_else(|| c.name("pt")) {
            // A quoted run longer than 80 bytes is a quotation, not a defined term.
            if t.len() > 80 {
                continue;
            }
            let span = if c.name("mt").is_some() { (span.0, sentence_end(text, span.1)) } else { span };
            out.push(Finding::Definition { term: t.as_str().trim().to_string(), span });
        } else if let Some(m) = c.name("c") {
            // A bare domain (example.com) or a path inside a URL is not a document.
            let t = m.as_str();
            if text[..m.start()].ends_with(['@', '/', '.']) {
                continue;
            }
            out.push(Finding::Cites { target: t.to_string(), span });
        } else if let Some(m) = c.name("r") {
            if let Some(s) = sentence_of(m.start())
                && last_req != Some(s)
            {
                last_req = Some(s);
                let keyword = m.as_str().to_uppercase().replace("IS REQUIRED TO", "REQUIRED").replace("ARE REQUIRED TO", "REQUIRED");
                out.push(Finding::Requirement { keyword, span: s });
            }
        } else if let Some(m) = c.name("w") {
            if let Some(s) = sentence_of(m.start())
                && last_why != Some(s)
            {
                last_why = Some(s);
                out.push(Finding::Rationale { keyword: m.as_str().to_string(), span: s });
            }
        } else if let Some(m) = c.name("b")
            && let Some(s) = sentence_of(m.start())
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

/// "Advisory: Issue 13A" or "Advisory: Vol. 1, Issue 2" (the label of a FinCEN advisory's header), or "Issue 29" alone on a line.
static ISSUE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)Advisory:[ \t\n]+(?:Vol\.[ \t]*[0-9]{1,2},[ \t]*)?Issue[ \t]+([0-9]{1,3}[A-Z]?)\b|^[ \t]*Issue[ \t]+([0-9]{1,3}[A-Z]?)[ \t]*$"));
static FIN_ID: LazyLock<Regex> = LazyLock::new(|| re(r"\bFIN-[0-9]{4}-[A-Z][0-9]{3}\b"));
static WITHDRAW_CUE: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:is|are|was|were|has been|have been)(?:[ \t\n]+hereby)?[ \t\n]+(?:withdrawn|rescinded|revoked)\b"));
static ADVISORY_REF: LazyLock<Regex> = LazyLock::new(|| re(r"\bAdvisory(?:[ \t\n]+Issue)?[ \t\n]+([0-9]{1,3}[A-Z]?)\b|\bFIN-[0-9]{4}-[A-Z][0-9]{3}\b"));
static SELF_RESCINDED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\bThis[ \t\n]+(?:document|[Aa]dvisory|notice|release)[ \t\n]+(?:has[ \t\n]+been|is|was)(?:[ \t\n]+hereby)?[ \t\n]+(?:rescinded|withdrawn|revoked|superseded)\b")
});

/// How a document stands towards others: the identifier it gives itself (an
/// "Issue N" or a FinCEN number near the top), the documents it withdraws, and whether it
/// says it was itself rescinded. Sorted, like [`detect`].
pub fn status(text: &str, sentences: &[Span]) -> Vec<Finding> {
    let mut out = vec![];
    let mut head_end = 5000.min(text.len());
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let head = &text[..head_end];
    if let Some(c) = ISSUE.captures(head)
        && let Some(n) = c.get(1).or_else(|| c.get(2))
    {
        out.push(Finding::Identifier { id: format!("Advisory {}", n.as_str()), span: (c.get(0).map_or(0, |m| m.start()), n.end()) });
    } else if let Some(m) = FIN_ID.find(head).filter(|m| m.start() < 200) {
        out.push(Finding::Identifier { id: m.as_str().to_string(), span: (m.start(), m.end()) });
    }
    if let Some(m) = SELF_RESCINDED.find(text) {
        out.push(Finding::Rescinded { cue: m.as_str().split_whitespace().collect::<Vec<_>>().join(" "), span: (m.start(), m.end()) });
    }
    for s in sentences {
        let Some(sentence) = text.get(s.0..s.1) else { continue };
        if !WITHDRAW_CUE.is_match(sentence) || SELF_RESCINDED.is_match(sentence) {
            continue;
        }
        for c in ADVISORY_REF.captures_iter(sentence) {
            let Some(all) = c.get(0) else { continue };
            let target = match c.get(1) {
                Some(n) => format!("Advisory {}", n.as_str()),
                None => all.as_str().to_string(),
            };
            out.push(Finding::Withdraws { target, span: *s });
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
