//! Chat exports: plain `[time] name: text` transcripts, WhatsApp text exports (both the
//! Android `12/03/2024, 14:05 - Name: text` and iOS `[12/03/2024, 14:05:33] Name: text`
//! forms) and Slack JSON channel exports. Each message is a `message` block with its
//! sender and time; lines that continue a message stay in it; WhatsApp system lines
//! (no sender) are `event` blocks.

use std::sync::LazyLock;

use regex::Regex;

use super::text::lines;
use tg_text::document::{Block, Builder, Cited, Extracted, Message, rfc3339, tidy_blocks};

static BRACKET: LazyLock<Regex> = LazyLock::new(|| tg_text::pattern::constant(r"^\u{200e}?\[(?P<time>[0-9][^\]\n]{3,40})\]\s*(?P<name>[^:\n\[\]]{1,60}?):\s?(?P<body>.*)$"));
static ANDROID: LazyLock<Regex> = LazyLock::new(|| {
    tg_text::pattern::constant(r"^(?P<time>\d{1,2}[/.]\d{1,2}[/.]\d{2,4},?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?)\s+-\s+(?:(?P<name>[^:\n]{1,60}?):\s?)?(?P<body>.*)$")
});
static ISO: LazyLock<Regex> =
    LazyLock::new(|| tg_text::pattern::constant(r"^(?P<time>\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?)\s+(?P<name>[A-Za-z][^:\n]{0,59}?):\s(?P<body>.*)$"));

/// A chat transcript, if at least two lines and half of the non-blank lines open a message.
pub fn extract_if_chat(text: &str) -> Option<Extracted> {
    // Cheap test first: most of the first 20 non-blank lines of a chat open with '[' or a digit.
    let sample: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(20).collect();
    let opening = sample.iter().filter(|l| l.trim_start_matches('\u{200e}').starts_with(|c: char| c == '[' || c.is_ascii_digit())).count();
    if sample.len() < 2 || opening * 2 < sample.len() {
        return None;
    }
    let mut heads = vec![];
    let mut nonblank = 0usize;
    for (start, line) in lines(text) {
        if line.trim().is_empty() {
            continue;
        }
        nonblank += 1;
        let caps = BRACKET.captures(line).map(|c| (c, false)).or_else(|| ANDROID.captures(line).map(|c| (c, true))).or_else(|| ISO.captures(line).map(|c| (c, false)));
        if let Some((c, _android)) = caps {
            let time = c.name("time").map(|m| (m.as_str().to_string(), (start + m.start(), start + m.end())));
            let name = c.name("name").map(|m| (m.as_str().trim().to_string(), (start + m.start(), start + m.start() + m.as_str().trim_end().len())));
            heads.push((start, start + line.len(), time, name));
        }
    }
    if heads.len() < 2 || heads.len() * 2 < nonblank {
        return None;
    }
    let mut blocks = vec![];
    let mut messages = vec![];
    for (i, (start, _, time, name)) in heads.iter().enumerate() {
        // A message runs to the last non-blank line before the next message.
        let next = heads.get(i + 1).map_or(text.len(), |h| h.0);
        let end = start + text[*start..next].trim_end().len();
        let id = blocks.len();
        let kind = if name.is_some() { "message" } else { "event" };
        blocks.push(Block { kind, span: (*start, end), parent: None, title: None, level: 0 });
        if let Some((n, nspan)) = name {
            messages.push(Message {
                block: id,
                sender: Some(Cited { value: n.clone(), span: *nspan }),
                time: time.as_ref().map(|(t, s)| Cited { value: t.clone(), span: *s }),
                ..Default::default()
            });
        }
    }
    // Block ids stay stable: message blocks are never empty (they hold their own line).
    let blocks = tidy_blocks(text, blocks);
    Some(Extracted { format: "chat", text: text.to_string(), blocks, messages, ..Default::default() })
}

/// A Slack channel export (a JSON array of messages with `ts`), rendered as one line per
/// message: `[2024-03-01T10:46:40Z] name: text`.
pub fn extract_if_slack(text: &str) -> Option<Extracted> {
    // Cheap test first: an array whose first kilobytes mention "ts".
    let mut head = text.len().min(4096);
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    if !text.trim_start().starts_with('[') || !text[..head].contains("\"ts\"") {
        return None;
    }
    let v: Vec<serde_json::Value> = serde_json::from_str(text).ok()?;
    if v.is_empty() || !v.iter().all(|m| m.get("ts").is_some() && (m.get("text").is_some() || m.get("type").is_some())) {
        return None;
    }
    let mut b = Builder::new();
    let mut messages = vec![];
    for m in &v {
        let s = |k: &str| m.get(k).and_then(|x| x.as_str()).map(str::to_string);
        let ts = s("ts").unwrap_or_default();
        let secs = ts.split('.').next().and_then(|x| x.parse::<i64>().ok());
        let time = secs.map(rfc3339).unwrap_or_else(|| ts.clone());
        let name = m
            .get("user_profile")
            .and_then(|p| p.get("real_name").or_else(|| p.get("display_name")))
            .and_then(|x| x.as_str())
            .map(str::to_string)
            .or_else(|| s("user_name"))
            .or_else(|| s("username"))
            .or_else(|| s("user"))
            .unwrap_or_default();
        let id = b.open("message");
        b.push("[");
        let t0 = b.text.len();
        b.push(&time);
        let t1 = b.text.len();
        b.push("] ");
        let n0 = b.text.len();
        b.push(&name);
        let n1 = b.text.len();
        b.push(": ");
        b.push(&s("text").unwrap_or_default());
        b.close(id);
        b.newline();
        let thread = s("thread_ts").filter(|t| *t != ts);
        messages.push(Message {
            block: id,
            sender: (n1 > n0).then(|| Cited { value: name.clone(), span: (n0, n1) }),
            time: Some(Cited { value: time.clone(), span: (t0, t1) }),
            id: Some(Cited { value: ts.clone(), span: (t0, t1) }),
            reply_to: thread.map(|t| Cited { value: t, span: (t0, t1) }),
            ..Default::default()
        });
    }
    let (text, blocks) = b.finish();
    Some(Extracted { format: "slack", text, blocks, messages, ..Default::default() })
}
