//! `tg build` on a real pseudo-terminal (rexpect): the progress line shows files done of
//! total, megabytes, MB/s and an ETA (issue 20); without a terminal nothing of it is
//! printed.

use std::process::Command;

mod common;

use common::{copy_dir, root, scratch, stderr, tg};

#[test]
fn build_on_a_terminal_shows_files_megabytes_rate_and_eta() {
    let d = scratch("progress", "pty");
    copy_dir(&root().join("fixtures/case-files"), &d.join("corpus"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_tg"));
    c.current_dir(&d).env_remove("TG_DB").env("TERM", "xterm").args(["build", "corpus", "--db", "db"]);
    let mut p = rexpect::session::spawn_command(c, Some(60_000)).unwrap_or_else(|e| panic!("cannot spawn tg build: {e}"));
    let ok = |r: Result<String, rexpect::error::Error>| r.unwrap_or_else(|e| panic!("{e}"));
    // 12 files (13 documents with the e-mail's attachment); sizes in MB, two decimals.
    p.exp_regex(r"\d+/12 files, \d+\.\d\d of \d+\.\d\d MB, \d+\.\d\d MB/s, ETA (\d+ s|\?)").unwrap_or_else(|e| panic!("no progress line: {e}"));
    ok(p.exp_string("13 added, 0 changed, 0 unchanged, 0 removed, 0 skipped"));
    ok(p.exp_eof());
    // Piped, the same build prints no progress line.
    let o = tg(&d, &["build", "corpus", "--db", "db2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("MB/s"), "{}", stderr(&o));
}
