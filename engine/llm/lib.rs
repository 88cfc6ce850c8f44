//! Opt-in model extraction (`tg build --llm-extract`, docs/LLM.md): each chunk of each
//! document a build writes is sent to an OpenAI-compatible chat-completions server with
//! the vocabulary's prompt and answer schema ([`prompt`]); every claim of the answer
//! ([`answer`]) goes through the gate of `tg claim` ([`tg_rules::claims::gate`]) and, if it
//! passes, becomes GENERATED facts of its document citing its verbatim quote. Refusals
//! are counted per code.
//!
//! Answers are cached in the store ([`cache`]) by (chunk blake3, model, prompt hash), so
//! a rebuild replays them and asks nothing. The model and prompt are part of the
//! extractor's identity ([`Llm::identity`]): turning the option on or off, or changing
//! model or vocabulary, re-extracts every document, so a store always equals a fresh
//! build with the same answers. A document whose chunks were not all answered (budget,
//! timeout, server error, malformed answer) keeps what was answered and stays marked for
//! the next build, which asks only what is not cached yet. Budgets (calls, tokens,
//! seconds) and what was spent go into the build report and the store
//! (`setting:llm:build`). The API key comes from the environment only and is never
//! stored, printed or put in a message ([`client::redact`]).

#![forbid(unsafe_code)]

pub mod answer;
pub mod cache;
pub mod client;
pub mod prompt;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use client::{CallError, Endpoint, UrlError};
use prompt::Prompt;
use tg_extract::vocab::Vocabulary;
use tg_rules::claims::{self, Proposal, Refusal};
use tg_store::{CitedFact, Store, StoreError};

/// Environment variables the API key is read from, in order.
pub const KEY_VARS: [&str; 2] = ["TG_LLM_API_KEY", "OPENAI_API_KEY"];

/// The setting that keeps the last model pass's summary (JSON).
pub const SUMMARY_SETTING: &str = "llm:build";

/// How much a build may spend on the model (`None`: no limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Budget {
    /// Requests sent (retries included).
    pub calls: Option<u64>,
    /// Tokens the server reports.
    pub tokens: Option<u64>,
    /// Seconds spent waiting for the server.
    pub seconds: Option<f64>,
}

/// What a build spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Spent {
    /// Requests sent (retries included).
    pub calls: u64,
    /// Tokens the server reported.
    pub tokens: u64,
    /// Seconds spent waiting for the server (and between retries).
    pub seconds: f64,
}

/// How to reach the model.
#[derive(Clone)]
pub struct Config {
    /// Base URL (`http://127.0.0.1:8080/v1`) or the chat-completions URL.
    pub url: String,
    /// Model name sent with each request and part of each cache key.
    pub model: String,
    /// Limits of one build.
    pub budget: Budget,
    /// Timeout of one request.
    pub timeout: Duration,
    /// Retries of a request that timed out, could not connect or got 429/5xx.
    pub retries: u32,
    /// Allow a host other than this machine.
    pub allow_remote: bool,
    /// The API key (from [`KEY_VARS`]); never stored or printed.
    pub api_key: Option<String>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("budget", &self.budget)
            .field("timeout", &self.timeout)
            .field("retries", &self.retries)
            .field("allow_remote", &self.allow_remote)
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}

/// The API key from the environment ([`KEY_VARS`], the first set and non-empty).
pub fn key_from_env() -> Option<String> {
    KEY_VARS.iter().find_map(|v| std::env::var(v).ok().filter(|k| !k.trim().is_empty()))
}

/// Why the model options are refused before anything runs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// A bad URL.
    #[error(transparent)]
    Url(#[from] UrlError),
    /// A host that is not this machine, without `--llm-allow-remote`.
    #[error("--llm-url host {0:?} is not this machine: documents would leave it; pass --llm-allow-remote to allow that")]
    Remote(String),
    /// No model name.
    #[error("--llm-model is required with --llm-extract")]
    NoModel,
}

/// A configured model: endpoint, prompt, options.
#[derive(Debug)]
pub struct Llm {
    config: Config,
    endpoint: Endpoint,
    prompt: Prompt,
}

impl Llm {
    /// Checks the options and builds the prompt from `vocab`.
    pub fn new(config: Config, vocab: &Vocabulary) -> Result<Llm, LlmError> {
        let endpoint = Endpoint::parse(&config.url)?;
        if !endpoint.loopback && !config.allow_remote {
            return Err(LlmError::Remote(endpoint.host));
        }
        if config.model.trim().is_empty() {
            return Err(LlmError::NoModel);
        }
        Ok(Llm { config, endpoint, prompt: Prompt::new(vocab) })
    }

    /// What the model adds to the extractor's identity: model and prompt (not the URL,
    /// budgets or key, which do not change an answer).
    pub fn identity(&self) -> String {
        let h = blake3::hash(format!("{}\0{}", self.config.model, self.prompt.hash).as_bytes());
        h.to_hex()[..16].to_string()
    }

    /// The claims' source in `claim_generated`: `llm:MODEL`.
    pub fn source(&self) -> String {
        format!("llm:{}", self.config.model)
    }
}

/// What the model pass did for one document (in the build manifest).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DocStats {
    /// Chunks of the document.
    pub chunks: usize,
    /// Answered from the cache.
    pub cached: usize,
    /// Answered by the server in this build.
    pub asked: usize,
    /// Asked without a usable answer (timeout, error, malformed answer).
    pub failed: usize,
    /// Not asked: a budget was spent or the server kept failing.
    pub not_asked: usize,
    /// Claims that passed the gate.
    pub passed: usize,
    /// Claims refused, by refusal code.
    pub refused: BTreeMap<String, usize>,
}

impl DocStats {
    fn add(&mut self, o: &DocStats) {
        self.chunks += o.chunks;
        self.cached += o.cached;
        self.asked += o.asked;
        self.failed += o.failed;
        self.not_asked += o.not_asked;
        self.passed += o.passed;
        for (k, n) in &o.refused {
            *self.refused.entry(k.clone()).or_insert(0) += n;
        }
    }

    /// Claims refused, all codes.
    pub fn refused_total(&self) -> usize {
        self.refused.values().sum()
    }
}

/// What the model pass of a build did (printed by `tg build`, kept in `setting:llm:build`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Model name.
    pub model: String,
    /// The chat-completions URL.
    pub url: String,
    /// Documents the pass went through.
    pub documents: usize,
    /// The build's limits.
    pub budget: Budget,
    /// What it spent.
    pub spent: Spent,
    /// Totals over the documents.
    pub totals: DocStats,
    /// Why it stopped asking, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

/// One document's result: facts to add, stats, warnings, whether every chunk was answered.
struct DocOutcome {
    facts: Vec<CitedFact>,
    stats: DocStats,
    warnings: Vec<String>,
    complete: bool,
}

/// Chunks of server failures in a row after which the pass stops asking.
const MAX_FAILURES_IN_ROW: u32 = 3;
/// First pause between retries; doubled each time.
const BACKOFF: Duration = Duration::from_millis(500);

/// The state of one build's model pass: what was spent, whether it stopped.
struct Pass<'a> {
    llm: &'a Llm,
    source: String,
    spent: Spent,
    stopped: Option<String>,
    failures_in_row: u32,
}

/// Runs the model over the chunks of the documents a build wrote (`docs`: id and chunk
/// spans, in write order) and adds the claims that pass the gate to each document. A
/// document all of whose chunks were answered loses its `stale_prefix` mark (set by
/// ingest before it was written); the others keep it, so the next build does them again.
/// Returns the summary (also stored) and what the pass did for each document, in `docs`
/// order, for the build's manifest.
/// `progress` is called after each document with (documents done, documents, id).
pub fn run(
    store: &Store,
    vocab: &Vocabulary,
    llm: &Llm,
    docs: &[(String, Vec<(u64, u64)>)],
    stale_prefix: &str,
    progress: Option<Progress>,
) -> Result<(Summary, Vec<DocResult>), StoreError> {
    let mut pass = Pass { llm, source: llm.source(), spent: Spent::default(), stopped: None, failures_in_row: 0 };
    let mut totals = DocStats::default();
    let mut results = vec![];
    for (done, (id, chunks)) in docs.iter().enumerate() {
        if let Some(p) = progress {
            p(done, docs.len(), &format!("model: {id}"));
        }
        let mark = format!("{stale_prefix}{id}");
        let Some(text) = store.text(id)? else {
            store.delete_setting(&mark)?;
            continue;
        };
        let mut out = pass.document(store, vocab, id, &text, chunks)?;
        if !out.facts.is_empty() {
            match store.amend_document(id, &out.facts, &[], &[]) {
                Ok(()) => {}
                // A span the store refuses is our bug: warn, keep the document as it is.
                Err(e @ (StoreError::Span { .. } | StoreError::Uncited { .. } | StoreError::Schema { .. })) => {
                    out.warnings.push(format!("model claims not stored: {e}"));
                    out.facts.clear();
                }
                Err(e) => return Err(e),
            }
        }
        if out.complete {
            store.delete_setting(&mark)?;
        }
        totals.add(&out.stats);
        results.push(DocResult { id: id.clone(), facts: out.facts.len(), warnings: out.warnings, stats: out.stats });
    }
    let mut spent = pass.spent;
    spent.seconds = (spent.seconds * 1000.0).round() / 1000.0;
    let summary =
        Summary { model: llm.config.model.clone(), url: llm.endpoint.url.clone(), documents: docs.len(), budget: llm.config.budget, spent, totals, stopped: pass.stopped };
    let json = serde_json::to_string(&summary).map_err(|e| StoreError::Corruption { path: store.path().to_path_buf(), detail: e.to_string() })?;
    store.put_setting(SUMMARY_SETTING, &json)?;
    Ok((summary, results))
}

/// A progress callback: (documents done, documents, current id).
pub type Progress<'a> = &'a (dyn Fn(usize, usize, &str) + Sync);

/// What the model pass did for one document.
#[derive(Debug)]
pub struct DocResult {
    /// Document id.
    pub id: String,
    /// Claims added.
    pub facts: usize,
    /// Warnings (refused claims, failed requests).
    pub warnings: Vec<String>,
    /// Counts of the pass.
    pub stats: DocStats,
}

impl Pass<'_> {
    /// Whether a budget forbids another request; sets `stopped` when it does.
    fn over_budget(&mut self) -> bool {
        let b = self.llm.config.budget;
        let why = if b.calls.is_some_and(|n| self.spent.calls >= n) {
            Some(format!("the call budget ({} calls) is spent", b.calls.unwrap_or(0)))
        } else if b.tokens.is_some_and(|n| self.spent.tokens >= n) {
            Some(format!("the token budget ({} tokens) is spent", b.tokens.unwrap_or(0)))
        } else if b.seconds.is_some_and(|s| self.spent.seconds >= s) {
            Some(format!("the time budget ({} s) is spent", b.seconds.unwrap_or(0.0)))
        } else {
            None
        };
        if let Some(w) = why {
            self.stopped.get_or_insert(w);
        }
        self.stopped.is_some()
    }

    /// One request with retries and backoff, within the budgets. `None`: not sent (budget).
    fn ask(&mut self, body: &str) -> Option<Result<client::Reply, (CallError, u32)>> {
        let cfg = &self.llm.config;
        let mut attempt = 0u32;
        let mut last: Option<CallError> = None;
        loop {
            if self.over_budget() {
                // A budget spent between retries: the last failure stands.
                return last.map(|e| Err((e, attempt)));
            }
            let remaining = cfg.budget.seconds.map_or(cfg.timeout, |s| Duration::from_secs_f64((s - self.spent.seconds).max(0.001)));
            let t0 = Instant::now();
            let r = client::send(&self.llm.endpoint, cfg.api_key.as_deref(), body, cfg.timeout.min(remaining));
            self.spent.calls += 1;
            self.spent.seconds += t0.elapsed().as_secs_f64();
            attempt += 1;
            match r {
                Ok(reply) => {
                    self.spent.tokens += reply.tokens;
                    return Some(Ok(reply));
                }
                Err(e) if e.transient() && attempt <= cfg.retries => {
                    let pause = BACKOFF * 2u32.saturating_pow(attempt - 1);
                    let pause = cfg.budget.seconds.map_or(pause, |s| pause.min(Duration::from_secs_f64((s - self.spent.seconds).max(0.0))));
                    std::thread::sleep(pause);
                    self.spent.seconds += pause.as_secs_f64();
                    last = Some(e);
                }
                Err(e) => return Some(Err((e, attempt))),
            }
        }
    }

    /// The model's answer for one chunk, from the cache or the server: the content, or
    /// a warning (and whether the chunk was asked at all).
    fn answer(&mut self, store: &Store, chunk: &str) -> Result<Answer, StoreError> {
        let model = &self.llm.config.model;
        let (chunk_hash, key) = cache::key(chunk, model, &self.llm.prompt.hash);
        if let Some(e) = cache::get(store, &key)? {
            return Ok(Answer::Cached(e.content));
        }
        if self.stopped.is_some() {
            return Ok(Answer::NotAsked);
        }
        let secret = self.llm.config.api_key.clone();
        let Some(r) = self.ask(&self.llm.prompt.request(model, chunk)) else { return Ok(Answer::NotAsked) };
        let reply = match r {
            Ok(reply) => reply,
            Err((e, attempts)) => {
                self.failures_in_row += 1;
                if self.failures_in_row >= MAX_FAILURES_IN_ROW {
                    self.stopped.get_or_insert(format!("the server failed {MAX_FAILURES_IN_ROW} chunks in a row (last: {e})"));
                }
                let tries = if attempts == 1 { "1 attempt".to_string() } else { format!("{attempts} attempts") };
                return Ok(Answer::Failed(client::redact(&format!("{e} (after {tries})"), secret.as_deref(), 400)));
            }
        };
        self.failures_in_row = 0;
        // The key never enters the store, even if a server echoes it.
        let content = match secret.as_deref() {
            Some(k) if !k.is_empty() => reply.content.replace(k, "[redacted]"),
            _ => reply.content,
        };
        if let Err(m) = answer::claims(&content) {
            return Ok(Answer::Failed(client::redact(&m.to_string(), secret.as_deref(), 400)));
        }
        cache::put(store, &key, &cache::Entry { chunk: chunk_hash, model: model.clone(), prompt: self.llm.prompt.hash.clone(), content: content.clone(), tokens: reply.tokens })?;
        Ok(Answer::Fresh(content))
    }

    /// The model pass over one stored document.
    fn document(&mut self, store: &Store, vocab: &Vocabulary, doc: &str, text: &str, chunks: &[(u64, u64)]) -> Result<DocOutcome, StoreError> {
        let mut out = DocOutcome { facts: vec![], stats: DocStats { chunks: chunks.len(), ..DocStats::default() }, warnings: vec![], complete: true };
        for (i, &(a, b)) in chunks.iter().enumerate() {
            let Some(chunk) = text.get(a as usize..b as usize) else { continue };
            let content = match self.answer(store, chunk)? {
                Answer::Cached(c) => {
                    out.stats.cached += 1;
                    c
                }
                Answer::Fresh(c) => {
                    out.stats.asked += 1;
                    c
                }
                Answer::NotAsked => {
                    out.stats.not_asked += 1;
                    out.complete = false;
                    continue;
                }
                Answer::Failed(why) => {
                    out.stats.failed += 1;
                    out.complete = false;
                    out.warnings.push(format!("model: chunk {i} (bytes {a}-{b}): {why}; nothing else is lost and the chunk is asked again on the next build"));
                    continue;
                }
            };
            let items = answer::claims(&content).unwrap_or_default();
            for item in items {
                match self.gate(store, vocab, doc, text, (a as usize, b as usize), item)? {
                    Ok(facts) => {
                        out.stats.passed += 1;
                        out.facts.extend(facts);
                    }
                    Err(r) => *out.stats.refused.entry(r.code.to_string()).or_insert(0) += 1,
                }
            }
        }
        Ok(out)
    }

    /// One proposed claim through the gate of `tg claim`, its quote looked for inside the
    /// chunk it came from; the asserter must be named inside the quote (a warning for
    /// `tg claim`, a refusal here). The facts it gives, or the refusal.
    fn gate(
        &self,
        store: &Store,
        vocab: &Vocabulary,
        doc: &str,
        text: &str,
        chunk: (usize, usize),
        item: Result<answer::ModelClaim, String>,
    ) -> Result<Result<Vec<CitedFact>, Refusal>, StoreError> {
        let c = match item {
            Ok(c) => c,
            Err(why) => return Ok(Err(Refusal::new("bad_json", why))),
        };
        let attributes = match c.attribute_texts() {
            Ok(a) => a,
            Err(why) => return Ok(Err(Refusal::new("bad_json", why))),
        };
        let nonempty = |s: Option<String>| s.filter(|x| !x.trim().is_empty());
        // The occurrence inside the chunk the claim came from (the gate finds the quote in
        // the document; a quote that is only elsewhere is not this chunk's).
        let mut occurrence = None;
        if let Some(q) = c.quote.as_deref().filter(|q| !q.is_empty()) {
            let at = claims::quote::occurrences(text, q);
            if !at.is_empty() {
                match at.iter().position(|&s| s >= chunk.0 && s + q.len() <= chunk.1) {
                    Some(k) => occurrence = Some(k + 1),
                    None => {
                        return Ok(Err(Refusal::new(
                            "quote_outside_chunk",
                            format!("the quote occurs in {doc} but not in the chunk it was asked about (bytes {}-{})", chunk.0, chunk.1),
                        )));
                    }
                }
            }
        }
        let p = Proposal {
            doc: doc.to_string(),
            subject: c.subject,
            subject_type: nonempty(c.subject_type),
            relation: c.relation,
            object: c.object,
            object_type: nonempty(c.object_type),
            quote: c.quote,
            modality: c.modality,
            polarity: nonempty(c.polarity),
            asserter: nonempty(c.asserter),
            asserter_type: None,
            occurrence,
            near: None,
            attributes,
            source: None,
        };
        let gated = match claims::gate(store, vocab, &p, &self.source) {
            Ok(g) => g,
            Err(claims::Error::Refused(r)) => return Ok(Err(r)),
            Err(claims::Error::Store(e)) => return Err(e),
        };
        if let Some((_, msg)) = gated.record.warnings.iter().find(|(code, _)| code == "asserter_outside_quote") {
            return Ok(Err(Refusal::new("asserter_outside_quote", msg.clone())));
        }
        Ok(Ok(claims::ledger::claim_facts(&gated.record, text).0))
    }
}

/// Where a chunk's answer came from.
enum Answer {
    Cached(String),
    Fresh(String),
    NotAsked,
    Failed(String),
}

/// The lines `tg build` prints about the model pass: chunks, claims passed and refused by
/// code, what was spent against which budget, and why it stopped asking.
pub fn render(s: &Summary) -> String {
    let t = &s.totals;
    let mut out = format!(
        "model {} at {}: {} documents, {} chunks: {} asked, {} cached, {} failed, {} not asked\n",
        s.model, s.url, s.documents, t.chunks, t.asked, t.cached, t.failed, t.not_asked
    );
    let by_code: Vec<String> = t.refused.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let detail = if by_code.is_empty() { String::new() } else { format!(" ({})", by_code.join(", ")) };
    out.push_str(&format!("model claims: {} passed the gate, {} refused{detail}\n", t.passed, t.refused_total()));
    let limit = |v: Option<String>, what: &str| v.unwrap_or_else(|| format!("no {what} limit"));
    out.push_str(&format!(
        "model spent: {} calls, {} tokens, {:.1} s (budget: {}, {}, {})\n",
        s.spent.calls,
        s.spent.tokens,
        s.spent.seconds,
        limit(s.budget.calls.map(|n| format!("{n} calls")), "call"),
        limit(s.budget.tokens.map(|n| format!("{n} tokens")), "token"),
        limit(s.budget.seconds.map(|n| format!("{n} s")), "time"),
    ));
    if let Some(why) = &s.stopped {
        out.push_str(&format!("model stopped asking: {why}; run tg build again to ask the {} chunk(s) left (answers so far are kept)\n", t.not_asked + t.failed));
    } else if t.failed > 0 {
        out.push_str(&format!("model: {} chunk(s) got no usable answer; run tg build again to ask them\n", t.failed));
    }
    out
}
