//! Issue 19, "Hardening": each item as a hostile or careless user meets it, run through
//! `tg` with the exact message and exit status asserted.

use std::path::Path;
use std::process::Command;

mod common;

use common::copy_dir;

use common::{stderr, stdout, tg, write};

fn scratch(name: &str) -> std::path::PathBuf {
    common::scratch("hard", name)
}

fn code(o: &std::process::Output) -> Option<i32> {
    o.status.code()
}

#[cfg(unix)]
fn write_bytes_name(dir: &Path, name: &[u8], text: &str) {
    use std::os::unix::ffi::OsStrExt as _;
    std::fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), text).unwrap_or_else(|e| panic!("{e}"));
}

fn document_lines(dump: &str) -> Vec<String> {
    dump.lines().filter(|l| l.starts_with("document ")).map(|l| l.split(" format=").next().unwrap_or("").to_string()).collect()
}

#[cfg(unix)]
#[test]
fn document_ids_are_injective_and_never_break_dump_lines() {
    let d = scratch("ids");
    let c = d.join("case");
    write(&c, "a/b.txt", "Gamma Inc owns Delta.\n");
    write_bytes_name(&c, b"a\\b.txt", "Acme Corp paid Beta Ltd.\n");
    write_bytes_name(&c, b"x\xff.txt", "one\n");
    write_bytes_name(&c, b"x\xfe.txt", "two\n");
    write_bytes_name(&c, b"new\nline.txt", "three\n");
    write_bytes_name(&c, b"100%.txt", "four\n");
    let o = tg(&d, &["build", "case", "--db", "db"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("6 added, 0 changed, 0 unchanged, 0 removed, 0 skipped; store db\n"), "{}", stdout(&o));
    let dump = stdout(&tg(&d, &["dump", "--db", "db"]));
    assert_eq!(document_lines(&dump), ["document 100%25.txt", "document a%5Cb.txt", "document a/b.txt", "document new%0Aline.txt", "document x%FE.txt", "document x%FF.txt"]);
    // Every line of the dump is a record or a support line: no id spills onto its own line.
    for l in dump.lines() {
        let known = ["format ", "relation ", "document ", "fact ", "  [", "derived ", "  from ", "rule ", "ledger "];
        assert!(known.iter().any(|k| l.starts_with(k)), "stray dump line {l:?}");
    }
    // Rebuilding changes nothing (before, two files flipped one id on every build).
    let again = tg(&d, &["build", "case", "--db", "db"]);
    assert!(stdout(&again).starts_with("0 added, 0 changed, 6 unchanged, 0 removed, 0 skipped; store db\n"), "{}", stdout(&again));
    // And the ids map back to their files: verify re-hashes each one.
    let v = tg(&d, &["verify", "--db", "db"]);
    assert!(stdout(&v).ends_with("6/6 source files unchanged\n"), "{}", stdout(&v));
    assert_eq!(code(&v), Some(0));
}

const MAIL: &str = "From: a@example.com\r\nTo: b@example.com\r\nSubject: notes\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n--b\r\nContent-Type: text/plain; name=\"note.txt\"\r\nContent-Disposition: attachment; filename=\"note.txt\"\r\n\r\nAcme Corp owns Beta Ltd.\r\n--b--\r\n";

#[test]
fn a_file_and_an_attachment_with_one_id_is_an_error_naming_both() {
    let d = scratch("collide");
    let c = d.join("case");
    write(&c, "mail.eml", MAIL);
    // A file whose id is the attachment's: mail.eml#attachments/1/note.txt.
    write(&c, "mail.eml#attachments/1/note.txt", "Impostor text.\n");
    let o = tg(&d, &["build", "case", "--db", "db"]);
    assert_eq!(code(&o), Some(2), "{}", stdout(&o));
    assert_eq!(
        stderr(&o),
        "tg: two inputs have the document id \"mail.eml#attachments/1/note.txt\": case/mail.eml#attachments/1/note.txt and an attachment of case/mail.eml; rename one of them\n"
    );
}

#[test]
fn verify_rehashes_source_files() {
    let d = scratch("verify-src");
    let c = d.join("case");
    write(&c, "a.txt", "Acme Corp paid Beta Ltd.\n");
    write(&c, "b.txt", "Gamma Inc owns Delta.\n");
    write(&c, "c.txt", "Nothing here.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "db"])), Some(0));
    let ok = tg(&d, &["verify", "--db", "db"]);
    assert_eq!(code(&ok), Some(0), "{}", stdout(&ok));
    assert!(stdout(&ok).ends_with("3/3 source files unchanged\n"), "{}", stdout(&ok));
    write(&c, "a.txt", "Acme Corp paid Beta Ltd twice.\n");
    std::fs::remove_file(c.join("b.txt")).unwrap_or_else(|e| panic!("{e}"));
    let v = tg(&d, &["verify", "--db", "db"]);
    assert_eq!(code(&v), Some(1));
    let canon = c.canonicalize().unwrap_or_default();
    let out = stdout(&v);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("CHANGED a.txt: source {}/a.txt differs from the stored document; run tg build", canon.display()));
    assert_eq!(lines[1], format!("MISSING b.txt: source {}/b.txt cannot be read (no such file (dangling link?)); run tg build", canon.display()));
    assert_eq!(lines[3], "1/3 source files unchanged");
    assert!(lines[2].ends_with(" citations verified"), "{out}");
}

/// Flips one byte in the middle of the first table file of keyspace `n` (fjall numbers
/// keyspaces in creation order: 1 `meta`, 2 `docs`, …, 5 `dict`).
fn damage(db: &Path, n: usize) {
    let dir = db.join(format!("keyspaces/{n}/tables"));
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten().map(|e| e.path()).collect();
    files.sort();
    let f = &files[0];
    let mut b = std::fs::read(f).unwrap_or_default();
    let i = 40.min(b.len() / 2);
    b[i] ^= 0xff;
    std::fs::write(f, b).unwrap_or_else(|e| panic!("{e}"));
}

fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = vec![];
    for p in walkdir(dir) {
        out.push((p.display().to_string(), std::fs::read(&p).unwrap_or_default()));
    }
    out
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![];
    let mut v: Vec<_> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            out.extend(walkdir(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_corrupt_dictionary_is_one_clear_error_and_builds_refuse_it() {
    let d = scratch("corrupt");
    let c = d.join("case");
    write(&c, "a.txt", "Acme Corp paid Beta Ltd.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "db"])), Some(0));
    damage(&d.join("db"), 5);
    let msg = "tg: store db is corrupt: table dict: data fails its checksum; restore the store from a backup or rebuild it into a new --db\n";
    let v = tg(&d, &["verify", "--db", "db"]);
    assert_eq!((code(&v), stderr(&v), stdout(&v)), (Some(2), msg.to_string(), String::new()));
    // A build checks first and writes nothing.
    write(&c, "b.txt", "Gamma Inc owns Delta.\n");
    // (fjall tidies its version files on open; the tables and the journal hold the data.)
    let tables = || tree(&d.join("db/keyspaces")).into_iter().filter(|(p, _)| p.contains("/tables/")).collect::<Vec<_>>();
    let before = tables();
    let b = tg(&d, &["build", "case", "--db", "db"]);
    assert_eq!((code(&b), stderr(&b)), (Some(2), msg.to_string()));
    assert!(tables() == before, "the build wrote a table of the corrupt store");
    let journals: Vec<u8> = tree(&d.join("db")).into_iter().filter(|(p, _)| p.ends_with(".jnl")).flat_map(|(_, b)| b).collect();
    assert!(!journals.windows(20).any(|w| w == b"Gamma Inc owns Delta"), "the build wrote b.txt into the corrupt store");
}

#[test]
fn a_corrupt_fact_table_fails_dump_and_verify_alike() {
    let d = scratch("corrupt-facts");
    write(&d.join("case"), "a.txt", "Acme Corp paid Beta Ltd.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "db"])), Some(0));
    damage(&d.join("db"), 8);
    let v = tg(&d, &["verify", "--db", "db"]);
    assert_eq!(
        (code(&v), stderr(&v)),
        (Some(2), "tg: store db is corrupt: table facts: data fails its checksum; restore the store from a backup or rebuild it into a new --db\n".to_string())
    );
    let dump = tg(&d, &["dump", "--db", "db"]);
    assert_eq!(
        (code(&dump), stderr(&dump)),
        (Some(2), "tg: store db is corrupt: data fails its checksum; restore the store from a backup or rebuild it into a new --db\n".to_string())
    );
    assert!(!stderr(&dump).contains("Checksum"), "raw debug text: {}", stderr(&dump));
}

#[test]
fn read_commands_never_create_a_store() {
    let d = scratch("missing");
    for args in [
        vec!["dump"],
        vec!["stats"],
        vec!["verify"],
        vec!["contradictions"],
        vec!["export"],
        vec!["derive"],
        vec!["explain", "document(\"a\", \"txt\")"],
        vec!["repl", "-e", ":help"],
        vec!["gql", "MATCH (n) RETURN n"],
    ] {
        let mut full = args.clone();
        full.extend(["--db", "nowhere"]);
        let o = tg(&d, &full);
        assert_eq!(code(&o), Some(2), "{args:?}: {}", stdout(&o));
        let want = if args[0] == "gql" {
            "tg: no store at nowhere (run `tg build` first, or pass --db or --script)\n".to_string()
        } else {
            "tg: no store at nowhere; `tg build CORPUS --db nowhere` creates one\n".to_string()
        };
        assert_eq!(stderr(&o), want, "{args:?}");
        assert!(!d.join("nowhere").exists(), "{args:?} created a store");
    }
    std::fs::create_dir_all(d.join("empty")).unwrap_or_default();
    let o = tg(&d, &["stats", "--db", "empty"]);
    assert_eq!((code(&o), stderr(&o)), (Some(2), "tg: empty is not a TextGraph store (no fjall database in it)\n".to_string()));
    assert_eq!(std::fs::read_dir(d.join("empty")).map(|r| r.count()).unwrap_or(9), 0);
}

#[test]
fn an_interrupted_build_redoes_only_what_it_had_not_written() {
    use textgraph::app::build::{BuildOptions, build_with};
    use textgraph::store::Store;
    let d = scratch("interrupt");
    let c = d.join("case");
    for i in 0..10 {
        write(&c, &format!("f{i}.txt"), &format!("Acme Corp paid Beta Ltd {i} times.\n"));
    }
    let db = d.join("db");
    let stop_after = |n: usize| move |done: usize, _: usize, _: &str| assert!(done < n, "interrupted");
    // A first build interrupted after 4 documents.
    {
        let store = Store::open(&db).unwrap_or_else(|e| panic!("{e}"));
        let p = stop_after(4);
        let opts = BuildOptions { progress: Some(&p), threads: 1, ..Default::default() };
        assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| build_with(&store, &c, &opts))).is_err());
    }
    let store = Store::open(&db).unwrap_or_else(|e| panic!("{e}"));
    let r = build_with(&store, &c, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((r.unchanged, r.added.len(), r.changed.len()), (4, 6, 0), "the written documents are kept");
    // Another extractor: every document is redone, and an interruption keeps what was redone.
    store.put_setting("extractor", "an older tg").unwrap_or_else(|e| panic!("{e}"));
    let p = stop_after(6);
    let opts = BuildOptions { progress: Some(&p), threads: 1, ..Default::default() };
    assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| build_with(&store, &c, &opts))).is_err());
    let r = build_with(&store, &c, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((r.unchanged, r.changed.len()), (6, 4), "redone documents stay redone, the rest are redone now");
    let r = build_with(&store, &c, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((r.unchanged, r.changed.len()), (10, 0));
}

#[cfg(target_os = "linux")]
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = vec![];
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
        // pid (comm) state ppid …
        let after = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
        let ppid = after.split_whitespace().nth(1).and_then(|x| x.parse::<u32>().ok());
        if ppid == Some(pid) {
            out.push(p);
        }
    }
    out
}

#[cfg(target_os = "linux")]
fn alive(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat.rsplit_once(')').and_then(|x| x.1.split_whitespace().next().map(str::to_string));
    matches!(state.as_deref(), Some(s) if s != "Z" && s != "X")
}

#[cfg(target_os = "linux")]
#[test]
fn the_pdf_child_dies_with_a_killed_build() {
    let d = scratch("pdf-child");
    write(&d.join("case"), "a.pdf", "%PDF-1.4\nnot really\n");
    let mut build = Command::new(env!("CARGO_BIN_EXE_tg"))
        .current_dir(&d)
        .env_remove("TG_DB")
        .env("TG_TEST_PDF_WORKER_HANG", "1")
        .args(["build", "case", "--db", "db"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let started = std::time::Instant::now();
    let child = loop {
        if let Some(c) = children_of(build.id()).into_iter().next() {
            break c;
        }
        assert!(started.elapsed().as_secs() < 30, "no PDF child started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(alive(child));
    let _ = build.kill();
    let _ = build.wait();
    let started = std::time::Instant::now();
    while alive(child) {
        assert!(started.elapsed().as_secs() < 10, "the PDF child {child} outlived its killed parent");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[cfg(unix)]
#[test]
fn links_out_of_the_corpus_are_skipped_unless_followed() {
    let d = scratch("links");
    let c = d.join("case");
    write(&c, "a.txt", "Acme Corp paid Beta Ltd.\n");
    write(&d, "outside/secret.txt", "Not case material.\n");
    std::os::unix::fs::symlink(d.join("outside/secret.txt"), c.join("secret_link.txt")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("a.txt", c.join("inside_link.txt")).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["build", "case", "--db", "db"]);
    assert_eq!(code(&o), Some(0));
    let target = d.join("outside/secret.txt").canonicalize().unwrap_or_default();
    let why = format!("symbolic link to {} outside the corpus (not followed; --follow-links reads it)", target.display());
    assert_eq!(stderr(&o), format!("warning: secret_link.txt: {why}\n"));
    assert!(stdout(&o).starts_with("2 added, 0 changed, 0 unchanged, 0 removed, 1 skipped; store db\n"), "{}", stdout(&o));
    assert!(stdout(&o).contains(&format!("skipped secret_link.txt: {why}\n")), "{}", stdout(&o));
    let f = tg(&d, &["build", "case", "--db", "db", "--follow-links"]);
    assert_eq!((code(&f), stderr(&f)), (Some(0), String::new()));
    assert!(stdout(&f).starts_with("1 added, 0 changed, 2 unchanged, 0 removed, 0 skipped; store db\n"), "{}", stdout(&f));
}

#[test]
fn output_files_never_land_in_the_store_nor_overwrite_without_force() {
    let d = scratch("output");
    write(&d.join("case"), "a.txt", "Acme Corp paid Beta Ltd.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "db"])), Some(0));
    for cmd in [vec!["export"], vec!["audit", "emit"]] {
        let run = |extra: &[&str]| {
            let mut a = cmd.clone();
            a.extend(["--db", "db"]);
            a.extend(extra);
            tg(&d, &a)
        };
        let o = run(&["-o", "db/version"]);
        assert_eq!((code(&o), stderr(&o)), (Some(2), "tg: refusing to write db/version: it is inside the store db\n".to_string()), "{cmd:?}");
        let o = run(&["-o", "db/keyspaces/new.json", "--force"]);
        assert_eq!((code(&o), stderr(&o)), (Some(2), "tg: refusing to write db/keyspaces/new.json: it is inside the store db\n".to_string()), "{cmd:?}");
        let _ = std::fs::remove_file(d.join("out.json"));
        assert_eq!(code(&run(&["-o", "out.json"])), Some(0), "{cmd:?}");
        let o = run(&["-o", "out.json"]);
        assert_eq!((code(&o), stderr(&o)), (Some(2), "tg: out.json exists; pass --force to overwrite it\n".to_string()), "{cmd:?}");
        assert_eq!(code(&run(&["-o", "out.json", "--force"])), Some(0), "{cmd:?}");
    }
    // A link is never written through: refused, or replaced itself with --force.
    #[cfg(unix)]
    {
        write(&d, "precious.txt", "keep me\n");
        std::os::unix::fs::symlink(d.join("precious.txt"), d.join("link.json")).unwrap_or_else(|e| panic!("{e}"));
        let o = tg(&d, &["export", "--db", "db", "-o", "link.json"]);
        assert_eq!((code(&o), stderr(&o)), (Some(2), "tg: link.json is a symbolic link; pass --force to replace the link (its target is never written)\n".to_string()));
        assert_eq!(code(&tg(&d, &["export", "--db", "db", "-o", "link.json", "--force"])), Some(0));
        assert_eq!(std::fs::read_to_string(d.join("precious.txt")).unwrap_or_default(), "keep me\n");
        assert!(!std::fs::symlink_metadata(d.join("link.json")).map(|m| m.file_type().is_symlink()).unwrap_or(true));
    }
    // The store still opens.
    assert_eq!(code(&tg(&d, &["verify", "--db", "db"])), Some(0));
}

#[test]
fn run_confines_input_and_output_paths_unless_allowed() {
    let d = scratch("paths");
    write(&d, "secret.facts", "classified\n");
    write(&d, "F/e.facts", "ok\n");
    std::fs::create_dir_all(d.join("D")).unwrap_or_default();
    let secret = d.join("secret.facts");
    write(&d, "abs.dl", &format!(".decl e(x: symbol)\n.input e(filename=\"{}\")\n.decl o(x: symbol)\no(x) :- e(x).\n.output o\n", secret.display()));
    let o = tg(&d, &["run", "abs.dl", "-F", "F", "-D", "D"]);
    assert_eq!(
        (code(&o), stderr(&o)),
        (Some(2), format!("error[TG0608]: fact file {} of relation e is outside the folder F (-F); pass --allow-paths to allow it\n", secret.display()))
    );
    write(&d, "up.dl", ".decl e(x: symbol)\n.input e\n.decl o(x: symbol)\no(x) :- e(x).\n.output o(filename=\"../escaped.csv\")\n");
    let o = tg(&d, &["run", "up.dl", "-F", "F", "-D", "D"]);
    assert_eq!(
        (code(&o), stderr(&o)),
        (Some(2), "error[TG0608]: output file D/../escaped.csv of relation o is outside the folder D (-D); pass --allow-paths to allow it\n".to_string())
    );
    assert!(!d.join("escaped.csv").exists());
    // Inside the folders, sub-folders included, all is as Soufflé does it.
    write(&d, "sub.dl", ".decl e(x: symbol)\n.input e(filename=\"./e.facts\")\n.decl o(x: symbol)\no(x) :- e(x).\n.output o(filename=\"out/o.csv\")\n");
    assert_eq!(code(&tg(&d, &["run", "sub.dl", "-F", "F", "-D", "D"])), Some(0));
    assert_eq!(std::fs::read_to_string(d.join("D/out/o.csv")).unwrap_or_default(), "ok\n");
    // --allow-paths restores Soufflé's behaviour.
    let o = tg(&d, &["run", "up.dl", "-F", "F", "-D", "D", "--allow-paths"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(d.join("escaped.csv")).unwrap_or_default(), "ok\n");
    let o = tg(&d, &["run", "abs.dl", "-F", "F", "-D", "D", "--allow-paths"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
}

#[test]
fn errors_never_print_a_line_of_a_file_that_is_not_the_expected_language() {
    let d = scratch("sniff");
    let private = "root:x:0:0:SECRET-LINE:/root:/bin/bash\nsecond line\n";
    write(&d, "passwd", private);
    write(&d, "inc.dl", "#include \"passwd\"\n");
    write(&d, "case/a.txt", "Acme Corp paid Beta Ltd.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "db"])), Some(0));
    let not_datalog = "error[TG0103]: passwd is not a Datalog program\n  = note: it does not begin with a declaration, directive, fact or rule; its contents are not shown\n";
    let o = tg(&d, &["run", "passwd"]);
    assert_eq!((code(&o), stderr(&o)), (Some(2), not_datalog.to_string()));
    let o = tg(&d, &["run", "inc.dl"]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).contains("is not a Datalog program\n"), "{}", stderr(&o));
    let o = tg(&d, &["repl", "--db", "db", "-e", ":load passwd"]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).contains("passwd is not a Datalog program"), "{}", stderr(&o));
    let not_cypher = "tg: passwd is not a CREATE script: it does not begin with a Cypher clause (its contents are not shown)\n";
    let o = tg(&d, &["load", "passwd", "--db", "db"]);
    assert_eq!((code(&o), stderr(&o)), (Some(2), not_cypher.to_string()));
    let o = tg(&d, &["gql", "--script", "passwd", "MATCH (n) RETURN n"]);
    assert_eq!((code(&o), stderr(&o)), (Some(2), not_cypher.to_string()));
    for o in [tg(&d, &["run", "passwd"]), tg(&d, &["run", "inc.dl"]), tg(&d, &["load", "passwd", "--db", "db"]), tg(&d, &["repl", "--db", "db", "-e", ":load passwd"])] {
        assert!(!stderr(&o).contains("SECRET") && !stdout(&o).contains("SECRET"), "{}", stderr(&o));
    }
    // A Datalog file with a mistake still gets its caret line.
    write(&d, "typo.dl", ".decl p(x: number)\np(1) :- .\n");
    let o = tg(&d, &["run", "typo.dl"]);
    assert!(stderr(&o).contains("2 | p(1) :- .\n"), "{}", stderr(&o));
}

fn write_program(d: &Path, name: &str, text: &str) {
    write(d, name, text);
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_stack_overflow() {
    let d = scratch("depth");
    let n = 8000;
    write_program(&d, "paren.dl", &format!(".decl p(x: number)\np({}1{}).\n.output p\n", "(".repeat(n), ")".repeat(n)));
    write_program(&d, "neg.dl", &format!(".decl p(x: number)\n.decl q(x: number)\nq(1).\np(x) :- q(x), {}q(x).\n", "!".repeat(n)));
    write_program(&d, "minus.dl", &format!(".decl p(x: number)\np({}1).\n", "-".repeat(n)));
    let mut comps = String::new();
    for i in 0..700 {
        comps.push_str(&format!(".comp C{i} {{\n"));
    }
    comps.push_str(&"}\n".repeat(700));
    write_program(&d, "comp.dl", &comps);
    for (f, at) in [("paren.dl", "2:258"), ("neg.dl", "4:271"), ("minus.dl", "2:258")] {
        let o = tg(&d, &["run", f]);
        assert_eq!(code(&o), Some(2), "{f}");
        assert!(stderr(&o).starts_with(&format!("error[TG0104]: brackets and prefix operators nested deeper than 256 levels\n  --> {f}:{at}\n")), "{f}: {}", stderr(&o));
    }
    let o = tg(&d, &["run", "comp.dl"]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).starts_with("error[TG0104]: components nested deeper than 32 levels\n  --> comp.dl:33:11\n"), "{}", stderr(&o));
    // A long flat operator chain evaluates (the commands run on a deep stack).
    write_program(&d, "ops.dl", &format!(".decl p(x: number)\np({}).\n.output p\n", vec!["1"; n].join("+")));
    let o = tg(&d, &["run", "ops.dl", "-D", "-"]);
    assert_eq!((code(&o), stdout(&o)), (Some(0), "---------------\np\nx\n===============\n8000\n===============\n".to_string()), "{}", stderr(&o));
    // GQL and the REPL: the same limit, as a syntax error.
    let q = format!("RETURN {}1{}", "(".repeat(20_000), ")".repeat(20_000));
    let o = tg(&d, &["gql", "--script", "/dev/null", &q]);
    assert_eq!(code(&o), Some(1));
    assert!(stderr(&o).starts_with("SyntaxError: brackets and prefix operators nested deeper than 256 levels (SyntaxError.TooDeep) at 1:264\n"), "{}", stderr(&o));
    write(&d, "case/a.txt", "Acme Corp paid Beta Ltd.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "db"])), Some(0));
    let nots = format!("RETURN {}true", "NOT ".repeat(20_000));
    let o = tg(&d, &["repl", "--db", "db", "-e", &nots]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).contains("brackets and prefix operators nested deeper than 256 levels"), "{}", stderr(&o).chars().take(300).collect::<String>());
}

#[test]
fn nested_list_comprehensions_parse_in_linear_time() {
    let d = scratch("listcomp");
    let mut q = "[1, 2]".to_string();
    for _ in 0..24 {
        q = format!("[x IN {q} | x]");
    }
    let o = tg(&d, &["gql", "--script", "/dev/null", &format!("RETURN {q} AS v"), "--format", "tsv", "--timeout", "20"]);
    assert_eq!((code(&o), stdout(&o)), (Some(0), "v\n[1, 2]\n".to_string()), "{}", stderr(&o));
}

#[test]
fn runaway_datalog_ends_with_a_diagnostic_naming_the_relation() {
    let d = scratch("runaway");
    write_program(&d, "inf.dl", ".decl p(x: number)\np(0).\np(x + 1) :- p(x).\n.output p\n");
    let o = tg(&d, &["run", "inf.dl", "-D", "-", "--max-tuples", "100000"]);
    assert_eq!(
        (code(&o), stderr(&o), stdout(&o)),
        (Some(2), "error[TG0901]: evaluation stopped: the relations hold 100001 tuples, past the budget of 100000 (--max-tuples); relation p had grown to 100001 tuples in 100001 rounds\n".to_string(), String::new())
    );
    write_program(&d, "range.dl", ".decl r(x: number)\nr(x) :- x = range(0, 2000000000).\n.output r\n");
    let o = tg(&d, &["run", "range.dl", "-D", "-"]);
    assert_eq!(
        (code(&o), stderr(&o)),
        (Some(2), "error[TG0901]: evaluation stopped: range(0, 2000000000) yields more values than the budget of 100000000 tuples (--max-tuples)\n".to_string())
    );
    write_program(&d, "sym.dl", ".decl s(x: symbol)\ns(\"a\").\ns(cat(x, \"a\")) :- s(x).\n.output s\n");
    let o = tg(&d, &["run", "sym.dl", "-D", "-", "--max-memory", "200M"]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).starts_with("error[TG0901]: evaluation stopped: memory use passed the budget of 200 MiB (--max-memory); relation s had grown to "), "{}", stderr(&o));
    let o = tg(&d, &["run", "inf.dl", "-D", "-", "--timeout", "0.5", "--max-tuples", "4000000000"]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).starts_with("error[TG0901]: evaluation stopped: ran longer than the budget of 0.5 s (--timeout); relation p had grown to "), "{}", stderr(&o));
    // derive: the same budget over a store.
    write(&d, "case/a.txt", "Acme Corp paid Beta Ltd.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "db"])), Some(0));
    write_program(&d, "grow.dl", ".decl grow(x: number)\ngrow(0).\ngrow(x + 1) :- grow(x).\n");
    let o = tg(&d, &["derive", "grow.dl", "--db", "db", "--max-tuples", "50000"]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).contains("evaluation stopped: the relations hold 50001 tuples, past the budget of 50000 (--max-tuples); relation grow had grown to"), "{}", stderr(&o));
}

/// A CREATE script of the complete directed graph on `n` nodes `(:N {i})`, one CREATE
/// (no MATCH, so the script itself holds no rows).
fn complete_graph(n: usize) -> String {
    let nodes: Vec<String> = (0..n).map(|i| format!("(n{i}:N {{i: {i}}})")).collect();
    let rels: Vec<String> = (0..n).flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| format!("(n{a})-[:R]->(n{b})"))).collect();
    format!("CREATE {}, {}\n", nodes.join(", "), rels.join(", "))
}

#[test]
fn gql_explosions_stop_at_the_memory_budget() {
    let d = scratch("gql-budget");
    write(&d, "k9.cypher", &complete_graph(9));
    let stopped = "Interrupted: the query stopped: memory use passed the budget of 300 MiB (--max-memory)\n";
    // ORDER BY needs every row: no LIMIT push-down, the memory budget ends it.
    let o = tg(
        &d,
        &["gql", "--script", "k9.cypher", "MATCH p=(a)-[*]->(b) RETURN length(p) AS l ORDER BY l LIMIT 3", "--max-memory", "300M", "--max-rows", "1000000000", "--timeout", "60"],
    );
    assert_eq!((code(&o), stderr(&o)), (Some(1), stopped.to_string()));
    let o = tg(
        &d,
        &[
            "gql",
            "--script",
            "/dev/null",
            "UNWIND range(1, 30000) AS a UNWIND range(1, 30000) AS b RETURN collect(a + b)",
            "--max-memory",
            "300M",
            "--max-rows",
            "1000000000",
            "--timeout",
            "60",
        ],
    );
    assert_eq!((code(&o), stderr(&o)), (Some(1), stopped.to_string()));
}

#[test]
fn gql_limit_stops_matching() {
    let d = scratch("gql-limit");
    write(&d, "k9.cypher", &complete_graph(9));
    // The trails of K9 are far too many to enumerate; LIMIT without ORDER BY or
    // aggregation stops the match once it has its rows (well inside both budgets).
    let q = |query: &str| tg(&d, &["gql", "--script", "k9.cypher", query, "--format", "tsv", "--max-memory", "300M", "--max-rows", "5", "--timeout", "60"]);
    let cases = [
        ("MATCH p=(a)-[*]->(b) RETURN length(p) AS l LIMIT 3", "l\n1\n2\n3\n"),
        ("MATCH p=(a)-[*]->(b) RETURN length(p) AS l SKIP 2 LIMIT 2", "l\n3\n4\n"),
        ("MATCH p=(a)-[*]->(b) WITH p LIMIT 2 RETURN length(p) AS l", "l\n1\n2\n"),
        ("MATCH p=(a)-[*]->(b) RETURN DISTINCT length(p) AS l SKIP 1 LIMIT 3", "l\n2\n3\n4\n"),
        ("MATCH (x:N {i: 4}) MATCH p=(x)-[*]->(b) RETURN b.i AS b LIMIT 2", "b\n0\n1\n"),
        ("OPTIONAL MATCH p=(a)-[*]->(b) RETURN length(p) AS l LIMIT 1", "l\n1\n"),
        ("MATCH p=(a)-[*]->(b) RETURN length(p) AS l LIMIT 0", "l\n"),
        // One relationship runs as a scan of the relationship lists: it stops too.
        ("MATCH (a)-[r]->(b) RETURN a.i AS a, b.i AS b LIMIT 2", "a\tb\n0\t1\n0\t2\n"),
        ("MATCH (a)-[r]->(b) WHERE a.i > 6 RETURN a.i AS a, b.i AS b SKIP 1 LIMIT 3", "a\tb\n7\t1\n7\t2\n7\t3\n"),
    ];
    for (query, want) in cases {
        let o = q(query);
        assert_eq!((code(&o), stdout(&o), stderr(&o)), (Some(0), want.to_string(), String::new()), "{query}");
    }
}

#[test]
fn gql_rows_past_the_row_budget_are_a_diagnostic() {
    let d = scratch("gql-rows");
    write(&d, "k9.cypher", &complete_graph(9));
    let over = |n: usize| format!("Interrupted: the query stopped: a clause held more rows than the budget of {n} (--max-rows)\n");
    let q = |query: &str, max: &str| tg(&d, &["gql", "--script", "k9.cypher", query, "--format", "tsv", "--max-rows", max, "--timeout", "60"]);
    // 72 relationships: as rows of a projection, as groups, as a MATCH's table, as UNWIND's.
    for query in [
        "MATCH (a)-[r]->(b) RETURN a.i, b.i",
        "MATCH (a)-[r]->(b) RETURN a.i AS a, b.i AS b, count(*) AS n",
        "MATCH (a)-[r]->(b) MATCH (b)-[s]->(c) RETURN count(*) AS n",
        "MATCH (a)-[r]->(b) WITH collect(r) AS rs UNWIND rs AS r RETURN count(r) AS n",
        "MATCH p=(a)-[*]->(b) RETURN length(p) AS l ORDER BY l LIMIT 3",
    ] {
        let o = q(query, "50");
        assert_eq!((code(&o), stdout(&o), stderr(&o)), (Some(1), String::new(), over(50)), "{query}");
    }
    let o = q("MATCH (a)-[r]->(b) RETURN a.i AS a, b.i AS b, count(*) AS n ORDER BY n DESC, a, b LIMIT 1", "72");
    assert_eq!((code(&o), stdout(&o)), (Some(0), "a\tb\tn\n0\t1\t1\n".to_string()), "{}", stderr(&o));
    // A setup script is bounded alike.
    write(&d, "grid.cypher", "UNWIND range(1, 100) AS i CREATE (:P {i: i})\n");
    let o = tg(&d, &["gql", "--script", "grid.cypher", "MATCH (n) RETURN count(n)", "--max-rows", "50"]);
    assert_eq!((code(&o), stderr(&o)), (Some(2), format!("setup script grid.cypher failed: {}", over(50))));
    // The REPL and gql over a store: the query fails with the reason, the session goes on.
    write(&d, "case/a.txt", "Acme Corp paid Beta Ltd.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "db"])), Some(0));
    let o = tg(&d, &["gql", "--db", "db", "MATCH (n) RETURN n", "--max-rows", "2"]);
    assert_eq!((code(&o), stderr(&o)), (Some(1), over(2)));
    let o = tg(&d, &["repl", "--db", "db", "--keep-going", "--format", "tsv", "--max-rows", "2", "-e", "MATCH (n) RETURN n", "-e", "MATCH (n:Document) RETURN n.id AS id"]);
    assert_eq!((code(&o), stdout(&o), stderr(&o)), (Some(2), "id\na.txt\n".to_string(), format!("error: {}", over(2))));
}

#[cfg(unix)]
#[test]
fn a_derive_killed_by_sigterm_or_sigkill_leaves_all_or_nothing() {
    use textgraph::store::Store;
    let d = scratch("derive-kill");
    write(&d.join("case"), "a.txt", "Acme Corp paid Beta Ltd.\n");
    assert_eq!(code(&tg(&d, &["build", "case", "--db", "base"])), Some(0));
    write(&d, "pairs.dl", ".decl n(x: number)\nn(x) :- x = range(0, 400).\n.decl pair(x: number, y: number)\npair(x, y) :- n(x), n(y), x < y.\n");
    let whole = 400 * 399 / 2;
    let started = std::time::Instant::now();
    copy_dir(&d.join("base"), &d.join("calibration"));
    assert_eq!(code(&tg(&d, &["derive", "pairs.dl", "--db", "calibration"])), Some(0));
    let full = started.elapsed();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut outcomes = std::collections::BTreeSet::new();
    for round in 0..16 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let db = d.join(format!("db{round}"));
        copy_dir(&d.join("base"), &db);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tg"))
            .current_dir(&d)
            .args(["derive", "pairs.dl", "--db"])
            .arg(&db)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        std::thread::sleep(full.mul_f64(0.2 + (seed % 1000) as f64 / 1000.0 * 0.9));
        if round % 2 == 0 {
            // SAFETY: signalling our own child by its pid.
            #[allow(unsafe_code)]
            unsafe {
                libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
            }
        } else {
            let _ = child.kill();
        }
        let _ = child.wait();
        let store = Store::open_existing(&db).unwrap_or_else(|e| panic!("round {round}: the store does not reopen: {e}"));
        store.check().unwrap_or_else(|e| panic!("round {round}: {e}"));
        let v = store.verify().unwrap_or_else(|e| panic!("{e}"));
        assert!(v.failures.is_empty(), "round {round}: {:?}", v.failures);
        let n = store.derived_facts("pair").unwrap_or_default().len();
        assert!(n == 0 || n == whole, "round {round}: {n} of {whole} derived facts: a partial derived layer");
        outcomes.insert(n);
    }
    assert!(outcomes.contains(&0), "no derive was interrupted (a whole derive takes {full:?})");
}
