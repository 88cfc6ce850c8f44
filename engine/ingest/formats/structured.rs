//! JSON, JSON Lines, YAML and TOML: the source text is the canonical document; every
//! non-null scalar leaf becomes `field(doc, record, path, value)` (record = top-level
//! array element or JSON Lines line, else 0; path = dotted keys with `[i]` for array
//! positions).
//!
//! JSON is scanned here with byte positions, so each field cites its value exactly.
//! YAML and TOML are parsed by serde-saphyr and toml; their values are located in the
//! text by searching for the value after its key (the first such occurrence), so a
//! field cites its first matching occurrence, or its key when the value is written
//! differently (e.g. a folded string). Invalid input is still ingested as text, with a
//! warning and no fields.

use tg_text::document::{Block, Extracted, Field, FieldKeys, Span, tidy_blocks};

/// Deepest nesting whose leaves become fields.
const MAX_DEPTH: usize = 64;

struct Json<'a> {
    text: &'a str,
    b: &'a [u8],
    fields: Vec<Field>,
    records: Vec<Span>,
    /// One key a path, shared by its fields (an array of records repeats its paths).
    keys: FieldKeys,
}

impl Json<'_> {
    fn ws(&self, mut i: usize) -> usize {
        while i < self.b.len() && self.b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    }

    /// End of the string starting at the quote at `i` (index past the closing quote).
    fn string_end(&self, i: usize) -> Result<usize, usize> {
        let mut j = i + 1;
        while j < self.b.len() {
            match self.b[j] {
                b'\\' => j += 2,
                b'"' => return Ok(j + 1),
                _ => j += 1,
            }
        }
        Err(i)
    }

    /// Parses the value at `i`; returns the index past it.
    fn value(&mut self, i: usize, path: &str, record: u32, depth: usize) -> Result<usize, usize> {
        let i = self.ws(i);
        let Some(&c) = self.b.get(i) else { return Err(i) };
        match c {
            b'{' => {
                let mut j = self.ws(i + 1);
                if self.b.get(j) == Some(&b'}') {
                    return Ok(j + 1);
                }
                loop {
                    if self.b.get(j) != Some(&b'"') {
                        return Err(j);
                    }
                    let kend = self.string_end(j)?;
                    let key: String = serde_json::from_str(&self.text[j..kend]).map_err(|_| j)?;
                    j = self.ws(kend);
                    if self.b.get(j) != Some(&b':') {
                        return Err(j);
                    }
                    let p = if path.is_empty() { key } else { format!("{path}.{key}") };
                    j = if depth < MAX_DEPTH { self.value(j + 1, &p, record, depth + 1)? } else { self.skip(j + 1)? };
                    j = self.ws(j);
                    match self.b.get(j) {
                        Some(b',') => j = self.ws(j + 1),
                        Some(b'}') => return Ok(j + 1),
                        _ => return Err(j),
                    }
                }
            }
            b'[' => {
                let mut j = self.ws(i + 1);
                if self.b.get(j) == Some(&b']') {
                    return Ok(j + 1);
                }
                let mut n = 0u32;
                loop {
                    let start = self.ws(j);
                    let (p, rec) = if depth == 0 { (String::new(), n) } else { (format!("{path}[{n}]"), record) };
                    j = if depth < MAX_DEPTH { self.value(start, &p, rec, depth + 1)? } else { self.skip(start)? };
                    if depth == 0 {
                        self.records.push((start, j));
                    }
                    n += 1;
                    j = self.ws(j);
                    match self.b.get(j) {
                        Some(b',') => j += 1,
                        Some(b']') => return Ok(j + 1),
                        _ => return Err(j),
                    }
                }
            }
            b'"' => {
                let end = self.string_end(i)?;
                let v: String = serde_json::from_str(&self.text[i..end]).map_err(|_| i)?;
                self.leaf(path, record, v, (i + 1, end - 1));
                Ok(end)
            }
            _ => {
                let mut j = i;
                while j < self.b.len() && !matches!(self.b[j], b',' | b'}' | b']') && !self.b[j].is_ascii_whitespace() {
                    j += 1;
                }
                let raw = &self.text[i..j];
                if serde_json::from_str::<serde_json::Value>(raw).is_err() {
                    return Err(i);
                }
                // A null states nothing (as in YAML and TOML, it is not a field).
                if raw != "null" {
                    self.leaf(path, record, raw.to_string(), (i, j));
                }
                Ok(j)
            }
        }
    }

    fn leaf(&mut self, path: &str, record: u32, value: String, span: Span) {
        let path = if path.is_empty() { "value" } else { path };
        let key = self.keys.key(path);
        let span = if span.0 == span.1 { (span.0.saturating_sub(1), span.1 + 1) } else { span };
        self.fields.push(Field::new(record, key, &value, span, self.text));
    }

    /// Skips a value without recording it (past the nesting limit); iterative.
    fn skip(&self, i: usize) -> Result<usize, usize> {
        let mut depth = 0usize;
        let mut j = self.ws(i);
        loop {
            let Some(&c) = self.b.get(j) else { return Err(j) };
            match c {
                b'"' => j = self.string_end(j)?,
                b'{' | b'[' => {
                    depth += 1;
                    j += 1
                }
                b'}' | b']' => {
                    if depth == 0 {
                        return Ok(j);
                    }
                    depth -= 1;
                    j += 1;
                    if depth == 0 {
                        return Ok(j);
                    }
                }
                b',' if depth == 0 => return Ok(j),
                _ => j += 1,
            }
        }
    }
}

fn finish(format: &'static str, text: String, fields: Vec<Field>, records: Vec<Span>, warnings: Vec<String>) -> Extracted {
    let mut blocks = vec![];
    for r in records {
        blocks.push(Block { kind: "record", span: r, parent: None, title: None, level: 0 });
    }
    let blocks = tidy_blocks(&text, blocks);
    Extracted { format, text, blocks, fields, warnings, ..Default::default() }
}

/// A JSON document.
pub fn extract_json(text: String) -> Extracted {
    let mut j = Json { text: &text, b: text.as_bytes(), fields: vec![], records: vec![], keys: Default::default() };
    let result = j.value(0, "", 0, 0).and_then(|end| if j.ws(end) == text.len() { Ok(end) } else { Err(j.ws(end)) });
    let (fields, records, warnings) = match result {
        Ok(_) => (std::mem::take(&mut j.fields), std::mem::take(&mut j.records), vec![]),
        Err(at) => (vec![], vec![], vec![format!("invalid JSON at byte {at}: ingested as text, no fields")]),
    };
    finish("json", text, fields, records, warnings)
}

/// A JSON Lines document: each non-blank line is a record (numbered from 0) whose leaves
/// are fields; lines that are not JSON stay text, counted in one warning.
pub fn extract_jsonl(text: String) -> Extracted {
    let mut j = Json { text: &text, b: text.as_bytes(), fields: vec![], records: vec![], keys: Default::default() };
    let mut records = vec![];
    let mut bad = 0usize;
    let mut pos = 0usize;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let end = start + line.trim_end().len();
        if line.trim().is_empty() {
            continue;
        }
        let before = j.fields.len();
        let record = records.len() as u32;
        match j.value(start, "", record, 1) {
            Ok(stop) if stop <= end && text[stop..end].trim().is_empty() => records.push((start, end)),
            _ => {
                j.fields.truncate(before);
                bad += 1;
            }
        }
    }
    let fields = std::mem::take(&mut j.fields);
    let warnings = if bad > 0 { vec![format!("{bad} lines are not valid JSON: kept as text, no fields")] } else { vec![] };
    finish("jsonl", text, fields, records, warnings)
}

/// Flattens a parsed value into (record, path, scalar text) leaves.
fn leaves(v: &serde_json::Value, path: &str, record: u32, depth: usize, out: &mut Vec<(u32, String, String)>) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                leaves(x, &p, record, depth + 1, out);
            }
        }
        serde_json::Value::Array(a) => {
            for (n, x) in a.iter().enumerate() {
                if depth == 0 {
                    leaves(x, "", n as u32, depth + 1, out);
                } else {
                    leaves(x, &format!("{path}[{n}]"), record, depth + 1, out);
                }
            }
        }
        serde_json::Value::String(s) => out.push((record, if path.is_empty() { "value".into() } else { path.into() }, s.clone())),
        serde_json::Value::Null => {}
        other => out.push((record, if path.is_empty() { "value".into() } else { path.into() }, other.to_string())),
    }
}

/// Largest YAML/TOML text whose fields are located by search (the search is
/// quadratic in the worst case); larger files are ingested as text with a warning.
const MAX_LOCATED_BYTES: usize = 1024 * 1024;

/// Locates each leaf in the text: its value after its key, else its key.
fn locate(text: &str, leaves: Vec<(u32, String, String)>) -> Vec<Field> {
    let mut out = vec![];
    if text.len() > MAX_LOCATED_BYTES {
        return out;
    }
    let mut keys = FieldKeys::default();
    for (record, path, value) in leaves {
        let key = path.rsplit('.').next().unwrap_or(&path);
        let key = key.split('[').next().unwrap_or(key);
        let kpos = if key.is_empty() { Some(0) } else { text.find(key) };
        let Some(k) = kpos else { continue };
        let from = k + key.len();
        let span = match text[from..].find(value.as_str()).filter(|_| !value.is_empty()) {
            Some(v) => (from + v, from + v + value.len()),
            None if !key.is_empty() => (k, from),
            None => continue,
        };
        out.push(Field::new(record, keys.key(&path), &value, span, text));
    }
    out
}

fn too_big(text: &str) -> Vec<String> {
    if text.len() > MAX_LOCATED_BYTES { vec![format!("over {MAX_LOCATED_BYTES} bytes: ingested as text, no fields")] } else { vec![] }
}

/// A YAML document.
pub fn extract_yaml(text: String) -> Extracted {
    match serde_saphyr::from_str::<serde_json::Value>(&text) {
        Ok(v) => {
            let mut ls = vec![];
            leaves(&v, "", 0, 0, &mut ls);
            let fields = locate(&text, ls);
            let warnings = too_big(&text);
            finish("yaml", text, fields, vec![], warnings)
        }
        Err(e) => {
            let msg = e.to_string();
            let w = format!("invalid YAML ({}): ingested as text, no fields", msg.lines().next().unwrap_or(""));
            finish("yaml", text, vec![], vec![], vec![w])
        }
    }
}

fn toml_to_json(v: &toml::Value) -> serde_json::Value {
    match v {
        toml::Value::String(s) => serde_json::Value::String(s.clone()),
        toml::Value::Integer(i) => serde_json::Value::String(i.to_string()),
        toml::Value::Float(f) => serde_json::Value::String(f.to_string()),
        toml::Value::Boolean(b) => serde_json::Value::Bool(*b),
        toml::Value::Datetime(d) => serde_json::Value::String(d.to_string()),
        toml::Value::Array(a) => serde_json::Value::Array(a.iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => serde_json::Value::Object(t.iter().map(|(k, v)| (k.clone(), toml_to_json(v))).collect()),
    }
}

/// A TOML document.
pub fn extract_toml(text: String) -> Extracted {
    match text.parse::<toml::Table>() {
        Ok(t) => {
            let v = toml_to_json(&toml::Value::Table(t));
            let mut ls = vec![];
            // A TOML document is a table: record 0 throughout (depth 1 so arrays stay in paths).
            if let serde_json::Value::Object(m) = &v {
                for (k, x) in m {
                    leaves(x, k, 0, 1, &mut ls);
                }
            }
            let fields = locate(&text, ls);
            let warnings = too_big(&text);
            finish("toml", text, fields, vec![], warnings)
        }
        Err(e) => {
            let msg = e.to_string();
            let w = format!("invalid TOML ({}): ingested as text, no fields", msg.lines().next().unwrap_or(""));
            finish("toml", text, vec![], vec![], vec![w])
        }
    }
}
