//! `tg report` as a user runs it on the case files (issue 23): GRAPH_REPORT.md's sections
//! with this case's numbers, each of its ten questions' commands run and succeeding,
//! byte-identical reports, and the refusals.

mod common;

use std::path::{Path, PathBuf};

use common::{copy_dir, root, scratch, stderr, stdout, tg};

fn built(name: &str, derive: bool) -> PathBuf {
    let d = scratch("report", name);
    copy_dir(&root().join("fixtures/case-files"), &d.join("corpus"));
    let o = tg(&d, &["build", "corpus", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    if derive {
        let o = tg(&d, &["derive", "--db", "db"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    d
}

/// The commands of the report's question list (the line after each "```sh").
fn commands(md: &str) -> Vec<String> {
    let lines: Vec<&str> = md.lines().collect();
    lines.windows(2).filter(|w| w[0].trim() == "```sh").map(|w| w[1].trim().to_string()).collect()
}

#[test]
fn the_report_has_every_section_with_this_case_in_it() {
    let d = built("sections", true);
    let o = tg(&d, &["report", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("wrote GRAPH_REPORT.md (") && stdout(&o).ends_with(" bytes, 10 questions with their commands)\n"), "{}", stdout(&o));
    let md = std::fs::read_to_string(d.join("GRAPH_REPORT.md")).unwrap_or_else(|e| panic!("{e}"));
    for part in [
        "# Graph report\n",
        "## Counts\n",
        "| documents | 13 |",
        "| claims | 21 |",
        "| refused merges | 4 |",
        "| contradictions | 1 |",
        "| supersessions | 3 |",
        "## Key entities by centrality\n",
        "| 1 | Organization:beta holdings | 0.171103 | 6 | 0.022689 |",
        "## Communities\n",
        "- **1** — beta, holdings, acme, wire, trading: 8 member(s): ",
        "## Contradictions\n",
        "1. asserted vs denied — [e5ef5fc6aab9a083] Person:marek novak CONTROLS Organization:gamma consulting llc (reported): “Priya Raman said that Marek Novak controls Gamma Consulting LLC.” [registry-notes.txt:496-560] **vs** [7a85a2a77a61a99e]",
        "## Supersessions\n",
        "- [e02bd49ac1d8d053] Organization:beta holdings sa REGISTERED_AT Location:panama (assertion, document): “The registry entry should read: Beta Holdings SA is registered in Panama.” [registry-notes.txt:744-817]\n  supersedes [2148bc5ce8536a56]",
        "## Refused merges\n",
        "- Organization:acme trading ltd ≠ Organization:acme trading ltd (uk) — discriminators differ: none vs uk (1 claims would move)",
        "## Ten questions this graph can answer\n",
    ] {
        assert!(md.contains(part), "missing {part:?} in\n{md}");
    }
    let cmds = commands(&md);
    assert_eq!(
        cmds,
        [
            "tg central",
            "tg why 'Organization:beta holdings'",
            "tg neighbors 'Organization:beta holdings'",
            "tg timeline 'Organization:beta holdings'",
            "tg path 'Organization:acme trading ltd' 'Organization:orion nominees ltd'",
            "tg contradictions",
            "tg explain 'contradicts(\"e5ef5fc6aab9a083\", \"7a85a2a77a61a99e\", \"asserted vs denied\")'",
            "tg resolve",
            "tg search 'beta holdings'",
            "tg gql 'MATCH ()-[r]->() RETURN type(r) AS relation, count(*) AS n ORDER BY n DESC, relation'",
        ]
    );
}

#[test]
fn every_question_command_works() {
    let d = built("commands", true);
    let o = tg(&d, &["report", "--db", "db", "-o", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let cmds = commands(&stdout(&o));
    assert_eq!(cmds.len(), 10);
    let bin = Path::new(env!("CARGO_BIN_EXE_tg")).parent().map(Path::to_path_buf).unwrap_or_default();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    for c in &cmds {
        let o = std::process::Command::new("sh").arg("-c").arg(c).current_dir(&d).env("PATH", &path).env("TG_DB", d.join("db")).output().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.status.code(), Some(0), "{c}: {}", stderr(&o));
        assert!(!stdout(&o).trim().is_empty(), "{c} printed nothing");
    }
    // What two of them answer, so "works" means more than exit 0.
    let run = |c: &str| {
        let o = std::process::Command::new("sh").arg("-c").arg(c).current_dir(&d).env("PATH", &path).env("TG_DB", d.join("db")).output().unwrap_or_else(|e| panic!("{e}"));
        stdout(&o)
    };
    assert!(run(&cmds[4]).contains("[registry-notes.txt:116-218]"), "{}", run(&cmds[4]));
    assert!(run(&cmds[6]).contains("registry-notes.txt"), "{}", run(&cmds[6]));
}

#[test]
fn reports_are_byte_identical_and_refusals_clear() {
    let d = built("determinism", true);
    let a = stdout(&tg(&d, &["report", "--db", "db", "-o", "-"]));
    let b = stdout(&tg(&d, &["report", "--db", "db", "-o", "-"]));
    assert!(a == b && a.starts_with("# Graph report\n"));
    let e = built("determinism2", true);
    assert!(stdout(&tg(&e, &["report", "--db", "db", "-o", "-"])) == a, "two stores of one corpus give different reports");
    assert_eq!(tg(&d, &["report", "--db", "db"]).status.code(), Some(0));
    let o = tg(&d, &["report", "--db", "db"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "tg: GRAPH_REPORT.md exists; pass --force to overwrite it\n");
    assert_eq!(tg(&d, &["report", "--db", "db", "--force"]).status.code(), Some(0));
    let u = built("underived", false);
    let o = tg(&u, &["report", "--db", "db"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "tg: nothing derived yet: run `tg derive` first\n");
    assert!(!u.join("GRAPH_REPORT.md").exists());
}
