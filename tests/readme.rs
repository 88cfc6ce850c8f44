//! Every command example of the README and of the REPL's `:help` runs, as written, over
//! the bundled case (issue 20): a newcomer who copies one gets an answer, not an error.
//!
//! The README's `sh` blocks are read in order; `cargo run --release --` is `tg` (a link to
//! the binary under test on PATH), each line runs with `sh -c` in a scratch folder holding
//! the repository's `fixtures`, `rules`, `stdlib` and a copy of the case files. The few
//! commands that cannot run here are listed in [`NOT_RUN`] with the reason, and each must
//! still be in the README (a stale entry fails).

use std::path::Path;
use std::process::Command;

mod common;

use common::copy_dir;

use common::{root, stderr, stdout, tg};

/// README commands this test does not run, by a prefix, with why.
const NOT_RUN: &[(&str, &str)] = &[
    ("scripts/test.sh", "runs the whole test suite, this test included"),
    ("cargo install --path .", "installs into the user's cargo folder"),
    ("tg completions bash > ~/", "writes into the user's home (tests/auditor.rs checks `tg completions`)"),
    ("tg audit ingest verdicts.json", "needs a second reader's verdicts on the batch `audit emit` wrote (tests/claims.rs runs the round trip)"),
    ("tg eval fire ../shared/", "needs the shared gold data (tests/eval.rs scores it when present)"),
    ("tg eval kpi ../shared/", "needs the shared gold data (tests/eval.rs scores it when present)"),
];

/// The README's shell commands, in order: continuation lines joined, comments dropped.
fn readme_commands(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut in_sh = false;
    let mut cur = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let line = match line.find("   #").or_else(|| line.find("  # ")) {
            Some(i) => &line[..i],
            None => line,
        };
        let line = line.trim_end();
        if let Some(head) = line.strip_suffix('\\') {
            cur.push_str(head);
            continue;
        }
        cur.push_str(line);
        let cmd = cur.trim().replace("cargo run --release --", "tg");
        cur.clear();
        if !cmd.is_empty() {
            out.push(cmd);
        }
    }
    out
}

fn link_dir(from: &Path, to: &Path) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(from, to).unwrap_or_else(|e| panic!("{e}"));
}

#[cfg(unix)]
#[test]
fn every_readme_example_runs() {
    let d = common::scratch("readme", "examples");
    let bin = d.join("bin");
    std::fs::create_dir_all(&bin).unwrap_or_else(|e| panic!("{e}"));
    link_dir(Path::new(env!("CARGO_BIN_EXE_tg")), &bin.join("tg"));
    for f in ["fixtures", "rules", "stdlib"] {
        link_dir(&root().join(f), &d.join(f));
    }
    copy_dir(&root().join("fixtures/case-files"), &d.join("case-files"));
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap_or_default();
    let commands = readme_commands(&readme);
    assert!(commands.len() > 30, "{commands:?}");
    for (prefix, _) in NOT_RUN {
        assert!(commands.iter().any(|c| c.starts_with(prefix)), "NOT_RUN lists {prefix:?}, which the README no longer has");
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for cmd in &commands {
        if NOT_RUN.iter().any(|(p, _)| cmd.starts_with(p)) {
            continue;
        }
        let o = Command::new("sh").arg("-c").arg(cmd).current_dir(&d).env("PATH", &path).env_remove("TG_DB").output().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.status.code(), Some(0), "README example failed: {cmd}\nstdout: {}\nstderr: {}", stdout(&o), stderr(&o));
        assert!(!stdout(&o).contains("[not in the store]"), "{cmd}: {}", stdout(&o));
        ran += 1;
    }
    assert!(ran + NOT_RUN.len() >= commands.len(), "{ran} of {}", commands.len());
}

/// Each `:help` example answers over the bundled case, with at least one row.
#[test]
fn every_repl_help_example_answers() {
    let d = common::scratch("readme", "help");
    let corpus = root().join("fixtures/case-files");
    assert_eq!(tg(&d, &["build", corpus.to_str().unwrap_or_default(), "--db", "db"]).status.code(), Some(0));
    assert_eq!(tg(&d, &["derive", "--db", "db"]).status.code(), Some(0));
    let mut args = vec!["repl", "--db", "db", "--format", "tsv"];
    for e in textgraph::app::repl::meta::EXAMPLES {
        args.extend(["-e", e]);
    }
    let o = tg(&d, &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Organization:beta holdings\t"), "{out}");
    assert!(out.contains("Person:marek novak\tOrganization:beta holdings sa"), "{out}");
    assert!(out.contains("Acme Trading Ltd\tBeta Holdings SA\t"), "{out}");
    let help = stdout(&tg(&d, &["repl", "--db", "db", "-e", ":help"]));
    for e in textgraph::app::repl::meta::EXAMPLES {
        assert!(help.contains(e), "{help}");
    }
}

/// The parser keeps quoted `#` and joins continuation lines.
#[test]
fn readme_commands_are_read_as_written() {
    let text = "```sh\ntg explain 'a(\"x#y\")'   # why\ntg claim record --doc a \\\n    --quote b\n```\n```text\nnot a command\n```\n";
    assert_eq!(readme_commands(text), vec!["tg explain 'a(\"x#y\")'".to_string(), "tg claim record --doc a     --quote b".to_string()]);
}
