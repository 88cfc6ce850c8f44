//! Plain text and `.log` files: the text is the canonical document as is; blocks are
//! paragraphs (blank-line separated), bullet lists, and sections found from heading-like
//! lines (numbered `4.2 Transfers`, ALL-CAPS lines, setext underlines).

use std::sync::LazyLock;

use regex::Regex;

use tg_text::document::{Block, Extracted, Span, tidy_blocks};

/// One top-level unit of a text before it becomes blocks.
#[derive(Clone, Debug)]
pub struct Item {
    /// Its span.
    pub span: Span,
    /// Block kind (`paragraph`, `list_item`, `row`, `code`, `quote`…); ignored for headings.
    pub kind: &'static str,
    /// `Some(level)` for a heading: it opens a section running to the next heading of
    /// the same or a higher level.
    pub heading: Option<u32>,
    /// The heading's title span (default: the whole item).
    pub title: Option<Span>,
}

/// Builds the block tree of a sequence of items: headings open nested sections,
/// consecutive list items are grouped under a `list`, consecutive rows under a `table`.
pub fn outline(text: &str, items: Vec<Item>) -> Vec<Block> {
    let mut blocks: Vec<Block> = vec![];
    let mut sections: Vec<(usize, u32)> = vec![];
    let mut group: Option<(usize, &'static str)> = None;
    for it in items {
        if let Some(level) = it.heading {
            group = None;
            while let Some(&(b, l)) = sections.last() {
                if l < level {
                    break;
                }
                blocks[b].span.1 = it.span.0;
                sections.pop();
            }
            let id = blocks.len();
            blocks.push(Block { kind: "section", span: (it.span.0, text.len()), parent: sections.last().map(|s| s.0), title: Some(it.title.unwrap_or(it.span)), level });
            sections.push((id, level));
            continue;
        }
        let sec = sections.last().map(|s| s.0);
        let group_kind = match it.kind {
            "list_item" => Some("list"),
            "row" => Some("table"),
            _ => None,
        };
        let parent = match group_kind {
            Some(gk) => match group {
                Some((g, k)) if k == gk && blocks[g].parent == sec => {
                    blocks[g].span.1 = it.span.1;
                    Some(g)
                }
                _ => {
                    let g = blocks.len();
                    blocks.push(Block { kind: gk, span: it.span, parent: sec, title: None, level: 0 });
                    group = Some((g, gk));
                    Some(g)
                }
            },
            None => {
                group = None;
                sec
            }
        };
        blocks.push(Block { kind: it.kind, span: it.span, parent, title: None, level: 0 });
    }
    tidy_blocks(text, blocks)
}

/// Lines of a text with their byte spans (without the line break).
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut pos = 0;
    text.split_inclusive('\n').map(move |l| {
        let start = pos;
        pos += l.len();
        (start, l.trim_end_matches(['\n', '\r']))
    })
}

static NUMBERED: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"^(?:(?:Section|SECTION|Article|ARTICLE|Part|PART)\s+)?(\d{1,3}(?:\.\d{1,3}){0,5})\.?\s+\p{Lu}"));
static BULLET: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"^\s*(?:[-*•+]|\d{1,3}[.)]|[a-z][.)])\s+\S"));

/// The heading level of a one-line paragraph that looks like a heading.
fn heading_level(line: &str) -> Option<u32> {
    let t = line.trim();
    if t.is_empty() || t.len() > 100 || t.ends_with(['.', ',', ';', ':']) && !t.ends_with("..") && t.chars().any(|c| c.is_lowercase()) {
        return None;
    }
    // Footnotes ("11. See …", "34. Ibid"), URLs and quoted terms are not headings.
    let after_number = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.').trim_start();
    if t.contains("://")
        || t.ends_with(".”")
        || t.ends_with(".\"")
        || t.starts_with(['“', '"', '\''])
        || ["See ", "Ibid", "Id.", "Cf.", "See,"].iter().any(|p| after_number.starts_with(p))
    {
        return None;
    }
    if let Some(c) = NUMBERED.captures(t) {
        let words = t.split_whitespace().count();
        if words <= 12 && !t.ends_with('.') {
            return Some(c.get(1).map_or(1, |m| m.as_str().split('.').count() as u32));
        }
    }
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    if letters >= 3 && !t.chars().any(|c| c.is_lowercase()) && t.split_whitespace().count() <= 10 && !t.contains(':') {
        return Some(1);
    }
    None
}

/// The items of a plain text: headings, bullet list items, paragraphs.
pub fn text_items(text: &str) -> Vec<Item> {
    let mut items = vec![];
    let mut para: Vec<(usize, &str)> = vec![];
    let flush = |para: &mut Vec<(usize, &str)>, items: &mut Vec<Item>| {
        if para.is_empty() {
            return;
        }
        let start = para[0].0;
        let (ls, ll) = para[para.len() - 1];
        let span = (start, ls + ll.len());
        // Setext heading: a line underlined with === or ---.
        if para.len() == 2 {
            let u = para[1].1.trim();
            if u.len() >= 3 && (u.chars().all(|c| c == '=') || u.chars().all(|c| c == '-')) {
                let level = if u.starts_with('=') { 1 } else { 2 };
                items.push(Item { span, kind: "heading", heading: Some(level), title: Some((start, start + para[0].1.len())) });
                para.clear();
                return;
            }
        }
        if para.len() == 1
            && let Some(level) = heading_level(para[0].1)
        {
            items.push(Item { span, kind: "heading", heading: Some(level), title: None });
            para.clear();
            return;
        }
        if para.iter().all(|(_, l)| BULLET.is_match(l)) {
            for &(s, l) in para.iter() {
                items.push(Item { span: (s, s + l.len()), kind: "list_item", heading: None, title: None });
            }
        } else {
            items.push(Item { span, kind: "paragraph", heading: None, title: None });
        }
        para.clear();
    };
    for (start, line) in lines(text) {
        if line.trim().is_empty() {
            flush(&mut para, &mut items);
        } else {
            para.push((start, line));
        }
    }
    flush(&mut para, &mut items);
    items
}

/// A plain-text document.
pub fn extract(text: String, format: &'static str) -> Extracted {
    let blocks = outline(&text, text_items(&text));
    Extracted { format, blocks, text, ..Default::default() }
}

/// A log file: one `log_line` block per non-blank line; templates are mined from them.
pub fn extract_log(text: String) -> Extracted {
    let mut blocks = vec![];
    for (start, line) in lines(&text) {
        if !line.trim().is_empty() {
            blocks.push(Block { kind: "log_line", span: (start, start + line.len()), parent: None, title: None, level: 0 });
        }
    }
    let blocks = tidy_blocks(&text, blocks);
    Extracted { format: "log", blocks, text, log_lines: true, ..Default::default() }
}
