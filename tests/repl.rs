//! `tg repl` without a terminal: scripts piped on standard input and `-e` commands over
//! the case files after `tg build` and `tg derive`, with exact expected output; errors
//! with a caret and exit codes; `:save` / `:load`; the store lock while a session runs.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

use common::{root, stderr, stdout, tg};

/// Builds the case files into a fresh store and derives the stdlib; returns the folder.
fn case(name: &str) -> PathBuf {
    let d = common::scratch("repl", name);
    let corpus = root().join("fixtures/case-files");
    let o = tg(&d, &["build", corpus.to_str().unwrap_or_default(), "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = tg(&d, &["derive", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    d
}

/// Runs `tg repl --db db ARGS` with `script` on standard input: (status, stdout, stderr).
fn repl(d: &Path, args: &[&str], script: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tg"))
        .current_dir(d)
        .env_remove("TG_DB")
        .args(["repl", "--db", "db"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run tg: {e}"));
    if let Some(mut i) = child.stdin.take() {
        let _ = i.write_all(script.as_bytes());
    }
    let o = child.wait_with_output().unwrap_or_else(|e| panic!("tg: {e}"));
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

const SCRIPT: &str = r#"// a session over the case
?- claim(C, _, S, "TRANSFERRED", O, M, _, _), M = "reported".
pays(A, B) :- claim(_, _, A, "TRANSFERRED", B, "assertion", "positive", _).
pays_twice(A, C) :-
    pays(A, B),
    pays(B, C).
?- pays(A, B).
?- pays_twice(A, C).
?- same_as("Organization:beta holdings", "Organization:beta holdings sa").
?- same_as("Organization:beta holdings", "nobody").
MATCH (a)-[c:TRANSFERRED]->(b)
WHERE c.modality = 'reported'
RETURN a.name, b.name;
:format tsv
?- entity(E, "Person").
:format json
?- canonical(C, E), C = "Organization:beta holdings".
"#;

const EXPECTED: &str = r#"C                 S                              O                              M         citation
----------------  -----------------------------  -----------------------------  --------  ------------------------------
31857e35c9b91619  Organization:acme trading ltd  Organization:beta holdings sa  reported  [correction-notice.txt:87-226]
(1 row)
A                              B
-----------------------------  ------------------------------
Organization:acme trading ltd  Organization:beta holdings sa
Organization:acme trading ltd  Organization:delta freight inc
(2 rows)
A  C
-  -
(0 rows)
true.
  derived
false.
a.name             | b.name
-------------------+-------------------
'Acme Trading Ltd' | 'Beta Holdings SA'
(1 row)
format tsv
E	citation
Person:dana whitfield	[registry-notes.txt:66-80] +1
Person:ines duarte	[board-minutes.docx:145-156]
Person:lena ortiz	[chat/transcript.txt:98-108] +5
Person:marek novak	[board-minutes.docx:124-135] +10
Person:paul whitaker	[board-minutes.docx:158-171]
Person:priya raman	[news-article.html:100-111] +1
format json
[{"C":"Organization:beta holdings","E":"Organization:beta holdings sa","citation":"derived"}]
"#;

#[test]
fn piped_script_exact_output() {
    let d = case("script");
    let (code, out, err) = repl(&d, &[], SCRIPT);
    assert_eq!(err, "");
    assert_eq!(out, EXPECTED);
    assert_eq!(code, 0);
    // The same commands through -e give the same output.
    let cmds = ["?- pays(A, B).", "pays(A, B) :- claim(_, _, A, \"TRANSFERRED\", B, \"assertion\", \"positive\", _).", "?- pays(A, B)."];
    let mut args = vec![];
    for c in &cmds[1..] {
        args.extend(["-e", c]);
    }
    let (code, out, _) = repl(&d, &args, "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "A                              B\n-----------------------------  ------------------------------\nOrganization:acme trading ltd  Organization:beta holdings sa\nOrganization:acme trading ltd  Organization:delta freight inc\n(2 rows)\n"
    );
    // Before the rule exists the query is an error naming the relation.
    let (code, _, err) = repl(&d, &["-e", cmds[0]], "");
    assert_eq!(code, 2);
    assert!(err.contains("error[TG0202]: undefined relation pays"), "{err}");
}

#[test]
fn errors_show_a_caret_and_stop_the_script() {
    let d = case("errors");
    let script = "?- entity(E, \"Person\"), E = \"Person:lena ortiz\".\np(X :- q(X).\n?- entity(E, \"Person\"), E = \"Person:priya raman\".\n";
    let (code, out, err) = repl(&d, &["--format", "tsv"], script);
    assert_eq!(code, 2);
    assert_eq!(out, "E\tcitation\nPerson:lena ortiz\t[chat/transcript.txt:98-108] +5\n");
    assert_eq!(err, "error[TG0101]: syntax error: unexpected ':'\n  --> <input line 2>:1:5\n  |\n1 | p(X :- q(X).\n  |     ^\n  = note: expected an operator\n");
    // --keep-going runs the rest, and still exits 2.
    let (code, out, _) = repl(&d, &["--format", "tsv", "--keep-going"], script);
    assert_eq!(code, 2);
    assert_eq!(out, "E\tcitation\nPerson:lena ortiz\t[chat/transcript.txt:98-108] +5\nE\tcitation\nPerson:priya raman\t[news-article.html:100-111] +1\n");
    // A GQL syntax error points at its column; an unknown command is named.
    let (code, _, err) = repl(&d, &["-e", "MATCH (a RETURN a", "-e", ":nope", "--keep-going"], "");
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: SyntaxError: expected node labels, properties; found 'RETURN' (SyntaxError.InvalidSyntax) at 1:10\n  MATCH (a RETURN a\n           ^\nerror: unknown command :nope (:help lists them)\n"
    );
    // A query over an unknown relation shows where, in the generated rule.
    let (code, _, err) = repl(&d, &["-e", "?- nosuch(X)."], "");
    assert_eq!(code, 2);
    assert!(err.contains("error[TG0202]: undefined relation nosuch\n  --> <query>:2:15\n"), "{err}");
    // Garbage never panics.
    for junk in ["?-", "?- .", ":", "(((", "\"unterminated", "?- a(\"", ":path", ":timeline", ":format xml", ":schema nope", "MATCH", ")."] {
        let (code, _, err) = repl(&d, &["-e", junk], "");
        assert_eq!(code, 2, "{junk}: {err}");
        assert!(!err.contains("panicked"), "{junk}: {err}");
    }
}

#[test]
fn meta_commands() {
    let d = case("meta");
    let (code, out, err) = repl(&d, &[], ":schema claim\n:relations\n:help\n:rules\n:path \"Acme Trading Ltd\" \"Beta Holdings SA\"\n:quit\n?- entity(E, T).\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(".decl claim(id: symbol, doc: symbol, subject: symbol, relation: symbol, object: symbol, modality: symbol, polarity: symbol, asserter: symbol)\n  declared at stdlib/schema.dl:"), "{out}");
    assert!(out.contains("\n  21 stored, 0 derived\n"), "{out}");
    assert!(out.contains("\nclaim/8                            21         0\n"), "{out}");
    assert!(out.contains("\nsame_as/2                           0         2\n"), "{out}");
    assert!(out.contains("  :relations                   every relation"), "{out}");
    assert!(out.contains("case program: stdlib\nsession: no rules yet\n"), "{out}");
    assert!(out.ends_with("1 hop · 1 asserted\n"), "{out}");
    // :why walks the witness down to cited bytes.
    let (code, out, _) = repl(&d, &["-e", ":why same_as(\"Organization:beta holdings\", \"Organization:beta holdings sa\")"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("same_as(\"Organization:beta holdings\", \"Organization:beta holdings sa\")  [INFERRED by rule"), "{out}");
    assert!(out.contains("[emails/2024-03-01-approval.eml:183-196] \"Beta Holdings\""), "{out}");
    let (code, out, _) = repl(&d, &["-e", ":timeline \"Beta Holdings SA\""], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("Organization:beta holdings sa: 13 claims\n"), "{out}");
}

#[test]
fn save_and_load() {
    let d = case("save");
    let script = "pays(A, B) :- claim(_, _, A, \"TRANSFERRED\", B, \"assertion\", \"positive\", _).\n.decl big(x: number)\nbig(1000000).\n:save session.dl\n:rules\n";
    let (code, out, err) = repl(&d, &[], script);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("saved 4 inputs to session.dl\ncase program: stdlib\nsession:\n  // <input line 1> (declaration)\n  .decl pays(c0: symbol, c1: symbol)\n"), "{out}");
    let saved = std::fs::read_to_string(d.join("session.dl")).unwrap_or_default();
    assert_eq!(
        saved,
        "// <input line 1> (declaration)\n.decl pays(c0: symbol, c1: symbol)\n// <input line 1>\npays(A, B) :- claim(_, _, A, \"TRANSFERRED\", B, \"assertion\", \"positive\", _).\n// <input line 2>\n.decl big(x: number)\n// <input line 3>\nbig(1000000).\n"
    );
    let (code, out, err) = repl(&d, &["--format", "tsv", "-e", ":load session.dl", "-e", "?- pays(A, _), big(N)."], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "A\tN\nOrganization:acme trading ltd\t1000000\n");
}

#[test]
fn the_session_holds_the_store_and_another_tg_is_told() {
    let d = case("lock");
    // A session reading a script that has not ended yet holds the store. Another command is
    // polled until it is told so. (A poll can itself hold the store at the moment the session
    // opens it; that session ends at once, told the same, and is started again. On a loaded
    // machine a session takes a while to open the store: up to 30 s.)
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_tg"))
            .current_dir(&d)
            .env_remove("TG_DB")
            .args(["repl", "--db", "db"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run tg: {e}"))
    };
    let mut child = spawn();
    let mut locked = None;
    for _ in 0..600 {
        let o = tg(&d, &["stats", "--db", "db"]);
        if o.status.code() == Some(2) {
            locked = Some(stderr(&o));
            break;
        }
        if let Ok(Some(_)) = child.try_wait() {
            let o = child.wait_with_output().unwrap_or_else(|e| panic!("tg: {e}"));
            assert!(stderr(&o).contains("is in use by another process"), "the session ended: {}", stderr(&o));
            child = spawn();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if let Some(mut i) = child.stdin.take() {
        let _ = i.write_all(b"?- document(D, _), D = \"wire-log.csv\".\n");
    }
    let o = child.wait_with_output().unwrap_or_else(|e| panic!("tg: {e}"));
    let err = locked.unwrap_or_else(|| panic!("the store was never reported locked"));
    assert!(err.contains("is in use by another process") && err.contains("tg repl"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("D             citation\n"), "{}", stdout(&o));
    // Once it ended, other commands open the store again.
    assert_eq!(tg(&d, &["stats", "--db", "db"]).status.code(), Some(0));
}

#[test]
fn bare_tg_off_a_terminal_prints_help() {
    let d = common::scratch("repl", "bare");
    let o = Command::new(env!("CARGO_BIN_EXE_tg")).current_dir(&d).stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Usage: tg [OPTIONS] <COMMAND>"), "{}", stderr(&o));
}

/// The `· strata: …` part of each `time:` line `:timing on` prints.
fn strata_lines(out: &str) -> Vec<String> {
    out.lines().filter_map(|l| l.split_once(" · strata: ").map(|(_, s)| s.to_string())).collect()
}

#[test]
fn session_rules_are_evaluated_incrementally() {
    let d = case("incremental");
    let script = r#":timing on
?- controls_transitively(X, "Organization:beta holdings sa").
?- controls_transitively(X, "Organization:beta holdings sa").
owner_of_beta(X) :- controls_transitively(X, "Organization:beta holdings sa").
?- owner_of_beta(X).
?- owner_of_beta(X).
named_owner(X) :- owner_of_beta(X), entity(X, "Person").
?- named_owner(X).
"#;
    let (code, out, err) = repl(&d, &[], script);
    assert_eq!((code, err.as_str()), (0, ""));
    let lines = strata_lines(&out);
    // After `tg derive` the case program's strata come from the store's derived layer;
    // then each query evaluates only its own rule, a new session rule only its stratum.
    let stored: usize = lines[0].split(", ").nth(2).and_then(|s| s.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(stored > 0, "{out}");
    assert_eq!(lines[0], format!("1 evaluated, 0 reused, {stored} from the store"));
    assert_eq!(lines[1], format!("1 evaluated, {stored} reused, 0 from the store"));
    assert_eq!(lines[2], format!("2 evaluated, {stored} reused, 0 from the store"));
    assert_eq!(lines[3], format!("1 evaluated, {} reused, 0 from the store", stored + 1));
    assert_eq!(lines[4], format!("2 evaluated, {} reused, 0 from the store", stored + 1));
    assert!(out.contains("Person:marek novak"), "{out}");
    // The answers are the ones a fresh session computes from scratch.
    let fresh = |q: &str| {
        repl(
            &d,
            &[
                "-e",
                "owner_of_beta(X) :- controls_transitively(X, \"Organization:beta holdings sa\").",
                "-e",
                "named_owner(X) :- owner_of_beta(X), entity(X, \"Person\").",
                "-e",
                q,
            ],
            "",
        )
        .1
    };
    let without_timing: String = out.lines().filter(|l| !l.starts_with("time: ")).map(|l| format!("{l}\n")).collect();
    assert!(without_timing.contains(&fresh("?- named_owner(X).")), "{out}");
    assert!(without_timing.contains(&fresh("?- owner_of_beta(X).")), "{out}");
}

#[test]
fn a_stale_derived_layer_is_not_used() {
    let first = |d: &Path| {
        let (code, out, err) = repl(d, &["-e", ":timing on", "-e", "?- controls_transitively(X, \"Organization:beta holdings sa\")."], "");
        assert_eq!((code, err.as_str()), (0, ""));
        strata_lines(&out).first().cloned().unwrap_or_default()
    };
    // A document added since the last derive: the rule library is evaluated again.
    let d = common::scratch("repl", "stale");
    let copied = Command::new("cp").arg("-r").arg(root().join("fixtures/case-files")).arg(d.join("corpus")).status();
    assert!(copied.is_ok_and(|s| s.success()));
    for args in [&["build", "corpus", "--db", "db"][..], &["derive", "--db", "db"]] {
        let o = tg(&d, args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    assert!(first(&d).ends_with(" from the store") && !first(&d).ends_with(" 0 from the store"));
    std::fs::write(d.join("corpus/late-memo.txt"), "Orion Nominees Ltd controls Gamma Shell Ltd.\n").unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["build", "corpus", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(first(&d).ends_with(" 0 reused, 0 from the store"), "{}", first(&d));
    // Derived again: the store serves it; then an analyst judgement not yet derived.
    let o = tg(&d, &["derive", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!first(&d).ends_with(" 0 from the store"), "{}", first(&d));
    let o = tg(&d, &["resolve", "--db", "db", "--reject", "Beta Holdings", "Beta Holdings SA"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(first(&d).ends_with(" 0 reused, 0 from the store"), "{}", first(&d));
}
