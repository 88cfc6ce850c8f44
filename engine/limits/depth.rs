//! Depth limits of programs and queries, checked on the text before any parser runs:
//! the parsers, the lowering and the evaluators recurse over nesting, so a hostile input
//! (thousands of nested parentheses, negations or operators, hundreds of nested
//! components) would otherwise overflow the stack and abort the process. A limit that
//! trips is a diagnostic naming it and the line and column where it tripped.

/// Deepest nesting of brackets `(`, `[`, `{` together with prefix operators (`!`, `-`,
/// `NOT`) in one program or query.
pub const MAX_NESTING: usize = 256;
/// Deepest nesting of `.comp` bodies (braces) in a Datalog program.
pub const MAX_COMPONENT_NESTING: usize = 32;
/// Most binary operators in one clause or query (a chain `1+1+…` nests as deep).
pub const MAX_OPERATORS: usize = 10_000;

/// Which language the text is, for its comments, strings and prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// Soufflé Datalog.
    Datalog,
    /// Cypher / GQL.
    Cypher,
}

/// A limit that tripped: what, and the byte offset where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// The byte offset in the text.
    pub offset: usize,
    /// What passed which limit.
    pub message: String,
}

/// An operand is complete: the prefix operators applied to it end.
fn end_operand(stack: &mut Vec<u8>) {
    while stack.last() == Some(&b'!') {
        stack.pop();
    }
}

/// Checks `text` against the limits above.
pub fn check(text: &str, lang: Lang) -> Result<(), TooDeep> {
    let b = text.as_bytes();
    let mut stack: Vec<u8> = vec![]; // b'(' b'[' b'{' or b'!' (a prefix operator)
    let mut braces = 0usize;
    let mut ops = 0usize;
    let mut i = 0;
    // Whether the previous token ends an operand (then `-` is binary).
    let mut operand = false;
    while i < b.len() {
        let c = b[i];
        // Comments and strings.
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = b[i..].iter().position(|&x| x == b'\n').map_or(b.len(), |p| i + p);
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 2);
            continue;
        }
        if c == b'"' || (c == b'\'' && lang == Lang::Cypher) || (c == b'`' && lang == Lang::Cypher) {
            let mut j = i + 1;
            while j < b.len() && b[j] != c {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            operand = true;
            end_operand(&mut stack);
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let prefix_op = |s: &mut Vec<u8>| s.push(b'!');
        match c {
            b'(' | b'[' | b'{' => {
                stack.push(c);
                if c == b'{' && lang == Lang::Datalog {
                    braces += 1;
                    if braces > MAX_COMPONENT_NESTING {
                        return Err(TooDeep { offset: i, message: format!("components nested deeper than {MAX_COMPONENT_NESTING} levels") });
                    }
                }
                operand = false;
            }
            b')' | b']' | b'}' => {
                end_operand(&mut stack);
                if stack.pop() == Some(b'{') && lang == Lang::Datalog {
                    braces = braces.saturating_sub(1);
                }
                operand = true;
                end_operand(&mut stack);
            }
            b'!' if lang == Lang::Datalog && b.get(i + 1) != Some(&b'=') => {
                prefix_op(&mut stack);
                operand = false;
            }
            b'-' | b'+' if !operand => {
                prefix_op(&mut stack);
            }
            b'+' | b'-' | b'*' | b'/' | b'%' | b'^' | b'<' | b'>' | b'=' | b'&' | b'|' => {
                ops += 1;
                if ops > MAX_OPERATORS {
                    return Err(TooDeep { offset: i, message: format!("more than {MAX_OPERATORS} operators in one {}", if lang == Lang::Datalog { "clause" } else { "query" }) });
                }
                operand = false;
            }
            b',' | b':' | b';' => {
                // A prefix operator applies to one operand: an argument separator ends it.
                while stack.last() == Some(&b'!') {
                    stack.pop();
                }
                operand = false;
                if c == b';' && lang == Lang::Cypher {
                    ops = 0;
                }
            }
            b'.' if lang == Lang::Datalog && !b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                // The end of a clause (or a directive's dot): operator chains start again.
                if !stack.iter().any(|&x| x != b'!') {
                    stack.clear();
                    ops = 0;
                }
                operand = false;
            }
            _ if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 => {
                let mut j = i;
                while j < b.len()
                    && (b[j].is_ascii_alphanumeric()
                        || b[j] == b'_'
                        || b[j] >= 0x80
                        || (lang == Lang::Datalog && b[j] == b'.' && j > i && b.get(j + 1).is_some_and(u8::is_ascii_alphanumeric)))
                {
                    j += 1;
                }
                let word = &text[i..j];
                if lang == Lang::Cypher && word.eq_ignore_ascii_case("NOT") {
                    prefix_op(&mut stack);
                    operand = false;
                } else if word.eq_ignore_ascii_case("AND") || word.eq_ignore_ascii_case("OR") || word.eq_ignore_ascii_case("XOR") {
                    ops += 1;
                    operand = false;
                } else {
                    operand = true;
                    if stack.len() > MAX_NESTING {
                        return Err(TooDeep { offset: i, message: format!("brackets and prefix operators nested deeper than {MAX_NESTING} levels") });
                    }
                    end_operand(&mut stack);
                }
                i = j;
                continue;
            }
            _ => {
                operand = true;
            }
        }
        if stack.len() > MAX_NESTING {
            return Err(TooDeep { offset: i, message: format!("brackets and prefix operators nested deeper than {MAX_NESTING} levels") });
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_trip_and_ordinary_text_passes() {
        let deep = format!("p({}1{}).", "(".repeat(300), ")".repeat(300));
        assert!(check(&deep, Lang::Datalog).is_err());
        let negs = format!("p(x) :- q(x), {}q(x).", "!".repeat(300));
        assert!(check(&negs, Lang::Datalog).is_err());
        let minus = format!("p({}1).", "-".repeat(300));
        assert!(check(&minus, Lang::Datalog).is_err());
        let chain = format!("p({}).", vec!["1"; 20_000].join("+"));
        assert!(check(&chain, Lang::Datalog).is_err());
        let nots = format!("RETURN {}true", "NOT ".repeat(300));
        assert!(check(&nots, Lang::Cypher).is_err());
        // Many clauses, each shallow, are fine; so is a long flat list.
        let many: String = (0..50_000).map(|i| format!("p({i}).\n")).collect();
        assert!(check(&many, Lang::Datalog).is_ok());
        let flat = format!("RETURN [{}]", vec!["-1"; 50_000].join(", "));
        assert!(check(&flat, Lang::Cypher).is_ok());
        assert!(check("p(x) :- q(x), !r(x), x != 1, y = -x - 1.", Lang::Datalog).is_ok());
    }
}
