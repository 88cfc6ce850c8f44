//! The `tg` command line as data: every command, option and default (clap derive), in
//! one place. `tg --help`, `tg completions` and `tg man` are generated from these types;
//! `super::dispatch` turns a parsed [`Cli`] into the command it runs.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// TextGraph: case documents in, a byte-cited knowledge graph out.
#[derive(Parser, Debug)]
#[command(name = "tg", version, about, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Memory budget of the process (e.g. 512M, 4G; a bare number is MiB). Default: half
    /// the machine's memory, at most 8G. A query or program that passes it stops with a
    /// diagnostic (exit 2).
    #[arg(long, global = true, value_name = "SIZE")]
    pub max_memory: Option<String>,
    /// Time budget in seconds of the command's evaluation (default: none).
    #[arg(long, global = true, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Most tuples Datalog relations may hold together (`tg run`, `derive`, the REPL);
    /// default 100000000.
    #[arg(long, global = true, value_name = "N")]
    pub max_tuples: Option<u64>,
    /// Most rows one GQL clause may hold (`tg gql`, GQL in the REPL): a MATCH's or UNWIND's
    /// rows, a projection's rows or groups; default 10000000. Datalog is bounded by
    /// --max-tuples.
    #[arg(long, global = true, value_name = "N")]
    pub max_rows: Option<u64>,
}

/// Default of `--max-tuples`.
pub const DEFAULT_MAX_TUPLES: u64 = 100_000_000;

/// Default of `--max-rows`: ten million rows, a few GiB at most of GQL values.
pub const DEFAULT_MAX_ROWS: u64 = 10_000_000;

/// What `tg vocab` does.
#[derive(Subcommand, Debug)]
pub enum VocabAction {
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

/// Where the store lives: `--db PATH`, else `$TG_DB`, else `./textgraph-out/store`.
#[derive(clap::Args, Debug)]
pub struct DbArg {
    /// The store (a fjall database directory).
    #[arg(long, env = "TG_DB", default_value = "textgraph-out/store")]
    pub db: PathBuf,
}

/// `tg build`'s opt-in model extraction (docs/LLM.md). The API key is read from
/// TG_LLM_API_KEY or OPENAI_API_KEY, never from an option.
#[derive(clap::Args, Debug)]
pub struct LlmArgs {
    /// Ask an OpenAI-compatible chat-completions server for claims in every chunk; each
    /// passes the gate of `tg claim` and is stored GENERATED. Off by default.
    #[arg(long)]
    pub llm_extract: bool,
    /// The server's base URL, e.g. http://127.0.0.1:8080/v1 (plain HTTP).
    #[arg(long, requires = "llm_extract")]
    pub llm_url: Option<String>,
    /// The model name sent with each request (part of each cached answer's key).
    #[arg(long, requires = "llm_extract")]
    pub llm_model: Option<String>,
    /// At most this many requests in this build (retries count); default no limit.
    #[arg(long, requires = "llm_extract")]
    pub llm_budget: Option<u64>,
    /// Stop asking once the server reports this many tokens spent in this build.
    #[arg(long, requires = "llm_extract")]
    pub llm_budget_tokens: Option<u64>,
    /// Stop asking after this many seconds spent waiting for the server in this build.
    #[arg(long, requires = "llm_extract")]
    pub llm_budget_seconds: Option<f64>,
    /// Timeout of one request, in seconds.
    #[arg(long, default_value_t = 120.0, requires = "llm_extract")]
    pub llm_timeout: f64,
    /// Retries of a request that timed out, could not connect or got HTTP 429/5xx.
    #[arg(long, default_value_t = 2, requires = "llm_extract")]
    pub llm_retries: u32,
    /// Allow a server on another machine (documents leave this one).
    #[arg(long, requires = "llm_extract")]
    pub llm_allow_remote: bool,
}

impl LlmArgs {
    /// The model, when `--llm-extract` is given; `Err` says what is wrong.
    pub fn model(&self, vocab: &textgraph::extract::vocab::Vocabulary) -> Result<Option<textgraph::llm::Llm>, String> {
        use textgraph::llm::{Budget, Config, Llm};
        if !self.llm_extract {
            return Ok(None);
        }
        let url = self.llm_url.clone().ok_or("tg: --llm-url is required with --llm-extract (e.g. http://127.0.0.1:8080/v1)")?;
        let secs = |name: &str, s: f64| if s.is_finite() && s > 0.0 { Ok(s) } else { Err(format!("tg: {name} must be a positive number of seconds")) };
        let config = Config {
            url,
            model: self.llm_model.clone().unwrap_or_default(),
            budget: Budget { calls: self.llm_budget, tokens: self.llm_budget_tokens, seconds: self.llm_budget_seconds.map(|s| secs("--llm-budget-seconds", s)).transpose()? },
            timeout: std::time::Duration::from_secs_f64(secs("--llm-timeout", self.llm_timeout)?),
            retries: self.llm_retries,
            allow_remote: self.llm_allow_remote,
            api_key: textgraph::llm::key_from_env(),
        };
        Llm::new(config, vocab).map(Some).map_err(|e| format!("tg: {e}"))
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The closed vocabulary of claims: `tg vocab prompt` prints the instructions for an
    /// outside extractor, generated from the same file the extractor and the refusals use.
    Vocab(VocabArgs),
    /// Ingest a corpus folder into the store (only changed files are re-read).
    Build(BuildArgs),
    /// Print the whole store as canonical sorted text.
    Dump(DumpArgs),
    /// Re-hash every citation against the stored canonical text.
    Verify(VerifyArgs),
    /// Run the rule library (the stdlib and the rule files registered with `tg rules add`)
    /// over the store's facts, with one more rule file if given, and store what it derives,
    /// with witnesses; print what changed and what was found.
    Derive(DeriveArgs),
    /// The case's rule files: `add FILE.dl` (checked against the stdlib first), `list`, `remove NAME`.
    Rules(RulesArgs),
    /// Entity resolution: "N mentions → M entities", merged classes, refused merges ranked
    /// by the claims they would move; `--accept/--reject A B` record an analyst's judgement;
    /// `--names FILE.csv` resolves a standalone `id,name[,type][,attribute…]` list (attributes named by the header) and prints `id,cluster`.
    Resolve(ResolveArgs),
    /// Claims that cannot both hold: subject, relation, object and what each side says.
    Contradictions(ContradictionsArgs),
    /// An entity's claims in valid-time order, with windows and SUPERSEDES links.
    Timeline(TimelineArgs),
    /// The most likely cited chain of claims between two entities.
    Path(PathArgs),
    /// Links the graph suggests but no document states (stdlib/links.dl), best first.
    Predict(PredictArgs),
    /// Full-text search over chunks and claims, every hit cited `[doc:start-end]`: BM25 with
    /// stemming and stem-prefix matching; `--mode ppr` ranks by personalized PageRank from
    /// the entities the query names, `--mode hybrid` fuses both (docs/SEARCH.md).
    Search(SearchArgs),
    /// Who an entity is (the names merged into it and why) and every claim about it, cited,
    /// with its validity window and any contradiction.
    Why(WhyArgs),
    /// Who is central in the entity graph: PageRank, degree, betweenness, god nodes,
    /// bridges and orphans (also relations for rules and GQL; docs/SEARCH.md).
    Central(CentralArgs),
    /// The entity graph's communities, each labelled by c-TF-IDF terms and its representative
    /// documents; `--entity` shows one entity's community, `--topic N` every document of one.
    Communities(CommunitiesArgs),
    /// The entities an entity's claims link it to, by relation and direction, with the claims.
    #[command(visible_alias = "neighbours")]
    Neighbors(NeighborsArgs),
    /// Show why a stored or derived fact holds, down to the cited document bytes: the
    /// deciding evidence first, then the proof with each rule's file:line (scaffolding folded
    /// unless --full). Exit 1 if the fact is neither stored nor derived.
    Explain(ExplainArgs),
    /// Export the graph: `--format json` writes canonical JSON (sorted keys, content ids);
    /// cypher (Kuzu schema + CREATE script), csv (a folder of Kuzu-ready tables, `-o DIR`),
    /// graphml, turtle and jsonld write reified claims, entities with their SAME_AS classes
    /// and derived facts with their rule; html writes the console's viewer as one
    /// self-contained file (docs/EXPORT.md).
    Export(ExportArgs),
    /// Write GRAPH_REPORT.md: counts, key entities by centrality, communities,
    /// contradictions, supersessions, refused merges, and ten questions the graph can
    /// answer with the command for each (docs/CLI.md).
    Report(ReportArgs),
    /// A Model Context Protocol server over standard input and output (JSON-RPC 2.0, one
    /// message a line): typed, bounded, cited tools over the store — search, neighbors,
    /// why, path, timeline, contradictions, communities, gql (read-only), explain and
    /// record_claim (the `tg claim record` gate). The store is opened per call, so other
    /// `tg` commands keep working while it runs (docs/CLI.md).
    Mcp(McpArgs),
    /// A local web viewer of the case on 127.0.0.1 only (assets embedded, no CDN): the
    /// entity graph by type and PageRank, cited claims with validity windows, search,
    /// path mode, a GENERATED filter and a valid-time slider (docs/CLI.md).
    Console(ConsoleArgs),
    /// Count documents, facts per relation and per tag.
    Stats(StatsArgs),
    /// Measure extraction quality against gold data (scores only the types that map onto
    /// the vocabulary; see docs/BENCHMARKS.md, "Extraction quality").
    Eval(EvalArgs),
    /// Claims from outside extractors, tagged GENERATED (docs/CLAIMS.md).
    Claim(ClaimArgs),
    /// Audit claims by a second reader: emit quote-only batches, ingest verdicts.
    Audit(AuditArgs),
    /// Internal: extract the PDF on stdin, print the result as JSON (used by `tg build`).
    #[command(name = "__extract-pdf", hide = true)]
    ExtractPdf,
    /// Load a CREATE script into the store as a document of the case: its nodes and
    /// relationships become GENERATED facts citing the script's bytes (docs/GQL.md).
    Load(LoadArgs),
    /// Run a GQL / openCypher read query over the store's property-graph view (docs/GQL.md),
    /// or over the in-memory graph a CREATE script builds (`--script`).
    Gql(GqlArgs),
    /// The `tg>` REPL over the store (docs/REPL.md): Datalog queries, session rules, GQL and
    /// meta-commands. Interactive on a terminal; a script on standard input or `-e`
    /// commands run without prompts and stop at the first error.
    Repl(ReplArgs),
    /// Print a shell completion script for `tg` (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the manual page of `tg` (roff), generated from its options: `tg man > tg.1`.
    Man,
    /// Evaluate a Datalog program like `souffle -F FACTS -D OUT prog.dl`.
    Run(RunArgs),
}

/// The options of `tg vocab`.
#[derive(clap::Args, Debug)]
pub struct VocabArgs {
    #[command(subcommand)]
    pub action: VocabAction,
}

/// The options of `tg build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The corpus root.
    pub corpus: PathBuf,
    #[command(flatten)]
    pub db: DbArg,
    /// The closed vocabulary claims must use (TOML; default: the built-in
    /// stdlib/vocab/finance.toml). Changing it re-extracts every document.
    #[arg(long)]
    pub vocab: Option<PathBuf>,
    /// Read symbolic links to files outside the corpus (skipped with a warning by default).
    #[arg(long)]
    pub follow_links: bool,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// The options of `tg dump`.
#[derive(clap::Args, Debug)]
pub struct DumpArgs {
    #[command(flatten)]
    pub db: DbArg,
}

/// The options of `tg verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub db: DbArg,
}

/// The options of `tg derive`.
#[derive(clap::Args, Debug)]
pub struct DeriveArgs {
    /// A rule file (.dl) added to the case's rule library for this run (never instead
    /// of it); declarations restating the stdlib's are accepted.
    pub rules: Option<PathBuf>,
    #[command(flatten)]
    pub db: DbArg,
    /// Evaluate everything, even when the store's derived layer came from these rules
    /// (by default only what changed since is maintained).
    #[arg(long)]
    pub full: bool,
    /// Evaluate and print what would change; store nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// The options of `tg rules`.
#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    #[command(subcommand)]
    pub action: RulesAction,
}

/// The options of `tg resolve`.
#[derive(clap::Args, Debug)]
pub struct ResolveArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Resolve this `id,name[,type]` list with the stdlib's identity rules instead of the case.
    #[arg(long, value_name = "FILE.csv")]
    pub names: Option<PathBuf>,
    /// With --names: an attribute column (e.g. `source`) whose records never repeat an
    /// entity — each source of a linkage between duplicate-free lists. Records sharing
    /// its value are never merged, and a name one source lists twice links nothing.
    #[arg(long, value_name = "COLUMN", requires = "names")]
    pub distinct_within: Vec<String>,
    /// Record that two entities are the same (then run `tg derive`).
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["names", "reject"])]
    pub accept: Option<Vec<String>>,
    /// Record that two entities are different (then run `tg derive`).
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["names", "accept"])]
    pub reject: Option<Vec<String>>,
    /// Output format (`csv` only with --names).
    #[arg(long, value_parser = ["text", "json", "csv"], default_value = "text")]
    pub format: String,
}

/// The options of `tg contradictions`.
#[derive(clap::Args, Debug)]
pub struct ContradictionsArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// The options of `tg timeline`.
#[derive(clap::Args, Debug)]
pub struct TimelineArgs {
    /// The entity: a key (`Organization:acme trading ltd`) or a name.
    pub entity: String,
    #[command(flatten)]
    pub db: DbArg,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// The options of `tg path`.
#[derive(clap::Args, Debug)]
pub struct PathArgs {
    /// Start entity (key or name).
    pub from: String,
    /// End entity (key or name).
    pub to: String,
    #[command(flatten)]
    pub db: DbArg,
    /// Only claims of these modalities (repeatable).
    #[arg(long, value_parser = ["assertion", "reported", "hedged", "undecided", "question"])]
    pub modality: Vec<String>,
    /// Longest chain considered.
    #[arg(long, default_value_t = 6)]
    pub max_hops: usize,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// The options of `tg predict`.
#[derive(clap::Args, Debug)]
pub struct PredictArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// The measure.
    #[arg(long, value_parser = ["common-neighbours", "adamic-adar", "resource-allocation", "jaccard"])]
    pub method: Option<String>,
    /// How many to show.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// The options of `tg search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// The query, e.g. "wire transfer Beta Holdings".
    pub query: String,
    #[command(flatten)]
    pub db: DbArg,
    /// How many hits.
    #[arg(long, default_value_t = 10)]
    pub k: usize,
    /// The ranking.
    #[arg(long, value_parser = ["bm25", "ppr", "hybrid"], default_value = "bm25")]
    pub mode: String,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// The options of `tg why`.
#[derive(clap::Args, Debug)]
pub struct WhyArgs {
    /// The entity: a key (`Organization:acme trading ltd`) or a name.
    pub entity: String,
    #[command(flatten)]
    pub db: DbArg,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// The options of `tg central`.
#[derive(clap::Args, Debug)]
pub struct CentralArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// How many entities the table shows.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
    /// Compute from the graph now rather than read the facts `tg derive` stored (read
    /// by default while no fact changed since the derivation).
    #[arg(long)]
    pub live: bool,
}

/// The options of `tg communities`.
#[derive(clap::Args, Debug)]
pub struct CommunitiesArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// The community of this entity (a key or a name).
    #[arg(long, conflicts_with = "topic")]
    pub entity: Option<String>,
    /// Every document of community N.
    #[arg(long)]
    pub topic: Option<usize>,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
    /// Compute from the graph now rather than read the facts `tg derive` stored (read
    /// by default while no fact changed since the derivation).
    #[arg(long)]
    pub live: bool,
}

/// The options of `tg neighbors`.
#[derive(clap::Args, Debug)]
pub struct NeighborsArgs {
    /// The entity: a key or a name.
    pub entity: String,
    #[command(flatten)]
    pub db: DbArg,
    /// Output format (`tsv`/`csv`: one row per neighbour).
    #[arg(long, value_parser = ["text", "json", "tsv", "csv"], default_value = "text")]
    pub format: String,
}

/// The options of `tg explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The fact, e.g. 'controls("Acme Corp", "Beta Ltd")'.
    pub fact: String,
    #[command(flatten)]
    pub db: DbArg,
    /// Depth limit of the proof tree.
    #[arg(long, default_value_t = 8)]
    pub depth: usize,
    /// Re-hash every citation and check every step's rule.
    #[arg(long)]
    pub verify: bool,
    /// Show every step of the witness tree, the rule library's scaffolding included.
    #[arg(long)]
    pub full: bool,
}

/// The options of `tg export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Output format.
    #[arg(long, value_parser = ["json", "cypher", "csv", "graphml", "jsonld", "turtle", "html"], default_value = "json")]
    pub format: String,
    /// Output file (`-` for standard output; a folder for csv); never inside the store.
    #[arg(short = 'o', long = "output", default_value = "-")]
    pub output: PathBuf,
    /// Overwrite an existing output file (a link is replaced, never written through).
    #[arg(long)]
    pub force: bool,
}

/// The options of `tg report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Output file (`-` for standard output); never inside the store.
    #[arg(short = 'o', long = "output", default_value = "GRAPH_REPORT.md")]
    pub output: PathBuf,
    /// Overwrite an existing report (a link is replaced, never written through).
    #[arg(long)]
    pub force: bool,
}

/// The options of `tg mcp`.
#[derive(clap::Args, Debug)]
pub struct McpArgs {
    #[command(flatten)]
    pub db: DbArg,
}

/// The options of `tg console`.
#[derive(clap::Args, Debug)]
pub struct ConsoleArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Port on 127.0.0.1 (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 8765)]
    pub port: u16,
}

/// The options of `tg stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Output format.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// The options of `tg eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    #[command(subcommand)]
    pub what: EvalCommand,
}

/// The options of `tg claim`.
#[derive(clap::Args, Debug)]
pub struct ClaimArgs {
    #[command(subcommand)]
    pub action: Box<ClaimAction>,
}

/// The options of `tg audit`.
#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    #[command(subcommand)]
    pub action: AuditAction,
}

/// The options of `tg load`.
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// The script (CREATE statements separated by `;`); its path as given is the document id.
    pub file: PathBuf,
    #[command(flatten)]
    pub db: DbArg,
}

/// The options of `tg gql`.
#[derive(clap::Args, Debug)]
pub struct GqlArgs {
    /// The query, e.g. "MATCH (a)-[c:CONTROLS*1..3]->(b) RETURN a.name, b.name".
    pub query: String,
    #[command(flatten)]
    pub db: DbArg,
    /// A setup script (CREATE statements separated by `;`): query its graph instead of a store.
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// A query parameter `k=v`, `v` a Cypher literal (repeatable).
    #[arg(long = "param")]
    pub param: Vec<String>,
    /// Query parameters as a JSON object file.
    #[arg(long = "params")]
    pub params: Option<PathBuf>,
    /// Output format: table (default on a terminal; `text` is the same), tsv (default when
    /// piped), csv, json, tck.
    #[arg(long, value_parser = ["table", "text", "tsv", "csv", "json", "tck"])]
    pub format: Option<String>,
    /// Show every entity key as its own node instead of merging `same_as` classes.
    #[arg(long)]
    pub raw_identity: bool,
}

/// The options of `tg repl`.
#[derive(clap::Args, Debug)]
pub struct ReplArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// A command to run instead of reading standard input (repeatable, run in order).
    #[arg(short = 'e', long = "exec")]
    pub exec: Vec<String>,
    /// Go on after an error (the exit status is still 2).
    #[arg(long)]
    pub keep_going: bool,
    /// Output format of answers (`text` is the table).
    #[arg(long, value_parser = ["table", "text", "tsv", "json"], default_value = "table")]
    pub format: String,
}

/// The options of `tg completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

/// The options of `tg run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The program (.dl).
    pub program: PathBuf,
    /// Directory holding `<relation>.facts` inputs.
    #[arg(short = 'F', long = "facts", default_value = ".")]
    pub facts: PathBuf,
    /// Directory for `<relation>.csv` outputs; `-` prints them to stdout.
    #[arg(short = 'D', long = "output", default_value = ".")]
    pub output: String,
    /// Directories searched by `#include`.
    #[arg(short = 'I', long = "include-dir")]
    pub include: Vec<PathBuf>,
    /// Keep a canonical witness (rule, body tuples) for every derived tuple.
    #[arg(long)]
    pub provenance: bool,
    /// Print the proof tree of a fact such as 'path(1,5)' (needs --provenance; repeatable).
    #[arg(long)]
    pub explain: Vec<String>,
    /// Depth limit of proof trees.
    #[arg(long, default_value_t = 8)]
    pub depth: usize,
    /// Print something about the program instead of evaluating it: `plan` (join orders and indexes).
    #[arg(long, value_parser = ["plan"])]
    pub show: Option<String>,
    /// Let `.input`/`.output` `filename=` name files outside the -F/-D folders
    /// (absolute paths, `..`); refused by default.
    #[arg(long)]
    pub allow_paths: bool,
    /// Accepted for Soufflé compatibility: the C preprocessor is never run.
    #[arg(long = "no-preprocessor", hide = true)]
    pub no_preprocessor: bool,
}

/// Output format of `tg claim` and `tg audit`, and the store and vocabulary they use.
#[derive(clap::Args, Debug)]
pub struct ClaimOpts {
    #[command(flatten)]
    pub db: DbArg,
    /// The closed vocabulary (TOML; default: the built-in stdlib/vocab/finance.toml).
    #[arg(long)]
    pub vocab: Option<PathBuf>,
    /// Output format (`json`: one object, `{"ok": false, "error": …}` on refusal).
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// What `tg claim` does.
#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per run, boxed in `Command`
pub enum ClaimAction {
    /// Record one claim: its quote must occur verbatim in the document.
    Record {
        #[command(flatten)]
        opts: ClaimOpts,
        /// Document id (path relative to the corpus root).
        #[arg(long)]
        doc: String,
        /// Subject: a name or an entity key (`Organization:acme trading ltd`).
        #[arg(long)]
        subject: String,
        /// The subject's type, when the name does not tell.
        #[arg(long)]
        subject_type: Option<String>,
        /// Relation of the vocabulary.
        #[arg(long)]
        relation: String,
        /// Object: a name or an entity key.
        #[arg(long)]
        object: String,
        /// The object's type, when the name does not tell.
        #[arg(long)]
        object_type: Option<String>,
        /// The verbatim quote.
        #[arg(long)]
        quote: String,
        /// assertion, reported, hedged, denied, undecided or question.
        #[arg(long)]
        modality: Option<String>,
        /// positive or negative (default: negative for denied).
        #[arg(long)]
        polarity: Option<String>,
        /// Who the quote attributes the claim to (default: the document).
        #[arg(long)]
        asserter: Option<String>,
        /// The asserter's type (Person or Organization), when the name does not tell.
        #[arg(long)]
        asserter_type: Option<String>,
        /// Which occurrence of the quote (from 1) when it occurs more than once.
        #[arg(long)]
        occurrence: Option<usize>,
        /// The occurrence nearest this byte offset.
        #[arg(long)]
        near: Option<u64>,
        /// An attribute the relation allows, KEY=VALUE (repeatable).
        #[arg(long = "attr")]
        attrs: Vec<String>,
        /// Who proposes the claim (a model's name, a person).
        #[arg(long, default_value = "cli")]
        source: String,
    },
    /// Record every line of a JSON Lines file (the fields of `record`; see docs/CLAIMS.md).
    Import {
        /// The .jsonl file.
        file: PathBuf,
        #[command(flatten)]
        opts: ClaimOpts,
        /// Who proposes the claims, for lines without a "source".
        #[arg(long, default_value = "import")]
        source: String,
        /// The document of lines without a "doc" (as `tg vocab prompt` asks for none).
        #[arg(long)]
        doc: Option<String>,
    },
    /// The smallest span containing the quote and each --must-include string, within a budget.
    Widen {
        #[command(flatten)]
        opts: ClaimOpts,
        /// Document id.
        #[arg(long)]
        doc: String,
        /// The verbatim quote.
        #[arg(long)]
        quote: String,
        /// Text the span must contain, verbatim (repeatable).
        #[arg(long = "must-include", required = true)]
        must_include: Vec<String>,
        /// Largest span, in bytes.
        #[arg(long, default_value_t = 400)]
        budget: usize,
        /// Which occurrence of the quote (from 1).
        #[arg(long)]
        occurrence: Option<usize>,
        /// The occurrence of the quote nearest this byte offset.
        #[arg(long)]
        near: Option<u64>,
    },
    /// Every outside claim of the ledger: cited, stale or orphaned, with its audit verdict.
    List {
        #[command(flatten)]
        opts: ClaimOpts,
    },
}

/// What `tg audit` does.
#[derive(Subcommand, Debug)]
pub enum AuditAction {
    /// Write a batch of claims, each as its quote alone, for a second reader.
    Emit {
        #[command(flatten)]
        opts: ClaimOpts,
        /// How many claims (default: all).
        #[arg(long)]
        sample: Option<usize>,
        /// Seed of the sample order (same seed, same sample).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Only claims from outside extractors (GENERATED), not extracted ones.
        #[arg(long)]
        generated_only: bool,
        /// Output file (`-` for standard output); never inside the store.
        #[arg(short = 'o', long = "output", default_value = "-")]
        output: PathBuf,
        /// Overwrite an existing output file (a link is replaced, never written through).
        #[arg(long)]
        force: bool,
    },
    /// Store a reader's verdicts as claim_audit facts and print the counts.
    Ingest {
        /// The verdicts file (JSON).
        file: PathBuf,
        #[command(flatten)]
        opts: ClaimOpts,
    },
}

/// What `tg rules` does.
#[derive(Subcommand, Debug)]
pub enum RulesAction {
    /// Register a rule file with the case (replacing one of the same name).
    Add {
        /// The rule file (.dl).
        file: PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
    /// List the stdlib files and the registered rule files.
    List {
        #[command(flatten)]
        db: DbArg,
    },
    /// Unregister a rule file by name (its file stem).
    Remove {
        /// The name shown by `tg rules list`.
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand, Debug)]
pub enum EvalCommand {
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
    /// Re-DocRED JSON (e.g. dev_revised.json): entity mentions P/R/F1 for PER, ORG, LOC and
    /// the relations that map onto the vocabulary, scored between coreference clusters.
    Docred {
        /// The Re-DocRED JSON file.
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
