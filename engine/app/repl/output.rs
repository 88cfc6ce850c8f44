//! How the REPL prints answers: an aligned table, tab-separated values, or JSON.

use super::query::Answer;

/// An output format of the session (`--format`, `:format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns under a header, then a row count.
    Table,
    /// A header line, then one tab-separated line per row.
    Tsv,
    /// One JSON array of objects (column → value).
    Json,
}

impl Format {
    /// Parses `table` (or `text`, every other command's name for it), `tsv` or `json`.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "table" | "text" => Some(Format::Table),
            "tsv" => Some(Format::Tsv),
            "json" => Some(Format::Json),
            _ => None,
        }
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Tsv => "tsv",
            Format::Json => "json",
        }
    }

    /// The GQL formatter's format of the same name.
    pub fn gql(self) -> tg_gql::format::Format {
        match self {
            Format::Table => tg_gql::format::Format::Table,
            Format::Tsv => tg_gql::format::Format::Tsv,
            Format::Json => tg_gql::format::Format::Json,
        }
    }
}

fn rows_word(n: usize) -> String {
    if n == 1 { "1 row".into() } else { format!("{n} rows") }
}

/// Renders a Datalog answer. A query without variables answers `true.` or `false.`.
pub fn answer(a: &Answer, f: Format) -> String {
    let visible = a.columns.len() - usize::from(a.cited);
    if visible == 0 && f != Format::Json {
        let mut out = if a.rows.is_empty() { "false.\n".to_string() } else { "true.\n".to_string() };
        if a.cited {
            for r in &a.rows {
                if let Some(c) = r.last().filter(|c| !c.text.is_empty()) {
                    out.push_str(&format!("  {}\n", c.text));
                }
            }
        }
        return out;
    }
    match f {
        Format::Tsv => {
            let mut out = a.columns.join("\t");
            out.push('\n');
            for r in &a.rows {
                out.push_str(&r.iter().map(|c| c.text.replace(['\t', '\n'], " ")).collect::<Vec<_>>().join("\t"));
                out.push('\n');
            }
            out
        }
        Format::Json => {
            let rows: Vec<serde_json::Value> = a
                .rows
                .iter()
                .map(|r| {
                    let mut m = serde_json::Map::new();
                    for (col, c) in a.columns.iter().zip(r) {
                        let v = if c.number {
                            c.text
                                .parse::<i64>()
                                .map(serde_json::Value::from)
                                .or_else(|_| c.text.parse::<f64>().map(serde_json::Value::from))
                                .unwrap_or_else(|_| c.text.clone().into())
                        } else {
                            c.text.clone().into()
                        };
                        m.insert(col.clone(), v);
                    }
                    serde_json::Value::Object(m)
                })
                .collect();
            let mut out = serde_json::to_string(&rows).unwrap_or_default();
            out.push('\n');
            out
        }
        Format::Table => {
            let mut widths: Vec<usize> = a.columns.iter().map(|c| c.chars().count()).collect();
            for r in &a.rows {
                for (w, c) in widths.iter_mut().zip(r) {
                    *w = (*w).max(c.text.chars().count());
                }
            }
            let line = |cells: Vec<(&str, bool)>| -> String {
                let n = cells.len();
                let mut s = String::new();
                for (i, ((t, num), w)) in cells.into_iter().zip(&widths).enumerate() {
                    let pad = w.saturating_sub(t.chars().count());
                    if num {
                        s.push_str(&" ".repeat(pad));
                        s.push_str(t);
                    } else {
                        s.push_str(t);
                        if i + 1 < n {
                            s.push_str(&" ".repeat(pad));
                        }
                    }
                    if i + 1 < n {
                        s.push_str("  ");
                    }
                }
                s.push('\n');
                s
            };
            let mut out = line(a.columns.iter().map(|c| (c.as_str(), false)).collect());
            let dashes: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out.push_str(&line(dashes.iter().map(|d| (d.as_str(), false)).collect()));
            for r in &a.rows {
                out.push_str(&line(r.iter().map(|c| (c.text.as_str(), c.number)).collect()));
            }
            out.push_str(&format!("({})\n", rows_word(a.rows.len())));
            out
        }
    }
}
