//! Soufflé-compatible fact IO: `<rel>.facts` in, `<rel>.csv` (or stdout) out.
//!
//! Inputs honour `IO=file|stdin`, `filename=`, `delimiter=`, `headers=true` and
//! `rfc4180=true`; outputs the same plus `IO=stdout`. Output rows are sorted by
//! value (numbers numerically, symbols by text), so two runs print the same bytes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::diag::Diagnostic;
use super::logic::{IoSpec, Kind, LogicProgram, LogicRelation, RelId};
use super::value::Values;

/// Where outputs go.
#[derive(Clone, Debug)]
pub enum OutputDir {
    /// Write `<rel>.csv` files into this directory.
    Dir(PathBuf),
    /// Print every output relation to stdout (`-D -`).
    Stdout,
}

/// `filename=` of an `.input`/`.output` resolved against its folder (`-F` or `-D`). Unless
/// `allow` (`tg run --allow-paths`), the result must stay inside that folder: an absolute
/// path or `..` that leaves it is an error (Soufflé reads and writes anywhere; a rule file
/// from someone else should not).
fn confined(base: &Path, name: &str, allow: bool, what: &str, rel: &str, flag: &str) -> Result<PathBuf, Diagnostic> {
    let path = if Path::new(name).is_absolute() { PathBuf::from(name) } else { base.join(name) };
    if allow {
        return Ok(path);
    }
    let normal = |p: &Path| -> PathBuf {
        let abs = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(p) };
        let mut out = PathBuf::new();
        for c in abs.components() {
            match c {
                std::path::Component::ParentDir => {
                    out.pop();
                }
                std::path::Component::CurDir => {}
                other => out.push(other.as_os_str()),
            }
        }
        out
    };
    let inside = normal(&path).starts_with(normal(base))
        // Links inside the folder that lead out of it count as outside too.
        && path.canonicalize().ok().zip(base.canonicalize().ok()).is_none_or(|(p, b)| p.starts_with(b));
    if inside {
        Ok(path)
    } else {
        Err(Diagnostic::global("TG0608", format!("{what} {} of relation {rel} is outside the folder {} ({flag}); pass --allow-paths to allow it", path.display(), base.display())))
    }
}

fn unescape_delim(d: &str) -> String {
    d.replace("\\t", "\t").replace("\\n", "\n")
}

/// Reads every `.input` relation into rows of words.
/// `filename=` may not leave `fact_dir` unless `allow_paths`.
pub fn read_inputs(prog: &LogicProgram, fact_dir: &Path, allow_paths: bool, values: &mut Values) -> Result<Vec<(RelId, Vec<u32>)>, Diagnostic> {
    let mut out = vec![];
    for (r, rel) in prog.relations.iter().enumerate() {
        for spec in &rel.inputs {
            let io = spec.get("IO").unwrap_or("file");
            let text = match io {
                "file" => {
                    let name = spec.get("filename").map(str::to_string).unwrap_or_else(|| format!("{}.facts", rel.name));
                    let path = confined(fact_dir, &name, allow_paths, "fact file", &rel.name, "-F")?;
                    match std::fs::read(&path) {
                        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
                        Err(e) => {
                            return Err(Diagnostic::global("TG0602", format!("cannot open fact file {} for relation {}: {e}", path.display(), rel.name)));
                        }
                    }
                }
                "stdin" => {
                    let mut s = String::new();
                    let _ = std::io::Read::read_to_string(&mut std::io::stdin(), &mut s);
                    s
                }
                other => return Err(Diagnostic::global("TG0604", format!("input IO type '{other}' of relation {} is not supported", rel.name))),
            };
            let origin = match io {
                "file" => {
                    let name = spec.get("filename").map(str::to_string).unwrap_or_else(|| format!("{}.facts", rel.name));
                    if Path::new(&name).is_absolute() { name } else { fact_dir.join(&name).display().to_string() }
                }
                _ => "<stdin>".to_string(),
            };
            let rows = parse_rows(prog, rel, spec, &text, &origin, values)?;
            out.push((r, rows));
        }
    }
    Ok(out)
}

fn parse_rows(prog: &LogicProgram, rel: &LogicRelation, spec: &IoSpec, text: &str, origin: &str, values: &mut Values) -> Result<Vec<u32>, Diagnostic> {
    let rfc = spec.get("rfc4180") == Some("true");
    let delim = spec.get("delimiter").map(unescape_delim).unwrap_or_else(|| if rfc { ",".into() } else { "\t".into() });
    let headers = spec.get("headers") == Some("true");
    let has_records = rel.kinds.iter().any(|k| matches!(k, Kind::Record(_)));
    let records: Vec<Vec<String>> = if rfc { split_rfc4180(text, &delim) } else { split_plain(text, &delim, rel.arity(), has_records) };
    let mut rows = vec![];
    for (lineno, fields) in records.into_iter().enumerate() {
        if headers && lineno == 0 {
            continue;
        }
        if fields.len() == 1 && fields[0].is_empty() && rel.arity() != 0 {
            continue;
        }
        if fields.len() != rel.arity() && !(rel.arity() == 0 && fields.len() <= 1) {
            return Err(Diagnostic::global("TG0605", format!("{origin}:{}: relation {} has {} column(s), this line has {}", lineno + 1, rel.name, rel.arity(), fields.len())));
        }
        for (c, f) in fields.iter().enumerate().take(rel.arity()) {
            let w = parse_value(prog, rel.kinds[c], f, values).ok_or_else(|| {
                Diagnostic::global(
                    "TG0605",
                    format!("{origin}:{}: column {} ({}) of relation {}: '{f}' is not a {}", lineno + 1, c + 1, rel.attr_names[c], rel.name, rel.attr_types[c]),
                )
            })?;
            rows.push(w);
        }
        if rel.arity() == 0 {
            rows.push(0);
        }
    }
    Ok(rows)
}

fn split_plain(text: &str, delim: &str, arity: usize, bracketed: bool) -> Vec<Vec<String>> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if body.is_empty() {
        return vec![];
    }
    body.split('\n')
        .map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            if bracketed {
                split_outside_brackets(l, delim, arity.max(1))
            } else {
                // Columns beyond the relation's arity are ignored, as Soufflé does.
                l.split(delim).take(arity.max(1)).map(str::to_string).collect()
            }
        })
        .collect()
}

/// Splits a line on `delim`, but not inside `[…]` records or `"…"` strings within them.
fn split_outside_brackets(line: &str, delim: &str, arity: usize) -> Vec<String> {
    let mut out = vec![];
    let (mut depth, mut quoted, mut start) = (0i32, false, 0usize);
    let mut i = 0;
    let b = line.as_bytes();
    while i < b.len() {
        match b[i] {
            b'"' if depth > 0 => quoted = !quoted,
            b'[' if !quoted => depth += 1,
            b']' if !quoted => depth -= 1,
            _ if depth == 0 && !quoted && line[i..].starts_with(delim) && out.len() + 1 < arity => {
                out.push(line[start..i].to_string());
                i += delim.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(line[start..].to_string());
    out
}

fn split_rfc4180(text: &str, delim: &str) -> Vec<Vec<String>> {
    let mut records = vec![];
    let mut fields = vec![];
    let mut cur = String::new();
    let mut in_quotes = false;
    let mut chars = text.chars().peekable();
    let d = delim.chars().next().unwrap_or(',');
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        if in_quotes {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    cur.push('"');
                    chars.next();
                } else {
                    in_quotes = false;
                }
            } else {
                cur.push(c);
            }
        } else if c == '"' {
            in_quotes = true;
        } else if c == d {
            fields.push(std::mem::take(&mut cur));
        } else if c == '\n' {
            fields.push(std::mem::take(&mut cur));
            records.push(std::mem::take(&mut fields));
            any = false;
        } else if c != '\r' {
            cur.push(c);
        }
    }
    if any {
        fields.push(cur);
        records.push(fields);
    }
    records
}

/// Parses one field of a fact file as a word of a kind (records as `[a, b]`).
pub fn parse_value(prog: &LogicProgram, kind: Kind, f: &str, values: &mut Values) -> Option<u32> {
    match kind {
        Kind::Symbol => Some(values.intern(f)),
        Kind::Number => parse_i64(f.trim()).and_then(|v| i32::try_from(v).ok().or_else(|| u32::try_from(v).ok().map(|u| u as i32))).map(|v| v as u32),
        Kind::Unsigned => parse_i64(f.trim()).and_then(|v| u32::try_from(v).ok()),
        Kind::Float => f.trim().parse::<f32>().ok().map(f32::to_bits),
        Kind::Record(t) => {
            let mut p = RecordParser { s: f.trim().as_bytes(), i: 0 };
            let w = p.record(prog, t, values)?;
            p.skip_ws();
            (p.i == p.s.len()).then_some(w)
        }
    }
}

fn parse_i64(s: &str) -> Option<i64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok();
    }
    if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        return i64::from_str_radix(b, 2).ok();
    }
    s.parse().ok()
}

struct RecordParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl RecordParser<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn record(&mut self, prog: &LogicProgram, t: usize, values: &mut Values) -> Option<u32> {
        self.skip_ws();
        if self.s[self.i..].starts_with(b"nil") {
            self.i += 3;
            return Some(0);
        }
        if self.s.get(self.i) != Some(&b'[') {
            return None;
        }
        self.i += 1;
        let kinds: Vec<Kind> = prog.records.get(t)?.fields.iter().map(|f| f.1).collect();
        let mut ws = vec![];
        for (n, k) in kinds.iter().enumerate() {
            self.skip_ws();
            if n > 0 {
                if self.s.get(self.i) != Some(&b',') {
                    return None;
                }
                self.i += 1;
                self.skip_ws();
            }
            let w = match k {
                Kind::Record(t2) => self.record(prog, *t2, values)?,
                _ => {
                    let tok = self.token();
                    parse_value(prog, *k, &tok, values)?
                }
            };
            ws.push(w);
        }
        self.skip_ws();
        if self.s.get(self.i) != Some(&b']') {
            return None;
        }
        self.i += 1;
        Some(values.pack(&ws))
    }

    fn token(&mut self) -> String {
        self.skip_ws();
        if self.s.get(self.i) == Some(&b'"') {
            self.i += 1;
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i] != b'"' {
                if self.s[self.i] == b'\\' {
                    self.i += 1;
                }
                self.i += 1;
            }
            let t = String::from_utf8_lossy(&self.s[start..self.i.min(self.s.len())]).into_owned();
            self.i += 1;
            return t;
        }
        let start = self.i;
        while self.i < self.s.len() && !matches!(self.s[self.i], b',' | b']') {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.i]).trim().to_string()
    }
}

/// The rows of a relation in value order (numbers numerically, symbols by text).
///
/// Each word is mapped to a key whose unsigned order is the value order, so the sort
/// compares plain words; only record columns need the general comparator.
fn value_order<'a>(prog: &LogicProgram, r: RelId, rows: &'a [u32], stride: usize, values: &Values) -> Vec<&'a [u32]> {
    let rel = &prog.relations[r];
    let mut sorted: Vec<&[u32]> = rows.chunks_exact(stride).collect();
    if rel.kinds.iter().any(|k| matches!(k, Kind::Record(_))) {
        sorted.sort_by(|a, b| {
            for (c, k) in rel.kinds.iter().enumerate() {
                let o = values.cmp(*k, a[c], b[c], &prog.records);
                if o.is_ne() {
                    return o;
                }
            }
            std::cmp::Ordering::Equal
        });
        return sorted;
    }
    if rel.kinds.iter().all(|k| *k == Kind::Unsigned) {
        return sorted; // `rows` come sorted by word, which is unsigned order
    }
    let ranks = if rel.kinds.contains(&Kind::Symbol) { values.symbol_ranks() } else { vec![] };
    let key = |k: Kind, w: u32| match k {
        Kind::Number => w ^ 0x8000_0000,
        Kind::Float if w & 0x8000_0000 != 0 => !w,
        Kind::Float => w | 0x8000_0000,
        Kind::Symbol => ranks.get(w as usize).copied().unwrap_or(w),
        _ => w,
    };
    // Flat rows of (keys…, position): sorted with the relation's fixed-width row sort.
    let w = rel.arity() + 1;
    let mut keyed: Vec<u32> = Vec::with_capacity(sorted.len() * w);
    for (i, row) in sorted.iter().enumerate() {
        keyed.extend(rel.kinds.iter().enumerate().map(|(c, k)| key(*k, row[c])));
        keyed.push(i as u32);
    }
    super::relation::sort_dedup(&mut keyed, w);
    keyed.chunks_exact(w).map(|k| sorted[k[w - 1] as usize]).collect()
}

/// Renders a relation's rows as Soufflé does, sorted by value.
pub fn render_rows(prog: &LogicProgram, r: RelId, rows: &[u32], stride: usize, values: &Values, delim: &str, rfc: bool) -> String {
    let rel = &prog.relations[r];
    let sorted = value_order(prog, r, rows, stride, values);
    let mut out = String::new();
    for row in sorted {
        for (c, k) in rel.kinds.iter().enumerate() {
            if c > 0 {
                out.push_str(delim);
            }
            if rfc {
                let mut cell = String::new();
                values.render(*k, row[c], &prog.records, &mut cell);
                let _ = write!(out, "\"{}\"", cell.replace('"', "\"\""));
            } else {
                values.render(*k, row[c], &prog.records, &mut out);
            }
        }
        if rel.arity() == 0 {
            out.push_str("()");
        }
        out.push('\n');
    }
    out
}

/// Writes one `.output` of a relation; returns text destined for stdout, if any.
/// `filename=` may not leave the output folder unless `allow_paths`.
#[allow(clippy::too_many_arguments)]
pub fn write_output(
    prog: &LogicProgram,
    r: RelId,
    spec: &IoSpec,
    rows: &[u32],
    stride: usize,
    values: &Values,
    dir: &OutputDir,
    allow_paths: bool,
) -> Result<Option<String>, Diagnostic> {
    let rel = &prog.relations[r];
    let rfc = spec.get("rfc4180") == Some("true");
    let delim = spec.get("delimiter").map(unescape_delim).unwrap_or_else(|| if rfc { ",".into() } else { "\t".into() });
    let to_stdout = matches!(dir, OutputDir::Stdout) || spec.get("IO") == Some("stdout");
    let headers = spec.get("headers") == Some("true") || matches!(dir, OutputDir::Stdout);
    let body = render_rows(prog, r, rows, stride, values, &delim, rfc);
    let header = rel.attr_names.join(&delim);
    if to_stdout {
        let mut s = format!("---------------\n{}\n", rel.name);
        if headers && rel.arity() > 0 {
            s.push_str(&header);
            s.push('\n');
        }
        s.push_str("===============\n");
        s.push_str(&body);
        s.push_str("===============\n");
        return Ok(Some(s));
    }
    let OutputDir::Dir(d) = dir else { return Ok(None) };
    let name = spec.get("filename").map(str::to_string).unwrap_or_else(|| format!("{}.csv", rel.name));
    let path = confined(d, &name, allow_paths, "output file", &rel.name, "-D")?;
    let mut text = String::new();
    if headers {
        text.push_str(&header);
        text.push('\n');
    }
    text.push_str(&body);
    if let Some(parent) = path.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    std::fs::write(&path, text).map_err(|e| Diagnostic::global("TG0606", format!("cannot write output file {}: {e}", path.display())))?;
    Ok(None)
}
