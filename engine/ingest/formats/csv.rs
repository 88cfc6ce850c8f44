//! CSV and TSV tables (wire-transfer logs and the like; `;`-separated CSV is recognised by
//! its header line): the source text is the
//! canonical document; one `row` block per record (quoted fields may span lines), and
//! one `field(doc, row, header, value)` per non-empty cell, citing the cell. The first
//! record is the header when none of its cells is empty or numeric; otherwise columns
//! are named `column 1`, `column 2`, ….

use std::borrow::Cow;

use super::decode_text;
use tg_text::document::{Block, Extracted, Field, Skip, Span, tidy_blocks};

/// One record: its span and its cells (value, span of the cell's content); a value is
/// borrowed from the text unless quoting changed it (`""` inside quotes).
pub type Record<'a> = (Span, Vec<(Cow<'a, str>, Span)>);

/// Parses delimited text (RFC 4180 quoting) into records, linearly, one at a time: a
/// large table is never held as a second copy of its cells (issue 19).
pub fn records(text: &str, delim: u8) -> Records<'_> {
    Records { text, delim, i: 0 }
}

/// The records of a delimited text, in order ([`records`]); records whose cells are all
/// blank are skipped.
pub struct Records<'a> {
    text: &'a str,
    delim: u8,
    i: usize,
}

impl<'a> Iterator for Records<'a> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Record<'a>> {
        let (text, delim) = (self.text, self.delim);
        let b = text.as_bytes();
        let mut i = self.i;
        while i < b.len() {
            let rec_start = i;
            let mut cells: Vec<(Cow<'a, str>, Span)> = vec![];
            loop {
                // One cell.
                if i < b.len() && b[i] == b'"' {
                    let start = i + 1;
                    let mut j = start;
                    let mut value = Cow::Borrowed("");
                    let mut seg = start;
                    while j < b.len() {
                        if b[j] == b'"' {
                            if j + 1 < b.len() && b[j + 1] == b'"' {
                                value.to_mut().push_str(&text[seg..j + 1]);
                                j += 2;
                                seg = j;
                                continue;
                            }
                            break;
                        }
                        j += 1;
                    }
                    let end = j.min(b.len());
                    if seg == start {
                        value = Cow::Borrowed(&text[start..end]);
                    } else {
                        value.to_mut().push_str(&text[seg..end]);
                    }
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
                    cells.push((Cow::Borrowed(&text[start..end]), (start, end)));
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
                self.i = i;
                return Some(((rec_start, rec_end), cells));
            }
        }
        self.i = i;
        None
    }
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
    let mut recs = records(&text, delim).peekable();
    let has_header = recs.peek().is_some_and(|(_, cells)| cells.len() > 1 && cells.iter().all(|(v, _)| !v.trim().is_empty() && !numeric(v)));
    let headers: Vec<tg_text::document::FieldKey> = match recs.peek() {
        Some((_, cells)) if has_header => cells.iter().map(|(v, _)| v.trim().into()).collect(),
        _ => vec![],
    };
    // Columns without a header are named by number, one key a column (not one a cell).
    let mut numbered: Vec<tg_text::document::FieldKey> = vec![];
    let mut blocks = vec![Block { kind: "table", span: (0, text.len()), parent: None, title: None, level: 0 }];
    let mut fields = vec![];
    for (n, (span, cells)) in recs.enumerate() {
        let kind = if n == 0 && has_header { "header" } else { "row" };
        blocks.push(Block { kind, span, parent: Some(0), title: None, level: 0 });
        if kind == "header" {
            continue;
        }
        let row = if has_header { n } else { n + 1 } as u32;
        for (c, (value, cspan)) in cells.iter().enumerate() {
            let v = value.trim();
            if v.is_empty() {
                continue;
            }
            let key = match headers.get(c).filter(|h| !h.is_empty()) {
                Some(h) => h.clone(),
                None => {
                    while numbered.len() <= c {
                        numbered.push(tg_text::document::FieldKey::from(format!("column {}", numbered.len() + 1)));
                    }
                    numbered[c].clone()
                }
            };
            fields.push(Field::new(row, key, v, tg_text::document::trim_span(&text, *cspan), &text));
        }
    }
    let blocks = tidy_blocks(&text, blocks);
    fields.shrink_to_fit();
    Ok(Extracted { format, text, blocks, fields, warnings, ..Default::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_come_one_at_a_time_borrowing_what_quoting_left_alone() {
        let text = "a,\"b \"\"c\"\"\",\"d\ne\"\r\n , \n\nf,g";
        let got: Vec<Record> = records(text, b',').collect();
        let cells: Vec<Vec<(&str, bool)>> = got.iter().map(|(_, c)| c.iter().map(|(v, _)| (v.as_ref(), matches!(v, Cow::Borrowed(_)))).collect()).collect();
        // An escaped quote is the only value copied; a quoted line break stays in its
        // cell; a record of blanks and an empty line are skipped.
        assert_eq!(cells, vec![vec![("a", true), ("b \"c\"", false), ("d\ne", true)], vec![("f", true), ("g", true)]]);
        assert_eq!(got[0].0, (0, 18));
        assert_eq!(&text[got[0].1[2].1.0..got[0].1[2].1.1], "d\ne");
        assert_eq!(got[1].0, (24, 27));
    }

    #[test]
    fn a_table_cites_every_cell_and_names_headerless_columns_once() {
        let x = extract(b"2024-01-02,100\n2024-01-03,\"1,000\"\n", b',', "csv").unwrap_or_else(|e| panic!("{e}"));
        let cells: Vec<(u32, String, &str)> = x.fields.iter().map(|f| (f.record, f.key.to_string(), f.value(&x.text))).collect();
        assert_eq!(cells, vec![(1, "column 1".into(), "2024-01-02"), (1, "column 2".into(), "100"), (2, "column 1".into(), "2024-01-03"), (2, "column 2".into(), "1,000")]);
        assert_eq!(&x.text[x.fields[3].span().0..x.fields[3].span().1], "1,000");
        assert_eq!(x.blocks.iter().map(|b| b.kind).collect::<Vec<_>>(), vec!["table", "row", "row"]);
        let header = extract(b"date\tamount\n2024-01-02\t5\n", b'\t', "tsv").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(header.fields.iter().map(|f| (f.key.to_string(), f.value(&header.text))).collect::<Vec<_>>(), vec![("date".into(), "2024-01-02"), ("amount".into(), "5")]);
    }
}
