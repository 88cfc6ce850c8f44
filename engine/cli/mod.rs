//! The `tg` binary's commands: [`args`] defines the command line, [`dispatch`] runs the
//! command it names, and one module per group of commands holds their bodies, so
//! `main.rs` keeps to the process set-up (budgets, stack, cancellation). Exit statuses
//! come from one table, `textgraph::limits::exit`.

pub mod analytics;
pub mod args;
pub mod claims;
pub mod derive;
pub mod eval;
pub mod library;
pub mod progress;
pub mod store;
pub mod table;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser as _;
use textgraph::datalog::driver::{RunOptions, run, show_plans};
use textgraph::datalog::io::OutputDir;
use textgraph::limits::exit;

use analytics::AnalyticsCommand;
use args::*;
use claims::ClaimsCommand;
use library::LibraryCommand;
use store::StoreCommand;

/// Runs the command `cli` names (`None`: parse the process arguments): the one place a
/// command is dispatched, each arm to the module that runs it.
pub fn dispatch(cli: Option<Cli>) -> ExitCode {
    {
        // `tg` alone on a terminal opens the REPL; off a terminal it prints the help.
        use std::io::IsTerminal as _;
        if std::env::args_os().len() == 1 && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
            let db = std::env::var_os("TG_DB").map_or_else(|| PathBuf::from("textgraph-out/store"), PathBuf::from);
            return repl_command(db, vec![], false, "table");
        }
    }
    // Off a terminal, `tg` alone prints the help (clap exits).
    let cli = cli.unwrap_or_else(Cli::parse);
    match cli.command {
        Command::Repl(ReplArgs { db, exec, keep_going, format }) => repl_command(db.db, exec, keep_going, &format),
        Command::Vocab(VocabArgs { action }) => {
            let (path, prompt) = match &action {
                VocabAction::Prompt { vocab } => (vocab.as_deref(), true),
                VocabAction::Show { vocab } => (vocab.as_deref(), false),
            };
            let v = match load_vocab(path) {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(exit::ERROR);
                }
            };
            let text = if prompt { v.prompt() } else { v.relations.iter().map(|(n, r)| format!("{n}\t{} -> {}\n", r.subject.join("|"), r.object.join("|"))).collect() };
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            ExitCode::from(exit::OK)
        }
        Command::ExtractPdf => {
            let mut bytes = vec![];
            if std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).is_err() {
                return ExitCode::from(exit::ERROR);
            }
            let _ = std::io::stdout().lock().write_all(textgraph::ingest::pdf_worker::child_main(&bytes).as_bytes());
            ExitCode::from(exit::OK)
        }
        Command::Eval(EvalArgs { what }) => eval::run(what),
        Command::Search(a) => analytics::run(AnalyticsCommand::Search(a)),
        Command::Central(a) => analytics::run(AnalyticsCommand::Central(a)),
        Command::Communities(a) => analytics::run(AnalyticsCommand::Communities(a)),
        Command::Completions(CompletionsArgs { shell }) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            // Into memory first: `generate` panics on a write error (a closed pipe).
            let mut script = vec![];
            clap_complete::generate(shell, &mut cmd, "tg", &mut script);
            let _ = std::io::stdout().lock().write_all(&script);
            ExitCode::from(exit::OK)
        }
        Command::Man => {
            let mut page = vec![];
            match clap_mangen::Man::new(<Cli as clap::CommandFactory>::command()).render(&mut page) {
                Ok(()) => {
                    let _ = std::io::stdout().lock().write_all(&page);
                    ExitCode::from(exit::OK)
                }
                Err(e) => {
                    eprintln!("tg: cannot render the manual page: {e}");
                    ExitCode::from(exit::ERROR)
                }
            }
        }
        Command::Claim(a) => claims::run(ClaimsCommand::Claim(a)),
        Command::Audit(a) => claims::run(ClaimsCommand::Audit(a)),
        Command::Report(ReportArgs { db, output, force }) => match open_store(&db).map(|s| textgraph::app::report::run(&s, &output, force)) {
            Ok(Ok(text)) => {
                let _ = std::io::stdout().lock().write_all(text.as_bytes());
                ExitCode::from(exit::OK)
            }
            Ok(Err(e)) => {
                eprintln!("tg: {e}");
                ExitCode::from(exit::ERROR)
            }
            Err(code) => code,
        },
        Command::Console(ConsoleArgs { db, port }) => {
            let mut ready = |url: &str| {
                println!("tg console: serving {url} (127.0.0.1 only; Ctrl-C stops)");
                let _ = std::io::stdout().flush();
            };
            match textgraph::app::console::server::serve(&db.db, port, &mut ready) {
                Ok(()) => ExitCode::from(exit::OK),
                Err(e) => {
                    eprintln!("tg: cannot serve on 127.0.0.1:{port}: {e}");
                    ExitCode::from(exit::ERROR)
                }
            }
        }
        Command::Mcp(McpArgs { db }) => ExitCode::from(textgraph::app::mcp::serve(&db.db, &mut std::io::stdin().lock(), &mut std::io::stdout().lock())),
        Command::Load(LoadArgs { file, db }) => load_command(&file, &db),
        Command::Gql(GqlArgs { query, db, script, param, params, format, raw_identity }) => {
            use std::io::IsTerminal as _;
            use textgraph::gql::view::Identity;
            let identity = if raw_identity { Identity::Raw } else { Identity::Merged };
            let opts = textgraph::gql::cli::Options { query, script, db: db.db, params: param, params_file: params, format, identity };
            let code = textgraph::gql::cli::run(&opts, std::io::stdout().is_terminal(), &mut std::io::stdout(), &mut std::io::stderr());
            ExitCode::from(code)
        }
        Command::Build(a) => store::run(StoreCommand::Build(a)).unwrap_or_else(|code| code),
        Command::Dump(a) => store::run(StoreCommand::Dump(a)).unwrap_or_else(|code| code),
        Command::Verify(a) => store::run(StoreCommand::Verify(a)).unwrap_or_else(|code| code),
        Command::Stats(a) => store::run(StoreCommand::Stats(a)).unwrap_or_else(|code| code),
        Command::Derive(a) => store::run(StoreCommand::Derive(a)).unwrap_or_else(|code| code),
        Command::Export(a) => store::run(StoreCommand::Export(a)).unwrap_or_else(|code| code),
        Command::Explain(a) => store::run(StoreCommand::Explain(a)).unwrap_or_else(|code| code),
        Command::Rules(a) => library::run(LibraryCommand::Rules(a)).unwrap_or_else(|code| code),
        Command::Resolve(a) => library::run(LibraryCommand::Resolve(a)).unwrap_or_else(|code| code),
        Command::Contradictions(a) => library::run(LibraryCommand::Contradictions(a)).unwrap_or_else(|code| code),
        Command::Timeline(a) => library::run(LibraryCommand::Timeline(a)).unwrap_or_else(|code| code),
        Command::Path(a) => library::run(LibraryCommand::Path(a)).unwrap_or_else(|code| code),
        Command::Why(a) => library::run(LibraryCommand::Why(a)).unwrap_or_else(|code| code),
        Command::Neighbors(a) => library::run(LibraryCommand::Neighbors(a)).unwrap_or_else(|code| code),
        Command::Predict(a) => library::run(LibraryCommand::Predict(a)).unwrap_or_else(|code| code),
        Command::Run(RunArgs { program, facts, output, include, provenance, explain, depth, show, allow_paths, no_preprocessor: _ }) => {
            if !explain.is_empty() && !provenance {
                eprintln!("tg: --explain needs --provenance (witnesses are only kept when asked for)");
                return ExitCode::from(exit::ERROR);
            }
            let compiled = match textgraph::rules::rulebook::compiler().include_dirs(&include).file(&program) {
                Ok(c) => c,
                Err(diags) => {
                    eprint!("{diags}");
                    return ExitCode::from(exit::ERROR);
                }
            };
            if !compiled.warnings.is_empty() {
                eprint!("{}", compiled.warnings);
            }
            if show.is_some() {
                print!("{}", show_plans(&compiled));
                return ExitCode::from(exit::OK);
            }
            let out = if output == "-" { OutputDir::Stdout } else { OutputDir::Dir(PathBuf::from(output)) };
            let opts = RunOptions { fact_dir: facts, output: out, provenance, explain, explain_depth: depth, allow_paths };
            match run(compiled, &opts) {
                Ok((report, _, _)) => {
                    let mut so = std::io::stdout().lock();
                    if so.write_all(report.stdout.as_bytes()).is_err() {
                        return ExitCode::from(exit::OK);
                    }
                    ExitCode::from(exit::OK)
                }
                Err(e) => {
                    eprint!("{e}");
                    ExitCode::from(exit::ERROR)
                }
            }
        }
    }
}

/// Loads `--vocab FILE`, or the built-in vocabulary.
pub fn load_vocab(path: Option<&std::path::Path>) -> Result<textgraph::extract::vocab::Vocabulary, String> {
    use textgraph::extract::vocab::Vocabulary;
    match path {
        None => Ok(Vocabulary::builtin().clone()),
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("tg: cannot read vocabulary {}: {e}", p.display()))?;
            Vocabulary::parse(&p.display().to_string(), &text).map_err(|e| format!("tg: {e}"))
        }
    }
}

/// Prints `text`, or the JSON of `value` when `format` is json.
pub fn emit<T: serde::Serialize>(format: &str, value: &T, text: impl FnOnce(&T) -> String) {
    let out = if format == "json" { serde_json::to_string_pretty(value).unwrap_or_default() + "\n" } else { text(value) };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
}

/// `tg load FILE`: runs the script first (a failing one leaves the store untouched), then
/// stores it; prints what was written.
pub fn load_command(file: &std::path::Path, db: &DbArg) -> ExitCode {
    use textgraph::gql::load;
    let shown = file.display().to_string();
    let doc = shown.strip_prefix("./").unwrap_or(&shown).to_string();
    let prepared = match load::prepare(file, &doc) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tg: {e}");
            return ExitCode::from(exit::ERROR);
        }
    };
    // Like `tg build`, `tg load` adds a document and may create the store.
    let store = match textgraph::store::Store::open(&db.db) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tg: {e}");
            return ExitCode::from(exit::ERROR);
        }
    };
    match load::store(&store, &prepared) {
        Ok(load::Loaded::Unchanged) => println!("{doc}: unchanged"),
        Ok(load::Loaded::Written { nodes, rels, facts }) => println!("{doc}: {nodes} nodes, {rels} relationships ({facts} facts cited to the script)"),
        Err(e) => {
            eprintln!("tg: {e}");
            return ExitCode::from(exit::ERROR);
        }
    }
    ExitCode::from(exit::OK)
}

/// Opens an existing store (only `tg build` creates one).
pub fn open_store(db: &DbArg) -> Result<textgraph::store::Store, ExitCode> {
    textgraph::store::Store::open_existing(&db.db).map_err(|e| {
        eprintln!("tg: {e}");
        ExitCode::from(exit::ERROR)
    })
}

/// Diagnostics already carry their own `error[…]` prefix; other messages get `tg: `.
pub fn with_prefix(msg: &str) -> String {
    let body = if msg.starts_with("error[") { msg.to_string() } else { format!("tg: {msg}") };
    if body.ends_with('\n') { body } else { body + "\n" }
}

/// Runs `tg repl` (also `tg` with no arguments on a terminal).
pub fn repl_command(db: PathBuf, exec: Vec<String>, keep_going: bool, format: &str) -> ExitCode {
    use std::io::IsTerminal as _;
    use textgraph::app::repl;
    let format = repl::output::Format::parse(format).unwrap_or(repl::output::Format::Table);
    let opts = repl::Options { db, exec, keep_going, format, history: repl::default_history() };
    ExitCode::from(repl::run(&opts, std::io::stdin().is_terminal(), &mut std::io::stdout(), &mut std::io::stderr()))
}
