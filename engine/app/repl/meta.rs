//! Meta-commands (`:help`, `:load`, `:save`, `:rules`, `:relations`, `:schema`,
//! `:explain`/`:why`, `:timeline`, `:path`, `:timing`, `:format`, `:quit`).

use std::fmt::Write as _;

use super::output::Format;
use super::{Outcome, ReplError, Session};

/// Every meta-command with its arguments and what it does (`:help` prints this).
pub const COMMANDS: &[(&str, &str, &str)] = &[
    (":help", "", "this list"),
    (":load", "FILE.dl", "add a file's rules, facts and declarations to the session"),
    (":save", "FILE.dl", "write the session's rules, facts and declarations to a file"),
    (":rules", "", "the session's clauses, and the case's rule files"),
    (":relations", "", "every relation with its arity and its stored and derived facts"),
    (":schema", "REL", "a relation's declaration and where it is declared"),
    (":explain", "FACT", "why a stored or derived fact holds, down to cited bytes"),
    (":why", "FACT", "the same as :explain"),
    (":timeline", "ENTITY", "an entity's claims in valid-time order"),
    (":path", "A B", "the most likely chain of claims between two entities"),
    (":timing", "on|off", "print how long each input took"),
    (":format", "table|tsv|json", "how answers are printed"),
    (":quit", "", "end the session (also Ctrl-D)"),
];

/// The examples `:help` shows — a query, a session rule, a query of that rule, a GQL query —
/// each answering over the bundled case (tests/readme.rs runs them there).
pub const EXAMPLES: &[&str] = &[
    "?- same_as(X, \"Organization:beta holdings sa\").",
    "owner_of_owner(A, C) :- controls_directly(A, B), controls_directly(B, C).",
    "?- owner_of_owner(A, C).",
    "MATCH (a)-[c:TRANSFERRED]->(b) RETURN a.name, b.name, c.amount LIMIT 3;",
];

/// The text `:help` prints.
pub fn help() -> String {
    let mut out = String::from("Type a Datalog query, a rule or fact to keep for the session, a GQL query, or a command.\nFor example:\n");
    for e in EXAMPLES {
        let _ = writeln!(out, "  {e}");
    }
    out.push_str("Commands:\n");
    for (c, args, what) in COMMANDS {
        let _ = writeln!(out, "  {:<28} {what}", format!("{c} {args}").trim_end());
    }
    out
}

/// Splits arguments at blanks; `"…"` keeps blanks inside one argument.
pub fn split_words(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

fn text(output: String) -> Result<Outcome, ReplError> {
    Ok(Outcome { output, quit: false })
}

fn need<'a>(arg: &'a str, cmd: &str, what: &str) -> Result<&'a str, ReplError> {
    if arg.is_empty() { Err(ReplError::Usage(format!("{cmd} needs {what}"))) } else { Ok(arg) }
}

/// Runs one meta-command line.
pub fn run(s: &mut Session, line: &str) -> Result<Outcome, ReplError> {
    let line = line.trim();
    let (cmd, arg) = line.split_once(char::is_whitespace).map_or((line, ""), |(c, a)| (c, a.trim()));
    match cmd {
        ":help" | ":h" | ":?" => text(help()),
        ":quit" | ":q" | ":exit" => Ok(Outcome { output: String::new(), quit: true }),
        ":load" => {
            let path = need(arg, ":load", "a file")?;
            let body = std::fs::read_to_string(path).map_err(|source| ReplError::Io { action: "read", path: path.to_string(), source })?;
            s.add_clause(path, &body)?;
            text(String::new())
        }
        ":save" => {
            let path = need(arg, ":save", "a file")?;
            let mut body = String::new();
            for (label, clause) in s.clauses() {
                let _ = writeln!(body, "// {label}\n{}", clause.trim_end());
            }
            std::fs::write(path, &body).map_err(|source| ReplError::Io { action: "write", path: path.to_string(), source })?;
            let n = s.clauses().len();
            text(format!("saved {n} input{} to {path}\n", if n == 1 { "" } else { "s" }))
        }
        ":rules" => {
            let mut out = String::new();
            let files = tg_rules::rulebook::registered(s.store())?;
            let _ = writeln!(out, "case program: stdlib{}", files.iter().map(|f| format!(" + {}", f.path)).collect::<String>());
            if s.clauses().is_empty() {
                out.push_str("session: no rules yet\n");
            } else {
                out.push_str("session:\n");
                for (label, clause) in s.clauses() {
                    let _ = writeln!(out, "  // {label}");
                    for l in clause.trim_end().lines() {
                        let _ = writeln!(out, "  {l}");
                    }
                }
            }
            text(out)
        }
        ":relations" => relations(s),
        ":schema" => schema(s, need(arg, ":schema", "a relation name")?),
        ":explain" | ":why" => {
            let fact = need(arg, cmd, "a fact, e.g. same_as(\"A\", \"B\")")?;
            text(crate::reason::explain(s.store(), fact, 8, false)?.text)
        }
        ":timeline" => {
            let words = split_words(need(arg, ":timeline", "an entity")?);
            let name = words.join(" ");
            let (key, entries) = tg_rules::resolve::views::timeline(s.store(), &name)?;
            text(tg_rules::resolve::render::timeline(&key, &entries))
        }
        ":path" => {
            let words = split_words(arg);
            let [a, b] = words.as_slice() else {
                return Err(ReplError::Usage(":path needs two entities, e.g. :path \"Acme Corp\" \"Beta Ltd\"".into()));
            };
            let v = tg_rules::resolve::views::path(s.store(), a, b, &[], 6)?;
            text(tg_rules::resolve::render::path(&v, &[]))
        }
        ":timing" => {
            s.timing = match arg {
                "on" => true,
                "off" => false,
                _ => return Err(ReplError::Usage(":timing takes on or off".into())),
            };
            text(format!("timing {arg}\n"))
        }
        ":format" => {
            if arg.is_empty() {
                return text(format!("format {}\n", s.format.name()));
            }
            s.format = Format::parse(arg).ok_or_else(|| ReplError::Usage(format!(":format takes table, tsv or json, not {arg}")))?;
            text(format!("format {arg}\n"))
        }
        other => Err(ReplError::UnknownCommand(other.trim_start_matches(':').to_string())),
    }
}

/// `:relations`: every relation of the session's program with its arity, its stored and
/// derived facts in the store, and where it is defined.
fn relations(s: &Session) -> Result<Outcome, ReplError> {
    let c = s.compile()?;
    let mut rows = vec![];
    let session: std::collections::BTreeSet<usize> = c.prog.rules.iter().filter(|r| c.sources.path(r.span.file).display().to_string().starts_with('<')).map(|r| r.head.0).collect();
    for (r, rel) in c.prog.relations.iter().enumerate() {
        let stored = stored_count(s, &rel.name, rel.arity());
        let derived = s.store().derived_facts(&rel.name).map(|d| d.len()).unwrap_or(0);
        let from = if session.contains(&r) || c.sources.path(rel.span.file).display().to_string().starts_with('<') { "session" } else { "" };
        rows.push((rel.name.clone(), rel.arity(), stored, derived, from));
    }
    rows.sort();
    let w = rows.iter().map(|r| r.0.len() + 1 + r.1.to_string().len()).max().unwrap_or(8).max(8);
    let mut out = format!("{:<w$}  {:>8}  {:>8}\n", "relation", "stored", "derived");
    for (name, arity, stored, derived, from) in rows {
        let line = format!("{:<w$}  {stored:>8}  {derived:>8}  {from}", format!("{name}/{arity}"));
        let _ = writeln!(out, "{}", line.trim_end());
    }
    text(out)
}

/// `:schema REL`: the declaration, where it is, and the facts the store holds.
fn schema(s: &Session, name: &str) -> Result<Outcome, ReplError> {
    let c = s.compile()?;
    let Some(rel) = c.prog.relations.iter().find(|r| r.name == name) else {
        return Err(ReplError::Usage(format!("no relation named {name} (:relations lists them)")));
    };
    let attrs: Vec<String> = rel.attr_names.iter().zip(&rel.attr_types).map(|(n, t)| format!("{n}: {t}")).collect();
    let (line, _) = c.sources.line_col(rel.span.file, rel.span.start);
    let stored = stored_count(s, name, rel.arity());
    let derived = s.store().derived_facts(name).map(|d| d.len()).unwrap_or(0);
    text(format!(".decl {name}({})\n  declared at {}:{line}\n  {stored} stored, {derived} derived\n", attrs.join(", "), c.sources.path(rel.span.file).display()))
}

/// How many cited (stored, not derived) facts the store holds for a relation.
fn stored_count(s: &Session, name: &str, arity: usize) -> usize {
    if arity == 0 {
        return s.store().lookup(name, &[]).map(|r| r.len()).unwrap_or(0);
    }
    s.store().fact_words(name).map(|w| w.len() / arity).unwrap_or(0)
}
