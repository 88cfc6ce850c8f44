//! `tg repl` on a real pseudo-terminal (rexpect): the prompt, completion of a relation
//! name, a multi-line rule with the continuation prompt, an error with a caret that
//! leaves the session open, Ctrl-C dropping a half-typed input and interrupting a long
//! evaluation, and history across two sessions.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{root, stderr, tg};

fn case(name: &str) -> PathBuf {
    let d = common::scratch("repl_pty", name);
    let corpus = root().join("fixtures/case-files");
    let o = tg(&d, &["build", corpus.to_str().unwrap_or_default(), "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = tg(&d, &["derive", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    d
}

fn session(d: &Path) -> rexpect::session::PtySession {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tg"));
    c.current_dir(d).env_remove("TG_DB").env_remove("XDG_DATA_HOME").env("HOME", d.join("home")).env("TERM", "xterm").args(["repl", "--db", "db"]);
    rexpect::session::spawn_command(c, Some(20_000)).unwrap_or_else(|e| panic!("cannot spawn tg repl: {e}"))
}

/// Types `text` into the session (sent and flushed at once).
fn type_in(p: &mut rexpect::session::PtySession, text: &str) {
    p.send(text).unwrap_or_else(|e| panic!("{e}"));
    p.flush().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn prompt_completion_multiline_errors_ctrl_c_and_history() {
    let d = case("all");
    let mut p = session(&d);
    let ok = |r: Result<String, rexpect::error::Error>| r.unwrap_or_else(|e| panic!("{e}"));
    ok(p.exp_string("tg> "));
    // Tab completes a relation name.
    type_in(&mut p, "?- same_a\t");
    ok(p.exp_string("same_as"));
    type_in(&mut p, "(X, Y).\r");
    // Two merges since the name recogniser finds "Gamma Consulting" without its legal form.
    ok(p.exp_string("Organization:beta holdings sa"));
    ok(p.exp_string("Organization:gamma consulting llc"));
    ok(p.exp_string("(2 rows)"));
    ok(p.exp_string("tg> "));
    // A rule over two lines: the continuation prompt, then the rule is kept.
    type_in(&mut p, "linked(A, C) :-\r");
    ok(p.exp_string("...> "));
    type_in(&mut p, "  same_as(A, C).\r");
    ok(p.exp_string("tg> "));
    type_in(&mut p, "?- linked(A, _).\r");
    ok(p.exp_string("Organization:beta holdings"));
    ok(p.exp_string("Organization:gamma consulting"));
    ok(p.exp_string("(2 rows)"));
    // A syntax error shows a caret and the session goes on.
    type_in(&mut p, "p(X :- q(X).\r");
    ok(p.exp_string("error[TG0101]: syntax error"));
    ok(p.exp_string("1 | p(X :- q(X)."));
    ok(p.exp_string("|     ^"));
    ok(p.exp_string("tg> "));
    // Ctrl-C drops a half-typed multi-line input.
    type_in(&mut p, "?- linked(A,\r");
    ok(p.exp_string("...> "));
    p.send_control('c').unwrap_or_else(|e| panic!("{e}"));
    ok(p.exp_string("(input cancelled)"));
    ok(p.exp_string("tg> "));
    // Ctrl-C during a long evaluation returns to the prompt, and the session goes on.
    type_in(&mut p, ".decl nat(n: number)\r");
    ok(p.exp_string("tg> "));
    type_in(&mut p, "nat(0).\r");
    ok(p.exp_string("tg> "));
    type_in(&mut p, "nat(N + 1) :- nat(N), N < 300000.\r");
    ok(p.exp_string("tg> "));
    type_in(&mut p, "?- nat(N), C = count : { nat(M), M < N }, C < 0.\r");
    std::thread::sleep(std::time::Duration::from_millis(700));
    p.send_control('c').unwrap_or_else(|e| panic!("{e}"));
    ok(p.exp_string("(interrupted)"));
    ok(p.exp_string("tg> "));
    type_in(&mut p, "?- entity(E, \"Person\"), E = \"Person:lena ortiz\".\r");
    ok(p.exp_string("(1 row)"));
    ok(p.exp_string("tg> "));
    // A GQL query that would enumerate paths for minutes stops on Ctrl-C as well.
    type_in(&mut p, "MATCH p = (a)-[*1..30]-(b) RETURN count(p);\r");
    std::thread::sleep(std::time::Duration::from_millis(700));
    p.send_control('c').unwrap_or_else(|e| panic!("{e}"));
    ok(p.exp_string("(interrupted)"));
    ok(p.exp_string("tg> "));
    type_in(&mut p, "MATCH (n:Person) RETURN count(n);\r");
    ok(p.exp_string("(1 row)"));
    ok(p.exp_string("tg> "));
    // Ctrl-D ends the session.
    p.send_control('d').unwrap_or_else(|e| panic!("{e}"));
    ok(p.exp_eof());
    // History survives: a second session recalls the last input with Up.
    let hist = std::fs::read_to_string(d.join("home/.local/share/textgraph/history")).unwrap_or_default();
    assert!(hist.contains("linked(A, C) :-\\n  same_as(A, C)."), "{hist}");
    let mut p = session(&d);
    ok(p.exp_string("tg> "));
    type_in(&mut p, "\x1b[A");
    ok(p.exp_string("MATCH (n:Person) RETURN count(n);"));
    p.send_control('c').unwrap_or_else(|e| panic!("{e}"));
    ok(p.exp_string("tg> "));
    type_in(&mut p, ":quit\r");
    ok(p.exp_eof());
}
