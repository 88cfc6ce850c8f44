//! The `tg>` REPL (docs/REPL.md): Datalog queries, session rules and facts, GQL queries
//! and meta-commands over one case store, interactively (`interactive`, rustyline) or
//! from a script or `-e` commands (`run_script`, the same output without prompts).
//!
//! The store is opened once for the whole session and only read: queries are evaluated
//! in memory, and nothing the session defines is written to the store.

pub mod input;
pub mod interactive;
pub mod meta;
pub mod output;
pub mod query;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use tg_gql::graph::Graph;
use tg_store::{Store, Value};

use input::Kind;
use output::Format;

/// Why one input failed (the session goes on).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplError {
    /// A Datalog program or query does not compile or evaluate (rendered diagnostics, with a caret).
    #[error("{0}")]
    Datalog(String),
    /// A GQL query failed; `caret` shows the line and column of a syntax error.
    #[error("{message}{caret}")]
    Gql {
        /// The error as `tg gql` prints it.
        message: String,
        /// `\n  line\n  ^` under the offending column, or empty.
        caret: String,
    },
    /// The user interrupted the evaluation (Ctrl-C); nothing it computed was kept.
    #[error("interrupted")]
    Interrupted,
    /// A meta-command was used wrongly.
    #[error("{0}")]
    Usage(String),
    /// No meta-command has that name.
    #[error("unknown command :{0} (:help lists them)")]
    UnknownCommand(String),
    /// A file could not be read or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] tg_store::StoreError),
    /// Explaining a fact failed.
    #[error(transparent)]
    Reason(#[from] crate::reason::ReasonError),
    /// An auditor's view (timeline, path) failed.
    #[error(transparent)]
    View(#[from] tg_rules::resolve::views::ViewError),
    /// The rule library failed.
    #[error(transparent)]
    Rulebook(#[from] tg_rules::rulebook::RulebookError),
}

/// What running one input produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Text for standard output.
    pub output: String,
    /// The input asked to end the session (`:quit`).
    pub quit: bool,
}

/// A session over one store: the case's program, the clauses typed or loaded since the
/// session started, and the output settings.
pub struct Session {
    store: Store,
    base: Vec<(String, String)>,
    given: Vec<(String, Vec<Value>)>,
    clauses: Vec<(String, String)>,
    mat: crate::reason::session::Materialized,
    /// The session's program compiled (base and clauses), kept until a clause is added.
    program: Option<std::rc::Rc<tg_datalog::driver::Compiled>>,
    /// How the last Datalog query's strata were obtained (for `:timing`).
    last_work: Option<crate::reason::session::Work>,
    graph: Option<Graph>,
    /// How answers are printed.
    pub format: Format,
    /// Whether each input's time is printed after it.
    pub timing: bool,
}

impl Session {
    /// Starts a session over an open store: the stdlib, the case's registered rule files
    /// and its analyst judgements make the base program.
    pub fn new(store: Store, format: Format) -> Result<Session, ReplError> {
        let mut base: Vec<(String, String)> = tg_rules::rulebook::STDLIB.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
        base.extend(tg_rules::rulebook::registered(&store)?.into_iter().map(|f| (f.path, f.text)));
        let given = tg_rules::rulebook::judgements(&store)?;
        let mat = crate::reason::session::Materialized::new(&store, &base, &given, query::QUERY_REL).map_err(|e| ReplError::Datalog(e.to_string()))?;
        Ok(Session { store, base, given, clauses: vec![], mat, program: None, last_work: None, graph: None, format, timing: false })
    }

    /// The store the session reads.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Every source of the session's program: the base, then the session's clauses.
    pub fn sources(&self) -> Vec<(String, String)> {
        self.base.iter().chain(&self.clauses).cloned().collect()
    }

    /// The clauses kept by this session, as (where typed or loaded from, text).
    pub fn clauses(&self) -> &[(String, String)] {
        &self.clauses
    }

    /// Compiles the session's program (base and clauses).
    pub fn compile(&self) -> Result<tg_datalog::driver::Compiled, ReplError> {
        tg_rules::rulebook::compiler().sources(&self.sources()).map_err(|e| ReplError::Datalog(e.to_string()))
    }

    /// The session's program compiled, from the cache while no clause was added since.
    fn program(&mut self) -> Result<std::rc::Rc<tg_datalog::driver::Compiled>, ReplError> {
        if let Some(p) = &self.program {
            return Ok(p.clone());
        }
        let p = std::rc::Rc::new(self.compile()?);
        self.program = Some(p.clone());
        Ok(p)
    }

    /// Keeps a rule, fact or directive for the session if the program still compiles with it.
    /// `label` names it in diagnostics (`<input 3>`, a file path).
    /// A rule or fact whose head relation is not declared gets a declaration inferred
    /// from its body (kept with it, and written by `:save`).
    pub fn add_clause(&mut self, label: &str, text: &str) -> Result<(), ReplError> {
        let sources = self.sources();
        let decls = match self.program() {
            Ok(base) => ["symbol", "number"].iter().filter_map(|f| query::infer_decl(&base, text, f)).collect::<Vec<_>>(),
            Err(_) => vec![],
        };
        let mut last = String::new();
        for decl in decls.iter().map(Some).chain(std::iter::once(None)) {
            let mut all = sources.clone();
            if let Some(d) = decl {
                all.push((format!("{label} (declaration)"), d.clone()));
            }
            all.push((label.to_string(), text.to_string()));
            match tg_rules::rulebook::compiler().sources(&all) {
                Ok(c) => {
                    self.program = Some(std::rc::Rc::new(c));
                    if let Some(d) = decl {
                        self.clauses.push((format!("{label} (declaration)"), d.clone()));
                    }
                    self.clauses.push((label.to_string(), text.to_string()));
                    return Ok(());
                }
                Err(e) => {
                    if last.is_empty() {
                        last = e.to_string();
                    }
                    if decls.is_empty() {
                        break;
                    }
                }
            }
        }
        Err(ReplError::Datalog(last))
    }

    /// Runs one complete input; `label` names it in diagnostics.
    pub fn execute(&mut self, text: &str, label: &str) -> Result<Outcome, ReplError> {
        let started = Instant::now();
        let mut outcome = match input::classify(text) {
            Kind::Empty => Outcome::default(),
            Kind::Meta => meta::run(self, text)?,
            Kind::Query => Outcome { output: self.query(text)?, quit: false },
            Kind::Gql => Outcome { output: self.gql(text)?, quit: false },
            Kind::Clause => {
                self.add_clause(label, text)?;
                Outcome::default()
            }
        };
        let kind = input::classify(text);
        if self.timing && !matches!(kind, Kind::Empty | Kind::Meta) {
            outcome.output.push_str(&format!("time: {:.1} ms", started.elapsed().as_secs_f64() * 1000.0));
            if let (Kind::Query, Some(w)) = (kind, self.last_work) {
                outcome.output.push_str(&format!(" · strata: {} evaluated, {} reused, {} from the store", w.evaluated, w.reused, w.stored));
            }
            outcome.output.push('\n');
        }
        Ok(outcome)
    }

    /// Runs a Datalog query; strata earlier queries evaluated are reused, so a query pays
    /// for its own rule and for session rules added since (see [`crate::reason::session`]).
    fn query(&mut self, text: &str) -> Result<String, ReplError> {
        self.last_work = None;
        let sources = self.sources();
        let program = self.program()?;
        let (answer, work) = query::run(&self.store, &mut self.mat, &program, &sources, &self.given, text)?;
        self.last_work = Some(work);
        Ok(output::answer(&answer, self.format))
    }

    /// Runs a GQL query over the store's property-graph view (built once per session).
    fn gql(&mut self, text: &str) -> Result<String, ReplError> {
        let q = text.trim().trim_end_matches(';').trim_end();
        if self.graph.is_none() {
            let g = tg_gql::view::build(&self.store, tg_gql::view::Identity::Merged).map_err(|e| ReplError::Gql { message: e.to_string(), caret: String::new() })?;
            self.graph = Some(g);
        }
        let Some(graph) = self.graph.as_mut() else { return Ok(String::new()) };
        match tg_gql::query(graph, q, &BTreeMap::new(), tg_gql::exec::Access::ReadOnly) {
            Ok(t) => Ok(tg_gql::format::render(graph, &t, self.format.gql())),
            // Ctrl-C or a process budget; the row budget (--max-rows) is an error of this
            // query, shown with its reason.
            Err(e) if e.class == tg_gql::error::ErrorClass::Interrupted && (tg_limits::budget::is_tripped() || tg_limits::cancel::cancelled()) => Err(ReplError::Interrupted),
            Err(e) => {
                let mut caret = String::new();
                if let Some((l, c)) = e.pos
                    && let Some(line) = q.lines().nth(l.saturating_sub(1))
                {
                    caret = format!("\n  {line}\n  {}^", " ".repeat(c.saturating_sub(1)));
                }
                Err(ReplError::Gql { message: e.to_string(), caret })
            }
        }
    }
}

/// How `tg repl` was started.
#[derive(Clone, Debug)]
pub struct Options {
    /// The store.
    pub db: PathBuf,
    /// `-e` commands, run in order instead of reading standard input.
    pub exec: Vec<String>,
    /// Go on after an error (the exit status still reports it).
    pub keep_going: bool,
    /// The initial output format.
    pub format: Format,
    /// Where history is kept (interactive mode); `None` keeps none.
    pub history: Option<PathBuf>,
}

fn ensure_newline(s: &str) -> String {
    if s.ends_with('\n') { s.to_string() } else { format!("{s}\n") }
}

/// Writes an error the way the session prints it: diagnostics as they are, others after `error: `.
pub fn render_error(e: &ReplError) -> String {
    match e {
        ReplError::Datalog(d) => ensure_newline(d),
        ReplError::Interrupted if let Some(reason) = tg_limits::budget::tripped() => ensure_newline(&format!("error: stopped: {reason}")),
        e => ensure_newline(&format!("error: {e}")),
    }
}

/// Runs inputs without prompts (a script on standard input, or `-e` commands): output
/// to `out`, errors to `err`. Stops at the first error unless `keep_going`.
pub fn run_script(session: &mut Session, units: impl Iterator<Item = input::Unit>, keep_going: bool, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut code = tg_limits::exit::OK;
    for unit in units {
        match session.execute(&unit.text, &format!("<input line {}>", unit.line)) {
            Ok(o) => {
                let _ = out.write_all(o.output.as_bytes());
                if o.quit {
                    break;
                }
            }
            Err(e) => {
                let _ = out.flush();
                let _ = err.write_all(render_error(&e).as_bytes());
                code = tg_limits::exit::ERROR;
                if !keep_going {
                    break;
                }
            }
        }
    }
    let _ = out.flush();
    code
}

/// The inputs of a script read whole: lines joined into complete inputs.
pub fn script_units(text: &str) -> Vec<input::Unit> {
    let mut acc = input::Accumulator::default();
    let mut units: Vec<input::Unit> = text.lines().filter_map(|l| acc.push_line(l)).collect();
    units.extend(acc.finish());
    units
}

/// `tg repl`: opens the store, then runs `-e` commands, a script piped on standard
/// input, or (on a terminal) the interactive session. Returns the exit status.
pub fn run(opts: &Options, stdin_is_terminal: bool, out: &mut (dyn Write + Send), err: &mut (dyn Write + Send)) -> u8 {
    // Deeply nested GQL literals recurse in its parser and evaluator: give them room.
    let r = std::thread::scope(|s| std::thread::Builder::new().stack_size(256 << 20).spawn_scoped(s, || run_here(opts, stdin_is_terminal, out, err)).map(|h| h.join()));
    match r {
        Ok(Ok(code)) => code,
        _ => tg_limits::exit::ERROR,
    }
}

fn run_here(opts: &Options, stdin_is_terminal: bool, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let store = match Store::open_existing(&opts.db) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "tg: {e}");
            return tg_limits::exit::ERROR;
        }
    };
    let mut session = match Session::new(store, opts.format) {
        Ok(s) => s,
        Err(e) => {
            let _ = err.write_all(render_error(&e).as_bytes());
            return tg_limits::exit::ERROR;
        }
    };
    if !opts.exec.is_empty() {
        let units = opts.exec.iter().enumerate().map(|(i, t)| input::Unit { text: t.clone(), line: i + 1 });
        return run_script(&mut session, units, opts.keep_going, out, err);
    }
    if stdin_is_terminal {
        return interactive::run(&mut session, opts.history.as_deref(), out, err);
    }
    let mut text = String::new();
    if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
        let _ = writeln!(err, "tg: cannot read standard input: {e}");
        return tg_limits::exit::ERROR;
    }
    run_script(&mut session, script_units(&text).into_iter(), opts.keep_going, out, err)
}

/// The default history file: `$XDG_DATA_HOME/textgraph/history`, else
/// `$HOME/.local/share/textgraph/history`.
pub fn default_history() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("textgraph").join("history"))
}
