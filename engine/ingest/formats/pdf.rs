//! PDF via pdf-extract (over lopdf), page by page, every call under `catch_unwind`
//! (pdf-extract panics on many corrupt files; a panic becomes a skip or a page warning).
//!
//! - Pages are `page` blocks, joined by blank lines; paragraphs, list items and
//!   heading-like lines inside a page are found as in plain text; a heading-like line
//!   that recurs (running header or footer) is not a section.
//! - Encrypted PDFs open when the user password is empty; otherwise they are skipped
//!   ("encrypted PDF (password required)").
//! - pdf-extract silently drops text drawn with the `'` and `"` operators: every page is
//!   also read by lopdf's own `extract_text`, and when that finds more than twice the
//!   visible characters, its text is used (with a warning).
//! - A PDF without any text is skipped with "no text layer — OCR not available"; a page
//!   without text keeps an empty place and a warning; a page whose text is mostly
//!   unmapped glyphs (garbage) is read with lopdf instead, else dropped with a warning,
//!   and a PDF with only such pages is skipped.
//! - Ligatures (ﬁ, ﬂ, …) are expanded; control characters other than newline and tab are removed.

use super::text::text_items;
use crate::catch_quietly;
use tg_text::document::{Block, Extracted, Skip, Span, nest, sections_from_headings, tidy_blocks};

fn visible(s: &str) -> usize {
    s.chars().filter(|c| !c.is_whitespace()).count()
}

/// Whether a page's text is mostly glyphs without a Unicode mapping: among its visible
/// characters, letters and digits (spacing modifiers such as ˘ ˇ ˆ ˙ excluded, which is
/// what unmapped Type 1 glyphs often decode to) are under a quarter, or characters that
/// are neither letters, digits nor punctuation outnumber the letters and digits.
fn garbage(s: &str) -> bool {
    let (mut visible, mut good, mut bad) = (0usize, 0usize, 0usize);
    for c in s.chars().filter(|c| !c.is_whitespace()) {
        visible += 1;
        let modifier = ('\u{2b0}'..='\u{2ff}').contains(&c);
        let private = ('\u{e000}'..='\u{f8ff}').contains(&c) || c == '\u{fffd}' || c.is_control();
        if c.is_alphanumeric() && !modifier && !private {
            good += 1;
        } else if !(c.is_ascii_punctuation() || "€£$§°–—‘’“”•…·©®%«»".contains(c)) {
            bad += 1;
        }
    }
    visible >= 20 && (good * 4 < visible || bad > good)
}

fn clean(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            'ﬀ' => out.push_str("ff"),
            'ﬁ' => out.push_str("fi"),
            'ﬂ' => out.push_str("fl"),
            'ﬃ' => out.push_str("ffi"),
            'ﬄ' => out.push_str("ffl"),
            'ﬅ' | 'ﬆ' => out.push_str("st"),
            '\r' => out.push('\n'),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(160).collect()
}

/// The text of one page: pdf-extract, cross-checked with lopdf's `extract_text` (about a
/// fifth of pdf-extract's time): when lopdf finds more than twice the visible characters,
/// pdf-extract lost text (the `'`/`"` operators) and lopdf's text is used.
fn page_text(doc: &lopdf::Document, n: u32, warnings: &mut Vec<String>) -> String {
    let primary = catch_quietly(|| {
        let mut s = String::new();
        let r = {
            let mut out = pdf_extract::PlainTextOutput::new(&mut s);
            pdf_extract::output_doc_page(doc, &mut out, n)
        };
        r.map(|_| s)
    });
    let (text, failure) = match primary {
        Ok(Ok(s)) => (s, None),
        Ok(Err(e)) => (String::new(), Some(first_line(&e.to_string()))),
        Err(panic) => (String::new(), Some(format!("pdf-extract panicked: {}", first_line(&panic)))),
    };
    let alt = catch_quietly(|| doc.extract_text(&[n])).ok().and_then(|r| r.ok()).unwrap_or_default();
    if visible(&alt) > visible(&text) * 2 && visible(&alt) > 0 {
        match &failure {
            Some(f) => warnings.push(format!("page {n}: {f}; used lopdf's text instead")),
            None => warnings.push(format!("page {n}: pdf-extract found {} characters, lopdf {}; used lopdf's text", visible(&text), visible(&alt))),
        }
        return alt;
    }
    if let Some(f) = failure {
        warnings.push(format!("page {n}: no text extracted ({f})"));
    }
    text
}

/// A PDF document.
pub fn extract(bytes: &[u8]) -> Result<Extracted, Skip> {
    if bytes.is_empty() {
        return Err(Skip::new("empty file"));
    }
    let head = &bytes[..bytes.len().min(1024)];
    if !head.windows(5).any(|w| w == b"%PDF-") {
        return Err(Skip::new("not a PDF (no %PDF- header)"));
    }
    let mut doc = match catch_quietly(|| lopdf::Document::load_mem(bytes)) {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => return Err(Skip::new(format!("invalid or truncated PDF: {}", first_line(&e.to_string())))),
        Err(p) => return Err(Skip::new(format!("invalid PDF: the parser panicked ({})", first_line(&p)))),
    };
    if doc.is_encrypted() {
        match catch_quietly(|| doc.decrypt("")) {
            Ok(Ok(())) => {}
            _ => return Err(Skip::new("encrypted PDF (password required)")),
        }
    }
    let pages = match catch_quietly(|| doc.get_pages()) {
        Ok(p) => p,
        Err(p) => return Err(Skip::new(format!("invalid PDF: page tree unreadable ({})", first_line(&p)))),
    };
    if pages.is_empty() {
        if doc.trailer.get(b"Encrypt").is_ok() || doc.was_encrypted() {
            return Err(Skip::new("encrypted PDF (password required)"));
        }
        return Err(Skip::new("PDF has no pages"));
    }
    let mut warnings = vec![];
    let mut text = String::new();
    let mut blocks = vec![];
    let mut headings = vec![];
    let mut empty_pages = vec![];
    let mut garbage_pages = vec![];
    for &n in pages.keys() {
        let raw = clean(&page_text(&doc, n, &mut warnings));
        let page = if garbage(&raw) {
            // lopdf decodes some font encodings pdf-extract does not: try it before giving up.
            let alt = clean(&catch_quietly(|| doc.extract_text(&[n])).ok().and_then(|r| r.ok()).unwrap_or_default());
            if visible(&alt) > 0 && !garbage(&alt) {
                warnings.push(format!("page {n}: pdf-extract's text is garbage; used lopdf's text"));
                alt
            } else {
                garbage_pages.push(n);
                String::new()
            }
        } else {
            raw
        };
        if page.trim().is_empty() && !garbage_pages.contains(&n) {
            empty_pages.push(n);
        }
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        let start = text.len();
        text.push_str(page.trim());
        let end = text.len();
        blocks.push(Block { kind: "page", span: (start, end), parent: None, title: None, level: n });
        for it in text_items(&text[start..end]) {
            let span = (it.span.0 + start, it.span.1 + start);
            match it.heading {
                Some(level) => headings.push((it.title.map_or(span, |t| (t.0 + start, t.1 + start)), level)),
                None => blocks.push(Block { kind: it.kind, span, parent: None, title: None, level: 0 }),
            }
        }
    }
    if visible(&text) == 0 {
        if !garbage_pages.is_empty() {
            return Err(Skip::new("text layer is garbage (fonts without a Unicode mapping) — OCR not available"));
        }
        return Err(Skip::new("no text layer — OCR not available"));
    }
    for n in &empty_pages {
        warnings.push(format!("page {n}: no text layer — OCR not available"));
    }
    for n in &garbage_pages {
        warnings.push(format!("page {n}: text layer is garbage (fonts without a Unicode mapping), dropped"));
    }
    // A heading-like line repeated on several pages is a running header or footer, not a section.
    let norm = |h: &(Span, u32)| text[h.0.0..h.0.1].split_whitespace().collect::<Vec<_>>().join(" ");
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for h in &headings {
        *counts.entry(norm(h)).or_insert(0) += 1;
    }
    headings.retain(|h| counts.get(&norm(h)).copied().unwrap_or(0) < 2 || pages.len() < 2);
    blocks.extend(sections_from_headings(&headings, text.len()));
    // Pages keep their number in `level`; the block tree is rebuilt by containment.
    let blocks = nest(tidy_blocks(&text, blocks));
    Ok(Extracted { format: "pdf", text, blocks, warnings, ..Default::default() })
}
