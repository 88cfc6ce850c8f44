//! The store's commands: `tg build`, `dump`, `verify`, `stats`, `derive`, `export` and
//! `explain`.

use std::io::Write as _;
use std::process::ExitCode;

use textgraph::limits::exit;

use super::args::*;
use super::{load_vocab, open_store, with_prefix};

/// The commands of this module.
pub enum StoreCommand {
    /// `tg build`.
    Build(BuildArgs),
    /// `tg dump`.
    Dump(DumpArgs),
    /// `tg verify`.
    Verify(VerifyArgs),
    /// `tg stats`.
    Stats(StatsArgs),
    /// `tg derive`.
    Derive(DeriveArgs),
    /// `tg export`.
    Export(ExportArgs),
    /// `tg explain`.
    Explain(ExplainArgs),
}

/// Runs the store's commands: `tg build`, `dump`, `verify`, `stats`, `derive`, `export`, `explain`.
pub fn run(command: StoreCommand) -> Result<ExitCode, ExitCode> {
    let fail = |e: textgraph::store::StoreError| {
        eprintln!("tg: {e}");
        ExitCode::from(exit::ERROR)
    };
    let mut out = String::new();
    let code = match command {
        StoreCommand::Build(BuildArgs { corpus, db, vocab, follow_links, llm }) => {
            if !corpus.is_dir() {
                eprintln!("tg: {} is not a folder", corpus.display());
                return Err(ExitCode::from(exit::ERROR));
            }
            let vocab = load_vocab(vocab.as_deref()).map_err(|e| {
                eprintln!("{e}");
                ExitCode::from(exit::ERROR)
            })?;
            let llm = llm.model(&vocab).map_err(|e| {
                eprintln!("{e}");
                ExitCode::from(exit::ERROR)
            })?;
            let store = textgraph::store::Store::open(&db.db).map_err(fail)?;
            let r = build_with_progress(&store, &corpus, &vocab, follow_links, llm.as_ref()).map_err(fail)?;
            // On one terminal the summary's "skipped" lines already say it: each file once.
            let one_screen = {
                use std::io::IsTerminal as _;
                std::io::stdout().is_terminal() && std::io::stderr().is_terminal()
            };
            for f in &r.manifest {
                if let Some(why) = f.reason.as_ref().filter(|_| !one_screen) {
                    eprintln!("warning: {}: {why}", f.id);
                }
                for w in &f.warnings {
                    eprintln!("warning: {}: {w}", f.id);
                }
            }
            for (id, w) in &r.ledger_warnings {
                eprintln!("warning: {id}: {w}");
            }
            out.push_str(&build_summary(&r, &db.db));
            ExitCode::from(exit::OK)
        }
        StoreCommand::Dump(DumpArgs { db }) => {
            out = open_store(&db)?.dump().map_err(fail)?;
            ExitCode::from(exit::OK)
        }
        StoreCommand::Verify(VerifyArgs { db }) => {
            let store = open_store(&db)?;
            store.check().map_err(fail)?;
            let v = store.verify().map_err(fail)?;
            let sources = textgraph::ingest::sources::check_sources(&store).map_err(fail)?;
            for f in &v.failures {
                out.push_str(&format!("FAILED {f}\n"));
            }
            for (id, state) in &sources.problems {
                use textgraph::ingest::sources::SourceState;
                match state {
                    SourceState::Changed(p) => out.push_str(&format!("CHANGED {id}: source {} differs from the stored document; run tg build\n", p.display())),
                    SourceState::Missing(p, why) => out.push_str(&format!("MISSING {id}: source {} cannot be read ({why}); run tg build\n", p.display())),
                    SourceState::Same => {}
                }
            }
            let pending = store.pending_documents().map_err(fail)?;
            for id in &pending {
                out.push_str(&format!("INCOMPLETE {id}: an interrupted build was writing it; run tg build\n"));
            }
            out.push_str(&format!("{}/{} citations verified\n", v.verified, v.checked));
            match &sources.corpus {
                Some(_) => out.push_str(&format!("{}/{} source files unchanged\n", sources.checked - sources.problems.len(), sources.checked)),
                None if sources.unrooted > 0 => out.push_str(&format!("{} source files not checked: the store records no corpus folder\n", sources.unrooted)),
                None => {}
            }
            if v.failures.is_empty() && sources.problems.is_empty() && pending.is_empty() { ExitCode::from(exit::OK) } else { ExitCode::from(exit::NO) }
        }
        StoreCommand::Stats(StatsArgs { db, format }) => {
            let st = open_store(&db)?.stats().map_err(fail)?;
            if format == "json" {
                out = serde_json::to_string_pretty(&st).unwrap_or_default();
                out.push('\n');
            } else {
                out.push_str(&format!("documents\t{}\n", st.documents));
                for (r, n) in &st.relations {
                    out.push_str(&format!("relation {r}\t{n}\n"));
                }
                for (t, n) in &st.tags {
                    out.push_str(&format!("tag {t}\t{n}\n"));
                }
                if let Some(d) = &st.last_derivation {
                    out.push_str(&format!(
                        "last derivation\t{} of {} in {} ms: strata {} skipped, {} maintained, {} recomputed\n",
                        d["mode"].as_str().unwrap_or("?"),
                        d["rules_file"].as_str().unwrap_or("?"),
                        d["elapsed_ms"],
                        d["strata"]["skipped"],
                        d["strata"]["maintained"],
                        d["strata"]["recomputed"]
                    ));
                }
            }
            ExitCode::from(exit::OK)
        }
        StoreCommand::Derive(DeriveArgs { rules, db, full, dry_run, format }) => {
            let store = open_store(&db)?;
            out = super::derive::run(&store, &super::derive::Args { rules, full, dry_run, format }).map_err(|e| {
                eprint!("{}", with_prefix(&e));
                ExitCode::from(exit::ERROR)
            })?;
            ExitCode::from(exit::OK)
        }
        StoreCommand::Explain(ExplainArgs { fact, db, depth, verify, full }) => {
            use textgraph::app::reason::view;
            let store = open_store(&db)?;
            let ex = view::explain_view(&store, &fact, view::ViewOptions { depth, full, verify }).map_err(|e| {
                eprint!("{}", with_prefix(&e.to_string()));
                ExitCode::from(exit::ERROR)
            })?;
            match ex {
                view::Outcome::Holds(ex) => {
                    out = ex.text;
                    if ex.failures.is_empty() { ExitCode::from(exit::OK) } else { ExitCode::from(exit::NO) }
                }
                view::Outcome::Missing(f) => {
                    out = format!("{f}: neither stored nor derived (run `tg derive`, or check the arguments with `tg dump`)\n");
                    ExitCode::from(exit::NO)
                }
            }
        }
        StoreCommand::Export(ExportArgs { db, format, output, force }) if format != "json" => {
            let store = open_store(&db)?;
            out = textgraph::app::export::run(&store, &format, &output, force).map_err(|e| {
                eprintln!("tg: {e}");
                ExitCode::from(exit::ERROR)
            })?;
            ExitCode::from(exit::OK)
        }
        StoreCommand::Export(ExportArgs { db, format: _, output, force }) => {
            let store = open_store(&db)?;
            let json = store.export_json().map_err(fail)?;
            if output.as_os_str() == "-" {
                out = json;
            } else if let Err(e) = textgraph::store::output::write_output(store.path(), &output, json.as_bytes(), force) {
                eprintln!("tg: {e}");
                return Err(ExitCode::from(exit::ERROR));
            } else {
                let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
                let count = |k: &str| v[k].as_array().map_or(0, Vec::len);
                let (docs, facts, derived, rules) = (count("documents"), count("facts"), count("derived"), count("rules"));
                out = format!("wrote {}: {docs} documents, {facts} facts, {derived} derived facts, {rules} rules ({} bytes of canonical JSON)\n", output.display(), json.len());
            }
            ExitCode::from(exit::OK)
        }
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    Ok(code)
}

/// Runs a build with a progress bar on stderr when stderr is a terminal.
fn build_with_progress(
    store: &textgraph::store::Store,
    corpus: &std::path::Path,
    vocab: &textgraph::extract::vocab::Vocabulary,
    follow_links: bool,
    llm: Option<&textgraph::llm::Llm>,
) -> Result<textgraph::app::build::BuildReport, textgraph::store::StoreError> {
    use std::io::IsTerminal as _;
    let worker = std::env::current_exe().ok();
    if !std::io::stderr().is_terminal() {
        let opts = textgraph::app::build::BuildOptions { pdf_worker: worker, vocab: Some(vocab), follow_links, llm, ..Default::default() };
        return textgraph::app::build::build_with(store, corpus, &opts);
    }
    // Files, MB, MB/s and ETA by bytes (cli::progress): the bar's position is bytes read.
    let bytes = super::progress::Bytes::of_corpus(corpus, store.path(), follow_links);
    let bar = indicatif::ProgressBar::new(bytes.total().max(1));
    bar.set_style(indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {msg}").unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()));
    let progress = |done: usize, total: usize, id: &str| {
        let b = bytes.done(id);
        bar.set_position(b);
        bar.set_message(format!("{} {id}", bytes.line(done, total, b)));
    };
    let opts = textgraph::app::build::BuildOptions { progress: Some(&progress), threads: 0, pdf_worker: worker, vocab: Some(vocab), follow_links, llm };
    let r = textgraph::app::build::build_with(store, corpus, &opts);
    bar.finish_and_clear();
    r
}

/// The summary `tg build` prints: the counts line, documents by format, skipped files
/// with reasons, facts written and time.
fn build_summary(r: &textgraph::app::build::BuildReport, db: &std::path::Path) -> String {
    let mut out = format!(
        "{} added, {} changed, {} unchanged, {} removed, {} skipped; store {}\n",
        r.added.len(),
        r.changed.len(),
        r.unchanged,
        r.removed.len(),
        r.skipped.len(),
        db.display()
    );
    let formats: Vec<String> = r.by_format().iter().map(|(f, n)| format!("{f} {n}")).collect();
    if !formats.is_empty() {
        out.push_str(&format!("documents by format: {}\n", formats.join(", ")));
    }
    for (id, why) in &r.skipped {
        out.push_str(&format!("skipped {id}: {why}\n"));
    }
    let secs = r.elapsed.as_secs_f64();
    out.push_str(&format!("{} facts written; {} bytes extracted in {secs:.2} s\n", r.facts_written, r.bytes_extracted));
    if let Some(l) = &r.llm {
        out.push_str(&textgraph::llm::render(l));
    }
    out
}
