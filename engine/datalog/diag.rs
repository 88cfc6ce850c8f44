//! Diagnostics: stable codes, `file:line:col`, a caret line and a note.
//!
//! Every stage reports problems as [`Diagnostic`]s against a [`SourceMap`],
//! which owns the text of every file read (main program and `#include`s), so
//! a diagnostic can be rendered long after parsing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A byte range in one source file of the [`SourceMap`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Index of the file in the source map.
    pub file: u32,
    /// Start byte offset.
    pub start: u32,
    /// End byte offset (exclusive).
    pub end: u32,
}

impl Span {
    /// A span covering `a` through `b` (same file assumed).
    pub fn to(self, b: Span) -> Span {
        Span { file: self.file, start: self.start.min(b.start), end: self.end.max(b.end) }
    }
}

/// All source files read for one program.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<(PathBuf, String)>,
}

impl SourceMap {
    /// Registers a file's text and returns its index.
    pub fn add(&mut self, path: PathBuf, text: String) -> u32 {
        self.files.push((path, text));
        (self.files.len() - 1) as u32
    }

    /// The text of file `i`.
    pub fn text(&self, i: u32) -> &str {
        self.files.get(i as usize).map(|f| f.1.as_str()).unwrap_or("")
    }

    /// The path of file `i`.
    pub fn path(&self, i: u32) -> &Path {
        self.files.get(i as usize).map(|f| f.0.as_path()).unwrap_or(Path::new("<unknown>"))
    }

    /// The snippet of source covered by a span.
    pub fn snippet(&self, s: Span) -> &str {
        self.text(s.file).get(s.start as usize..s.end as usize).unwrap_or("")
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: u32, offset: u32) -> (usize, usize) {
        let text = self.text(file);
        let off = (offset as usize).min(text.len());
        let before = &text[..floor_char_boundary(text, off)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
        (line, col)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The program is rejected.
    Error,
    /// Reported, evaluation continues.
    Warning,
}

/// One reported problem, with a stable code such as `TG0202`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Stable code: `TG01xx` syntax, `TG02xx` names/arity/groundedness, `TG03xx` types,
    /// `TG04xx` stratification, `TG05xx` unsupported, `TG06xx` IO, `TG07xx` components.
    pub code: &'static str,
    /// One-line message, lowercase, no trailing period.
    pub message: String,
    /// Where, if known.
    pub span: Option<Span>,
    /// Extra explanation printed under the caret.
    pub note: Option<String>,
}

impl Diagnostic {
    /// An error at a span.
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, code, message: message.into(), span: Some(span), note: None }
    }

    /// An error with no location (IO, command line).
    pub fn global(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, code, message: message.into(), span: None, note: None }
    }

    /// A warning at a span.
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, code, message: message.into(), span: Some(span), note: None }
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Renders as `error[TG0202]: msg\n --> file:line:col\n  |\nN | src\n  |   ^^^\n  = note: …`.
    pub fn render(&self, sm: &SourceMap) -> String {
        let mut out = String::new();
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "{sev}[{}]: {}", self.code, self.message);
        if let Some(span) = self.span {
            let (line, col) = sm.line_col(span.file, span.start);
            let _ = writeln!(out, "  --> {}:{}:{}", sm.path(span.file).display(), line, col);
            let text = sm.text(span.file);
            let src_line = text.lines().nth(line - 1).or(if line > 1 { None } else { Some("") });
            if let Some(src_line) = src_line {
                let gutter = line.to_string();
                let pad = " ".repeat(gutter.len());
                let (end_line, end_col) = sm.line_col(span.file, span.end.max(span.start + 1) - 1);
                let width = if end_line == line { end_col.saturating_sub(col) + 1 } else { src_line.chars().count().saturating_sub(col - 1).max(1) };
                let _ = writeln!(out, "{pad} |");
                let _ = writeln!(out, "{gutter} | {src_line}");
                let _ = writeln!(out, "{pad} | {}{}", " ".repeat(col - 1), "^".repeat(width.max(1)));
            }
        }
        if let Some(note) = &self.note {
            let _ = writeln!(out, "  = note: {note}");
        }
        out
    }
}

/// A list of diagnostics collected by one stage.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Adds one.
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    /// True when any error (not warning) was reported.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }

    /// Renders all of them in the order reported.
    pub fn render(&self, sm: &SourceMap) -> String {
        self.0.iter().map(|d| d.render(sm)).collect::<Vec<_>>().join("\n")
    }
}
