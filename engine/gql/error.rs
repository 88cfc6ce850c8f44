//! GQL errors, each carrying its openCypher error class (the TCK's `SyntaxError`,
//! `SemanticError`, `TypeError`, …) and, for compile-time errors, the TCK detail code.

/// The openCypher error classes `tg gql` reports, first on standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorClass {
    /// The text does not parse.
    SyntaxError,
    /// It parses but means nothing (undefined variable, misplaced aggregate, …).
    SemanticError,
    /// A value of the wrong type at run time.
    TypeError,
    /// A `$parameter` without a value.
    ParameterMissing,
    /// A function argument out of its domain.
    ArgumentError,
    /// A deleted or unknown entity.
    EntityNotFound,
    /// The evaluation was cancelled (Ctrl-C in the REPL); not an openCypher class.
    Interrupted,
}

impl std::fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            ErrorClass::SyntaxError => "SyntaxError",
            ErrorClass::SemanticError => "SemanticError",
            ErrorClass::TypeError => "TypeError",
            ErrorClass::ParameterMissing => "ParameterMissing",
            ErrorClass::ArgumentError => "ArgumentError",
            ErrorClass::EntityNotFound => "EntityNotFound",
            ErrorClass::Interrupted => "Interrupted",
        };
        f.write_str(s)
    }
}

/// A query error: class, the TCK's detail code (e.g. `UndefinedVariable`), a lowercase
/// message, and the `line:col` of the offending text when known.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{class}: {message}{}{}", detail_suffix(.class, .detail), pos_suffix(.pos))]
pub struct GqlError {
    /// The openCypher class.
    pub class: ErrorClass,
    /// The TCK detail code, if any.
    pub detail: Option<&'static str>,
    /// What went wrong.
    pub message: String,
    /// 1-based line and column.
    pub pos: Option<(usize, usize)>,
    /// Byte offset of the clause a compile-time check failed in, until [`GqlError::at`]
    /// turns it into `pos` (the checker does not see the text).
    pub offset: Option<usize>,
}

fn detail_suffix(class: &ErrorClass, detail: &Option<&'static str>) -> String {
    match detail {
        // Compile-time errors are all `SyntaxError.<detail>` in the TCK's terms.
        Some(d) if *class == ErrorClass::SemanticError => format!(" (openCypher SyntaxError.{d})"),
        Some(d) => format!(" ({class}.{d})"),
        None => String::new(),
    }
}

fn pos_suffix(pos: &Option<(usize, usize)>) -> String {
    match pos {
        Some((l, c)) => format!(" at {l}:{c}"),
        None => String::new(),
    }
}

impl GqlError {
    /// An error of `class` with a message.
    pub fn new(class: ErrorClass, message: impl Into<String>) -> GqlError {
        GqlError { class, detail: None, message: message.into(), pos: None, offset: None }
    }
    /// A SemanticError with its TCK detail code.
    pub fn semantic(detail: &'static str, message: impl Into<String>) -> GqlError {
        GqlError { class: ErrorClass::SemanticError, detail: Some(detail), message: message.into(), pos: None, offset: None }
    }
    /// A TypeError.
    pub fn type_error(message: impl Into<String>) -> GqlError {
        GqlError { class: ErrorClass::TypeError, detail: Some("InvalidArgumentType"), message: message.into(), pos: None, offset: None }
    }
    /// An ArgumentError.
    pub fn argument(message: impl Into<String>) -> GqlError {
        GqlError { class: ErrorClass::ArgumentError, detail: None, message: message.into(), pos: None, offset: None }
    }
    /// The evaluation was cancelled through its [`tg_limits::cancel::Token`].
    pub fn interrupted() -> GqlError {
        GqlError { class: ErrorClass::Interrupted, detail: None, message: "the query was interrupted".into(), pos: None, offset: None }
    }
    /// A clause would hold more rows than the row budget ([`tg_limits::budget::max_rows`]).
    pub fn too_many_rows(max: usize) -> GqlError {
        GqlError {
            class: ErrorClass::Interrupted,
            detail: None,
            message: format!("the query stopped: a clause held more rows than the budget of {max} (--max-rows)"),
            pos: None,
            offset: None,
        }
    }
    /// Stops an evaluation whose thread's token was cancelled.
    pub fn check_cancelled() -> Result<()> {
        if let Some(reason) = tg_limits::budget::tripped() {
            return Err(GqlError { class: ErrorClass::Interrupted, detail: None, message: format!("the query stopped: {reason}"), pos: None, offset: None });
        }
        if tg_limits::cancel::cancelled() { Err(GqlError::interrupted()) } else { Ok(()) }
    }
    /// Sets the position from a byte offset in `src`.
    pub fn at(mut self, src: &str, offset: usize) -> GqlError {
        self.pos = Some(line_col(src, offset));
        self
    }
}

/// 1-based line and column (in characters) of byte `offset` in `src`.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let before = src.get(..offset.min(src.len())).unwrap_or(src);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Result of GQL operations.
pub type Result<T> = std::result::Result<T, GqlError>;
