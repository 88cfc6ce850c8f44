//! `tg`: the TextGraph command line.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use textgraph::datalog::driver::{RunOptions, compile, run, show_plans};
use textgraph::datalog::io::OutputDir;

/// TextGraph: case documents in, a byte-cited knowledge graph out.
#[derive(Parser, Debug)]
#[command(name = "tg", version, about, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What `tg vocab` does.
#[derive(Subcommand, Debug)]
enum VocabAction {
    /// Print the instruction text for an outside extractor.
    Prompt {
        /// A vocabulary file (TOML; default: the built-in stdlib/vocab/finance.toml).
        #[arg(long)]
        vocab: Option<PathBuf>,
    },
    /// List the relations with the entity types each allows.
    Show {
        /// A vocabulary file (TOML; default: the built-in one).
        #[arg(long)]
        vocab: Option<PathBuf>,
    },
}

/// Loads `--vocab FILE`, or the built-in vocabulary.
fn load_vocab(path: Option<&std::path::Path>) -> Result<textgraph::extract::vocab::Vocabulary, String> {
    use textgraph::extract::vocab::Vocabulary;
    match path {
        None => Ok(Vocabulary::builtin().clone()),
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("tg: cannot read vocabulary {}: {e}", p.display()))?;
            Vocabulary::parse(&p.display().to_string(), &text).map_err(|e| format!("tg: {e}"))
        }
    }
}

/// Where the store lives: `--db PATH`, else `$TG_DB`, else `./textgraph-out/store`.
#[derive(clap::Args, Debug)]
struct DbArg {
    /// The store (a fjall database directory).
    #[arg(long, env = "TG_DB", default_value = "textgraph-out/store")]
    db: PathBuf,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The closed vocabulary of claims: `tg vocab prompt` prints the instructions for an
    /// outside extractor, generated from the same file the extractor and the refusals use.
    Vocab {
        #[command(subcommand)]
        action: VocabAction,
    },
    /// Ingest a corpus folder into the store (only changed files are re-read).
    Build {
        /// The corpus root.
        corpus: PathBuf,
        #[command(flatten)]
        db: DbArg,
        /// The closed vocabulary claims must use (TOML; default: the built-in
        /// stdlib/vocab/finance.toml). Changing it re-extracts every document.
        #[arg(long)]
        vocab: Option<PathBuf>,
    },
    /// Print the whole store as canonical sorted text.
    Dump {
        #[command(flatten)]
        db: DbArg,
    },
    /// Re-hash every citation against the stored canonical text.
    Verify {
        #[command(flatten)]
        db: DbArg,
    },
    /// Run a rule file over the store's facts and store what it derives, with witnesses.
    Derive {
        /// The rules (.dl); relations it reads are loaded from the store.
        rules: PathBuf,
        #[command(flatten)]
        db: DbArg,
        /// Evaluate everything, even when the store's derived layer came from these rules
        /// (by default only what changed since is maintained).
        #[arg(long)]
        full: bool,
    },
    /// Show why a stored or derived fact holds, down to the cited document bytes.
    Explain {
        /// The fact, e.g. 'controls("Acme Corp", "Beta Ltd")'.
        fact: String,
        #[command(flatten)]
        db: DbArg,
        /// Depth limit of the proof tree.
        #[arg(long, default_value_t = 8)]
        depth: usize,
        /// Re-hash every citation and check every step's rule.
        #[arg(long)]
        verify: bool,
    },
    /// Export the graph: `--format json` writes canonical JSON (sorted keys, content ids).
    Export {
        #[command(flatten)]
        db: DbArg,
        /// Output format.
        #[arg(long, value_parser = ["json"], default_value = "json")]
        format: String,
        /// Output file (`-` for standard output).
        #[arg(short = 'o', long = "output", default_value = "-")]
        output: PathBuf,
    },
    /// Count documents, facts per relation and per tag.
    Stats {
        #[command(flatten)]
        db: DbArg,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// Measure extraction quality against gold data (scores only the types that map onto
    /// the vocabulary; see docs/BENCHMARKS.md, "Extraction quality").
    Eval {
        #[command(subcommand)]
        what: EvalCommand,
    },
    /// Internal: extract the PDF on stdin, print the result as JSON (used by `tg build`).
    #[command(name = "__extract-pdf", hide = true)]
    ExtractPdf,
    /// Run a GQL / openCypher read query over the store's property-graph view (docs/GQL.md),
    /// or over the in-memory graph a CREATE script builds (`--script`).
    Gql {
        /// The query, e.g. "MATCH (a)-[c:CONTROLS*1..3]->(b) RETURN a.name, b.name".
        query: String,
        #[command(flatten)]
        db: DbArg,
        /// A setup script (CREATE statements separated by `;`): query its graph instead of a store.
        #[arg(long)]
        script: Option<PathBuf>,
        /// A query parameter `k=v`, `v` a Cypher literal (repeatable).
        #[arg(long = "param")]
        param: Vec<String>,
        /// Query parameters as a JSON object file.
        #[arg(long = "params")]
        params: Option<PathBuf>,
        /// Output format: table (default on a terminal), tsv (default when piped), csv, json, tck.
        #[arg(long, value_parser = ["table", "tsv", "csv", "json", "tck"])]
        format: Option<String>,
        /// Show every entity key as its own node instead of merging `same_as` classes.
        #[arg(long)]
        raw_identity: bool,
    },
    /// Evaluate a Datalog program like `souffle -F FACTS -D OUT prog.dl`.
    Run {
        /// The program (.dl).
        program: PathBuf,
        /// Directory holding `<relation>.facts` inputs.
        #[arg(short = 'F', long = "facts", default_value = ".")]
        facts: PathBuf,
        /// Directory for `<relation>.csv` outputs; `-` prints them to stdout.
        #[arg(short = 'D', long = "output", default_value = ".")]
        output: String,
        /// Directories searched by `#include`.
        #[arg(short = 'I', long = "include-dir")]
        include: Vec<PathBuf>,
        /// Keep a canonical witness (rule, body tuples) for every derived tuple.
        #[arg(long)]
        provenance: bool,
        /// Print the proof tree of a fact such as 'path(1,5)' (needs --provenance; repeatable).
        #[arg(long)]
        explain: Vec<String>,
        /// Depth limit of proof trees.
        #[arg(long, default_value_t = 8)]
        depth: usize,
        /// Print something about the program instead of evaluating it: `plan` (join orders and indexes).
        #[arg(long, value_parser = ["plan"])]
        show: Option<String>,
        /// Accepted for Soufflé compatibility: the C preprocessor is never run.
        #[arg(long = "no-preprocessor", hide = true)]
        no_preprocessor: bool,
    },
}

#[derive(Subcommand, Debug)]
enum EvalCommand {
    /// FIRE relation-extraction JSON (e.g. fire_dev.json): entity and relation P/R/F1.
    Fire {
        /// The FIRE JSON file.
        path: PathBuf,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
        /// Also print every error (false positive, false negative) with its text.
        #[arg(long)]
        errors: bool,
    },
    /// KPI-EDGAR (kpi_edgar.xlsx): money extraction P/R/F1 on annotated 10-K values.
    Kpi {
        /// The KPI-EDGAR workbook.
        path: PathBuf,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
        /// Also print every error (false positive, false negative) with its text.
        #[arg(long)]
        errors: bool,
    },
    /// CoNLL-format NER (TOKEN … TAG per line): entity P/R/F1 for PER, ORG, LOC.
    Conll {
        /// The CoNLL file.
        path: PathBuf,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
        /// Also print every error (false positive, false negative) with its text.
        #[arg(long)]
        errors: bool,
    },
}

/// Runs `tg eval …`.
fn eval_command(what: EvalCommand) -> ExitCode {
    use textgraph::extract::eval;
    let (path, format, errors, which) = match what {
        EvalCommand::Fire { path, format, errors } => (path, format, errors, "fire"),
        EvalCommand::Conll { path, format, errors } => (path, format, errors, "conll"),
        EvalCommand::Kpi { path, format, errors } => (path, format, errors, "kpi"),
    };
    let report = if which == "kpi" {
        eval::read_xlsx(&path).and_then(|sheets| eval::kpi(&sheets))
    } else {
        let text = match std::fs::read(&path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                eprintln!("tg: cannot read {}: {e}", path.display());
                return ExitCode::from(EXIT_ERROR);
            }
        };
        if which == "fire" { eval::fire(&text, textgraph::extract::vocab::Vocabulary::builtin()) } else { eval::conll(&text) }
    };
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            eprintln!("tg: {}: {e}", path.display());
            return ExitCode::from(EXIT_ERROR);
        }
    };
    let out = if format == "json" {
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        if let Some(h) = report.hallucinated_edge_rate() {
            v["hallucinated_edge_rate"] = serde_json::json!(h);
        }
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else if errors {
        report.to_text() + &report.errors.iter().map(|e| format!("{e}\n")).collect::<String>()
    } else {
        report.to_text()
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::SUCCESS
}

/// Exit status of a run that failed (bad program, bad input, IO error); 0 is success.
const EXIT_ERROR: u8 = 2;

fn open_store(db: &DbArg) -> Result<textgraph::store::Store, ExitCode> {
    textgraph::store::Store::open(&db.db).map_err(|e| {
        eprintln!("tg: {e}");
        ExitCode::from(EXIT_ERROR)
    })
}

fn store_command(command: Command) -> Result<ExitCode, ExitCode> {
    let fail = |e: textgraph::store::StoreError| {
        eprintln!("tg: {e}");
        ExitCode::from(EXIT_ERROR)
    };
    let mut out = String::new();
    let code = match command {
        Command::Build { corpus, db, vocab } => {
            if !corpus.is_dir() {
                eprintln!("tg: {} is not a folder", corpus.display());
                return Err(ExitCode::from(EXIT_ERROR));
            }
            let vocab = load_vocab(vocab.as_deref()).map_err(|e| {
                eprintln!("{e}");
                ExitCode::from(EXIT_ERROR)
            })?;
            let store = open_store(&db)?;
            let r = build_with_progress(&store, &corpus, &vocab).map_err(fail)?;
            for f in &r.manifest {
                if let Some(why) = &f.reason {
                    eprintln!("warning: {}: {why}", f.id);
                }
                for w in &f.warnings {
                    eprintln!("warning: {}: {w}", f.id);
                }
            }
            out.push_str(&build_summary(&r, &db.db));
            ExitCode::SUCCESS
        }
        Command::Dump { db } => {
            out = open_store(&db)?.dump().map_err(fail)?;
            ExitCode::SUCCESS
        }
        Command::Verify { db } => {
            let v = open_store(&db)?.verify().map_err(fail)?;
            for f in &v.failures {
                out.push_str(&format!("FAILED {f}\n"));
            }
            out.push_str(&format!("{}/{} citations verified\n", v.verified, v.checked));
            if v.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Command::Stats { db, format } => {
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
            ExitCode::SUCCESS
        }
        Command::Derive { rules, db, full } => {
            let store = open_store(&db)?;
            let r = textgraph::reason::derive(&store, &rules, full).map_err(|e| {
                eprint!("{}", with_prefix(&e.to_string()));
                ExitCode::from(EXIT_ERROR)
            })?;
            if r.mode == "incremental" {
                out.push_str(&format!(
                    "incremental: {} input changes; strata {} skipped, {} maintained, {} recomputed; {} written, {} removed\n",
                    r.changes, r.strata_skipped, r.strata_maintained, r.strata_recomputed, r.written, r.removed
                ));
            } else {
                out.push_str(&format!("{} input facts, {} derived ({} written, {} removed)\n", r.inputs, r.derived, r.written, r.removed));
            }
            ExitCode::SUCCESS
        }
        Command::Explain { fact, db, depth, verify } => {
            let store = open_store(&db)?;
            let ex = textgraph::reason::explain(&store, &fact, depth, verify).map_err(|e| {
                eprint!("{}", with_prefix(&e.to_string()));
                ExitCode::from(EXIT_ERROR)
            })?;
            out = ex.text;
            if ex.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Command::Export { db, format: _, output } => {
            let json = open_store(&db)?.export_json().map_err(fail)?;
            if output.as_os_str() == "-" {
                out = json;
            } else if let Err(e) = std::fs::write(&output, json) {
                eprintln!("tg: cannot write {}: {e}", output.display());
                return Err(ExitCode::from(EXIT_ERROR));
            }
            ExitCode::SUCCESS
        }
        Command::Run { .. } | Command::Gql { .. } | Command::ExtractPdf | Command::Vocab { .. } | Command::Eval { .. } => ExitCode::SUCCESS,
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    Ok(code)
}

/// Runs a build with a progress bar on stderr when stderr is a terminal.
fn build_with_progress(
    store: &textgraph::store::Store,
    corpus: &std::path::Path,
    vocab: &textgraph::extract::vocab::Vocabulary,
) -> Result<textgraph::ingest::BuildReport, textgraph::store::StoreError> {
    use std::io::IsTerminal as _;
    let worker = std::env::current_exe().ok();
    if !std::io::stderr().is_terminal() {
        let opts = textgraph::ingest::BuildOptions { pdf_worker: worker, vocab: Some(vocab), ..Default::default() };
        return textgraph::ingest::build_with(store, corpus, &opts);
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let progress = |done: usize, total: usize, id: &str| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(id.to_string());
    };
    let opts = textgraph::ingest::BuildOptions { progress: Some(&progress), threads: 0, pdf_worker: worker, vocab: Some(vocab) };
    let r = textgraph::ingest::build_with(store, corpus, &opts);
    bar.finish_and_clear();
    r
}

/// The summary `tg build` prints: the counts line, documents by format, skipped files
/// with reasons, facts written and time.
fn build_summary(r: &textgraph::ingest::BuildReport, db: &std::path::Path) -> String {
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
    out
}

/// Diagnostics already carry their own `error[…]` prefix; other messages get `tg: `.
fn with_prefix(msg: &str) -> String {
    let body = if msg.starts_with("error[") { msg.to_string() } else { format!("tg: {msg}") };
    if body.ends_with('\n') { body } else { body + "\n" }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Vocab { action } => {
            let (path, prompt) = match &action {
                VocabAction::Prompt { vocab } => (vocab.as_deref(), true),
                VocabAction::Show { vocab } => (vocab.as_deref(), false),
            };
            let v = match load_vocab(path) {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            let text = if prompt {
                v.prompt()
            } else {
                v.relations.iter().map(|(n, r)| format!("{n}\t{} -> {}\n", r.subject.join("|"), r.object.join("|"))).collect()
            };
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Command::ExtractPdf => {
            let mut bytes = vec![];
            if std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).is_err() {
                return ExitCode::from(EXIT_ERROR);
            }
            let _ = std::io::stdout().lock().write_all(textgraph::ingest::pdf_worker::child_main(&bytes).as_bytes());
            ExitCode::SUCCESS
        }
        Command::Eval { what } => eval_command(what),
        Command::Gql { query, db, script, param, params, format, raw_identity } => {
            use std::io::IsTerminal as _;
            use textgraph::gql::view::Identity;
            let identity = if raw_identity { Identity::Raw } else { Identity::Merged };
            let opts = textgraph::gql::cli::Options { query, script, db: db.db, params: param, params_file: params, format, identity };
            let code = textgraph::gql::cli::run(&opts, std::io::stdout().is_terminal(), &mut std::io::stdout(), &mut std::io::stderr());
            ExitCode::from(code)
        }
        c @ (Command::Build { .. }
        | Command::Dump { .. }
        | Command::Verify { .. }
        | Command::Stats { .. }
        | Command::Derive { .. }
        | Command::Export { .. }
        | Command::Explain { .. }) => {
            store_command(c).unwrap_or_else(|code| code)
        }
        Command::Run { program, facts, output, include, provenance, explain, depth, show, no_preprocessor: _ } => {
            if !explain.is_empty() && !provenance {
                eprintln!("tg: --explain needs --provenance (witnesses are only kept when asked for)");
                return ExitCode::from(EXIT_ERROR);
            }
            let compiled = match compile(&program, &include) {
                Ok(c) => c,
                Err(diags) => {
                    eprint!("{diags}");
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            if !compiled.warnings.is_empty() {
                eprint!("{}", compiled.warnings);
            }
            if show.is_some() {
                print!("{}", show_plans(&compiled));
                return ExitCode::SUCCESS;
            }
            let out = if output == "-" { OutputDir::Stdout } else { OutputDir::Dir(PathBuf::from(output)) };
            let opts = RunOptions { fact_dir: facts, output: out, provenance, explain, explain_depth: depth };
            match run(compiled, &opts) {
                Ok((report, _, _)) => {
                    let mut so = std::io::stdout().lock();
                    if so.write_all(report.stdout.as_bytes()).is_err() {
                        return ExitCode::SUCCESS;
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprint!("{e}");
                    ExitCode::from(EXIT_ERROR)
                }
            }
        }
    }
}
