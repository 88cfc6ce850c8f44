//! Markdown: the source text is the canonical document. Blocks: ATX and setext
//! headings (sections), paragraphs, list items, table rows, fenced code, block
//! quotes. Links: `[text](url)`, `<url>` autolinks and bare `http(s)://` URLs.

use std::sync::LazyLock;

use regex::Regex;

use super::text::{Item, lines, outline};
use tg_text::document::{Extracted, Link};

static ATX: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"^ {0,3}(#{1,6})(?:[ \t]+|$)"));
static LIST: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+"));
static MD_LINK: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"\[([^\[\]\n]*)\]\([ \t]*<?([^()\s<>]+)>?(?:[ \t]+[^)\n]*)?\)|<((?:https?|mailto):[^<>\s]+)>"));
static BARE_URL: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"https?://[^\s<>()\[\]]*[^\s<>()\[\].,;:!?]"));

/// A Markdown document.
pub fn extract(text: String) -> Extracted {
    let mut items = vec![];
    let mut para: Option<(usize, usize)> = None;
    let mut fence: Option<(usize, &str)> = None;
    let mut prev_line: Option<(usize, usize)> = None;
    for (start, line) in lines(&text) {
        let end = start + line.len();
        if let Some((fs, marker)) = fence {
            if line.trim_start().starts_with(marker) {
                items.push(Item { span: (fs, end), kind: "code", heading: None, title: None });
                fence = None;
            }
            continue;
        }
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            if let Some(p) = para.take() {
                items.push(Item { span: p, kind: "paragraph", heading: None, title: None });
            }
            fence = Some((start, &t[..3]));
            continue;
        }
        if line.trim().is_empty() {
            if let Some(p) = para.take() {
                items.push(Item { span: p, kind: "paragraph", heading: None, title: None });
            }
            prev_line = None;
            continue;
        }
        if let Some(c) = ATX.captures(line) {
            if let Some(p) = para.take() {
                items.push(Item { span: p, kind: "paragraph", heading: None, title: None });
            }
            let level = c.get(1).map_or(1, |m| m.len()) as u32;
            let title_start = start + c.get(0).map_or(0, |m| m.end());
            let title_text = text.get(title_start..end).unwrap_or("");
            let title_end = title_start + title_text.trim_end_matches(|ch: char| ch == '#' || ch.is_whitespace()).len();
            items.push(Item { span: (start, end), kind: "heading", heading: Some(level), title: Some((title_start, title_end.max(title_start))) });
            prev_line = None;
            continue;
        }
        // Setext underline turns the one-line paragraph above into a heading.
        let u = line.trim();
        if u.len() >= 2
            && (u.chars().all(|c| c == '=') || u.chars().all(|c| c == '-'))
            && let (Some(p), Some(prev)) = (para, prev_line)
            && p == prev
        {
            para = None;
            let level = if u.starts_with('=') { 1 } else { 2 };
            items.push(Item { span: (p.0, end), kind: "heading", heading: Some(level), title: Some(p) });
            prev_line = None;
            continue;
        }
        let kind = if t.starts_with('|') {
            Some("row")
        } else if LIST.is_match(line) {
            Some("list_item")
        } else if t.starts_with('>') {
            Some("quote")
        } else {
            None
        };
        match kind {
            Some(k) => {
                if let Some(p) = para.take() {
                    items.push(Item { span: p, kind: "paragraph", heading: None, title: None });
                }
                // A table's delimiter row (|---|---|) is not a record.
                let delimiter = k == "row" && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'));
                if !delimiter {
                    items.push(Item { span: (start, end), kind: k, heading: None, title: None });
                }
                prev_line = None;
            }
            None => {
                // Continuation of a list item stays in it; otherwise extend the paragraph.
                match (para, items.last_mut()) {
                    (None, Some(last)) if last.kind == "list_item" && line.starts_with([' ', '\t']) && last.span.1 + 1 >= start => last.span.1 = end,
                    _ => {
                        para = Some((para.map_or(start, |p| p.0), end));
                        prev_line = Some((start, end));
                    }
                }
            }
        }
    }
    if let Some((fs, _)) = fence {
        items.push(Item { span: (fs, text.len()), kind: "code", heading: None, title: None });
    }
    if let Some(p) = para {
        items.push(Item { span: p, kind: "paragraph", heading: None, title: None });
    }
    let blocks = outline(&text, items);
    let links = links(&text);
    Extracted { format: "md", blocks, links, text, ..Default::default() }
}

/// Bare `http(s)://` URLs of a text, in text order (links of formats without markup).
pub fn bare_urls(text: &str) -> Vec<Link> {
    BARE_URL.find_iter(text).map(|m| Link { span: (m.start(), m.end()), target: m.as_str().to_string() }).collect()
}

/// Markdown links and bare URLs, in text order, each URL once per position.
pub fn links(text: &str) -> Vec<Link> {
    let mut out = vec![];
    let mut covered: Vec<(usize, usize)> = vec![];
    for c in MD_LINK.captures_iter(text) {
        let Some(all) = c.get(0) else { continue };
        covered.push((all.start(), all.end()));
        if let (Some(anchor), Some(url)) = (c.get(1), c.get(2)) {
            let span = if anchor.as_str().trim().is_empty() { (url.start(), url.end()) } else { (anchor.start(), anchor.end()) };
            out.push(Link { span, target: url.as_str().to_string() });
        } else if let Some(url) = c.get(3) {
            out.push(Link { span: (url.start(), url.end()), target: url.as_str().to_string() });
        }
    }
    // `covered` is in text order and its spans do not overlap: a binary search finds the
    // only one that could hold a URL.
    for m in BARE_URL.find_iter(text) {
        let i = covered.partition_point(|&(s, _)| s <= m.start());
        let inside = i > 0 && covered[i - 1].1 >= m.end();
        if !inside {
            out.push(Link { span: (m.start(), m.end()), target: m.as_str().to_string() });
        }
    }
    out.sort_by_key(|l| l.span);
    out
}
