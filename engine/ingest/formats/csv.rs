//! CSV and TSV tables (wire-transfer logs and the like; `;`-separated CSV is recognised by
//! its header line): the source text is the
//! canonical document; one `row` block per record (quoted fields may span lines), and
//! one `field(doc, row, header, value)` per non-empty cell, citing the cell. The first
//! record is the header when none of its cells is empty or numeric; otherwise columns
//! are named `column 1`, `column 2`, ….

use super::decode_text;
use tg_text::document::{Block, Extracted, Field, Skip, Span, tidy_blocks};

/// One record: its span and its cells (value, span of the cell's content).
type Record = (Span, Vec<(String, Span)>);

/// Parses delimited text (RFC 4180 quoting) into records, linearly.
pub fn records(text: &str, delim: u8) -> Vec<Record> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let rec_start = i;
        let mut cells = vec![];
        loop {
            // One cell.
            if i < b.len() && b[i] == b'"' {
                let start = i + 1;
                let mut j = start;
                let mut value = String::new();
                let mut seg = start;
                while j < b.len() {
                    if b[j] == b'"' {
                        if j + 1 < b.len() && b[j + 1] == b'"' {
                            value.push_str(&text[seg..j + 1]);
                            j += 2;
                            seg = j;
                            continue;
                        }
                        break;
                    }
                    j += 1;
                }
                let end = j.min(b.len());
                value.push_str(&text[seg..end]);
                cells.push((value, (start, end)));
                i = (end + 1).min(b.len());
                // Anything between the closing quote and the delimiter is dropped.
                while i < b.len() && b[i] != delim && b[i] != b'\n' {
                    i += 1;
                }
            } else {
                let start = i;
                while i < b.len() && b[i] != delim && b[i] != b'\n' {
                    i += 1;
                }
                let end = if i > start && b[i - 1] == b'\r' { i - 1 } else { i };
                cells.push((text[start..end].to_string(), (start, end)));
            }
            if i < b.len() && b[i] == delim {
                i += 1;
                continue;
            }
            break;
        }
        let rec_end = i;
        if i < b.len() {
            i += 1; // the newline
        }
        if cells.iter().any(|(v, _)| !v.trim().is_empty()) {
            out.push(((rec_start, rec_end), cells));
        }
    }
    out
}

fn numeric(s: &str) -> bool {
    let t = s.trim().trim_start_matches(['$', '€', '£', '-', '+']);
    !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '/' | ':'))
}

/// A CSV (`delim` `,`) or TSV (`\t`) table.
pub fn extract(bytes: &[u8], delim: u8, format: &'static str) -> Result<Extracted, Skip> {
    let (text, warnings) = decode_text(bytes)?;
    // European exports separate CSV fields with ';' (the comma is the decimal mark).
    let first = text.lines().next().unwrap_or("");
    let delim = if delim == b',' && first.matches(';').count() > first.matches(',').count() { b';' } else { delim };
    let recs = records(&text, delim);
    let has_header = recs.first().is_some_and(|(_, cells)| cells.len() > 1 && cells.iter().all(|(v, _)| !v.trim().is_empty() && !numeric(v)));
    let headers: Vec<tg_text::document::FieldKey> = if has_header { recs[0].1.iter().map(|(v, _)| v.trim().into()).collect() } else { vec![] };
    let mut blocks = vec![Block { kind: "table", span: (0, text.len()), parent: None, title: None, level: 0 }];
    let mut fields = vec![];
    for (n, (span, cells)) in recs.iter().enumerate() {
        let kind = if n == 0 && has_header { "header" } else { "row" };
        blocks.push(Block { kind, span: *span, parent: Some(0), title: None, level: 0 });
        if kind == "header" {
            continue;
        }
        let row = if has_header { n } else { n + 1 } as u32;
        for (c, (value, cspan)) in cells.iter().enumerate() {
            let v = value.trim();
            if v.is_empty() {
                continue;
            }
            let key = headers.get(c).filter(|h| !h.is_empty()).cloned().unwrap_or_else(|| tg_text::document::FieldKey::from(format!("column {}", c + 1)));
            fields.push(Field::new(row, key, v, tg_text::document::trim_span(&text, *cspan), &text));
        }
    }
    let blocks = tidy_blocks(&text, blocks);
    fields.shrink_to_fit();
    Ok(Extracted { format, text, blocks, fields, warnings, ..Default::default() })
}
