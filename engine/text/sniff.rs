//! Does a file look like the language it was given as? Error messages show a source line
//! with a caret only for files that do, so pointing `tg run`, `#include`, `tg load`,
//! `:load` or `gql --script` at an unrelated file (`/etc/passwd`) says what the file is
//! not instead of printing its first line.

/// The text after leading whitespace and `//` / `/* */` comments (and `#`-less lines).
fn after_comments(mut t: &str) -> &str {
    loop {
        t = t.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if let Some(rest) = t.strip_prefix("//") {
            t = rest.split_once('\n').map_or("", |x| x.1);
        } else if let Some(rest) = t.strip_prefix("/*") {
            t = rest.split_once("*/").map_or("", |x| x.1);
        } else {
            return t;
        }
    }
}

/// Whether `text` begins like a Datalog program: a directive (`.decl`, `#include`) or an
/// atom (`name(`), a rule (`name :-`) or a statement end (`name.`) — or is empty.
pub fn looks_like_datalog(text: &str) -> bool {
    let t = after_comments(text);
    if t.is_empty() || t.starts_with('.') || t.starts_with('#') {
        return true;
    }
    let ident = t.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '?')).unwrap_or(t.len());
    if ident == 0 {
        return false;
    }
    let rest = t[ident..].trim_start();
    rest.starts_with('(') || rest.starts_with(":-") || rest.starts_with('.') || rest.is_empty()
}

/// Whether `text` begins like a Cypher script or query: its first word is a clause
/// keyword (`CREATE`, `MATCH`, …), or it is empty.
pub fn looks_like_cypher(text: &str) -> bool {
    let t = after_comments(text);
    let word: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect::<String>().to_ascii_uppercase();
    t.is_empty()
        || ["CREATE", "MATCH", "MERGE", "UNWIND", "WITH", "RETURN", "OPTIONAL", "CALL", "DELETE", "DETACH", "SET", "REMOVE", "FOREACH", "USE", "EXPLAIN", "PROFILE"]
            .contains(&word.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_files_are_neither() {
        for t in ["root:x:0:0:root:/root:/bin/bash\n", "root:$6$abc$def:19000:0:99999:7:::\n", "127.0.0.1 localhost\n", "[section]\nkey=1\n"] {
            assert!(!looks_like_datalog(t), "{t}");
            assert!(!looks_like_cypher(t), "{t}");
        }
    }

    #[test]
    fn programs_and_scripts_are() {
        for t in ["// c\n.decl p(x: number)", "p(1).", "path(x, y) :- edge(x, y).", "#include \"a.dl\"", "/* x */ q(\"a\")."] {
            assert!(looks_like_datalog(t), "{t}");
        }
        for t in ["CREATE (a)", "// x\nmatch (n) return n", "UNWIND [1] AS x RETURN x"] {
            assert!(looks_like_cypher(t), "{t}");
        }
    }
}
