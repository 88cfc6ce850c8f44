//! The canonical document an extractor produces: UTF-8 text, a block tree with byte
//! spans into it, and side records (links, messages, fields, attachments).
//!
//! Every span is `[start, end)` in bytes of [`Extracted::text`]; [`Builder::finish`]
//! trims block spans to their non-blank content and drops empty blocks, so every
//! block cites real text.

/// A byte span `[start, end)` of the canonical text.
pub type Span = (usize, usize);

/// One node of the block tree: a section, paragraph, list item, table row, page, message…
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// What the block is (`section`, `paragraph`, `list_item`, `row`, `page`, `message`, …).
    pub kind: &'static str,
    /// Its span in the canonical text.
    pub span: Span,
    /// The enclosing block, if any (an index into the block list; always smaller).
    pub parent: Option<usize>,
    /// For sections: the span of the heading text.
    pub title: Option<Span>,
    /// For sections: the heading level (1 = top).
    pub level: u32,
}

/// A hyperlink: the anchor text's span and the target as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Span of the anchor text (or of the URL itself when bare).
    pub span: Span,
    /// Target URL or reference.
    pub target: String,
}

/// A value read from the document together with the span that states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cited {
    /// The value (normalised as the extractor documents).
    pub value: String,
    /// Where the text says it.
    pub span: Span,
}

/// A message of a mailbox or chat: metadata for `message`, `recipient`, `reply_to` facts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    /// The message's block (kind `message`).
    pub block: usize,
    /// Sender.
    pub sender: Option<Cited>,
    /// Time as written (or RFC 3339 when parsed from an e-mail `Date:`).
    pub time: Option<Cited>,
    /// Recipients with their role (`to`, `cc`, `bcc`).
    pub recipients: Vec<(Cited, &'static str)>,
    /// Subject line.
    pub subject: Option<Cited>,
    /// The message's own id (`Message-ID`, Slack `ts`).
    pub id: Option<Cited>,
    /// The id of the message it answers (`In-Reply-To`, Slack `thread_ts`).
    pub reply_to: Option<Cited>,
}

/// A structured field of a record (a CSV row, a JSON object…). Three words: a large
/// table's cells are most of what its document holds (issue 19).
#[derive(Clone, Debug)]
pub struct Field {
    /// Record number (CSV: data row from 1; JSON/YAML/TOML: top-level array element from 0, else 0).
    pub record: u32,
    /// Column header or dotted key path (shared: a table's cells hold their column's
    /// header once, not a copy each). A field whose value is not the text at its span
    /// (an escaped or re-written value) holds a key of its own that carries the value;
    /// keys compare by name alone. Read the value with [`Field::value`].
    pub key: FieldKey,
    /// The span citing the value, in 32 bits (a document's text is at most 256 MiB:
    /// `tg_ingest::limits`); read it with [`Field::span`].
    at: (u32, u32),
}

impl PartialEq for Field {
    fn eq(&self, other: &Field) -> bool {
        (self.record, &self.key, self.at, &self.key.0.value) == (other.record, &other.key, other.at, &other.key.0.value)
    }
}

impl Eq for Field {}

/// A field's key, shared by every field with that key: one pointer a field (a table's
/// cells are most of a large table's memory, issue 19). Compared, ordered and hashed by
/// its name.
#[derive(Clone)]
pub struct FieldKey(std::sync::Arc<KeyCell>);

/// What a [`FieldKey`] points to: the name, and the value of the one field that holds
/// the key alone because its value is not the text at its span.
struct KeyCell {
    name: String,
    value: Option<String>,
}

impl FieldKey {
    fn named(name: String) -> FieldKey {
        FieldKey(std::sync::Arc::new(KeyCell { name, value: None }))
    }

    fn name(&self) -> &str {
        &self.0.name
    }
}

impl PartialEq for FieldKey {
    fn eq(&self, other: &FieldKey) -> bool {
        self.name() == other.name()
    }
}

impl Eq for FieldKey {}

impl PartialOrd for FieldKey {
    fn partial_cmp(&self, other: &FieldKey) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FieldKey {
    fn cmp(&self, other: &FieldKey) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl std::hash::Hash for FieldKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state)
    }
}

impl std::ops::Deref for FieldKey {
    type Target = str;
    fn deref(&self) -> &str {
        self.name()
    }
}

impl AsRef<str> for FieldKey {
    fn as_ref(&self) -> &str {
        self.name()
    }
}

impl From<&str> for FieldKey {
    fn from(s: &str) -> FieldKey {
        FieldKey::named(s.to_string())
    }
}

impl From<String> for FieldKey {
    fn from(s: String) -> FieldKey {
        FieldKey::named(s)
    }
}

impl std::fmt::Debug for FieldKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.name(), f)
    }
}

impl std::fmt::Display for FieldKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq<&str> for FieldKey {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

/// The keys of one document's fields, one a name: every field of a path or column
/// shares its key (a record array repeats its paths).
#[derive(Default)]
pub struct FieldKeys(std::collections::HashMap<String, FieldKey>);

impl FieldKeys {
    /// The key named `name`, made the first time it is asked for.
    pub fn key(&mut self, name: &str) -> FieldKey {
        if let Some(k) = self.0.get(name) {
            return k.clone();
        }
        let k = FieldKey::from(name);
        self.0.insert(name.to_string(), k.clone());
        k
    }
}

impl Field {
    /// A field of the document whose text is `text`, stating `value` at `span`. A span
    /// past 32 bits (no document ingest admits) is clamped.
    pub fn new(record: u32, key: FieldKey, value: &str, span: Span, text: &str) -> Field {
        let narrow = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        let at = (narrow(span.0), narrow(span.1));
        let key = if text.get(at.0 as usize..at.1 as usize) == Some(value) {
            key
        } else {
            FieldKey(std::sync::Arc::new(KeyCell { name: key.name().to_string(), value: Some(value.to_string()) }))
        };
        Field { record, key, at }
    }

    /// The span citing the value.
    pub fn span(&self) -> Span {
        (self.at.0 as usize, self.at.1 as usize)
    }

    /// The value as text; `text` is the text of the document the field is of.
    pub fn value<'a>(&'a self, text: &'a str) -> &'a str {
        match &self.key.0.value {
            Some(v) => v,
            None => text.get(self.at.0 as usize..self.at.1 as usize).unwrap_or_default(),
        }
    }
}

/// A file carried inside another (an e-mail attachment), ingested as its own document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// Id suffix appended to the parent id after `#` (e.g. `attachments/1/invoice.pdf`).
    pub suffix: String,
    /// The attachment's file name (its extension picks the extractor).
    pub name: String,
    /// Its bytes, decoded from the transfer encoding.
    pub bytes: Vec<u8>,
    /// The span of the parent's text that mentions it.
    pub span: Span,
}

/// What an extractor makes of one file.
#[derive(Clone, Debug, Default)]
pub struct Extracted {
    /// Format name stored with the document (`txt`, `pdf`, `eml`, `chat`, …).
    pub format: &'static str,
    /// The canonical text every citation points into.
    pub text: String,
    /// The block tree, parents before children.
    pub blocks: Vec<Block>,
    /// Hyperlinks.
    pub links: Vec<Link>,
    /// Messages (e-mail, chat).
    pub messages: Vec<Message>,
    /// Structured fields.
    pub fields: Vec<Field>,
    /// Embedded files to ingest as their own documents.
    pub attachments: Vec<Attachment>,
    /// Whether each line is a log record (log templates are mined).
    pub log_lines: bool,
    /// Non-fatal problems, reported with the document.
    pub warnings: Vec<String>,
}

/// Why a file was not ingested: a one-line reason shown to the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Skip(pub String);

impl Skip {
    /// A skip with this reason.
    pub fn new(reason: impl Into<String>) -> Skip {
        Skip(reason.into())
    }
}

/// Builds canonical text and a block tree together, for formats parsed as a tree
/// (HTML, DOCX, ODT, RTF, e-mail).
#[derive(Debug, Default)]
pub struct Builder {
    /// The text so far.
    pub text: String,
    /// Blocks so far (spans of open blocks end at `usize::MAX` until closed).
    pub blocks: Vec<Block>,
    stack: Vec<usize>,
}

impl Builder {
    /// An empty builder.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Opens a block of `kind` under the innermost open block.
    pub fn open(&mut self, kind: &'static str) -> usize {
        let id = self.blocks.len();
        self.blocks.push(Block { kind, span: (self.text.len(), usize::MAX), parent: self.stack.last().copied(), title: None, level: 0 });
        self.stack.push(id);
        id
    }

    /// Closes block `id` (and any block opened after it that is still open).
    pub fn close(&mut self, id: usize) {
        while let Some(top) = self.stack.pop() {
            if let Some(b) = self.blocks.get_mut(top) {
                b.span.1 = self.text.len();
            }
            if top == id {
                break;
            }
        }
    }

    /// How many blocks are open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The innermost open block.
    pub fn current(&self) -> Option<usize> {
        self.stack.last().copied()
    }

    /// Appends text.
    pub fn push(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// Appends text, collapsing runs of whitespace to one space (HTML-style inline text).
    pub fn push_collapsed(&mut self, s: &str) {
        for (i, word) in s.split(|c: char| c.is_whitespace()).enumerate() {
            if i > 0 && !self.text.ends_with([' ', '\n']) && !self.text.is_empty() {
                self.text.push(' ');
            }
            self.text.push_str(word);
        }
    }

    /// Ends the current line and leaves one blank line, unless the text already ends so.
    pub fn blank_line(&mut self) {
        while self.text.ends_with(' ') {
            self.text.pop();
        }
        if self.text.is_empty() || self.text.ends_with("\n\n") {
            return;
        }
        if self.text.ends_with('\n') {
            self.text.push('\n');
        } else {
            self.text.push_str("\n\n");
        }
    }

    /// Ends the current line, unless the text already ends with a newline.
    pub fn newline(&mut self) {
        while self.text.ends_with(' ') {
            self.text.pop();
        }
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    /// Closes every open block and returns the text (trailing whitespace dropped) and the
    /// trimmed, non-empty blocks.
    pub fn finish(mut self) -> (String, Vec<Block>) {
        while let Some(top) = self.stack.pop() {
            if let Some(b) = self.blocks.get_mut(top) {
                b.span.1 = self.text.len();
            }
        }
        let end = self.text.trim_end().len();
        self.text.truncate(end);
        let blocks = tidy_blocks(&self.text, self.blocks);
        (self.text, blocks)
    }
}

/// Trims every block span to its non-blank content, drops empty blocks (re-parenting
/// their children to the nearest kept ancestor) and renumbers.
pub fn tidy_blocks(text: &str, blocks: Vec<Block>) -> Vec<Block> {
    let mut new_id: Vec<Option<usize>> = Vec::with_capacity(blocks.len());
    let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
    let mut kept_parent: Vec<Option<usize>> = Vec::with_capacity(blocks.len());
    for b in blocks {
        let (s, e) = trim_span(text, b.span);
        // Nearest kept ancestor (parents always come first).
        let parent = b.parent.and_then(|p| new_id.get(p).copied().flatten().or_else(|| kept_parent.get(p).copied().flatten()));
        if s >= e {
            new_id.push(None);
            kept_parent.push(parent);
            continue;
        }
        let title = b.title.map(|t| trim_span(text, t)).filter(|t| t.0 < t.1);
        new_id.push(Some(out.len()));
        kept_parent.push(parent);
        out.push(Block { kind: b.kind, span: (s, e), parent, title, level: b.level });
    }
    out
}

/// A span shrunk to exclude leading and trailing whitespace (clamped to the text).
pub fn trim_span(text: &str, (s, e): Span) -> Span {
    let e = e.min(text.len());
    let s = s.min(e);
    let Some(slice) = text.get(s..e) else { return (s, s) };
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    if lead + trail >= slice.len() { (s, s) } else { (s + lead, e - trail) }
}

/// Re-derives parents from containment: blocks are sorted by (start, longest first,
/// containers before leaves of equal span, original order) and each takes the
/// innermost block that contains it as parent. Used when sections come from headings
/// that are not ancestors in the source tree (HTML, DOCX, ODT).
pub fn nest(blocks: Vec<Block>) -> Vec<Block> {
    let mut order: Vec<(usize, Block)> = blocks.into_iter().enumerate().collect();
    // Of two blocks with one span, the container is the parent: sections first, then
    // pages, chapters, messages, notes, comments, tables and lists, then leaves.
    let rank = |k: &str| match k {
        "section" => 0,
        "page" | "chapter" | "message" | "note" | "comment" | "attachment" | "table" | "list" => 1,
        _ => 2,
    };
    order.sort_by_key(|(i, b)| (b.span.0, std::cmp::Reverse(b.span.1), rank(b.kind), b.level, *i));
    let mut out: Vec<Block> = Vec::with_capacity(order.len());
    let mut stack: Vec<usize> = vec![];
    for (_, mut b) in order {
        while let Some(&t) = stack.last() {
            let (ts, te) = out[t].span;
            if ts <= b.span.0 && te >= b.span.1 {
                break;
            }
            stack.pop();
        }
        b.parent = stack.last().copied();
        stack.push(out.len());
        out.push(b);
    }
    out
}

/// Section blocks from headings `(heading span, level)` in text order: each section runs
/// from its heading to the next heading of the same or a higher level (or `end`).
pub fn sections_from_headings(headings: &[(Span, u32)], end: usize) -> Vec<Block> {
    let mut out = Vec::with_capacity(headings.len());
    for (i, &(span, level)) in headings.iter().enumerate() {
        let stop = headings[i + 1..].iter().find(|h| h.1 <= level).map_or(end, |h| h.0.0);
        out.push(Block { kind: "section", span: (span.0, stop.max(span.1)), parent: None, title: Some(span), level });
    }
    out
}

/// Seconds since the Unix epoch as RFC 3339 UTC (`2024-03-01T10:46:40Z`).
pub fn rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_costs_three_words_and_reads_its_value_from_the_text() {
        // A large table's cells are most of what its document holds (issue 19).
        assert!(std::mem::size_of::<Field>() <= 24, "{}", std::mem::size_of::<Field>());
        let text = "date\tamount\n2024-01-02\t\"1,000\"\n";
        let key = FieldKey::from("date");
        let plain = Field::new(1, key.clone(), "2024-01-02", (12, 22), text);
        assert_eq!((plain.value(text), plain.span(), &*plain.key), ("2024-01-02", (12, 22), "date"));
        assert!(std::sync::Arc::ptr_eq(&plain.key.0, &key.0), "a value the text holds is not copied, the key is shared");
        let amount = FieldKey::from("amount");
        let quoted = Field::new(1, amount.clone(), "1,000", (23, 30), text);
        assert_eq!((quoted.value(text), &*quoted.key), ("1,000", "amount"));
        // Its own key compares as the column's; the field compares by its value too.
        assert_eq!(quoted.key, amount);
        assert_eq!(quoted.key.cmp(&amount), std::cmp::Ordering::Equal);
        assert_ne!(quoted, Field::new(1, amount.clone(), "1,001", (23, 30), text));
        assert_eq!(quoted, Field::new(1, amount, "1,000", (23, 30), text));
        assert_eq!(plain.key, "date");
    }
}
