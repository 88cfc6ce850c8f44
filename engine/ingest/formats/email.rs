//! E-mail: `.eml` messages and `.mbox` mailboxes (mailparse).
//!
//! A message's canonical text is its main headers, one per line (`From:`, `To:`, `Cc:`,
//! `Bcc:`, `Date:`, `Subject:`, `Message-ID:`, `In-Reply-To:`, decoded), a blank line,
//! the body (the first text/plain part, else the first text/html part rendered as
//! text), and one line per attachment (`[attachment #1: invoice.pdf, application/pdf,
//! 1234 bytes]`). Attachments — parts with a file name or an attachment disposition,
//! and attached messages — become documents of their own, with ids
//! `PARENT#attachments/N/NAME` (in an mbox: `PARENT#messages/K/attachments/N/NAME`).
//! Senders and recipients are stored as lower-cased addresses; dates as RFC 3339 UTC.

use mailparse::{DispositionType, MailAddr, ParsedMail};

use super::text::text_items;
use tg_text::document::{Attachment, Block, Cited, Extracted, Message, Skip, Span, nest, rfc3339, tidy_blocks, trim_span};

/// A document under construction from one or more messages.
#[derive(Default)]
struct Mailbox {
    text: String,
    blocks: Vec<Block>,
    messages: Vec<Message>,
    attachments: Vec<Attachment>,
    links: Vec<tg_text::document::Link>,
    warnings: Vec<String>,
}

fn header(m: &ParsedMail, key: &str) -> Option<String> {
    m.headers
        .iter()
        .find(|h| h.get_key_ref().eq_ignore_ascii_case(key))
        .map(|h| h.get_value())
        .map(|v| v.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|v| !v.is_empty())
}

/// Body text and html of the first inline text parts; attachments (name, mimetype, bytes).
fn walk_parts(m: &ParsedMail, plain: &mut Option<String>, html: &mut Option<String>, files: &mut Vec<(String, String, Vec<u8>)>, depth: usize) {
    if depth > 32 {
        return;
    }
    let mime = m.ctype.mimetype.to_ascii_lowercase();
    let disp = m.get_content_disposition();
    let name = disp.params.get("filename").or_else(|| m.ctype.params.get("name")).cloned();
    let is_attachment = disp.disposition == DispositionType::Attachment || name.is_some();
    if mime.starts_with("multipart/") {
        for p in &m.subparts {
            walk_parts(p, plain, html, files, depth + 1);
        }
        return;
    }
    if mime == "message/rfc822" {
        let n = files.len() + 1;
        files.push((name.unwrap_or_else(|| format!("message-{n}.eml")), mime, m.get_body_raw().unwrap_or_default()));
        return;
    }
    if !is_attachment && mime == "text/plain" && plain.is_none() {
        *plain = m.get_body().ok();
        return;
    }
    if !is_attachment && mime == "text/html" && html.is_none() {
        *html = m.get_body().ok();
        return;
    }
    if is_attachment || !mime.starts_with("text/") {
        let n = files.len() + 1;
        let name = name.unwrap_or_else(|| format!("part-{n}"));
        files.push((name, mime, m.get_body_raw().unwrap_or_default()));
    }
}

fn safe_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let s: String = base.chars().map(|c| if c == '#' || c.is_control() { '_' } else { c }).collect();
    if s.trim().is_empty() { "attachment".into() } else { s.trim().to_string() }
}

impl Mailbox {
    /// Appends a header line and returns the span of its value.
    fn header_line(&mut self, key: &str, value: &str) -> Span {
        self.text.push_str(key);
        self.text.push_str(": ");
        let s = self.text.len();
        self.text.push_str(value);
        let e = self.text.len();
        self.text.push('\n');
        (s, e)
    }

    /// Addresses in a header value, each cited at its position in the value.
    fn addresses(&self, value: &str, span: Span) -> Vec<Cited> {
        let mut out = vec![];
        let Ok(list) = mailparse::addrparse(value) else { return out };
        let mut singles = vec![];
        for a in list.iter() {
            match a {
                MailAddr::Single(s) => singles.push(s.clone()),
                MailAddr::Group(g) => singles.extend(g.addrs.iter().cloned()),
            }
        }
        let mut from = 0;
        for s in singles {
            let who = if s.addr.is_empty() { s.display_name.clone().unwrap_or_default() } else { s.addr.to_lowercase() };
            if who.is_empty() {
                continue;
            }
            let needle = if s.addr.is_empty() { who.clone() } else { s.addr.clone() };
            let at = value[from..].find(&needle).map(|k| from + k);
            let cite = match at {
                Some(k) => {
                    from = k + needle.len();
                    (span.0 + k, span.0 + k + needle.len())
                }
                None => span,
            };
            out.push(Cited { value: who, span: cite });
        }
        out
    }

    /// Renders one parsed message as a `message` block.
    fn add_message(&mut self, m: &ParsedMail, suffix_prefix: &str) {
        if !self.text.is_empty() {
            self.text.push_str("\n\n");
        }
        let start = self.text.len();
        let block = self.blocks.len();
        self.blocks.push(Block { kind: "message", span: (start, start), parent: None, title: None, level: 0 });
        let mut msg = Message { block, ..Default::default() };
        if let Some(v) = header(m, "From") {
            let span = self.header_line("From", &v);
            msg.sender = self.addresses(&v, span).into_iter().next();
        }
        for (key, role) in [("To", "to"), ("Cc", "cc"), ("Bcc", "bcc")] {
            if let Some(v) = header(m, key) {
                let span = self.header_line(key, &v);
                for c in self.addresses(&v, span) {
                    msg.recipients.push((c, role));
                }
            }
        }
        if let Some(v) = header(m, "Date") {
            let span = self.header_line("Date", &v);
            let value = mailparse::dateparse(&v).map(rfc3339).unwrap_or_else(|_| v.clone());
            msg.time = Some(Cited { value, span });
        }
        if let Some(v) = header(m, "Subject") {
            let span = self.header_line("Subject", &v);
            msg.subject = Some(Cited { value: v, span });
        }
        if let Some(v) = header(m, "Message-ID") {
            let span = self.header_line("Message-ID", &v);
            msg.id = Some(Cited { value: v.trim_matches(['<', '>']).to_string(), span });
        }
        if let Some(v) = header(m, "In-Reply-To") {
            let span = self.header_line("In-Reply-To", &v);
            let first = v.split_whitespace().next().unwrap_or(&v).trim_matches(['<', '>']).to_string();
            msg.reply_to = Some(Cited { value: first, span });
        }
        let head_end = self.text.len();
        if head_end > start {
            self.blocks.push(Block { kind: "headers", span: (start, head_end), parent: None, title: None, level: 0 });
        }
        let (mut plain, mut html, mut files) = (None, None, vec![]);
        walk_parts(m, &mut plain, &mut html, &mut files, 0);
        let body = match (plain, html) {
            (Some(p), _) => p.replace("\r\n", "\n"),
            (None, Some(h)) => {
                let x = super::html::extract(&h);
                let off = self.text.len() + 1;
                self.links.extend(x.links.into_iter().map(|l| tg_text::document::Link { span: (l.span.0 + off, l.span.1 + off), target: l.target }));
                x.text
            }
            (None, None) => String::new(),
        };
        self.text.push('\n');
        let body_start = self.text.len();
        self.text.push_str(body.trim_end());
        for it in text_items(&self.text[body_start..]) {
            let kind = if it.heading.is_some() { "paragraph" } else { it.kind };
            self.blocks.push(Block { kind, span: (it.span.0 + body_start, it.span.1 + body_start), parent: None, title: None, level: 0 });
        }
        for (n, (name, mime, bytes)) in files.into_iter().enumerate() {
            let name = safe_name(&name);
            self.text.push_str(if n == 0 { "\n\n" } else { "\n" });
            let s = self.text.len();
            self.text.push_str(&format!("[attachment #{}: {name}, {mime}, {} bytes]", n + 1, bytes.len()));
            let span = (s, self.text.len());
            self.blocks.push(Block { kind: "attachment", span, parent: None, title: None, level: 0 });
            self.attachments.push(Attachment { suffix: format!("{suffix_prefix}attachments/{}/{name}", n + 1), name, bytes, span });
        }
        let end = self.text.len();
        self.blocks[block].span = (start, end);
        self.messages.push(msg);
    }

    fn finish(self, format: &'static str) -> Extracted {
        let Mailbox { text, blocks, mut messages, attachments, links, warnings } = self;
        // Message blocks are never empty (they hold their header lines), so nesting keeps
        // their relative order; map old ids to new ones for the message records.
        let kinds: Vec<(Span, &str)> = blocks.iter().map(|b| (trim_span(&text, b.span), b.kind)).collect();
        let nested = nest(tidy_blocks(&text, blocks));
        let mut position: std::collections::BTreeMap<(Span, &str), usize> = std::collections::BTreeMap::new();
        for (i, b) in nested.iter().enumerate() {
            position.entry((b.span, b.kind)).or_insert(i);
        }
        for m in &mut messages {
            if let Some(&pos) = kinds.get(m.block).and_then(|k| position.get(k)) {
                m.block = pos;
            }
        }
        Extracted { format, text, blocks: nested, messages, attachments, links, warnings, ..Default::default() }
    }
}

/// One `.eml` message.
pub fn extract_eml(bytes: &[u8]) -> Result<Extracted, Skip> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Skip::new("empty file"));
    }
    let m = mailparse::parse_mail(bytes).map_err(|e| Skip::new(format!("invalid e-mail: {e}")))?;
    if m.headers.is_empty() {
        return Err(Skip::new("invalid e-mail: no headers"));
    }
    let mut b = Mailbox::default();
    b.add_message(&m, "");
    Ok(b.finish("eml"))
}

/// An mbox mailbox: messages split at `From ` lines.
pub fn extract_mbox(bytes: &[u8]) -> Result<Extracted, Skip> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Skip::new("empty file"));
    }
    let mut starts = vec![];
    let mut pos = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if line.starts_with(b"From ") && (pos == 0 || bytes[..pos].ends_with(b"\n")) {
            starts.push(pos);
        }
        pos += line.len();
    }
    if starts.is_empty() {
        return Err(Skip::new("invalid mbox (no \"From \" separator line)"));
    }
    let mut b = Mailbox::default();
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(bytes.len());
        let chunk = &bytes[s..e];
        // Drop the separator line itself.
        let body = chunk.iter().position(|&c| c == b'\n').map_or(&chunk[chunk.len()..], |n| &chunk[n + 1..]);
        match mailparse::parse_mail(body) {
            Ok(m) => b.add_message(&m, &format!("messages/{}/", k + 1)),
            Err(e) => b.warnings.push(format!("message {}: invalid e-mail ({e}), skipped", k + 1)),
        }
    }
    if b.messages.is_empty() {
        return Err(Skip::new("mbox holds no readable message"));
    }
    Ok(b.finish("mbox"))
}
