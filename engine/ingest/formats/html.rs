//! HTML (and XHTML chapters of EPUBs, HTML e-mail bodies): a lenient, linear tag
//! scanner — real pages are rarely well-formed — that renders text with blank lines
//! between blocks and collapsed inline whitespace (kept in `<pre>`), decodes entities,
//! skips `<head>`, `<script>`, `<style>`, `<template>`, `<svg>`, and records blocks
//! (`paragraph`, `list_item`, `row`, `code`, `quote`, `title`), sections from `<h1>`–`<h6>`,
//! and links from `<a href>`. Nesting deeper than
//! [`MAX_NESTING`](crate::limits::MAX_NESTING) is flattened, with a warning.

use crate::limits::MAX_NESTING;
use tg_text::document::{Builder, Extracted, Link, Span, nest, sections_from_headings};

/// HTML rendered so far: text, blocks, headings, links, warnings.
#[derive(Default)]
pub struct Rendered {
    /// Text and blocks.
    pub b: Builder,
    /// Headings: span and level.
    pub headings: Vec<(Span, u32)>,
    /// Links.
    pub links: Vec<Link>,
    /// Warnings.
    pub warnings: Vec<String>,
}

impl Rendered {
    /// The finished document: blocks nested by containment under sections.
    pub fn finish(self, format: &'static str) -> Extracted {
        let Rendered { b, headings, links, mut warnings } = self;
        let (text, mut blocks) = b.finish();
        blocks.extend(sections_from_headings(&headings, text.len()));
        let blocks = nest(tg_text::document::tidy_blocks(&text, blocks));
        warnings.dedup();
        Extracted { format, text, blocks, links, warnings, ..Default::default() }
    }
}

/// An HTML document.
pub fn extract(html: &str) -> Extracted {
    let mut r = Rendered::default();
    render(html, &mut r);
    r.finish("html")
}

fn block_kind(tag: &str) -> Option<&'static str> {
    Some(match tag {
        "p" | "dd" | "dt" | "figcaption" | "address" | "caption" => "paragraph",
        "li" => "list_item",
        "tr" => "row",
        "pre" => "code",
        "blockquote" => "quote",
        "title" => "title",
        "ul" | "ol" | "dl" => "list",
        "table" => "table",
        _ => return None,
    })
}

fn is_break_tag(tag: &str) -> bool {
    matches!(
        tag,
        "div"
            | "section"
            | "article"
            | "header"
            | "footer"
            | "nav"
            | "aside"
            | "main"
            | "body"
            | "html"
            | "form"
            | "figure"
            | "hr"
            | "fieldset"
            | "details"
            | "summary"
            | "center"
            | "tbody"
            | "thead"
            | "tfoot"
    )
}

fn is_void(tag: &str) -> bool {
    matches!(tag, "br" | "hr" | "img" | "input" | "meta" | "link" | "area" | "base" | "col" | "embed" | "param" | "source" | "track" | "wbr" | "keygen")
}

fn is_skipped(tag: &str) -> bool {
    matches!(tag, "script" | "style" | "template" | "svg" | "noscript" | "math" | "object" | "iframe")
}

/// One open element.
struct Open {
    tag: String,
    block: Option<usize>,
    heading: Option<(usize, u32)>,
    link: Option<(usize, String)>,
}

/// Renders `html` into `r` (appending; several documents may be rendered into one).
pub fn render(html: &str, r: &mut Rendered) {
    let bytes = html.as_bytes();
    let mut i = 0;
    let mut stack: Vec<Open> = vec![];
    let mut overflow = 0usize;
    let mut skipping: Option<String> = None;
    let mut pre = 0usize;
    let mut cell_in_row = false;
    let mut in_head = false;
    let mut in_title = false;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            let end = memchr(b'<', &bytes[i..]).map_or(bytes.len(), |k| i + k);
            if skipping.is_none() && (!in_head || in_title) {
                let raw = &html[i..end];
                let decoded = decode_entities(raw);
                if pre > 0 {
                    r.b.push(&decoded);
                } else if !decoded.trim().is_empty() || decoded.contains(char::is_whitespace) {
                    r.b.push_collapsed(&decoded);
                }
            }
            i = end;
            continue;
        }
        // Comments, doctype, CDATA, processing instructions.
        if html[i..].starts_with("<!--") {
            i = html[i + 4..].find("-->").map_or(bytes.len(), |k| i + 4 + k + 3);
            continue;
        }
        if html[i..].starts_with("<![CDATA[") {
            let end = html[i + 9..].find("]]>").map_or(bytes.len(), |k| i + 9 + k);
            if skipping.is_none() {
                r.b.push_collapsed(&html[i + 9..end]);
            }
            i = (end + 3).min(bytes.len());
            continue;
        }
        if html[i..].starts_with("<!") || html[i..].starts_with("<?") {
            i = memchr(b'>', &bytes[i..]).map_or(bytes.len(), |k| i + k + 1);
            continue;
        }
        let Some((close, next)) = tag_end(bytes, i + 1) else {
            // A lone '<' with no tag: text.
            if skipping.is_none() {
                r.b.push("<");
            }
            i += 1;
            continue;
        };
        let tag_start = i;
        let inner = &html[i + 1..close];
        i = next;
        let is_end = inner.starts_with('/');
        let body = inner.trim_start_matches('/');
        let name_len = body.find(|c: char| c.is_whitespace() || c == '/' || c == '>').unwrap_or(body.len());
        let tag = body[..name_len].to_ascii_lowercase();
        if tag.is_empty() || !tag.starts_with(|c: char| c.is_ascii_alphabetic()) {
            if skipping.is_none() {
                r.b.push_collapsed(&decode_entities(&html[tag_start..next]));
            }
            continue;
        }
        if let Some(s) = &skipping {
            if is_end && *s == tag {
                skipping = None;
            }
            continue;
        }
        // Inside <head> only <title> renders.
        if tag == "head" {
            in_head = !is_end;
            continue;
        }
        if tag == "body" {
            in_head = false;
        }
        if !is_end && is_skipped(&tag) {
            if !inner.ends_with('/') {
                skipping = Some(tag);
            }
            continue;
        }
        if tag == "title" {
            in_title = !is_end;
        }
        if in_head && tag != "title" {
            continue;
        }
        if is_end {
            close_tag(&tag, &mut stack, r, &mut pre, &mut cell_in_row);
            continue;
        }
        // Start tag.
        if tag == "br" {
            r.b.newline();
            continue;
        }
        if matches!(tag.as_str(), "td" | "th") {
            if cell_in_row {
                while r.b.text.ends_with(' ') {
                    r.b.text.pop();
                }
                r.b.push("\t");
            }
            cell_in_row = true;
        }
        if tag == "tr" {
            cell_in_row = false;
        }
        let self_closing = inner.ends_with('/') || is_void(&tag);
        let heading = match tag.as_bytes() {
            [b'h', d @ b'1'..=b'6'] => Some((d - b'0') as u32),
            _ => None,
        };
        let kind = block_kind(&tag);
        if kind.is_some() || heading.is_some() || is_break_tag(&tag) {
            if tag == "tr" || kind == Some("list_item") {
                r.b.newline();
            } else {
                r.b.blank_line();
            }
        }
        if self_closing {
            continue;
        }
        if stack.len() >= MAX_NESTING {
            overflow += 1;
            if overflow == 1 {
                r.warnings.push(format!("HTML nesting deeper than {MAX_NESTING} levels: deeper elements flattened into text"));
            }
            continue;
        }
        let block = kind.map(|k| r.b.open(k));
        if tag == "pre" {
            pre += 1;
        }
        let link = if tag == "a" { attr(inner, "href").map(|h| (r.b.text.len(), h)) } else { None };
        stack.push(Open { tag, block, heading: heading.map(|l| (r.b.text.len(), l)), link });
    }
    while let Some(o) = stack.last() {
        let t = o.tag.clone();
        close_tag(&t, &mut stack, r, &mut pre, &mut cell_in_row);
    }
}

fn close_tag(tag: &str, stack: &mut Vec<Open>, r: &mut Rendered, pre: &mut usize, cell_in_row: &mut bool) {
    let Some(pos) = stack.iter().rposition(|o| o.tag == tag) else { return };
    while stack.len() > pos {
        let Some(o) = stack.pop() else { break };
        if let Some((start, level)) = o.heading {
            let end = r.b.text.len();
            if start < end {
                r.headings.push(((start, end), level));
            }
            r.b.blank_line();
        }
        if let Some((start, href)) = o.link {
            let end = r.b.text.len();
            let span = tg_text::document::trim_span(&r.b.text, (start, end));
            if span.0 < span.1 {
                r.links.push(Link { span, target: href });
            }
        }
        if o.tag == "pre" {
            *pre = pre.saturating_sub(1);
        }
        if o.tag == "tr" {
            *cell_in_row = false;
        }
        if let Some(b) = o.block {
            r.b.close(b);
            let k = block_kind(&o.tag);
            if o.tag == "tr" || k == Some("list_item") {
                r.b.newline();
            } else {
                r.b.blank_line();
            }
        } else if is_break_tag(&o.tag) {
            r.b.blank_line();
        }
    }
}

/// Where a tag that starts at `from` ends: (end of its inner text, where scanning goes on).
/// Normally the `>` (exclusive) and the byte after it; an unterminated tag ends before the
/// next `<`. `None` if the text there does not look like a tag at all.
fn tag_end(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let first = *bytes.get(from)?;
    if !(first.is_ascii_alphabetic() || first == b'/') {
        return None;
    }
    let mut quote = 0u8;
    let mut i = from;
    // A tag longer than this is no tag (an unclosed quote would otherwise make every
    // later '<' rescan the rest of the file).
    let stop = bytes.len().min(from + 65_536);
    while i < stop {
        let c = bytes[i];
        if quote != 0 {
            if c == quote {
                quote = 0;
            }
        } else if c == b'"' || c == b'\'' {
            quote = c;
        } else if c == b'>' {
            return Some((i, i + 1));
        } else if c == b'<' {
            return Some((i, i));
        }
        i += 1;
    }
    None
}

fn memchr(b: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&c| c == b)
}

/// The value of attribute `name` in a tag's inner text, entity-decoded.
pub fn attr(inner: &str, name: &str) -> Option<String> {
    let lower = inner.to_ascii_lowercase();
    let mut from = 0;
    while let Some(k) = lower[from..].find(name) {
        let at = from + k;
        from = at + name.len();
        let before_ok = at > 0 && lower.as_bytes()[at - 1].is_ascii_whitespace();
        let rest = lower[from..].trim_start();
        if !before_ok || !rest.starts_with('=') {
            continue;
        }
        let vstart = inner.len() - rest.len() + 1;
        let v = inner[vstart..].trim_start();
        let value = if let Some(q) = v.strip_prefix('"') {
            q.split('"').next().unwrap_or("")
        } else if let Some(q) = v.strip_prefix('\'') {
            q.split('\'').next().unwrap_or("")
        } else {
            v.split(|c: char| c.is_whitespace() || c == '>').next().unwrap_or("")
        };
        return Some(decode_entities(value).trim().to_string());
    }
    None
}

const ENTITIES: &[(&str, &str)] = &[
    ("amp", "&"),
    ("lt", "<"),
    ("gt", ">"),
    ("quot", "\""),
    ("apos", "'"),
    ("nbsp", "\u{a0}"),
    ("mdash", "—"),
    ("ndash", "–"),
    ("hellip", "…"),
    ("copy", "©"),
    ("reg", "®"),
    ("trade", "™"),
    ("euro", "€"),
    ("pound", "£"),
    ("yen", "¥"),
    ("cent", "¢"),
    ("laquo", "«"),
    ("raquo", "»"),
    ("lsquo", "‘"),
    ("rsquo", "’"),
    ("ldquo", "“"),
    ("rdquo", "”"),
    ("sbquo", "‚"),
    ("bdquo", "„"),
    ("bull", "•"),
    ("middot", "·"),
    ("times", "×"),
    ("divide", "÷"),
    ("sect", "§"),
    ("para", "¶"),
    ("deg", "°"),
    ("plusmn", "±"),
    ("eacute", "é"),
    ("egrave", "è"),
    ("ecirc", "ê"),
    ("euml", "ë"),
    ("aacute", "á"),
    ("agrave", "à"),
    ("acirc", "â"),
    ("auml", "ä"),
    ("aring", "å"),
    ("ccedil", "ç"),
    ("iacute", "í"),
    ("icirc", "î"),
    ("iuml", "ï"),
    ("oacute", "ó"),
    ("ocirc", "ô"),
    ("ouml", "ö"),
    ("uacute", "ú"),
    ("ucirc", "û"),
    ("uuml", "ü"),
    ("ntilde", "ñ"),
    ("szlig", "ß"),
    ("Eacute", "É"),
    ("Auml", "Ä"),
    ("Ouml", "Ö"),
    ("Uuml", "Ü"),
    ("shy", ""),
    ("zwnj", ""),
    ("zwj", ""),
    ("thinsp", "\u{2009}"),
    ("ensp", "\u{2002}"),
    ("emsp", "\u{2003}"),
];

/// Decodes HTML character references (numeric and common named ones); unknown ones stay as written.
pub fn decode_entities(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        let semi = after.find(';').filter(|&j| j <= 32);
        let decoded = semi.and_then(|j| {
            let name = &after[..j];
            if let Some(num) = name.strip_prefix('#') {
                let code = if let Some(h) = num.strip_prefix(['x', 'X']) { u32::from_str_radix(h, 16).ok() } else { num.parse::<u32>().ok() };
                code.and_then(char::from_u32).map(|c| (c.to_string(), j))
            } else {
                ENTITIES.iter().find(|(n, _)| *n == name).map(|(_, v)| (v.to_string(), j))
            }
        });
        match decoded {
            Some((v, j)) => {
                out.push_str(&v);
                rest = &after[j + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}
