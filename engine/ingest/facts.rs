//! From an [`Extracted`] document to the STRUCTURAL facts stored with it
//! (relations declared in `stdlib/schema.dl`). Every fact cites the span of the
//! canonical text that states it; block ids are indexes into the document's block list.

use std::collections::BTreeMap;

use super::limits::MAX_FIELD_VALUE_BYTES;
use super::logs::template;
use super::structure::{Finding, detect, status};
use tg_store::{CitedFact, StoreError, Tag, Value};
use tg_text::chunk::{chunks, region_sentences};
use tg_text::document::{Cited, Extracted, Span};

fn sym(s: &str) -> Value {
    Value::Sym(s.to_string())
}

fn num(n: usize) -> Value {
    Value::Num(i32::try_from(n).unwrap_or(i32::MAX))
}

fn span64((s, e): Span) -> (u64, u64) {
    (s as u64, e as u64)
}

/// Facts handed out at once by [`each_fact`].
pub const PIECE: usize = 4096;

/// Where a piece of facts goes (see [`each_fact`]).
type Emit<'e> = &'e mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>;

struct Facts<'e> {
    doc: String,
    out: Vec<CitedFact>,
    /// Set: every [`PIECE`] facts go there instead of accumulating.
    emit: Option<Emit<'e>>,
    /// The first error `emit` returned (nothing more is made after it).
    err: Option<StoreError>,
}

impl Facts<'_> {
    fn add(&mut self, rel: &str, mut args: Vec<Value>, spans: Vec<Span>) {
        // The store cannot key an empty symbol: a fact with one is not emitted.
        if self.err.is_some() || spans.is_empty() || args.iter().any(|a| matches!(a, Value::Sym(s) if s.is_empty())) {
            return;
        }
        args.insert(0, sym(&self.doc));
        self.out.push(CitedFact { rel: rel.into(), args, tag: Tag::Structural, spans: spans.into_iter().map(span64).collect() });
        if self.out.len() >= PIECE {
            self.flush();
        }
    }

    /// Hands the facts made so far to `emit` (when set).
    fn flush(&mut self) {
        if let Some(emit) = self.emit.as_mut()
            && !self.out.is_empty()
        {
            if let Err(e) = emit(&self.out) {
                self.err = Some(e);
            }
            self.out.clear();
        }
    }

    fn cited(&mut self, rel: &str, prefix: Vec<Value>, c: &Cited) {
        let mut args = prefix;
        args.push(sym(&c.value));
        self.add(rel, args, vec![c.span]);
    }
}

/// The paragraphs of a text: maximal runs of non-blank lines, as byte spans.
pub fn paragraphs(text: &str) -> Vec<(u64, u64)> {
    let mut out = vec![];
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim().is_empty() {
            if let Some(s) = start.take() {
                out.push((s as u64, end as u64));
            }
        } else {
            if start.is_none() {
                start = Some(pos + (content.len() - content.trim_start().len()));
            }
            end = pos + content.trim_end().len();
        }
        pos += line.len();
    }
    if let Some(s) = start {
        out.push((s as u64, end as u64));
    }
    out
}

/// Every STRUCTURAL fact of a document: `document`, `paragraph`, `block`, `section`,
/// `chunk`, `link`, `xref`, `definition`, `cites`, `requirement`, `rationale`,
/// `message`/`recipient`/`subject`/`message_id`/`reply_to`/`participant`,
/// `attachment`, `field`, `log_template`.
pub fn facts(id: &str, x: &Extracted, attachment_ids: &[String]) -> Vec<CitedFact> {
    let mut f = Facts { doc: id.to_string(), out: vec![], emit: None, err: None };
    make(&mut f, x, attachment_ids);
    f.out
}

/// The facts of [`facts`], in the same order, handed to `emit` [`PIECE`] at a time, so a
/// large document's structure is never held whole (the store writes it as it comes);
/// stops at the first error `emit` returns.
pub fn each_fact(id: &str, x: &Extracted, attachment_ids: &[String], emit: Emit) -> Result<(), StoreError> {
    let mut f = Facts { doc: id.to_string(), out: Vec::with_capacity(PIECE), emit: Some(emit), err: None };
    make(&mut f, x, attachment_ids);
    f.flush();
    f.err.map_or(Ok(()), Err)
}

fn make(f: &mut Facts, x: &Extracted, attachment_ids: &[String]) {
    let text = &x.text;
    f.add("document", vec![sym(x.format)], vec![(0, text.len())]);
    for (i, (s, e)) in paragraphs(text).into_iter().enumerate() {
        f.add("paragraph", vec![num(i)], vec![(s as usize, e as usize)]);
    }
    for (i, b) in x.blocks.iter().enumerate() {
        let parent = b.parent.map_or(Value::Num(-1), num);
        f.add("block", vec![num(i), sym(b.kind), parent], vec![b.span]);
        if b.kind == "section" {
            let t = b.title.unwrap_or(b.span);
            let title: String = text[t.0..t.1].split_whitespace().collect::<Vec<_>>().join(" ");
            f.add("section", vec![num(i), sym(&title), num(b.level as usize)], vec![t]);
        }
    }
    let sentences = region_sentences(text, &x.blocks);
    for (i, (span, parent)) in chunks(&x.blocks, &sentences).into_iter().enumerate() {
        f.add("chunk", vec![num(i), parent.map_or(Value::Num(-1), num)], vec![span]);
    }
    // Formats without link markup (plain text, PDF, mail, chat, logs) still link by bare URL.
    let bare = if x.links.is_empty() { super::formats::markdown::bare_urls(text) } else { vec![] };
    for l in x.links.iter().chain(&bare) {
        f.add("link", vec![sym(&l.target)], vec![l.span]);
    }
    for finding in detect(text, &x.blocks, &sentences).into_iter().chain(status(text, &sentences)) {
        match finding {
            Finding::Xref { kind, target, span } => f.add("xref", vec![sym(&kind), sym(&target)], vec![span]),
            Finding::Definition { term, span } => f.add("definition", vec![sym(&term)], vec![span]),
            Finding::Cites { target, span } => f.add("cites", vec![sym(&target)], vec![span]),
            Finding::Requirement { keyword, span } => f.add("requirement", vec![sym(&keyword)], vec![span]),
            Finding::Rationale { keyword, span } => f.add("rationale", vec![sym(&keyword)], vec![span]),
            Finding::Identifier { id, span } => f.add("doc_identifier", vec![sym(&id)], vec![span]),
            Finding::Withdraws { target, span } => f.add("withdraws", vec![sym(&target)], vec![span]),
            Finding::Rescinded { cue, span } => f.add("rescinded", vec![sym(&cue)], vec![span]),
        }
    }
    for m in &x.messages {
        let Some(b) = x.blocks.get(m.block) else { continue };
        let sender = m.sender.as_ref().map_or("?", |c| c.value.as_str());
        let time = m.time.as_ref().map_or("?", |c| c.value.as_str());
        f.add("message", vec![num(m.block), sym(sender), sym(time)], vec![b.span]);
        if let Some(c) = &m.sender {
            f.cited("participant", vec![], c);
        }
        for (c, role) in &m.recipients {
            f.add("recipient", vec![num(m.block), sym(&c.value), sym(role)], vec![c.span]);
            f.cited("participant", vec![], c);
        }
        if let Some(c) = &m.subject {
            f.cited("subject", vec![num(m.block)], c);
        }
        if let Some(c) = &m.id {
            f.cited("message_id", vec![num(m.block)], c);
        }
        if let Some(c) = &m.reply_to {
            f.cited("reply_to", vec![num(m.block)], c);
        }
    }
    for (a, child) in x.attachments.iter().zip(attachment_ids) {
        f.add("attachment", vec![sym(child)], vec![a.span]);
    }
    for fl in &x.fields {
        let value = fl.value(&x.text);
        if value.len() <= MAX_FIELD_VALUE_BYTES && fl.key.len() <= MAX_FIELD_VALUE_BYTES {
            f.add("field", vec![num(fl.record as usize), sym(&fl.key), sym(value)], vec![fl.span()]);
        }
    }
    if x.log_lines {
        let mut by_template: BTreeMap<String, Vec<Span>> = BTreeMap::new();
        for b in x.blocks.iter().filter(|b| b.kind == "log_line") {
            by_template.entry(template(&text[b.span.0..b.span.1])).or_default().push(b.span);
        }
        for (t, spans) in by_template {
            f.add("log_template", vec![sym(&t)], spans);
        }
    }
}
