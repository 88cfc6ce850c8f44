//! Ingest as users meet it: `tg build` on our fixtures (one check per format, on the
//! canonical text and key facts), every bad file with its exact warning, the real
//! awkward files of `../shared/data/files_ingestion_robustness` (zero panics, a status
//! for each), and determinism (two builds give identical dumps and exports).

use std::path::{Path, PathBuf};

mod common;

use common::copy_dir;

use common::{root, stderr, stdout, tg};

fn scratch(name: &str) -> PathBuf {
    common::scratch("ingest", name)
}

/// Builds `corpus` into `d/db` and returns (stdout, stderr, dump).
fn build(d: &Path, corpus: &Path) -> (String, String, String) {
    let o = tg(d, &["build", corpus.to_str().unwrap_or_default(), "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dump = stdout(&tg(d, &["dump", "--db", "db"]));
    (stdout(&o), stderr(&o), dump)
}

/// The quoted text a fact cites, through `tg explain`.
fn explain(d: &Path, fact: &str) -> String {
    stdout(&tg(d, &["explain", fact, "--db", "db"]))
}

fn has(dump: &str, fact: &str) {
    let needle = if fact.ends_with(')') { format!("fact {fact} STRUCTURAL") } else { format!("fact {fact}") };
    assert!(dump.contains(&needle), "missing fact {fact}");
}

#[test]
fn case_files_every_format() {
    let d = scratch("case");
    let (out, err, dump) = build(&d, &root().join("fixtures/case-files"));
    assert!(out.starts_with("13 added, 0 changed, 0 unchanged, 0 removed, 0 skipped; store db\n"), "{out}");
    assert!(out.contains("documents by format: chat 1, csv 1, docx 1, eml 2, html 1, log 1, md 1, pdf 1, txt 4\n"), "{out}");
    assert_eq!(err, "");
    let v = tg(&d, &["verify", "--db", "db"]);
    assert_eq!(v.status.code(), Some(0), "{}", stdout(&v));
    // Plain text: numbered sections, definitions, cross-references, requirements, rationale.
    has(&dump, "section(\"wire-transfer-memo.txt\", 2, \"1. Summary\", 1)");
    has(&dump, "definition(\"wire-transfer-memo.txt\", \"Acme\")");
    has(&dump, "definition(\"wire-transfer-memo.txt\", \"Beneficiary\")");
    has(&dump, "xref(\"wire-transfer-memo.txt\", \"exhibit\", \"A\")");
    has(&dump, "xref(\"wire-transfer-memo.txt\", \"section\", \"4\")");
    has(&dump, "cites(\"wire-transfer-memo.txt\", \"FIN-2014-A001\")");
    has(&dump, "cites(\"wire-transfer-memo.txt\", \"wire-log.csv\")");
    has(&dump, "requirement(\"wire-transfer-memo.txt\", \"MUST\")");
    has(&dump, "requirement(\"wire-transfer-memo.txt\", \"SHALL\")");
    has(&dump, "rationale(\"wire-transfer-memo.txt\", \"BECAUSE\")");
    // CSV: one row per record, header-aware fields citing the cell.
    has(&dump, "field(\"wire-log.csv\", 5, \"beneficiary\", \"Delta Freight, Inc.\")");
    has(&dump, "field(\"wire-log.csv\", 1, \"amount_usd\", \"495000\")");
    assert!(explain(&d, "field(\"wire-log.csv\", 5, \"beneficiary\", \"Delta Freight, Inc.\")").contains("\"Delta Freight, Inc.\""));
    // Chat: sender and time per message; a continuation line stays in its message.
    has(&dump, "message(\"chat/transcript.txt\", 3, \"Lena Ortiz\", \"2024-03-01 09:16\")");
    assert!(explain(&d, "message(\"chat/transcript.txt\", 3, \"Lena Ortiz\", \"2024-03-01 09:16\")").contains("the rest tomorrow and Sunday."));
    // E-mail: headers, thread, attachment as its own document.
    has(&dump, "message(\"emails/2024-03-01-approval.eml\", 0, \"marek.novak@acme-trading.example\", \"2024-03-01T08:55:00Z\")");
    has(&dump, "recipient(\"emails/2024-03-01-approval.eml\", 0, \"treasury@acme-trading.example\", \"cc\")");
    has(&dump, "subject(\"emails/2024-03-01-reply.eml\", 0, \"Re: Beta Holdings payment\")");
    has(&dump, "reply_to(\"emails/2024-03-01-reply.eml\", 0, \"20240301085500.1001@acme-trading.example\")");
    has(&dump, "message_id(\"emails/2024-03-01-approval.eml\", 0, \"20240301085500.1001@acme-trading.example\")");
    has(&dump, "attachment(\"emails/2024-03-01-approval.eml\", \"emails/2024-03-01-approval.eml#attachments/1/invoice-BH-2024-017.txt\")");
    assert!(dump.contains("document emails/2024-03-01-approval.eml#attachments/1/invoice-BH-2024-017.txt format=txt"), "{dump}");
    // DOCX: headings, table rows, list items, hyperlinks.
    has(&dump, "section(\"board-minutes.docx\", 0, \"Minutes of the Board of Directors of Acme Trading Ltd\", 1)");
    has(&dump, "link(\"board-minutes.docx\", \"https://example.org/registry/beta-holdings\")");
    has(&dump, "definition(\"board-minutes.docx\", \"Consultant\")");
    assert!(explain(&d, "link(\"board-minutes.docx\", \"https://example.org/registry/beta-holdings\")").contains("\"Beta Holdings SA company file\""));
    assert!(dump.contains("block(\"board-minutes.docx\", ") && dump.contains(", \"row\", "), "{dump}");
    // PDF: pages as blocks, text in reading order.
    has(&dump, "block(\"bank-statement.pdf\", 0, \"page\", -1)");
    assert!(explain(&d, "block(\"bank-statement.pdf\", 0, \"page\", -1)").contains("Account holder: Acme Trading Ltd"));
    // HTML: title, sections from headings, links, no script or style text.
    has(&dump, "section(\"news-article.html\", ");
    has(&dump, "link(\"news-article.html\", \"https://example.org/reports/nauru-2024\")");
    assert!(!dump.contains("tracking"));
    // Markdown ADR: rationale and decision blocks, requirements.
    has(&dump, "rationale(\"decision-record.md\", \"RATIONALE\")");
    has(&dump, "rationale(\"decision-record.md\", \"DECISION\")");
    has(&dump, "requirement(\"decision-record.md\", \"REQUIRED\")");
    has(&dump, "definition(\"decision-record.md\", \"Hold List\")");
    // Logs: templates with variable parts masked, one fact citing every matching line.
    has(&dump, "log_template(\"logs/payment-gateway.log\", \"<TS> INFO wire WT<NUM> accepted by SWIFT in <NUM> ms\")");
    assert!(dump.contains("log_template(\"logs/payment-gateway.log\", \"<TS> INFO wire WT<NUM> accepted by SWIFT in <NUM> ms\") STRUCTURAL supports=4"), "{dump}");
    // Chunks cover each document.
    has(&dump, "chunk(\"correction-notice.txt\", 0, ");
    // The manifest lists every file.
    let rebuilt = tg(&d, &["build", root().join("fixtures/case-files").to_str().unwrap_or_default(), "--db", "db"]);
    assert!(stdout(&rebuilt).starts_with("0 added, 0 changed, 13 unchanged, 0 removed, 0 skipped; store db\n"), "{}", stdout(&rebuilt));
}

/// README's first look: threads across e-mails, explained down to the cited header bytes.
#[test]
fn threads_rule_over_case_files() {
    let d = scratch("threads");
    build(&d, &root().join("fixtures/case-files"));
    let rules = root().join("rules/threads.dl");
    let o = tg(&d, &["derive", rules.to_str().unwrap_or_default(), "--db", "db"]);
    // The file is added to the rule library (never replaces it): its three relations are new.
    assert!(stdout(&o).contains("  +1 answers (1 now)\n"), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("  +1 thread_attachment (1 now)\n"), "{}", stdout(&o));
    let e = explain(&d, "thread_attachment(\"emails/2024-03-01-reply.eml\", \"emails/2024-03-01-approval.eml#attachments/1/invoice-BH-2024-017.txt\")");
    assert!(e.contains("[emails/2024-03-01-reply.eml:243-285] \"<20240301085500.1001@acme-trading.example>\""), "{e}");
    assert!(e.contains("\"[attachment #1: invoice-BH-2024-017.txt, text/plain, 149 bytes]\""), "{e}");
}

#[test]
fn other_formats() {
    let d = scratch("formats");
    let (out, err, dump) = build(&d, &root().join("fixtures/formats"));
    assert!(out.starts_with("12 added, 0 changed, 0 unchanged, 0 removed, 0 skipped; store db\n"), "{out}");
    assert!(out.contains("documents by format: chat 1, eml 2, epub 1, mbox 1, odt 1, pdf 1, rtf 1, slack 1, toml 1, tsv 1, yaml 1\n"), "{out}");
    assert_eq!(err, "");
    // WhatsApp export: system line as an event, messages with sender and time.
    has(&dump, "message(\"whatsapp.txt\", 1, \"Marek Novak\", \"01/03/2024, 09:31\")");
    has(&dump, "block(\"whatsapp.txt\", 0, \"event\", -1)");
    // Slack: times from ts, threads from thread_ts.
    has(&dump, "message(\"slack.json\", 1, \"Lena Ortiz\", \"2024-03-03T12:05:00Z\")");
    has(&dump, "reply_to(\"slack.json\", 1, \"1709467200.000100\")");
    // YAML and TOML fields.
    has(&dump, "field(\"case.yaml\", 0, \"accounts[0].bank\", \"First Harbour Bank\")");
    has(&dump, "field(\"settings.toml\", 0, \"review.threshold_usd\", \"500000\")");
    has(&dump, "field(\"transfers.tsv\", 2, \"reference\", \"WT-1002\")");
    // ODT: headings, list items, links, table rows.
    has(&dump, "section(\"notes.odt\", 0, \"Interview notes\", 1)");
    has(&dump, "link(\"notes.odt\", \"https://example.org/registry/gamma\")");
    // EPUB: chapters in spine order, a %-encoded chapter path, entities decoded.
    has(&dump, "section(\"handbook.epub\", ");
    assert!(explain(&d, "document(\"handbook.epub\", \"epub\")").contains("threshold—a red flag."));
    // RTF: code page and \u escapes decoded, destinations skipped.
    let rtf = explain(&d, "document(\"letter.rtf\", \"rtf\")");
    assert!(rtf.contains("Zürich desk)—urgently."), "{rtf}");
    assert!(!rtf.contains("Times New Roman") && !rtf.contains("Clerk"), "{rtf}");
    // A forwarded mail: an HTML body, a base64 PDF and an attached message, each a document.
    has(&dump, "attachment(\"forwarded.eml\", \"forwarded.eml#attachments/1/statement.pdf\")");
    has(&dump, "attachment(\"forwarded.eml\", \"forwarded.eml#attachments/2/message-2.eml\")");
    has(&dump, "link(\"forwarded.eml\", \"https://example.org/case/AML-2024-031\")");
    has(&dump, "reply_to(\"forwarded.eml#attachments/2/message-2.eml\", 0, \"20240301085500.1001@acme-trading.example\")");
    assert!(explain(&d, "block(\"forwarded.eml#attachments/1/statement.pdf\", 0, \"page\", -1)").contains("[forwarded.eml#attachments/1/statement.pdf:0-"));
    assert!(explain(&d, "document(\"forwarded.eml\", \"eml\")").contains("Forwarding the March statement and Lena’s confirmation."));
    // mbox: two messages, the second answering the first.
    has(&dump, "reply_to(\"mailbox.mbox\", ");
    assert_eq!(dump.matches("fact message(\"mailbox.mbox\"").count(), 2);
}

#[test]
fn bad_files_are_skipped_with_exact_warnings() {
    let d = scratch("bad");
    let corpus = d.join("bad");
    copy_dir(&root().join("fixtures/bad"), &corpus);
    // Made at run time: a symbolic link loop, a dangling link, a gigantic line.
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink("loop-b", corpus.join("loop-a"));
        let _ = std::os::unix::fs::symlink("loop-a", corpus.join("loop-b"));
        let _ = std::os::unix::fs::symlink(".", corpus.join("self-dir"));
        let _ = std::os::unix::fs::symlink("nowhere.txt", corpus.join("dangling.txt"));
    }
    let mut giant = "Acme wired funds to Beta. ".repeat(200_000);
    giant.push('\n');
    std::fs::write(corpus.join("gigantic-line.txt"), &giant).unwrap_or_else(|e| panic!("{e}"));
    let started = std::time::Instant::now();
    let (out, err, dump) = build(&d, &corpus);
    assert!(started.elapsed().as_secs() < 60, "gigantic line took {:?}", started.elapsed());
    let expected = "\
warning: binary.dat: binary file (not text, format not recognised)
warning: dangling.txt: cannot read: no such file (dangling link?)
warning: deep-nesting.html: HTML nesting deeper than 256 levels: deeper elements flattened into text
warning: empty.txt: empty file
warning: encrypted.pdf: encrypted PDF (password required)
warning: invalid-utf8.txt: invalid UTF-8 at byte 3: decoded as Windows-1252
warning: loop-a: cannot read: symbolic link loop
warning: loop-b: cannot read: symbolic link loop
warning: not-a-docx.docx: invalid DOCX (not a readable zip container: invalid Zip archive: Could not find EOCD)
warning: quote-operators.pdf: page 1: pdf-extract found 0 characters, lopdf 99; used lopdf's text
warning: scanned.pdf: no text layer — OCR not available
warning: self-dir: symbolic link to a folder (not followed)
warning: truncated.pdf: invalid or truncated PDF: failed parsing cross reference table: invalid start value
warning: zip-bomb.docx: zip bomb: member word/document.xml expands 1006x (limit 100x)
";
    assert_eq!(err, expected);
    assert!(out.starts_with("4 added, 0 changed, 0 unchanged, 0 removed, 11 skipped; store db\n"), "{out}");
    assert!(out.contains("skipped zip-bomb.docx: zip bomb: member word/document.xml expands 1006x (limit 100x)\n"), "{out}");
    // What could be read was kept.
    assert!(explain(&d, "document(\"invalid-utf8.txt\", \"txt\")").contains("Café au lait cost € 3.50 at the Zürich branch."));
    assert!(explain(&d, "document(\"deep-nesting.html\", \"html\")").contains("Deep text survives."));
    // Text drawn with the ' operator, which pdf-extract drops, is recovered through lopdf.
    assert!(explain(&d, "document(\"quote-operators.pdf\", \"pdf\")").contains("which pdf-extract silently drops."));
    // The gigantic line is chunked within the bound.
    assert!(dump.contains("fact chunk(\"gigantic-line.txt\", 3000, "), "gigantic line not chunked");
    let v = tg(&d, &["verify", "--db", "db"]);
    assert_eq!(v.status.code(), Some(0));
}

#[test]
fn builds_are_deterministic_and_incremental() {
    let d = scratch("det");
    let corpus = d.join("case");
    copy_dir(&root().join("fixtures/case-files"), &corpus);
    copy_dir(&root().join("fixtures/formats"), &corpus.join("formats"));
    std::fs::write(corpus.join(".gitignore"), "ignored/\n*.tmp\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(corpus.join("ignored")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(corpus.join("ignored/secret.txt"), "not for the graph\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(corpus.join("scratch.tmp"), "not for the graph\n").unwrap_or_else(|e| panic!("{e}"));
    let mut dumps = vec![];
    let mut exports = vec![];
    // Store "b" lives inside the corpus: the build must not ingest its own files.
    for db in ["a", "case/b"] {
        let o = tg(&d, &["build", "case", "--db", db]);
        assert_eq!(o.status.code(), Some(0));
        dumps.push(stdout(&tg(&d, &["dump", "--db", db])));
        exports.push(stdout(&tg(&d, &["export", "--format", "json", "--db", db])));
    }
    assert_eq!(dumps[0], dumps[1]);
    assert_eq!(exports[0], exports[1]);
    assert!(!dumps[0].contains("secret.txt") && !dumps[0].contains("scratch.tmp"), "ignore files not respected");
    // Change the e-mail with the attachment, remove the PDF: only they are touched.
    let eml = corpus.join("emails/2024-03-01-approval.eml");
    let text = std::fs::read_to_string(&eml).unwrap_or_default().replace("USD 1,940,000 per the", "USD 1,950,000 per the");
    std::fs::write(&eml, text).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_file(corpus.join("bank-statement.pdf")).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["build", "case", "--db", "a"]);
    assert!(stdout(&o).starts_with("0 added, 2 changed, 22 unchanged, 1 removed, 0 skipped; store a\n"), "{}", stdout(&o));
    let fresh = tg(&d, &["build", "case", "--db", "c"]);
    assert_eq!(fresh.status.code(), Some(0));
    assert_eq!(stdout(&tg(&d, &["dump", "--db", "a"])), stdout(&tg(&d, &["dump", "--db", "c"])));
}

/// The real awkward files of ../shared (skipped when absent): no panic, a status for each.
#[test]
fn robustness_corpus_never_panics() {
    let shared = std::env::var("TG_SHARED").map(PathBuf::from).unwrap_or_else(|_| root().join("../shared"));
    let corpus = shared.join("data/files_ingestion_robustness");
    if !corpus.is_dir() {
        eprintln!("note: {} is absent; robustness corpus not tested", corpus.display());
        return;
    }
    let d = scratch("robust");
    let o = tg(&d, &["build", corpus.to_str().unwrap_or_default(), "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    let manifest = std::fs::read_to_string(corpus.join("manifest.csv")).unwrap_or_default();
    let files: Vec<&str> = manifest.lines().skip(1).filter_map(|l| l.split(',').next()).filter(|f| !f.is_empty()).collect();
    let out = stdout(&o);
    let first = out.lines().next().unwrap_or_default().to_string();
    let added: usize = first.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let dump = stdout(&tg(&d, &["dump", "--db", "db"]));
    let mut full = 0;
    for f in &files {
        let ingested = dump.contains(&format!("document {f} format="));
        let skipped = out.contains(&format!("skipped {f}: "));
        assert!(ingested ^ skipped, "{f}: no status (ingested {ingested}, skipped {skipped})");
        let warned = stderr(&o).contains(&format!("warning: {f}: "));
        if ingested && !warned {
            full += 1;
        }
    }
    println!("robustness: {full} of {} manifest files ingest fully (no warning), {added} documents added; first line: {first}", files.len());
    assert!(full >= 30, "only {full} files ingest fully");
}

/// PDFs extracted in the child process and in-process give the same store; a worker that
/// dies is a skip with the reason, not a failed build.
#[test]
fn pdf_child_process_matches_in_process_and_contains_crashes() {
    let d = scratch("child");
    let corpus = root().join("fixtures/case-files");
    assert_eq!(tg(&d, &["build", corpus.to_str().unwrap_or_default(), "--db", "child"]).status.code(), Some(0));
    {
        let store = textgraph::store::Store::open(&d.join("inproc")).unwrap_or_else(|e| panic!("{e}"));
        let r = textgraph::app::build::build(&store, &corpus).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.skipped.is_empty(), "{:?}", r.skipped);
    }
    assert_eq!(stdout(&tg(&d, &["dump", "--db", "child"])), stdout(&tg(&d, &["dump", "--db", "inproc"])));
    // The build's manifest is stored: every file with its status.
    let store = textgraph::store::Store::open(&d.join("child")).unwrap_or_else(|e| panic!("{e}"));
    let manifest: serde_json::Value = serde_json::from_str(&store.manifest().ok().flatten().unwrap_or_default()).unwrap_or_default();
    let entries = manifest.as_array().cloned().unwrap_or_default();
    assert_eq!(entries.len(), 13, "{manifest}");
    assert!(entries.iter().all(|e| e["status"] == "added"), "{manifest}");
    assert!(entries.iter().any(|e| e["id"] == "bank-statement.pdf" && e["format"] == "pdf" && e["facts"].as_u64().unwrap_or(0) > 5), "{manifest}");
    drop(store);
    let crashed = textgraph::ingest::pdf_worker::extract_in_child(Path::new("/bin/false"), b"%PDF-1.4\n");
    assert_eq!(crashed.err().map(|s| s.0).unwrap_or_default(), "PDF extractor crashed (exit status: 1)");
}

/// Real corpora of ../shared (skipped when absent): the Enron e-mails and mbox, the 48
/// FinCEN advisory PDFs and the SEC litigation releases ingest with their structure.
#[test]
fn real_corpora_ingest() {
    let shared = std::env::var("TG_SHARED").map(PathBuf::from).unwrap_or_else(|_| root().join("../shared"));
    let data = shared.join("data");
    if !data.join("email_enron_sample").is_dir() || !data.join("fincrime_fincen_advisories").is_dir() {
        eprintln!("note: {} is absent; real corpora not tested", data.display());
        return;
    }
    let d = scratch("real");
    // Enron: every message ingests, with a sender, a time and recipients.
    let o = tg(&d, &["build", data.join("email_enron_sample").to_str().unwrap_or_default(), "--db", "enron"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("eml 109, mbox 1"), "{out}");
    assert!(out.lines().next().unwrap_or_default().ends_with(" 0 skipped; store enron"), "{out}");
    let stats: serde_json::Value = serde_json::from_str(&stdout(&tg(&d, &["stats", "--db", "enron", "--format", "json"]))).unwrap_or_default();
    assert!(stats["relations"]["message"].as_u64().unwrap_or(0) >= 109, "{stats}");
    assert!(stats["relations"]["recipient"].as_u64().unwrap_or(0) >= 109, "{stats}");
    // FinCEN PDFs: all but the two withdrawal notices whose fonts have no Unicode map.
    let o = tg(&d, &["build", data.join("fincrime_fincen_advisories/pdf").to_str().unwrap_or_default(), "--db", "fincen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("46 added, 0 changed, 0 unchanged, 0 removed, 2 skipped; store fincen\n"), "{out}");
    assert!(out.contains("skipped advis29w.pdf: text layer is garbage (fonts without a Unicode mapping) — OCR not available\n"), "{out}");
    let dump = stdout(&tg(&d, &["dump", "--db", "fincen"]));
    has(&dump, "cites(\"Advisory_EIP_FINAL_508.pdf\", \"FIN-2021-A002\")");
    has(&dump, "section(\"Venezuela_Advisory_FINAL_508.pdf\", ");
    assert!(tg(&d, &["verify", "--db", "fincen"]).status.code() == Some(0));
    // SEC releases: 69 plain texts and their JSON Lines index.
    let sec = data.join("fincrime_sec_litigation_releases");
    if sec.is_dir() {
        let o = tg(&d, &["build", sec.to_str().unwrap_or_default(), "--db", "sec"]);
        assert!(stdout(&o).starts_with("71 added, 0 changed, 0 unchanged, 0 removed, 0 skipped; store sec\n"), "{}", stdout(&o));
        assert!(stdout(&o).contains("documents by format: jsonl 1, md 1, txt 69\n"), "{}", stdout(&o));
        let dump = stdout(&tg(&d, &["dump", "--db", "sec"]));
        has(&dump, "field(\"releases.jsonl\", 68, \"release_no\", \"LR-17330\")");
    }
}
