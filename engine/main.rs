//! `tg`: the TextGraph command line.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;
use textgraph::datalog::driver::{RunOptions, compile, run, show_plans};
use textgraph::datalog::io::OutputDir;

/// TextGraph: case documents in, a byte-cited knowledge graph out.
#[derive(Parser, Debug)]
#[command(name = "tg", version, about, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Memory budget of the process (e.g. 512M, 4G; a bare number is MiB). Default: half
    /// the machine's memory, at most 8G. A query or program that passes it stops with a
    /// diagnostic (exit 2).
    #[arg(long, global = true, value_name = "SIZE")]
    max_memory: Option<String>,
    /// Time budget in seconds of the command's evaluation (default: none).
    #[arg(long, global = true, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Most tuples Datalog relations may hold together (`tg run`, `derive`, the REPL);
    /// default 100000000.
    #[arg(long, global = true, value_name = "N")]
    max_tuples: Option<u64>,
    /// Most rows one GQL clause may hold (`tg gql`, GQL in the REPL): a MATCH's or UNWIND's
    /// rows, a projection's rows or groups; default 10000000. Datalog is bounded by
    /// --max-tuples.
    #[arg(long, global = true, value_name = "N")]
    max_rows: Option<u64>,
}

/// Default of `--max-tuples`.
const DEFAULT_MAX_TUPLES: u64 = 100_000_000;
/// Default of `--max-rows`: ten million rows, a few GiB at most of GQL values.
const DEFAULT_MAX_ROWS: u64 = 10_000_000;
/// Stack of the thread every command runs on: deep (but bounded) nesting in programs and
/// queries recurses, and the depth limits (`textgraph::depth`) stay well inside it.
const STACK_BYTES: usize = 1 << 30;

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

/// `tg build`'s opt-in model extraction (docs/LLM.md). The API key is read from
/// TG_LLM_API_KEY or OPENAI_API_KEY, never from an option.
#[derive(clap::Args, Debug)]
struct LlmArgs {
    /// Ask an OpenAI-compatible chat-completions server for claims in every chunk; each
    /// passes the gate of `tg claim` and is stored GENERATED. Off by default.
    #[arg(long)]
    llm_extract: bool,
    /// The server's base URL, e.g. http://127.0.0.1:8080/v1 (plain HTTP).
    #[arg(long, requires = "llm_extract")]
    llm_url: Option<String>,
    /// The model name sent with each request (part of each cached answer's key).
    #[arg(long, requires = "llm_extract")]
    llm_model: Option<String>,
    /// At most this many requests in this build (retries count); default no limit.
    #[arg(long, requires = "llm_extract")]
    llm_budget: Option<u64>,
    /// Stop asking once the server reports this many tokens spent in this build.
    #[arg(long, requires = "llm_extract")]
    llm_budget_tokens: Option<u64>,
    /// Stop asking after this many seconds spent waiting for the server in this build.
    #[arg(long, requires = "llm_extract")]
    llm_budget_seconds: Option<f64>,
    /// Timeout of one request, in seconds.
    #[arg(long, default_value_t = 120.0, requires = "llm_extract")]
    llm_timeout: f64,
    /// Retries of a request that timed out, could not connect or got HTTP 429/5xx.
    #[arg(long, default_value_t = 2, requires = "llm_extract")]
    llm_retries: u32,
    /// Allow a server on another machine (documents leave this one).
    #[arg(long, requires = "llm_extract")]
    llm_allow_remote: bool,
}

impl LlmArgs {
    /// The model, when `--llm-extract` is given; `Err` says what is wrong.
    fn model(&self, vocab: &textgraph::extract::vocab::Vocabulary) -> Result<Option<textgraph::llm::Llm>, String> {
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
        /// Read symbolic links to files outside the corpus (skipped with a warning by default).
        #[arg(long)]
        follow_links: bool,
        #[command(flatten)]
        llm: LlmArgs,
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
    /// Run the rule library (the stdlib and the rule files registered with `tg rules add`)
    /// over the store's facts, with one more rule file if given, and store what it derives,
    /// with witnesses; print what changed and what was found.
    Derive {
        /// A rule file (.dl) added to the case's rule library for this run (never instead
        /// of it); declarations restating the stdlib's are accepted.
        rules: Option<PathBuf>,
        #[command(flatten)]
        db: DbArg,
        /// Evaluate everything, even when the store's derived layer came from these rules
        /// (by default only what changed since is maintained).
        #[arg(long)]
        full: bool,
        /// Evaluate and print what would change; store nothing.
        #[arg(long)]
        dry_run: bool,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// The case's rule files: `add FILE.dl` (checked against the stdlib first), `list`, `remove NAME`.
    Rules {
        #[command(subcommand)]
        action: RulesAction,
    },
    /// Entity resolution: "N mentions → M entities", merged classes, refused merges ranked
    /// by the claims they would move; `--accept/--reject A B` record an analyst's judgement;
    /// `--names FILE.csv` resolves a standalone `id,name[,type][,attribute…]` list (attributes named by the header) and prints `id,cluster`.
    Resolve {
        #[command(flatten)]
        db: DbArg,
        /// Resolve this `id,name[,type]` list with the stdlib's identity rules instead of the case.
        #[arg(long, value_name = "FILE.csv")]
        names: Option<PathBuf>,
        /// With --names: an attribute column (e.g. `source`) whose records never repeat an
        /// entity — each source of a linkage between duplicate-free lists. Records sharing
        /// its value are never merged, and a name one source lists twice links nothing.
        #[arg(long, value_name = "COLUMN", requires = "names")]
        distinct_within: Vec<String>,
        /// Record that two entities are the same (then run `tg derive`).
        #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["names", "reject"])]
        accept: Option<Vec<String>>,
        /// Record that two entities are different (then run `tg derive`).
        #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["names", "accept"])]
        reject: Option<Vec<String>>,
        /// Output format (`csv` only with --names).
        #[arg(long, value_parser = ["text", "json", "csv"], default_value = "text")]
        format: String,
    },
    /// Claims that cannot both hold: subject, relation, object and what each side says.
    Contradictions {
        #[command(flatten)]
        db: DbArg,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// An entity's claims in valid-time order, with windows and SUPERSEDES links.
    Timeline {
        /// The entity: a key (`Organization:acme trading ltd`) or a name.
        entity: String,
        #[command(flatten)]
        db: DbArg,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// The most likely cited chain of claims between two entities.
    Path {
        /// Start entity (key or name).
        from: String,
        /// End entity (key or name).
        to: String,
        #[command(flatten)]
        db: DbArg,
        /// Only claims of these modalities (repeatable).
        #[arg(long, value_parser = ["assertion", "reported", "hedged", "undecided", "question"])]
        modality: Vec<String>,
        /// Longest chain considered.
        #[arg(long, default_value_t = 6)]
        max_hops: usize,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// Links the graph suggests but no document states (stdlib/links.dl), best first.
    Predict {
        #[command(flatten)]
        db: DbArg,
        /// The measure.
        #[arg(long, value_parser = ["common-neighbours", "adamic-adar", "resource-allocation", "jaccard"])]
        method: Option<String>,
        /// How many to show.
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// Full-text search over chunks and claims, every hit cited `[doc:start-end]`: BM25 with
    /// stemming and stem-prefix matching; `--mode ppr` ranks by personalized PageRank from
    /// the entities the query names, `--mode hybrid` fuses both (docs/SEARCH.md).
    Search {
        /// The query, e.g. "wire transfer Beta Holdings".
        query: String,
        #[command(flatten)]
        db: DbArg,
        /// How many hits.
        #[arg(long, default_value_t = 10)]
        k: usize,
        /// The ranking.
        #[arg(long, value_parser = ["bm25", "ppr", "hybrid"], default_value = "bm25")]
        mode: String,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// Who an entity is (the names merged into it and why) and every claim about it, cited,
    /// with its validity window and any contradiction.
    Why {
        /// The entity: a key (`Organization:acme trading ltd`) or a name.
        entity: String,
        #[command(flatten)]
        db: DbArg,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// Who is central in the entity graph: PageRank, degree, betweenness, god nodes,
    /// bridges and orphans (also relations for rules and GQL; docs/SEARCH.md).
    Central {
        #[command(flatten)]
        db: DbArg,
        /// How many entities the table shows.
        #[arg(long, default_value_t = 20)]
        top: usize,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// The entity graph's communities, each labelled by c-TF-IDF terms and its representative
    /// documents; `--entity` shows one entity's community, `--topic N` every document of one.
    Communities {
        #[command(flatten)]
        db: DbArg,
        /// The community of this entity (a key or a name).
        #[arg(long, conflicts_with = "topic")]
        entity: Option<String>,
        /// Every document of community N.
        #[arg(long)]
        topic: Option<usize>,
        /// Output format.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        format: String,
    },
    /// The entities an entity's claims link it to, by relation and direction, with the claims.
    #[command(visible_alias = "neighbours")]
    Neighbors {
        /// The entity: a key or a name.
        entity: String,
        #[command(flatten)]
        db: DbArg,
        /// Output format (`tsv`/`csv`: one row per neighbour).
        #[arg(long, value_parser = ["text", "json", "tsv", "csv"], default_value = "text")]
        format: String,
    },
    /// Show why a stored or derived fact holds, down to the cited document bytes: the
    /// deciding evidence first, then the proof with each rule's file:line (scaffolding folded
    /// unless --full). Exit 1 if the fact is neither stored nor derived.
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
        /// Show every step of the witness tree, the rule library's scaffolding included.
        #[arg(long)]
        full: bool,
    },
    /// Export the graph: `--format json` writes canonical JSON (sorted keys, content ids);
    /// cypher (Kuzu schema + CREATE script), csv (a folder of Kuzu-ready tables, `-o DIR`),
    /// graphml, turtle and jsonld write reified claims, entities with their SAME_AS classes
    /// and derived facts with their rule; html writes the console's viewer as one
    /// self-contained file (docs/EXPORT.md).
    Export {
        #[command(flatten)]
        db: DbArg,
        /// Output format.
        #[arg(long, value_parser = ["json", "cypher", "csv", "graphml", "jsonld", "turtle", "html"], default_value = "json")]
        format: String,
        /// Output file (`-` for standard output; a folder for csv); never inside the store.
        #[arg(short = 'o', long = "output", default_value = "-")]
        output: PathBuf,
        /// Overwrite an existing output file (a link is replaced, never written through).
        #[arg(long)]
        force: bool,
    },
    /// Write GRAPH_REPORT.md: counts, key entities by centrality, communities,
    /// contradictions, supersessions, refused merges, and ten questions the graph can
    /// answer with the command for each (docs/CLI.md).
    Report {
        #[command(flatten)]
        db: DbArg,
        /// Output file (`-` for standard output); never inside the store.
        #[arg(short = 'o', long = "output", default_value = "GRAPH_REPORT.md")]
        output: PathBuf,
        /// Overwrite an existing report (a link is replaced, never written through).
        #[arg(long)]
        force: bool,
    },
    /// A Model Context Protocol server over standard input and output (JSON-RPC 2.0, one
    /// message a line): typed, bounded, cited tools over the store — search, neighbors,
    /// why, path, timeline, contradictions, communities, gql (read-only), explain and
    /// record_claim (the `tg claim record` gate). The store is opened per call, so other
    /// `tg` commands keep working while it runs (docs/CLI.md).
    Mcp {
        #[command(flatten)]
        db: DbArg,
    },
    /// A local web viewer of the case on 127.0.0.1 only (assets embedded, no CDN): the
    /// entity graph by type and PageRank, cited claims with validity windows, search,
    /// path mode, a GENERATED filter and a valid-time slider (docs/CLI.md).
    Console {
        #[command(flatten)]
        db: DbArg,
        /// Port on 127.0.0.1 (0: any free port; the URL is printed).
        #[arg(long, default_value_t = 8765)]
        port: u16,
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
    /// Claims from outside extractors, tagged GENERATED (docs/CLAIMS.md).
    Claim {
        #[command(subcommand)]
        action: Box<ClaimAction>,
    },
    /// Audit claims by a second reader: emit quote-only batches, ingest verdicts.
    Audit {
        #[command(subcommand)]
        action: AuditAction,
    },
    /// Internal: extract the PDF on stdin, print the result as JSON (used by `tg build`).
    #[command(name = "__extract-pdf", hide = true)]
    ExtractPdf,
    /// Load a CREATE script into the store as a document of the case: its nodes and
    /// relationships become GENERATED facts citing the script's bytes (docs/GQL.md).
    Load {
        /// The script (CREATE statements separated by `;`); its path as given is the document id.
        file: PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
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
    /// The `tg>` REPL over the store (docs/REPL.md): Datalog queries, session rules, GQL and
    /// meta-commands. Interactive on a terminal; a script on standard input or `-e`
    /// commands run without prompts and stop at the first error.
    Repl {
        #[command(flatten)]
        db: DbArg,
        /// A command to run instead of reading standard input (repeatable, run in order).
        #[arg(short = 'e', long = "exec")]
        exec: Vec<String>,
        /// Go on after an error (the exit status is still 2).
        #[arg(long)]
        keep_going: bool,
        /// Output format of answers.
        #[arg(long, value_parser = ["table", "tsv", "json"], default_value = "table")]
        format: String,
    },
    /// Print a shell completion script for `tg` (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page of `tg` (roff), generated from its options: `tg man > tg.1`.
    Man,
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
        /// Let `.input`/`.output` `filename=` name files outside the -F/-D folders
        /// (absolute paths, `..`); refused by default.
        #[arg(long)]
        allow_paths: bool,
        /// Accepted for Soufflé compatibility: the C preprocessor is never run.
        #[arg(long = "no-preprocessor", hide = true)]
        no_preprocessor: bool,
    },
}

/// Output format of `tg claim` and `tg audit`, and the store and vocabulary they use.
#[derive(clap::Args, Debug)]
struct ClaimOpts {
    #[command(flatten)]
    db: DbArg,
    /// The closed vocabulary (TOML; default: the built-in stdlib/vocab/finance.toml).
    #[arg(long)]
    vocab: Option<PathBuf>,
    /// Output format (`json`: one object, `{"ok": false, "error": …}` on refusal).
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    format: String,
}

/// What `tg claim` does.
#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per run, boxed in `Command`
enum ClaimAction {
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
enum AuditAction {
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

/// Runs `tg claim …` and `tg audit …` (the logic is `textgraph::claims`).
fn claims_command(command: Command) -> ExitCode {
    use textgraph::claims::{self, render};
    let opts = match &command {
        Command::Claim { action } => match action.as_ref() {
            ClaimAction::Record { opts, .. } | ClaimAction::Import { opts, .. } | ClaimAction::Widen { opts, .. } | ClaimAction::List { opts } => opts,
        },
        Command::Audit { action: AuditAction::Emit { opts, .. } | AuditAction::Ingest { opts, .. } } => opts,
        _ => return ExitCode::from(EXIT_ERROR),
    };
    let json = opts.format == "json";
    let vocab = match load_vocab(opts.vocab.as_deref()) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    let store = match open_store(&opts.db) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let read = |p: &std::path::Path| std::fs::read_to_string(p).map_err(|e| format!("tg: cannot read {}: {e}", p.display()));
    let reply: Result<render::Reply, String> = match command {
        Command::Claim { action } => match *action {
            ClaimAction::Record { opts: _, doc, subject, subject_type, relation, object, object_type, quote, modality, polarity, asserter, asserter_type, occurrence, near, attrs, source } => {
                let mut attributes = std::collections::BTreeMap::new();
                let mut bad = None;
                for a in attrs {
                    match a.split_once('=') {
                        Some((k, v)) => {
                            attributes.insert(k.trim().to_string(), v.to_string());
                        }
                        None => bad = Some(claims::Refusal::new("bad_attribute", format!("--attr {a:?} is not KEY=VALUE"))),
                    }
                }
                let p = claims::Proposal { doc, subject, subject_type, relation, object, object_type, quote: Some(quote), modality, polarity, asserter, asserter_type, occurrence, near, attributes, source: Some(source) };
                match bad {
                    Some(r) => Ok(render::refusal(&r, json)),
                    None => match claims::record(&store, &vocab, &p, "cli") {
                        Ok(r) => Ok(render::recorded(&r, json)),
                        Err(claims::Error::Refused(r)) => Ok(render::refusal(&r, json)),
                        Err(e) => Err(format!("tg: {e}")),
                    },
                }
            }
            ClaimAction::Import { file, opts: _, source, doc } => {
                read(&file).and_then(|text| claims::import(&store, &vocab, &text, doc.as_deref(), &source).map(|lines| render::imported(&lines, json)).map_err(|e| format!("tg: {e}")))
            }
            ClaimAction::Widen { opts: _, doc, quote, must_include, budget, occurrence, near } => {
                match claims::widen(&store, &doc, &quote, claims::quote::Choice { occurrence, near }, &must_include, budget) {
                    Ok(w) => Ok(render::widened(&doc, &w, json)),
                    Err(claims::Error::Refused(r)) => Ok(render::refusal(&r, json)),
                    Err(e) => Err(format!("tg: {e}")),
                }
            }
            ClaimAction::List { opts: _ } => claims::list(&store).map(|l| render::listed(&l, json)).map_err(|e| format!("tg: {e}")),
        },
        Command::Audit { action } => match action {
            AuditAction::Emit { opts: _, sample, seed, generated_only, output, force } => match claims::audit::emit(&store, &vocab, &claims::audit::Sample { size: sample, seed, generated_only }) {
                Err(e) => Err(format!("tg: {e}")),
                Ok(batch) => {
                    let text = serde_json::to_string_pretty(&batch).unwrap_or_default() + "\n";
                    let n = batch["sample"].as_u64().unwrap_or(0);
                    let pop = batch["population"].as_u64().unwrap_or(0);
                    if output.as_os_str() == "-" {
                        Ok(render::Reply { stdout: text, ..Default::default() })
                    } else {
                        textgraph::store::output::write_output(store.path(), &output, text.as_bytes(), force)
                            .map(|_| render::Reply { stdout: format!("{n} of {pop} claims written to {} (seed {seed})\n", output.display()), ..Default::default() })
                            .map_err(|e| format!("tg: {e}"))
                    }
                }
            },
            AuditAction::Ingest { file, opts: _ } => read(&file).and_then(|text| match claims::audit::ingest(&store, &text) {
                Ok(Ok(r)) => Ok(render::ingested(&r, json)),
                Ok(Err(r)) => Ok(render::refusal(&r, json)),
                Err(e) => Err(format!("tg: {e}")),
            }),
        },
        _ => Err("tg: not a claims command".into()),
    };
    match reply {
        Ok(r) => {
            let _ = std::io::stdout().lock().write_all(r.stdout.as_bytes());
            eprint!("{}", r.stderr);
            ExitCode::from(r.code)
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// What `tg rules` does.
#[derive(Subcommand, Debug)]
enum RulesAction {
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

/// Runs `tg eval …`.
fn eval_command(what: EvalCommand) -> ExitCode {
    use textgraph::extract::eval;
    let (path, format, errors, which) = match what {
        EvalCommand::Fire { path, format, errors } => (path, format, errors, "fire"),
        EvalCommand::Conll { path, format, errors } => (path, format, errors, "conll"),
        EvalCommand::Kpi { path, format, errors } => (path, format, errors, "kpi"),
        EvalCommand::Docred { path, format, errors } => (path, format, errors, "docred"),
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
        // The built-in name recogniser learned from Re-DocRED's and FIRE's dev files: scores on
        // them are training scores. Say so; held-out scores come from `tg-train-ner --cv`.
        let hash = blake3::hash(text.as_bytes()).to_hex().to_string();
        if textgraph::extract::ner::BUILTIN.about.contains(&hash) {
            eprintln!("tg: note: {} is part of the built-in name recogniser's training data; entity scores on it are training scores (held-out: tg-train-ner --cv 5, docs/BENCHMARKS.md)", path.display());
        }
        let vocab = textgraph::extract::vocab::Vocabulary::builtin();
        match which {
            "fire" => eval::fire(&text, vocab),
            "docred" => textgraph::extract::eval_docred::docred(&text, vocab, &textgraph::extract::ner::BUILTIN, &|_| true),
            _ => eval::conll(&text),
        }
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

/// Prints `text`, or the JSON of `value` when `format` is json.
fn emit<T: serde::Serialize>(format: &str, value: &T, text: impl FnOnce(&T) -> String) {
    let out = if format == "json" { serde_json::to_string_pretty(value).unwrap_or_default() + "\n" } else { text(value) };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
}

/// The rule library's commands: `tg rules`, `resolve`, `contradictions`, `timeline`, `path`, `predict`.
fn library_command(command: Command) -> Result<ExitCode, ExitCode> {
    use textgraph::resolve::{render, standalone, views};
    use textgraph::rulebook;
    let fail = |e: String| {
        eprintln!("tg: {e}");
        ExitCode::from(EXIT_ERROR)
    };
    match command {
        Command::Rules { action: RulesAction::Add { file, db } } => {
            let store = open_store(&db)?;
            let name = rulebook::add(&store, &file).map_err(|e| {
                eprint!("{}", with_prefix(&e.to_string()));
                ExitCode::from(EXIT_ERROR)
            })?;
            println!("added {name} ({}); run tg derive to apply it", file.display());
        }
        Command::Rules { action: RulesAction::List { db } } => {
            let store = open_store(&db)?;
            for (p, t) in rulebook::STDLIB {
                println!("stdlib\t{p}\t{} rules", t.matches(":-").count());
            }
            for f in rulebook::registered(&store).map_err(|e| fail(e.to_string()))? {
                println!("{}\t{}\t{} rules", f.name, f.path, f.text.matches(":-").count());
            }
        }
        Command::Rules { action: RulesAction::Remove { name, db } } => {
            let store = open_store(&db)?;
            rulebook::remove(&store, &name).map_err(|e| fail(e.to_string()))?;
            println!("removed {name}; run tg derive to apply it");
        }
        Command::Resolve { names: Some(path), format, distinct_within, .. } => {
            let text = std::fs::read(&path).map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
            let (rows, problems) = standalone::read_rows(&String::from_utf8_lossy(&text));
            for p in &problems {
                eprintln!("warning: {}: {p}", path.display());
            }
            for column in &distinct_within {
                if !rows.iter().any(|r| r.attributes.iter().any(|(k, _)| k == column)) {
                    return Err(fail(format!("--distinct-within {column}: no record of {} has a value in a column of that name", path.display())));
                }
            }
            let clusters = standalone::resolve_rows(&rows, &distinct_within).map_err(|e| fail(e.to_string()))?;
            let mut out = String::new();
            if format == "json" {
                let v: Vec<serde_json::Value> = clusters.iter().map(|(i, c)| serde_json::json!({"id": i, "cluster": c})).collect();
                out = serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
            } else {
                out.push_str("id,cluster\n");
                let q = |s: &str| if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() };
                for (i, c) in &clusters {
                    out.push_str(&format!("{},{}\n", q(i), q(c)));
                }
            }
            let _ = std::io::stdout().lock().write_all(out.as_bytes());
        }
        Command::Resolve { db, accept, reject, format, .. } => {
            let store = open_store(&db)?;
            if let Some((pair, verdict)) = accept.map(|p| (p, "accept")).or_else(|| reject.map(|p| (p, "reject"))) {
                let a = views::find_raw_entity(&store, &pair[0]).map_err(|e| fail(e.to_string()))?;
                let b = views::find_raw_entity(&store, &pair[1]).map_err(|e| fail(e.to_string()))?;
                if a == b {
                    return Err(fail(format!("{} and {} are the same entity ({a})", pair[0], pair[1])));
                }
                rulebook::judge(&store, &a, &b, verdict).map_err(|e| fail(e.to_string()))?;
                println!("recorded: {verdict} {} {}; run tg derive to apply it", pair[0], pair[1]);
                return Ok(ExitCode::SUCCESS);
            }
            if format == "csv" {
                return Err(fail("--format csv needs --names FILE.csv".into()));
            }
            let v = views::resolve(&store).map_err(|e| fail(e.to_string()))?;
            emit(&format, &v, render::resolve);
        }
        Command::Contradictions { db, format } => {
            let v = views::contradictions(&open_store(&db)?).map_err(|e| fail(e.to_string()))?;
            emit(&format, &v, |v| render::contradictions(v));
        }
        Command::Timeline { entity, db, format } => {
            let (class, v) = views::timeline(&open_store(&db)?, &entity).map_err(|e| fail(e.to_string()))?;
            let json = serde_json::json!({"entity": class, "claims": v});
            emit(&format, &json, |_| render::timeline(&class, &v));
        }
        Command::Path { from, to, db, modality, max_hops, format } => {
            let v = views::path(&open_store(&db)?, &from, &to, &modality, max_hops).map_err(|e| fail(e.to_string()))?;
            let found = !v.hops.is_empty() || v.from == v.to;
            emit(&format, &v, |v| render::path(v, &modality));
            if !found {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Why { entity, db, format } => {
            let v = textgraph::resolve::entity::why(&open_store(&db)?, &entity).map_err(|e| fail(e.to_string()))?;
            emit(&format, &v, textgraph::resolve::entity::render_why);
        }
        Command::Neighbors { entity, db, format } => {
            use textgraph::resolve::entity;
            let (key, v) = entity::neighbours(&open_store(&db)?, &entity).map_err(|e| fail(e.to_string()))?;
            if format == "tsv" || format == "csv" {
                let rows: Vec<Vec<String>> = v.iter().map(|n| vec![n.direction.clone(), n.relation.clone(), n.other.clone(), n.claims.len().to_string(), n.modalities.join(" "), n.citation.clone()]).collect();
                print!("{}", cli::table::render(&format, &["direction", "relation", "entity", "claims", "modalities", "citation"], &rows));
            } else {
                let json = serde_json::json!({"entity": key, "neighbours": v});
                emit(&format, &json, |_| entity::render_neighbours(&key, &v));
            }
        }
        Command::Predict { db, method, top, format } => {
            let v = views::predict(&open_store(&db)?, method.as_deref(), top).map_err(|e| fail(e.to_string()))?;
            emit(&format, &v, |v| render::predict(v));
        }
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `tg search`, `tg central` and `tg communities` (the logic is `textgraph::analytics`).
fn analytics_command(command: Command) -> ExitCode {
    use textgraph::analytics::{central, communities, facts, search};
    let fail = |e: String| {
        eprintln!("tg: {e}");
        ExitCode::from(EXIT_ERROR)
    };
    let json = |v: &dyn erased::Json| v.json();
    let out = match command {
        Command::Search { query, db, k, mode, format } => {
            let Ok(store) = open_store(&db) else { return ExitCode::from(EXIT_ERROR) };
            let mode = search::Mode::parse(&mode).unwrap_or(search::Mode::Bm25);
            match search::search(&store, &query, mode, k) {
                Ok(r) if format == "json" => search::to_json(&r),
                Ok(r) => search::render(&r),
                Err(e) => return fail(e.to_string()),
            }
        }
        Command::Central { db, top, format } => {
            let Ok(store) = open_store(&db) else { return ExitCode::from(EXIT_ERROR) };
            match facts::analyse(&store) {
                Ok(a) if format == "json" => json(&a.central),
                Ok(a) => central::render(&a.central, top),
                Err(e) => return fail(e.to_string()),
            }
        }
        Command::Communities { db, entity, topic, format } => {
            let Ok(store) = open_store(&db) else { return ExitCode::from(EXIT_ERROR) };
            let a = match facts::analyse(&store) {
                Ok(a) => a,
                Err(e) => return fail(e.to_string()),
            };
            match communities::select(&a.graph, &a.communities, entity.as_deref(), topic) {
                Err(e) => return fail(e),
                Ok(sel) if format == "json" => json(&sel),
                Ok(sel) => communities::render(&sel, topic.is_some()),
            }
        }
        _ => return ExitCode::from(EXIT_ERROR),
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::SUCCESS
}

/// Pretty JSON of any serializable value, for the analytics commands.
mod erased {
    /// A value printed as pretty JSON.
    pub trait Json {
        /// The JSON text, with a final newline.
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
        }
    }
}

/// Exit status of a run that failed (bad program, bad input, IO error); 0 is success.
const EXIT_ERROR: u8 = 2;

/// `tg load FILE`: runs the script first (a failing one leaves the store untouched), then
/// stores it; prints what was written.
fn load_command(file: &std::path::Path, db: &DbArg) -> ExitCode {
    use textgraph::gql::load;
    let shown = file.display().to_string();
    let doc = shown.strip_prefix("./").unwrap_or(&shown).to_string();
    let prepared = match load::prepare(file, &doc) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tg: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    // Like `tg build`, `tg load` adds a document and may create the store.
    let store = match textgraph::store::Store::open(&db.db) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tg: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    match load::store(&store, &prepared) {
        Ok(load::Loaded::Unchanged) => println!("{doc}: unchanged"),
        Ok(load::Loaded::Written { nodes, rels, facts }) => println!("{doc}: {nodes} nodes, {rels} relationships ({facts} facts cited to the script)"),
        Err(e) => {
            eprintln!("tg: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    }
    ExitCode::SUCCESS
}

/// Opens an existing store (only `tg build` creates one).
fn open_store(db: &DbArg) -> Result<textgraph::store::Store, ExitCode> {
    textgraph::store::Store::open_existing(&db.db).map_err(|e| {
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
        Command::Build { corpus, db, vocab, follow_links, llm } => {
            if !corpus.is_dir() {
                eprintln!("tg: {} is not a folder", corpus.display());
                return Err(ExitCode::from(EXIT_ERROR));
            }
            let vocab = load_vocab(vocab.as_deref()).map_err(|e| {
                eprintln!("{e}");
                ExitCode::from(EXIT_ERROR)
            })?;
            let llm = llm.model(&vocab).map_err(|e| {
                eprintln!("{e}");
                ExitCode::from(EXIT_ERROR)
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
            ExitCode::SUCCESS
        }
        Command::Dump { db } => {
            out = open_store(&db)?.dump().map_err(fail)?;
            ExitCode::SUCCESS
        }
        Command::Verify { db } => {
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
            if v.failures.is_empty() && sources.problems.is_empty() && pending.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
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
        Command::Derive { rules, db, full, dry_run, format } => {
            let store = open_store(&db)?;
            out = cli::derive::run(&store, &cli::derive::Args { rules, full, dry_run, format }).map_err(|e| {
                eprint!("{}", with_prefix(&e));
                ExitCode::from(EXIT_ERROR)
            })?;
            ExitCode::SUCCESS
        }
        Command::Explain { fact, db, depth, verify, full } => {
            use textgraph::reason::view;
            let store = open_store(&db)?;
            let ex = view::explain_view(&store, &fact, view::ViewOptions { depth, full, verify }).map_err(|e| {
                eprint!("{}", with_prefix(&e.to_string()));
                ExitCode::from(EXIT_ERROR)
            })?;
            match ex {
                view::Outcome::Holds(ex) => {
                    out = ex.text;
                    if ex.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
                }
                view::Outcome::Missing(f) => {
                    out = format!("{f}: neither stored nor derived (run `tg derive`, or check the arguments with `tg dump`)\n");
                    ExitCode::from(1)
                }
            }
        }
        Command::Export { db, format, output, force } if format != "json" => {
            let store = open_store(&db)?;
            out = textgraph::export::run(&store, &format, &output, force).map_err(|e| {
                eprintln!("tg: {e}");
                ExitCode::from(EXIT_ERROR)
            })?;
            ExitCode::SUCCESS
        }
        Command::Export { db, format: _, output, force } => {
            let store = open_store(&db)?;
            let json = store.export_json().map_err(fail)?;
            if output.as_os_str() == "-" {
                out = json;
            } else if let Err(e) = textgraph::store::output::write_output(store.path(), &output, json.as_bytes(), force) {
                eprintln!("tg: {e}");
                return Err(ExitCode::from(EXIT_ERROR));
            } else {
                let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
                let count = |k: &str| v[k].as_array().map_or(0, Vec::len);
                let (docs, facts, derived, rules) = (count("documents"), count("facts"), count("derived"), count("rules"));
                out = format!("wrote {}: {docs} documents, {facts} facts, {derived} derived facts, {rules} rules ({} bytes of canonical JSON)\n", output.display(), json.len());
            }
            ExitCode::SUCCESS
        }
        Command::Rules { .. }
        | Command::Resolve { .. }
        | Command::Contradictions { .. }
        | Command::Timeline { .. }
        | Command::Path { .. }
        | Command::Predict { .. }
        | Command::Search { .. }
        | Command::Central { .. }
        | Command::Communities { .. }
        | Command::Why { .. }
        | Command::Neighbors { .. }
        | Command::Claim { .. }
        | Command::Audit { .. }
        | Command::Gql { .. }
        | Command::Load { .. }
        | Command::Repl { .. }
        | Command::Report { .. }
        | Command::Mcp { .. }
        | Command::Console { .. }
        | Command::Run { .. } | Command::ExtractPdf | Command::Vocab { .. } | Command::Eval { .. } | Command::Completions { .. } | Command::Man => ExitCode::SUCCESS,
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
) -> Result<textgraph::ingest::BuildReport, textgraph::store::StoreError> {
    use std::io::IsTerminal as _;
    let worker = std::env::current_exe().ok();
    if !std::io::stderr().is_terminal() {
        let opts = textgraph::ingest::BuildOptions { pdf_worker: worker, vocab: Some(vocab), follow_links, llm, ..Default::default() };
        return textgraph::ingest::build_with(store, corpus, &opts);
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} files, {per_sec}, ETA {eta} {wide_msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let progress = |done: usize, total: usize, id: &str| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(id.to_string());
    };
    let opts = textgraph::ingest::BuildOptions { progress: Some(&progress), threads: 0, pdf_worker: worker, vocab: Some(vocab), follow_links, llm };
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
    if let Some(l) = &r.llm {
        out.push_str(&textgraph::llm::render(l));
    }
    out
}

/// Diagnostics already carry their own `error[…]` prefix; other messages get `tg: `.
fn with_prefix(msg: &str) -> String {
    let body = if msg.starts_with("error[") { msg.to_string() } else { format!("tg: {msg}") };
    if body.ends_with('\n') { body } else { body + "\n" }
}

/// Runs `tg repl` (also `tg` with no arguments on a terminal).
fn repl_command(db: PathBuf, exec: Vec<String>, keep_going: bool, format: &str) -> ExitCode {
    use std::io::IsTerminal as _;
    use textgraph::repl;
    let format = repl::output::Format::parse(format).unwrap_or(repl::output::Format::Table);
    let opts = repl::Options { db, exec, keep_going, format, history: repl::default_history() };
    ExitCode::from(repl::run(&opts, std::io::stdin().is_terminal(), &mut std::io::stdout(), &mut std::io::stderr()))
}

fn main() -> ExitCode {
    let alone = std::env::args_os().len() == 1;
    let cli = if alone { None } else { Some(Cli::parse()) };
    let limits = match cli.as_ref().map(limits_of).transpose() {
        Ok(l) => l.unwrap_or(textgraph::budget::Limits { max_memory: Some(textgraph::budget::default_max_memory()), timeout: None, max_tuples: Some(DEFAULT_MAX_TUPLES), max_rows: Some(DEFAULT_MAX_ROWS) }),
        Err(e) => {
            eprintln!("tg: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    // The PDF child runs under an address-space cap a 1 GiB stack would not fit in.
    if let Some(Cli { command: Command::ExtractPdf, .. }) = &cli {
        return real_main(cli);
    }
    let run = move || {
        let _watch = textgraph::budget::watch(limits);
        let token = textgraph::cancel::Token::new();
        textgraph::cancel::with_token(&token, || real_main(cli))
    };
    match std::thread::Builder::new().stack_size(STACK_BYTES).spawn(run).map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(EXIT_ERROR),
    }
}

/// The budgets the global options ask for.
fn limits_of(cli: &Cli) -> Result<textgraph::budget::Limits, String> {
    let max_memory = match &cli.max_memory {
        Some(s) => textgraph::budget::parse_size(s).map_err(|e| format!("--max-memory: {e}"))?,
        None => textgraph::budget::default_max_memory(),
    };
    let timeout = match cli.timeout {
        Some(t) if t.is_finite() && t > 0.0 => Some(std::time::Duration::from_secs_f64(t)),
        Some(t) => return Err(format!("--timeout: {t} is not a positive number of seconds")),
        None => None,
    };
    Ok(textgraph::budget::Limits { max_memory: Some(max_memory), timeout, max_tuples: Some(cli.max_tuples.unwrap_or(DEFAULT_MAX_TUPLES)), max_rows: Some(cli.max_rows.unwrap_or(DEFAULT_MAX_ROWS)) })
}

fn real_main(cli: Option<Cli>) -> ExitCode {
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
        Command::Repl { db, exec, keep_going, format } => repl_command(db.db, exec, keep_going, &format),
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
        c @ (Command::Search { .. } | Command::Central { .. } | Command::Communities { .. }) => analytics_command(c),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            // Into memory first: `generate` panics on a write error (a closed pipe).
            let mut script = vec![];
            clap_complete::generate(shell, &mut cmd, "tg", &mut script);
            let _ = std::io::stdout().lock().write_all(&script);
            ExitCode::SUCCESS
        }
        Command::Man => {
            let mut page = vec![];
            match clap_mangen::Man::new(<Cli as clap::CommandFactory>::command()).render(&mut page) {
                Ok(()) => {
                    let _ = std::io::stdout().lock().write_all(&page);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("tg: cannot render the manual page: {e}");
                    ExitCode::from(EXIT_ERROR)
                }
            }
        }
        c @ (Command::Claim { .. } | Command::Audit { .. }) => claims_command(c),
        Command::Report { db, output, force } => match open_store(&db).map(|s| textgraph::report::run(&s, &output, force)) {
            Ok(Ok(text)) => {
                let _ = std::io::stdout().lock().write_all(text.as_bytes());
                ExitCode::SUCCESS
            }
            Ok(Err(e)) => {
                eprintln!("tg: {e}");
                ExitCode::from(EXIT_ERROR)
            }
            Err(code) => code,
        },
        Command::Console { db, port } => {
            let mut ready = |url: &str| {
                println!("tg console: serving {url} (127.0.0.1 only; Ctrl-C stops)");
                let _ = std::io::stdout().flush();
            };
            match textgraph::console::server::serve(&db.db, port, &mut ready) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("tg: cannot serve on 127.0.0.1:{port}: {e}");
                    ExitCode::from(EXIT_ERROR)
                }
            }
        }
        Command::Mcp { db } => ExitCode::from(textgraph::mcp::serve(&db.db, &mut std::io::stdin().lock(), &mut std::io::stdout().lock())),
        Command::Load { file, db } => load_command(&file, &db),
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
        c @ (Command::Rules { .. }
        | Command::Resolve { .. }
        | Command::Contradictions { .. }
        | Command::Timeline { .. }
        | Command::Path { .. }
        | Command::Why { .. }
        | Command::Neighbors { .. }
        | Command::Predict { .. }) => library_command(c).unwrap_or_else(|code| code),
        Command::Run { program, facts, output, include, provenance, explain, depth, show, allow_paths, no_preprocessor: _ } => {
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
            let opts = RunOptions { fact_dir: facts, output: out, provenance, explain, explain_depth: depth, allow_paths };
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
