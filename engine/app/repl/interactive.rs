//! The interactive session on a terminal (rustyline): the `tg> ` prompt, a `...> `
//! continuation prompt until the input is complete, history kept per user, and tab
//! completion of meta-commands, relation names, entity names and GQL keywords.
//! Ctrl-C drops the input being typed or cancels the running query; Ctrl-D or `:quit`
//! ends the session.

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use super::{Session, input, meta, render_error};

/// The prompt of a new input.
pub const PROMPT: &str = "tg> ";
/// The prompt of an input's further lines.
pub const CONTINUATION: &str = "...> ";

/// GQL keywords offered by completion.
pub const GQL_KEYWORDS: &[&str] = &[
    "MATCH",
    "OPTIONAL MATCH",
    "WHERE",
    "WITH",
    "UNWIND",
    "RETURN",
    "ORDER BY",
    "SKIP",
    "LIMIT",
    "DISTINCT",
    "AS",
    "AND",
    "OR",
    "NOT",
    "XOR",
    "IS NULL",
    "IS NOT NULL",
    "IN",
    "STARTS WITH",
    "ENDS WITH",
    "CONTAINS",
    "UNION",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "ASC",
    "DESC",
    "count",
    "collect",
    "shortestPath",
];

/// What completion knows: relation names (updated as the session defines more) and
/// entity names (the surfaces mentioned in the store).
#[derive(Debug, Default)]
pub struct TgHelper {
    /// Relation names of the session's program, sorted.
    pub relations: Vec<String>,
    /// Entity names as documents write them, sorted.
    pub entities: Vec<String>,
}

impl TgHelper {
    /// Candidates for the text before the cursor: `(start, candidates)`.
    pub fn candidates(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = &line[..pos.min(line.len())];
        // Inside an open string: entity names.
        let quotes = before.char_indices().filter(|(i, c)| *c == '"' && !before[..*i].ends_with('\\')).map(|(i, _)| i).collect::<Vec<_>>();
        if quotes.len() % 2 == 1 {
            let start = quotes.last().map_or(0, |q| q + 1);
            let prefix = before[start..].to_lowercase();
            let found = self.entities.iter().filter(|e| e.to_lowercase().starts_with(&prefix)).map(|e| format!("{e}\"")).take(200).collect();
            return (start, found);
        }
        let start = before.char_indices().rev().find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == ':' || *c == '.')).map_or(0, |(i, c)| i + c.len_utf8());
        let word = &before[start..];
        if word.starts_with(':') && before.trim_start().len() == word.len() {
            return (start, meta::COMMANDS.iter().map(|c| c.0.to_string()).filter(|c| c.starts_with(word)).collect());
        }
        if word.is_empty() {
            return (start, vec![]);
        }
        let mut out: Vec<String> = self.relations.iter().filter(|r| r.starts_with(word)).cloned().collect();
        let upper = word.to_uppercase();
        out.extend(GQL_KEYWORDS.iter().filter(|k| k.to_uppercase().starts_with(&upper) && word.chars().next().is_some_and(|c| c.is_ascii_uppercase())).map(|k| k.to_string()));
        (start, out)
    }
}

impl Completer for TgHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, found) = self.candidates(line, pos);
        Ok((start, found.into_iter().map(|c| Pair { display: c.clone(), replacement: c }).collect()))
    }
}

impl Hinter for TgHelper {
    type Hint = String;
}

impl Highlighter for TgHelper {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(&'s self, prompt: &'p str, _default: bool) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }
}

impl Validator for TgHelper {}

impl Helper for TgHelper {}

/// Set by SIGINT while an input is evaluated (the terminal is not in raw mode then).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Makes Ctrl-C during an evaluation set `INTERRUPTED` instead of ending the process.
fn catch_sigint() {
    let handler: extern "C" fn(libc::c_int) = on_sigint;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    #[allow(unsafe_code)]
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

/// Runs one input. A query (Datalog or GQL) runs under a cancellation token, with a
/// watcher thread that turns Ctrl-C into cancelling it: the evaluation stops at its next
/// check, and the session returns to the prompt with nothing of the interrupted query kept.
fn execute(session: &mut Session, text: &str, label: &str) -> Result<super::Outcome, super::ReplError> {
    if !matches!(input::classify(text), input::Kind::Query | input::Kind::Gql) {
        return session.execute(text, label);
    }
    INTERRUPTED.store(false, Ordering::SeqCst);
    let token = tg_limits::cancel::Token::new();
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(20));
                if INTERRUPTED.swap(false, Ordering::SeqCst) {
                    token.cancel();
                }
            }
        });
        let r = tg_limits::cancel::with_token(&token, || session.execute(text, label));
        done.store(true, Ordering::SeqCst);
        r
    });
    // A budget that tripped ends this query only; the next one starts afresh.
    let budget = tg_limits::budget::tripped();
    tg_limits::budget::reset();
    match result {
        Err(super::ReplError::Interrupted) if budget.is_some() => Ok(super::Outcome { output: format!("(stopped: {})\n", budget.unwrap_or_default()), quit: false }),
        Err(super::ReplError::Interrupted) => Ok(super::Outcome { output: "(interrupted)\n".into(), quit: false }),
        r => r,
    }
}

/// Relation names of the session's program.
fn relation_names(session: &Session) -> Vec<String> {
    let mut names: Vec<String> = session.compile().map(|c| c.prog.relations.iter().map(|r| r.name.clone()).collect()).unwrap_or_default();
    names.sort();
    names.dedup();
    names
}

/// Entity names mentioned in the store (at most 100,000, sorted).
fn entity_names(session: &Session) -> Vec<String> {
    let mut names = std::collections::BTreeSet::new();
    if let Ok(rows) = session.store().lookup("mention", &[]) {
        for row in rows {
            if let Some(tg_store::Value::Sym(s)) = row.get(2) {
                names.insert(s.clone());
                if names.len() >= 100_000 {
                    break;
                }
            }
        }
    }
    names.into_iter().collect()
}

/// Runs the interactive loop; returns the exit status (0: the session ended normally).
pub fn run(session: &mut Session, history: Option<&Path>, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let config = rustyline::Config::builder().auto_add_history(false).completion_type(rustyline::CompletionType::List).build();
    let mut rl: Editor<TgHelper, FileHistory> = match Editor::with_config(config) {
        Ok(rl) => rl,
        Err(e) => {
            let _ = writeln!(err, "tg: cannot start the line editor: {e}");
            return tg_limits::exit::ERROR;
        }
    };
    rl.set_helper(Some(TgHelper { relations: relation_names(session), entities: entity_names(session) }));
    if let Some(h) = history {
        let _ = rl.load_history(h);
    }
    catch_sigint();
    let _ = writeln!(out, "tg repl over {} — :help for commands, Ctrl-D to leave", session.store().path().display());
    let _ = out.flush();
    let mut buf = String::new();
    let mut count = 0usize;
    loop {
        let prompt = if buf.is_empty() { PROMPT } else { CONTINUATION };
        match rl.readline(prompt) {
            Ok(line) => {
                if buf.is_empty() {
                    if input::classify(&line) == input::Kind::Empty {
                        continue;
                    }
                    buf = line;
                } else {
                    buf.push('\n');
                    buf.push_str(&line);
                }
                if !input::is_complete(&buf) {
                    continue;
                }
                let text = std::mem::take(&mut buf);
                let text = text.trim_end();
                let _ = rl.add_history_entry(text);
                if let Some(h) = history {
                    save_history(&mut rl, h);
                }
                count += 1;
                let kind = input::classify(text);
                match execute(session, text, &format!("<input {count}>")) {
                    Ok(o) => {
                        let _ = out.write_all(o.output.as_bytes());
                        let _ = out.flush();
                        if o.quit {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = err.write_all(render_error(&e).as_bytes());
                        let _ = err.flush();
                    }
                }
                if matches!(kind, input::Kind::Clause | input::Kind::Meta)
                    && let Some(h) = rl.helper_mut()
                {
                    h.relations = relation_names(session);
                }
            }
            Err(rustyline::error::ReadlineError::Interrupted) => {
                if !buf.is_empty() {
                    let _ = writeln!(out, "(input cancelled)");
                }
                buf.clear();
            }
            Err(rustyline::error::ReadlineError::Eof) => break,
            Err(e) => {
                let _ = writeln!(err, "tg: {e}");
                break;
            }
        }
    }
    tg_limits::exit::OK
}

fn save_history(rl: &mut Editor<TgHelper, FileHistory>, path: &Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = rl.save_history(path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_commands_relations_keywords_and_entities() {
        let h = TgHelper { relations: vec!["claim".into(), "claim_attr".into(), "same_as".into()], entities: vec!["Acme Trading Ltd".into(), "Beta Holdings SA".into()] };
        assert_eq!(h.candidates(":ti", 3), (0, vec![":timeline".to_string(), ":timing".to_string()]));
        assert_eq!(h.candidates("?- cla", 6), (3, vec!["claim".to_string(), "claim_attr".to_string()]));
        assert_eq!(h.candidates("MATCH (n) RET", 13), (10, vec!["RETURN".to_string()]));
        assert_eq!(h.candidates("?- same_as(X, \"be", 17), (15, vec!["Beta Holdings SA\"".to_string()]));
        assert_eq!(h.candidates("", 0), (0, vec![]));
        assert_eq!(h.candidates("?- é", 5), (5, vec![]));
        assert_eq!(h.candidates("?- éc", 6), (5, vec!["claim".to_string(), "claim_attr".to_string()]));
    }
}
