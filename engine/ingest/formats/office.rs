//! DOCX, ODT and EPUB: zip containers of XML, read within limits ([`super::zipread`]).
//!
//! - DOCX: `word/document.xml` paragraphs (`w:p`; text from `w:t`, `w:tab`, `w:br`),
//!   headings from `Heading N`/`Title` styles or `w:outlineLvl`, list items from
//!   `w:numPr`, tables (`w:tbl`/`w:tr`, cells tab-separated), hyperlinks resolved
//!   through `word/_rels/document.xml.rels`; footnotes and endnotes follow the body
//!   as `note` blocks, comments as `comment` blocks.
//! - ODT: `content.xml` (`text:h` with outline level, `text:p`, `text:list-item`,
//!   `table:table-row`, `text:a`, `text:s`/`text:tab`/`text:line-break`).
//! - EPUB: the spine of the OPF named by `META-INF/container.xml`, each XHTML chapter
//!   rendered by the HTML extractor as a `chapter` block.

use std::collections::BTreeMap;

use super::html::{Rendered, render};
use super::xml::{Ev, events, get};
use super::zipread::Container;
use crate::limits::MAX_NESTING;
use tg_text::document::{Block, Builder, Extracted, Link, Skip, Span, nest, sections_from_headings, tidy_blocks};

/// Text, blocks and headings accumulated from word-processor XML.
#[derive(Default)]
struct Doc {
    b: Builder,
    blocks: Vec<Block>,
    headings: Vec<(Span, u32)>,
    links: Vec<Link>,
    warnings: Vec<String>,
}

impl Doc {
    fn block(&mut self, kind: &'static str, span: Span) {
        self.blocks.push(Block { kind, span, parent: None, title: None, level: 0 });
    }

    fn finish(self, format: &'static str) -> Extracted {
        let Doc { b, mut blocks, headings, links, warnings } = self;
        let (text, _) = b.finish();
        blocks.extend(sections_from_headings(&headings, text.len()));
        let blocks = nest(tidy_blocks(&text, blocks));
        Extracted { format, text, blocks, links, warnings, ..Default::default() }
    }
}

fn heading_of_style(style: &str) -> Option<u32> {
    let s = style.to_ascii_lowercase().replace([' ', '_', '-'], "");
    if s == "title" {
        return Some(1);
    }
    s.strip_prefix("heading").and_then(|n| n.parse::<u32>().ok()).filter(|n| (1..=9).contains(n))
}

/// State of the DOCX walk.
#[derive(Default)]
struct DocxState {
    para_depth: usize,
    para_start: usize,
    style_level: Option<u32>,
    list: bool,
    in_text: bool,
    tables: Vec<usize>,
    row_start: Option<usize>,
    cells_in_row: usize,
    link: Option<(usize, String)>,
    depth: usize,
}

/// Walks one WordprocessingML part into `d`. `note` names the block kind of each
/// top-level paragraph (`None` for the body).
fn walk_docx(xml: &str, rels: &BTreeMap<String, String>, d: &mut Doc, note: Option<&'static str>) -> Result<(), String> {
    let mut st = DocxState::default();
    let mut note_start: Option<usize> = None;
    events(xml, |ev| match ev {
        Ev::Start { name, attrs, empty } => {
            if !empty {
                st.depth += 1;
            }
            match name.as_str() {
                "w:p" if !empty => {
                    if st.para_depth == 0 {
                        if st.row_start.is_none() {
                            d.b.blank_line();
                        } else if !d.b.text.ends_with(['\t', '\n']) {
                            d.b.push(" ");
                        }
                        st.para_start = d.b.text.len();
                        st.style_level = None;
                        st.list = false;
                    } else {
                        d.b.newline();
                    }
                    st.para_depth += 1;
                }
                "w:pStyle" => st.style_level = st.style_level.or(get(&attrs, "w:val").and_then(heading_of_style)),
                "w:outlineLvl" => st.style_level = st.style_level.or(get(&attrs, "w:val").and_then(|v| v.parse::<u32>().ok()).filter(|&v| v < 9).map(|v| v + 1)),
                "w:numPr" => st.list = true,
                "w:t" if !empty => st.in_text = true,
                "w:tab" => d.b.push("\t"),
                "w:br" | "w:cr" => d.b.push("\n"),
                "w:tbl" if !empty => {
                    d.b.blank_line();
                    st.tables.push(d.b.text.len());
                }
                "w:tr" if !empty => {
                    d.b.newline();
                    st.row_start = Some(d.b.text.len());
                    st.cells_in_row = 0;
                }
                "w:tc" if !empty => {
                    if st.cells_in_row > 0 {
                        d.b.push("\t");
                    }
                    st.cells_in_row += 1;
                }
                "w:hyperlink" if !empty => {
                    let target = get(&attrs, "r:id").and_then(|id| rels.get(id).cloned()).or_else(|| get(&attrs, "w:anchor").map(|a| format!("#{a}")));
                    st.link = target.map(|t| (d.b.text.len(), t));
                }
                "w:footnote" | "w:endnote" | "w:comment" if !empty => {
                    let special = get(&attrs, "w:type").is_some();
                    d.b.blank_line();
                    note_start = (!special).then_some(d.b.text.len());
                }
                _ => {}
            }
        }
        Ev::Text(t) => {
            if st.in_text {
                d.b.push(&t);
            }
        }
        Ev::End(name) => {
            st.depth = st.depth.saturating_sub(1);
            match name.as_str() {
                "w:t" => st.in_text = false,
                "w:p" => {
                    st.para_depth = st.para_depth.saturating_sub(1);
                    if st.para_depth == 0 && st.row_start.is_none() {
                        let span = (st.para_start, d.b.text.len());
                        match st.style_level {
                            Some(l) => d.headings.push((span, l)),
                            None => {
                                let kind = if note.is_some() {
                                    "paragraph"
                                } else if st.list {
                                    "list_item"
                                } else {
                                    "paragraph"
                                };
                                d.block(kind, span);
                            }
                        }
                        if st.list { d.b.newline() } else { d.b.blank_line() }
                    }
                }
                "w:tr" => {
                    if let Some(s) = st.row_start.take() {
                        let span = (s, d.b.text.len());
                        d.block("row", span);
                        d.b.newline();
                    }
                }
                "w:tbl" => {
                    if let Some(s) = st.tables.pop() {
                        let span = (s, d.b.text.len());
                        d.block("table", span);
                        d.b.blank_line();
                    }
                }
                "w:hyperlink" => {
                    if let Some((s, target)) = st.link.take() {
                        let span = tg_text::document::trim_span(&d.b.text, (s, d.b.text.len()));
                        if span.0 < span.1 {
                            d.links.push(Link { span, target });
                        }
                    }
                }
                "w:footnote" | "w:endnote" | "w:comment" => {
                    if let (Some(s), Some(kind)) = (note_start.take(), note) {
                        let span = (s, d.b.text.len());
                        d.block(kind, span);
                    }
                }
                _ => {}
            }
        }
    })?;
    if st.depth > MAX_NESTING {
        d.warnings.push(format!("XML nesting deeper than {MAX_NESTING} levels"));
    }
    Ok(())
}

/// Relationship id → target of a `.rels` part.
fn relationships(xml: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let _ = events(xml, |ev| {
        if let Ev::Start { name, attrs, .. } = ev
            && name.ends_with("Relationship")
            && let (Some(id), Some(t)) = (get(&attrs, "Id"), get(&attrs, "Target"))
        {
            out.insert(id.to_string(), t.to_string());
        }
    });
    out
}

/// A DOCX document.
pub fn extract_docx(bytes: &[u8]) -> Result<Extracted, Skip> {
    let mut z = Container::open(bytes, "DOCX")?;
    let Some(main) = z.read_text("word/document.xml")? else {
        return Err(Skip::new("invalid DOCX (no word/document.xml)"));
    };
    let rels = z.read_text("word/_rels/document.xml.rels")?.map(|x| relationships(&x)).unwrap_or_default();
    let mut d = Doc::default();
    if let Err(e) = walk_docx(&main, &rels, &mut d, None) {
        if d.b.text.trim().is_empty() {
            return Err(Skip::new(format!("invalid DOCX: word/document.xml: {e}")));
        }
        d.warnings.push(format!("word/document.xml: {e}; text after it is lost"));
    }
    for (part, kind) in [("word/footnotes.xml", "note"), ("word/endnotes.xml", "note"), ("word/comments.xml", "comment")] {
        if let Some(x) = z.read_text(part)?
            && let Err(e) = walk_docx(&x, &rels, &mut d, Some(kind))
        {
            d.warnings.push(format!("{part}: {e}"));
        }
    }
    let x = d.finish("docx");
    if x.text.trim().is_empty() {
        return Err(Skip::new("DOCX has no text"));
    }
    Ok(x)
}

/// An ODT document.
pub fn extract_odt(bytes: &[u8]) -> Result<Extracted, Skip> {
    let mut z = Container::open(bytes, "ODT")?;
    let Some(xml) = z.read_text("content.xml")? else {
        return Err(Skip::new("invalid ODT (no content.xml)"));
    };
    let mut d = Doc::default();
    let mut stack: Vec<(String, usize, Option<u32>)> = vec![];
    let mut in_body = false;
    let mut link: Option<(usize, String)> = None;
    let mut cells = 0usize;
    let r = events(&xml, |ev| match ev {
        Ev::Start { name, attrs, empty } => {
            if name == "office:text" {
                in_body = true;
            }
            if !in_body {
                return;
            }
            match name.as_str() {
                "text:s" => {
                    let n = get(&attrs, "text:c").and_then(|c| c.parse::<usize>().ok()).unwrap_or(1).min(64);
                    d.b.push(&" ".repeat(n));
                }
                "text:tab" => d.b.push("\t"),
                "text:line-break" => d.b.push("\n"),
                "text:a" if !empty => link = get(&attrs, "xlink:href").map(|h| (d.b.text.len(), h.to_string())),
                "table:table-cell" if !empty => {
                    if cells > 0 {
                        d.b.push("\t");
                    }
                    cells += 1;
                }
                "table:table-row" if !empty => {
                    d.b.newline();
                    cells = 0;
                }
                _ => {}
            }
            if empty {
                return;
            }
            let in_cell = stack.iter().any(|s| s.0 == "table:table-cell");
            if matches!(name.as_str(), "text:p" | "text:h") {
                if in_cell {
                    if !d.b.text.ends_with('\t') && cells > 0 && !d.b.text.ends_with('\n') {
                        d.b.push(" ");
                    }
                } else if stack.iter().any(|s| s.0 == "text:list-item") {
                    d.b.newline();
                } else {
                    d.b.blank_line();
                }
            }
            if name == "table:table" {
                d.b.blank_line();
            }
            let level = if name == "text:h" { Some(get(&attrs, "text:outline-level").and_then(|l| l.parse::<u32>().ok()).unwrap_or(1).clamp(1, 9)) } else { None };
            if stack.len() < MAX_NESTING {
                stack.push((name, d.b.text.len(), level));
            }
        }
        Ev::Text(t) => {
            if in_body {
                d.b.push(&t);
            }
        }
        Ev::End(name) => {
            if name == "office:text" {
                in_body = false;
            }
            if name == "text:a"
                && let Some((s, target)) = link.take()
            {
                let span = tg_text::document::trim_span(&d.b.text, (s, d.b.text.len()));
                if span.0 < span.1 {
                    d.links.push(Link { span, target });
                }
            }
            let Some(pos) = stack.iter().rposition(|s| s.0 == name) else { return };
            let (n, start, level) = stack.remove(pos);
            stack.truncate(pos);
            let span = (start, d.b.text.len());
            let in_cell = stack.iter().any(|s| s.0 == "table:table-cell");
            match n.as_str() {
                "text:h" => d.headings.push((span, level.unwrap_or(1))),
                "text:p" if !in_cell && !stack.iter().any(|s| s.0 == "text:list-item") => d.block("paragraph", span),
                "text:list-item" => {
                    d.block("list_item", span);
                    d.b.newline();
                }
                "table:table-row" => {
                    d.block("row", span);
                    d.b.newline();
                }
                "table:table" => {
                    d.block("table", span);
                    d.b.blank_line();
                }
                _ => {}
            }
        }
    });
    if let Err(e) = r {
        if d.b.text.trim().is_empty() {
            return Err(Skip::new(format!("invalid ODT: content.xml: {e}")));
        }
        d.warnings.push(format!("content.xml: {e}; text after it is lost"));
    }
    let x = d.finish("odt");
    if x.text.trim().is_empty() {
        return Err(Skip::new("ODT has no text"));
    }
    Ok(x)
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Some(v) = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Joins an href to the folder of the OPF, resolving `..`.
fn join(dir: &str, href: &str) -> String {
    let href = percent_decode(href.split('#').next().unwrap_or(href));
    let mut parts: Vec<&str> = if dir.is_empty() { vec![] } else { dir.split('/').collect() };
    for p in href.split('/') {
        match p {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// An EPUB book.
pub fn extract_epub(bytes: &[u8]) -> Result<Extracted, Skip> {
    let mut z = Container::open(bytes, "EPUB")?;
    let Some(container) = z.read_text("META-INF/container.xml")? else {
        return Err(Skip::new("invalid EPUB (no META-INF/container.xml)"));
    };
    let mut opf_path = None;
    let _ = events(&container, |ev| {
        if let Ev::Start { name, attrs, .. } = ev
            && name.ends_with("rootfile")
            && opf_path.is_none()
        {
            opf_path = get(&attrs, "full-path").map(str::to_string);
        }
    });
    let Some(opf_path) = opf_path else { return Err(Skip::new("invalid EPUB (container.xml names no rootfile)")) };
    let Some(opf) = z.read_text(&opf_path)? else { return Err(Skip::new(format!("invalid EPUB (missing {opf_path})"))) };
    let dir = opf_path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    let mut manifest: BTreeMap<String, String> = BTreeMap::new();
    let mut spine: Vec<String> = vec![];
    events(&opf, |ev| {
        if let Ev::Start { name, attrs, .. } = ev {
            let local = name.rsplit(':').next().unwrap_or(&name);
            if local == "item"
                && let (Some(id), Some(href)) = (get(&attrs, "id"), get(&attrs, "href"))
            {
                manifest.insert(id.to_string(), href.to_string());
            } else if local == "itemref"
                && let Some(id) = get(&attrs, "idref")
            {
                spine.push(id.to_string());
            }
        }
    })
    .map_err(|e| Skip::new(format!("invalid EPUB: {opf_path}: {e}")))?;
    let mut r = Rendered::default();
    for id in &spine {
        let Some(href) = manifest.get(id) else {
            r.warnings.push(format!("spine item {id} is not in the manifest"));
            continue;
        };
        let path = join(&dir, href);
        let Some(x) = z.read_text(&path)? else {
            r.warnings.push(format!("chapter {path} is missing"));
            continue;
        };
        r.b.blank_line();
        let ch = r.b.open("chapter");
        render(&x, &mut r);
        r.b.close(ch);
    }
    let x = r.finish("epub");
    if x.text.trim().is_empty() {
        return Err(Skip::new("EPUB has no text"));
    }
    Ok(x)
}

/// A zip file of unknown extension: read as DOCX, ODT or EPUB by its members, else skipped.
pub fn extract_any_zip(bytes: &[u8]) -> Result<Extracted, Skip> {
    let z = Container::open(bytes, "zip archive")?;
    if z.has("word/document.xml") {
        return extract_docx(bytes);
    }
    if z.has("META-INF/container.xml") {
        return extract_epub(bytes);
    }
    if z.has("content.xml") {
        return extract_odt(bytes);
    }
    if z.names().is_empty() {
        return Err(Skip::new("empty zip archive"));
    }
    Err(Skip::new("zip archive that is not a DOCX, ODT or EPUB (archives are not unpacked)"))
}
