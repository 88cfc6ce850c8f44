//! What a line of REPL input is, and when an input spanning several lines is complete:
//! a Datalog rule or query ends with its final `.`, a directive at the end of its line,
//! a GQL query with `;` or an empty line, a meta-command at the end of its line.

/// The kind of one REPL input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nothing but blanks or a comment.
    Empty,
    /// `:command args` (`:help`, `:load`, …).
    Meta,
    /// `?- body.`: a Datalog query.
    Query,
    /// A GQL / openCypher query (starts with MATCH, OPTIONAL MATCH, WITH, UNWIND, RETURN or CALL).
    Gql,
    /// A Datalog rule, fact or directive, kept for the session.
    Clause,
}

/// Words that start a GQL query (case-insensitive, followed by a blank or the end).
pub const GQL_STARTS: &[&str] = &["MATCH", "OPTIONAL", "WITH", "UNWIND", "RETURN", "CALL"];

/// Classifies an input by its first characters.
pub fn classify(text: &str) -> Kind {
    let t = text.trim_start();
    if t.is_empty() || only_comments(t) {
        return Kind::Empty;
    }
    if t.starts_with(':') && !t.starts_with(":-") {
        return Kind::Meta;
    }
    if t.starts_with("?-") {
        return Kind::Query;
    }
    let word: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    let after = t[word.len()..].chars().next();
    if GQL_STARTS.iter().any(|k| k.eq_ignore_ascii_case(&word)) && after.is_none_or(char::is_whitespace) {
        return Kind::Gql;
    }
    Kind::Clause
}

fn only_comments(t: &str) -> bool {
    let s = scan(t, false);
    s.last.is_none() && !s.open_string && !s.open_comment
}

/// The result of scanning text outside strings and comments.
#[derive(Debug, Default)]
struct Scan {
    /// The last character that is not blank, not in a comment (a string's closing quote counts).
    last: Option<char>,
    /// Parentheses/brackets/braces open minus closed.
    depth: i64,
    /// The text ends inside a string.
    open_string: bool,
    /// The text ends inside a block comment.
    open_comment: bool,
}

fn scan(text: &str, gql: bool) -> Scan {
    let mut s = Scan::default();
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            if c == '\\' {
                chars.next();
            } else if c == q {
                quote = None;
                s.last = Some(c);
            }
            continue;
        }
        match c {
            '"' => quote = Some('"'),
            '\'' if gql => quote = Some('\''),
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                let mut closed = false;
                for c in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        closed = true;
                        break;
                    }
                    prev = c;
                }
                if !closed {
                    s.open_comment = true;
                }
            }
            '(' | '[' | '{' => {
                s.depth += 1;
                s.last = Some(c);
            }
            ')' | ']' | '}' => {
                s.depth -= 1;
                s.last = Some(c);
            }
            c if c.is_whitespace() => {}
            c => s.last = Some(c),
        }
    }
    s.open_string = quote.is_some();
    s
}

/// Whether `text` (one input, maybe several lines) is complete and can run.
pub fn is_complete(text: &str) -> bool {
    match classify(text) {
        Kind::Empty | Kind::Meta => true,
        Kind::Gql => {
            let s = scan(text, true);
            let blank_last = text.ends_with('\n') || text.lines().last().is_some_and(|l| l.trim().is_empty());
            s.last == Some(';') || (blank_last && !s.open_string)
        }
        Kind::Query | Kind::Clause => {
            let s = scan(text, false);
            if s.open_string || s.open_comment {
                return false;
            }
            if text.trim_start().starts_with('.') && !text.trim_start().starts_with(".(") {
                return s.depth <= 0; // a directive ends with its line once its parentheses close
            }
            s.last == Some('.') // even with unbalanced brackets: the parser then says where
        }
    }
}

/// One complete input of a script, with the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The input's text (lines joined with `\n`).
    pub text: String,
    /// The script line the input starts on.
    pub line: usize,
}

/// Joins the lines of a script into complete inputs.
#[derive(Debug, Default)]
pub struct Accumulator {
    buf: String,
    start: usize,
    line: usize,
}

impl Accumulator {
    /// Adds the next line; returns an input when this line completes one.
    pub fn push_line(&mut self, line: &str) -> Option<Unit> {
        self.line += 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if self.buf.is_empty() {
            if classify(line) == Kind::Empty {
                return None;
            }
            self.start = self.line;
            self.buf.push_str(line);
        } else {
            self.buf.push('\n');
            self.buf.push_str(line);
        }
        if is_complete(&self.buf) {
            return self.take();
        }
        None
    }

    /// Whether part of an input is waiting for more lines.
    pub fn is_pending(&self) -> bool {
        !self.buf.is_empty()
    }

    /// The input still pending at the end of the script, if any (it runs as it is).
    pub fn finish(&mut self) -> Option<Unit> {
        self.take()
    }

    fn take(&mut self) -> Option<Unit> {
        let text = std::mem::take(&mut self.buf);
        let text = text.trim_end().to_string();
        (!text.is_empty()).then_some(Unit { text, line: self.start })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(classify("?- a(X)."), Kind::Query);
        assert_eq!(classify("  :help"), Kind::Meta);
        assert_eq!(classify("match (n) return n"), Kind::Gql);
        assert_eq!(classify("OPTIONAL MATCH (n) RETURN n"), Kind::Gql);
        assert_eq!(classify("returns(X) :- a(X)."), Kind::Clause);
        assert_eq!(classify("with(X) :- a(X)."), Kind::Clause);
        assert_eq!(classify("// note"), Kind::Empty);
        assert_eq!(classify(""), Kind::Empty);
    }

    #[test]
    fn completeness() {
        assert!(!is_complete("p(X) :- q(X),"));
        assert!(is_complete("p(X) :-\n  q(X)."));
        assert!(!is_complete("p(\"a.\""));
        assert!(is_complete("p(\"a.\")."));
        assert!(is_complete(".decl p(x: number)"));
        assert!(!is_complete(".decl p(x: number,"));
        assert!(!is_complete("MATCH (n)"));
        assert!(is_complete("MATCH (n)\nRETURN n;"));
        assert!(is_complete("MATCH (n)\nRETURN n\n"));
        assert!(is_complete(":quit"));
    }

    #[test]
    fn accumulates() {
        let mut a = Accumulator::default();
        assert_eq!(a.push_line(""), None);
        assert_eq!(a.push_line("p(X) :-"), None);
        assert_eq!(a.push_line("  q(X)."), Some(Unit { text: "p(X) :-\n  q(X).".into(), line: 2 }));
        assert_eq!(a.push_line("MATCH (n)"), None);
        assert_eq!(a.push_line("RETURN n"), None);
        assert_eq!(a.push_line(""), Some(Unit { text: "MATCH (n)\nRETURN n".into(), line: 4 }));
        assert_eq!(a.push_line("MATCH (n) RETURN n"), None);
        assert_eq!(a.finish(), Some(Unit { text: "MATCH (n) RETURN n".into(), line: 7 }));
    }
}
