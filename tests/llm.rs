//! `tg build --llm-extract` (issue 24) through the real binary, against a mock
//! OpenAI-compatible server this file starts on 127.0.0.1 (a `TcpListener` thread): good,
//! paraphrased, out-of-vocabulary and malformed answers with the exact counts that pass and
//! are refused; the cache (a second build asks nothing; a cached run equals a fresh one;
//! an edit asks only the changed chunk); the option off changes nothing; the API key never
//! reaches the store or the output; timeouts, HTTP 500 and malformed answers lose nothing;
//! budgets. With `../shared/data` present, FIRE dev gold replayed as the model's answer:
//! every verbatim in-vocabulary claim passes and every paraphrase is refused.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{scratch, stderr, stdout, write};
use serde_json::{Value, json};

/// What the mock answers to one request.
#[derive(Clone, Debug)]
enum Reply {
    /// 200 with this message content.
    Content(String),
    /// An error status with a body.
    Status(u16, String),
    /// Sleep, then answer 200 with this content.
    Slow(Duration, String),
}

type Answerer = dyn Fn(&str, &str) -> Reply + Send + Sync;

/// A mock chat-completions server: answers each request with `answer(chunk, authorization)`
/// and counts requests.
struct Mock {
    url: String,
    requests: Arc<AtomicUsize>,
    auth: Arc<Mutex<Vec<String>>>,
    bodies: Arc<Mutex<Vec<Value>>>,
}

impl Mock {
    fn start(answer: impl Fn(&str, &str) -> Reply + Send + Sync + 'static) -> Mock {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
        let port = listener.local_addr().map(|a| a.port()).unwrap_or_else(|e| panic!("{e}"));
        let requests = Arc::new(AtomicUsize::new(0));
        let auth = Arc::new(Mutex::new(vec![]));
        let bodies = Arc::new(Mutex::new(vec![]));
        let answer: Arc<Answerer> = Arc::new(answer);
        let (r2, a2, b2) = (requests.clone(), auth.clone(), bodies.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (r, a, b, answer) = (r2.clone(), a2.clone(), b2.clone(), answer.clone());
                std::thread::spawn(move || serve(stream, &r, &a, &b, &*answer));
            }
        });
        Mock { url: format!("http://127.0.0.1:{port}/v1"), requests, auth, bodies }
    }

    fn count(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

fn serve(stream: std::net::TcpStream, requests: &AtomicUsize, auth: &Mutex<Vec<String>>, bodies: &Mutex<Vec<Value>>, answer: &Answerer) {
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut stream = stream;
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut length = 0usize;
    let mut authorization = String::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 {
            return;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            match k.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = v.trim().parse().unwrap_or(0),
                "authorization" => authorization = v.trim().to_string(),
                _ => {}
            }
        }
    }
    let mut body = vec![0u8; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    requests.fetch_add(1, Ordering::SeqCst);
    let v: Value = serde_json::from_slice(&body).unwrap_or_default();
    let chunk = v["messages"][1]["content"].as_str().unwrap_or("").to_string();
    if let Ok(mut a) = auth.lock() {
        a.push(authorization.clone());
    }
    if let Ok(mut b) = bodies.lock() {
        b.push(v);
    }
    let (code, text) = match answer(&chunk, &authorization) {
        Reply::Content(c) => (200, completion(&c)),
        Reply::Status(code, body) => (code, body),
        Reply::Slow(d, c) => {
            std::thread::sleep(d);
            (200, completion(&c))
        }
    };
    let head = format!("HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", text.len());
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(text.as_bytes());
    let _ = stream.flush();
}

fn completion(content: &str) -> String {
    json!({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
           "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}})
    .to_string()
}

const MEMO: &str = "Acme Trading Ltd transferred USD 480,000 to Beta Holdings SA on 3 March 2021. \
According to John Smith, Gamma Consulting LLC is a subsidiary of Acme Trading Ltd.\n";
const NOTE: &str = "Delta Corp paid Epsilon Ltd for consulting services in 2020.\n";

#[allow(clippy::too_many_arguments)]
fn claim(subject: &str, st: &str, rel: &str, object: &str, ot: &str, quote: &str, modality: &str, asserter: &str) -> Value {
    json!({"subject": subject, "subject_type": st, "relation": rel, "object": object, "object_type": ot,
           "modality": modality, "polarity": "positive", "asserter": asserter, "quote": quote})
}

/// The memo's answer: 2 claims that pass, 8 that are refused, one per reason below.
fn memo_answer() -> String {
    let mut good = claim(
        "Acme Trading Ltd",
        "Organization",
        "TRANSFERRED",
        "Beta Holdings SA",
        "Organization",
        "Acme Trading Ltd transferred USD 480,000 to Beta Holdings SA",
        "assertion",
        "document",
    );
    good["attributes"] = json!({"amount": 480000, "currency": "USD"});
    let claims = vec![
        good,
        claim(
            "Gamma Consulting LLC",
            "Organization",
            "SUBSIDIARY_OF",
            "Acme Trading Ltd",
            "Organization",
            "According to John Smith, Gamma Consulting LLC is a subsidiary of Acme Trading Ltd",
            "reported",
            "John Smith",
        ),
        // Paraphrases: a synonym, and the case changed.
        claim(
            "Acme Trading Ltd",
            "Organization",
            "TRANSFERRED",
            "Beta Holdings SA",
            "Organization",
            "Acme Trading Ltd sent USD 480,000 to Beta Holdings SA",
            "assertion",
            "document",
        ),
        claim(
            "Acme Trading Ltd",
            "Organization",
            "TRANSFERRED",
            "Beta Holdings SA",
            "Organization",
            "acme trading ltd transferred USD 480,000 to Beta Holdings SA",
            "assertion",
            "document",
        ),
        // Out of the vocabulary: relation, type, type the relation does not allow.
        claim("Acme Trading Ltd", "Organization", "LAUNDERED", "Beta Holdings SA", "Organization", "Acme Trading Ltd transferred USD 480,000", "assertion", "document"),
        claim("Acme Trading Ltd", "Vessel", "TRANSFERRED", "Beta Holdings SA", "Organization", "Acme Trading Ltd transferred USD 480,000", "assertion", "document"),
        claim("Acme Trading Ltd", "Organization", "DIRECTOR_OF", "Beta Holdings SA", "Organization", "Acme Trading Ltd transferred USD 480,000", "assertion", "document"),
        // Attribution outside the quote.
        claim(
            "Gamma Consulting LLC",
            "Organization",
            "SUBSIDIARY_OF",
            "Acme Trading Ltd",
            "Organization",
            "Gamma Consulting LLC is a subsidiary of Acme Trading Ltd",
            "reported",
            "John Smith",
        ),
        // Not a claim object; a modality outside the six.
        json!(42),
        claim("Acme Trading Ltd", "Organization", "TRANSFERRED", "Beta Holdings SA", "Organization", "Acme Trading Ltd transferred USD 480,000", "likely", "document"),
    ];
    json!({"claims": claims}).to_string()
}

fn note_answer() -> String {
    json!({"claims": [claim("Delta Corp", "Organization", "PAID", "Epsilon Ltd", "Organization", "Delta Corp paid Epsilon Ltd", "assertion", "document")]}).to_string()
}

/// The good mock: the memo's and the note's answers, nothing for other text.
fn good(chunk: &str, _: &str) -> Reply {
    if chunk.contains("Acme Trading Ltd transferred") {
        Reply::Content(memo_answer())
    } else if chunk.contains("Delta Corp paid") {
        Reply::Content(note_answer())
    } else {
        Reply::Content("{\"claims\": []}".into())
    }
}

/// The counts of a build that asks both chunks: the memo's and the note's one good claim.
const ALL_COUNTS: &str =
    "model claims: 3 passed the gate, 8 refused (asserter_outside_quote 1, bad_json 1, bad_type 1, quote_not_found 2, unknown_modality 1, unknown_relation 1, wrong_type 1)";
/// The memo's counts alone.
const MEMO_COUNTS: &str =
    "model claims: 2 passed the gate, 8 refused (asserter_outside_quote 1, bad_json 1, bad_type 1, quote_not_found 2, unknown_modality 1, unknown_relation 1, wrong_type 1)";

/// A scratch folder with `corpus/memo.txt` and `corpus/note.txt`.
fn corpus(name: &str) -> PathBuf {
    let d = scratch("llm", name);
    write(&d, "corpus/memo.txt", MEMO);
    write(&d, "corpus/note.txt", NOTE);
    d
}

/// Runs `tg` in `dir` with extra environment variables (API keys removed unless given).
fn tg_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tg"));
    c.current_dir(dir).env_remove("TG_DB").env_remove("TG_LLM_API_KEY").env_remove("OPENAI_API_KEY");
    for (k, v) in env {
        c.env(k, v);
    }
    c.args(args).output().unwrap_or_else(|e| panic!("cannot run tg: {e}"))
}

fn tg(dir: &Path, args: &[&str]) -> Output {
    tg_env(dir, args, &[])
}

/// A URL on 127.0.0.1 where nothing listens (a port just freed).
fn dead_url() -> String {
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or_else(|e| panic!("{e}"));
    format!("http://127.0.0.1:{port}/v1")
}

/// `tg build corpus --db DB --llm-extract --llm-url URL --llm-model test-model` + `extra`.
fn build_llm(d: &Path, db: &str, url: &str, extra: &[&str]) -> Output {
    let mut args = vec!["build", "corpus", "--db", db, "--llm-extract", "--llm-url", url, "--llm-model", "test-model"];
    args.extend_from_slice(extra);
    tg(d, &args)
}

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(o), stderr(o));
    stdout(o)
}

fn export(d: &Path, db: &str) -> String {
    ok(&tg(d, &["export", "--format", "json", "--db", db]))
}

fn dump(d: &Path, db: &str) -> String {
    ok(&tg(d, &["dump", "--db", db]))
}

#[test]
fn good_paraphrased_and_out_of_vocabulary_claims_are_counted_exactly() {
    let d = corpus("counts");
    let mock = Mock::start(good);
    let o = build_llm(&d, "db", &mock.url, &[]);
    let out = ok(&o);
    assert!(out.contains("model test-model at "), "{out}");
    assert!(out.contains(": 2 documents, 2 chunks: 2 asked, 0 cached, 0 failed, 0 not asked\n"), "{out}");
    assert!(out.contains(&format!("{ALL_COUNTS}\n")), "{out}");
    assert!(out.contains("model spent: 2 calls, 240 tokens, "), "{out}");
    assert_eq!(mock.count(), 2);
    // The request: the vocabulary's prompt as system message, the chunk as user message,
    // the schema as response_format.
    let bodies = mock.bodies.lock().map(|b| b.clone()).unwrap_or_default();
    let prompt = ok(&tg(&d, &["vocab", "prompt"]));
    assert!(bodies.iter().all(|b| b["messages"][0]["content"].as_str().is_some_and(|s| s.starts_with(prompt.trim_end()))), "{:?}", bodies.first());
    assert!(bodies.iter().all(|b| b["model"] == "test-model" && b["temperature"] == 0 && b["response_format"]["type"] == "json_schema"));
    // The claims are GENERATED, cited, with their source; the attribution is kept.
    let dump = dump(&d, "db");
    let claims: Vec<&str> = dump.lines().filter(|l| l.starts_with("fact claim(\"gen-")).collect();
    assert_eq!(claims.len(), 3, "{dump}");
    assert!(claims.iter().all(|l| l.contains("GENERATED")), "{claims:?}");
    assert!(claims.iter().any(|l| l.contains("\"TRANSFERRED\"")), "{claims:?}");
    assert!(
        dump.contains("\"TRANSFERRED\", \"Organization:beta holdings sa\", \"assertion\", \"positive\", \"document\") GENERATED supports=1\n  [memo.txt:0-60] GENERATED"),
        "{dump}"
    );
    assert!(claims.iter().any(|l| l.contains("\"SUBSIDIARY_OF\"") && l.contains("\"reported\"") && l.contains("\"Person:john smith\"")), "{claims:?}");
    assert_eq!(dump.lines().filter(|l| l.starts_with("fact claim_generated(") && l.contains("\"llm:test-model\"")).count(), 3, "{dump}");
    assert!(dump.lines().any(|l| l.starts_with("fact claim_attr(") && l.contains("\"amount\", \"480000\"")), "{dump}");
    // Every citation re-hashes.
    let v = ok(&tg(&d, &["verify", "--db", "db"]));
    assert!(!v.contains("FAILED"), "{v}");
    // Nothing went into the ledger: `tg claim list` shows only outside claims recorded by hand.
    let l = tg(&d, &["claim", "list", "--db", "db"]);
    assert!(!stdout(&l).contains("gen-"), "{}", stdout(&l));
}

#[test]
fn a_second_build_asks_nothing_and_a_cached_run_equals_a_fresh_one() {
    let d = corpus("cache");
    let mock = Mock::start(good);
    ok(&build_llm(&d, "db", &mock.url, &[]));
    assert_eq!(mock.count(), 2);
    let first = export(&d, "db");
    let first_dump = dump(&d, "db");
    // Unchanged corpus: nothing is asked.
    let out = ok(&build_llm(&d, "db", &mock.url, &[]));
    assert_eq!(mock.count(), 2, "{out}");
    assert!(out.starts_with("0 added, 0 changed, 2 unchanged"), "{out}");
    // Off, then on again: every document is extracted again, every answer comes from the
    // cache (the mock is not even asked), and the graph is the first one, byte for byte.
    ok(&tg(&d, &["build", "corpus", "--db", "db"]));
    let out = ok(&build_llm(&d, "db", &dead_url(), &[]));
    assert!(out.contains("2 chunks: 0 asked, 2 cached, 0 failed, 0 not asked"), "{out}");
    assert!(out.contains(&format!("{ALL_COUNTS}\n")), "{out}");
    assert!(out.contains("model spent: 0 calls, 0 tokens"), "{out}");
    assert_eq!(mock.count(), 2);
    assert_eq!(export(&d, "db"), first);
    assert_eq!(dump(&d, "db"), first_dump);
    // An edit asks for the changed chunk only, and the result equals a fresh build of the
    // edited corpus with the same answers.
    write(&d, "corpus/note.txt", "Delta Corp paid Epsilon Ltd for consulting services in 2021.\n");
    let out = ok(&build_llm(&d, "db", &mock.url, &[]));
    assert!(out.contains("1 documents, 1 chunks: 1 asked, 0 cached"), "{out}");
    assert_eq!(mock.count(), 3);
    ok(&build_llm(&d, "fresh", &mock.url, &[]));
    assert_eq!(mock.count(), 5, "a fresh store has its own cache: both chunks are asked");
    assert_eq!(export(&d, "db"), export(&d, "fresh"));
    assert_eq!(dump(&d, "db"), dump(&d, "fresh"));
}

#[test]
fn off_by_default_and_off_again_is_the_plain_graph() {
    let d = corpus("off");
    let mock = Mock::start(good);
    let plain_out = ok(&tg(&d, &["build", "corpus", "--db", "plain"]));
    assert!(!plain_out.contains("model"), "{plain_out}");
    let plain = export(&d, "plain");
    let plain_dump = dump(&d, "plain");
    // The model's claims are there with the option on …
    ok(&build_llm(&d, "db", &mock.url, &[]));
    assert_ne!(export(&d, "db"), plain);
    // … and gone with it off again: the graph and the dump are the plain build's, byte for byte.
    let out = ok(&tg(&d, &["build", "corpus", "--db", "db"]));
    assert!(out.starts_with("0 added, 2 changed"), "{out}");
    assert_eq!(export(&d, "db"), plain);
    assert_eq!(dump(&d, "db"), plain_dump);
    assert_eq!(mock.count(), 2);
    // Model options without --llm-extract are an error, not silently ignored.
    let o = tg(&d, &["build", "corpus", "--db", "plain", "--llm-url", &mock.url]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--llm-extract"), "{}", stderr(&o));
    // A plain build stores nothing of the model: no summary, no cache.
    let store = textgraph::store::Store::open_existing(&d.join("plain")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.setting(textgraph::llm::SUMMARY_SETTING).ok().flatten(), None);
    assert!(store.settings_with_prefix(textgraph::llm::cache::PREFIX).unwrap_or_default().is_empty());
    assert!(!store.manifest().ok().flatten().unwrap_or_default().contains("\"llm\""));
}

#[test]
fn the_api_key_is_sent_but_never_stored_or_printed() {
    const KEY: &str = "sk-canary-5f1e2d3c4b";
    let d = corpus("key");
    // The server echoes the header in an error for the note and inside the memo's answer.
    let mock = Mock::start(|chunk, auth| {
        if chunk.contains("Delta Corp") {
            Reply::Status(500, format!("{{\"error\": \"bad header {auth}\"}}"))
        } else {
            let mut a: Value = serde_json::from_str(&memo_answer()).unwrap_or_default();
            a["note"] = json!(format!("you sent {auth}"));
            Reply::Content(a.to_string())
        }
    });
    let o = tg_env(&d, &["build", "corpus", "--db", "db", "--llm-extract", "--llm-url", &mock.url, "--llm-model", "m", "--llm-retries", "0"], &[("TG_LLM_API_KEY", KEY)]);
    let out = ok(&o);
    assert!(mock.auth.lock().map(|a| a.iter().all(|h| h == &format!("Bearer {KEY}"))).unwrap_or(false));
    assert!(stderr(&o).contains("the server answered HTTP 500: {\"error\": \"bad header Bearer [redacted]\"}"), "{}", stderr(&o));
    for text in [out, stderr(&o), export(&d, "db"), dump(&d, "db")] {
        assert!(!text.contains(KEY), "{text}");
    }
    // OPENAI_API_KEY is read too.
    let o = tg_env(&d, &["build", "corpus", "--db", "db2", "--llm-extract", "--llm-url", &mock.url, "--llm-model", "m", "--llm-retries", "0"], &[("OPENAI_API_KEY", "sk-other")]);
    ok(&o);
    assert!(mock.auth.lock().map(|a| a.iter().any(|h| h == "Bearer sk-other")).unwrap_or(false));
    // Not in the store's files, nor in what the store keeps (the cached answer is redacted).
    let store = textgraph::store::Store::open_existing(&d.join("db")).unwrap_or_else(|e| panic!("{e}"));
    let cached = store.settings_with_prefix(textgraph::llm::cache::PREFIX).unwrap_or_default();
    assert_eq!(cached.len(), 1);
    assert!(cached.iter().all(|(_, v)| !v.contains(KEY) && v.contains("[redacted]")), "{cached:?}");
    drop(store);
    let mut stack = vec![d.join("db")];
    while let Some(p) = stack.pop() {
        for e in std::fs::read_dir(&p).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap_or_default();
                assert!(!bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()), "{}", p.display());
            }
        }
    }
}

/// A mock that fails the note's chunk in one way and answers the memo well.
fn failing(kind: &'static str) -> Mock {
    Mock::start(move |chunk, _| {
        if !chunk.contains("Delta Corp") {
            return good(chunk, "");
        }
        match kind {
            "timeout" => Reply::Slow(Duration::from_secs(5), note_answer()),
            "500" => Reply::Status(500, "{\"error\": \"model crashed\"}".into()),
            _ => Reply::Content("{\"claims\": [{\"subject\": \"Delta".into()),
        }
    })
}

#[test]
fn timeouts_server_errors_and_malformed_answers_warn_and_lose_nothing() {
    for (kind, warning, requests) in [
        (
            "timeout",
            "warning: note.txt: model: chunk 0 (bytes 0-60): no answer within 1.0 s (after 2 attempts); nothing else is lost and the chunk is asked again on the next build",
            3,
        ),
        (
            "500",
            "warning: note.txt: model: chunk 0 (bytes 0-60): the server answered HTTP 500: {\"error\": \"model crashed\"} (after 2 attempts); nothing else is lost and the chunk is asked again on the next build",
            3,
        ),
        (
            "malformed",
            "warning: note.txt: model: chunk 0 (bytes 0-60): malformed answer: not JSON (EOF while parsing a string at line 1 column 30); nothing else is lost and the chunk is asked again on the next build",
            2,
        ),
    ] {
        let d = corpus(kind);
        let mock = failing(kind);
        let o = build_llm(&d, "db", &mock.url, &["--llm-timeout", "1", "--llm-retries", "1"]);
        let out = ok(&o);
        assert!(stderr(&o).contains(warning), "{kind}: {}", stderr(&o));
        assert_eq!(mock.count(), requests, "{kind}");
        // The memo's claims and every extracted fact are there.
        assert!(out.contains("2 chunks: 1 asked, 0 cached, 1 failed, 0 not asked"), "{kind}: {out}");
        assert!(out.contains(&format!("{MEMO_COUNTS}\n")), "{kind}: {out}");
        assert!(out.contains("model: 1 chunk(s) got no usable answer; run tg build again to ask them"), "{kind}: {out}");
        let plain = corpus(&format!("{kind}-plain"));
        ok(&tg(&plain, &["build", "corpus", "--db", "db"]));
        let ours = dump(&d, "db");
        // (A fact the model also states has more supports, so compare facts and tags.)
        for line in dump(&plain, "db").lines().filter(|l| l.contains("EXTRACTED") || l.contains("STRUCTURAL")) {
            let fact = line.split(" supports=").next().unwrap_or(line);
            assert!(ours.lines().any(|l| l.starts_with(fact)), "{kind}: lost {line}");
        }
        assert_eq!(ours.lines().filter(|l| l.starts_with("fact claim(\"gen-")).count(), 2, "{kind}");
        // The next build (the server well again) asks the failed chunk only and gets its claim.
        let well = Mock::start(good);
        let out = ok(&build_llm(&d, "db", &well.url, &[]));
        assert_eq!(well.count(), 1, "{kind}: {out}");
        assert!(out.contains("0 added, 1 changed, 1 unchanged"), "{kind}: {out}");
        assert!(out.contains("model claims: 1 passed the gate, 0 refused\n"), "{kind}: {out}");
        assert_eq!(dump(&d, "db").lines().filter(|l| l.starts_with("fact claim(\"gen-")).count(), 3, "{kind}");
    }
}

#[test]
fn a_quote_must_lie_in_the_chunk_it_was_asked_about() {
    let d = scratch("llm", "chunks");
    let filler = "The ledger lists routine entries for office supplies and travel. ".repeat(30);
    let text = format!("Acme Trading Ltd acquired Beta Holdings SA in 2019.\n\n{filler}\n\nKappa Ltd is a subsidiary of Lambda Group Ltd.\n");
    write(&d, "corpus/long.txt", &text);
    let mock = Mock::start(|chunk, _| {
        let acquired =
            claim("Acme Trading Ltd", "Organization", "ACQUIRED", "Beta Holdings SA", "Organization", "Acme Trading Ltd acquired Beta Holdings SA", "assertion", "document");
        let subsidiary =
            claim("Kappa Ltd", "Organization", "SUBSIDIARY_OF", "Lambda Group Ltd", "Organization", "Kappa Ltd is a subsidiary of Lambda Group Ltd", "assertion", "document");
        // Each chunk's answer also quotes the other end of the document.
        let claims = if chunk.contains("Acme") {
            vec![acquired, subsidiary]
        } else if chunk.contains("Kappa") {
            vec![subsidiary, acquired]
        } else {
            vec![acquired]
        };
        Reply::Content(json!({"claims": claims}).to_string())
    });
    let out = ok(&build_llm(&d, "db", &mock.url, &[]));
    let chunks = mock.count();
    assert!(chunks >= 2, "{out}");
    assert!(out.contains(&format!("1 documents, {chunks} chunks: {chunks} asked")), "{out}");
    assert!(out.contains(&format!("model claims: 2 passed the gate, {} refused (quote_outside_chunk {})\n", chunks, chunks)), "{out}");
    let dump = dump(&d, "db");
    assert_eq!(dump.lines().filter(|l| l.starts_with("fact claim(\"gen-")).count(), 2, "{dump}");
}

#[test]
fn a_server_that_keeps_failing_is_given_up_on() {
    let d = scratch("llm", "down");
    for i in 0..5 {
        write(&d, &format!("corpus/doc{i}.txt"), &format!("Document number {i} says little.\n"));
    }
    let out = ok(&build_llm(&d, "db", &dead_url(), &["--llm-retries", "0"]));
    assert!(out.contains("5 chunks: 0 asked, 0 cached, 3 failed, 2 not asked"), "{out}");
    assert!(out.contains("model stopped asking: the server failed 3 chunks in a row (last: cannot reach the server: "), "{out}");
    assert!(out.contains("model spent: 3 calls"), "{out}");
}

#[test]
fn budgets_stop_asking_and_the_next_build_goes_on() {
    let d = corpus("budget");
    write(&d, "corpus/third.txt", "Zeta Bank SA holds an account for Eta Ltd.\n");
    let mock = Mock::start(good);
    let out = ok(&build_llm(&d, "db", &mock.url, &["--llm-budget", "1"]));
    assert_eq!(mock.count(), 1);
    assert!(out.contains("3 chunks: 1 asked, 0 cached, 0 failed, 2 not asked"), "{out}");
    assert!(out.contains("model spent: 1 calls, 120 tokens, "), "{out}");
    assert!(out.contains("(budget: 1 calls, no token limit, no time limit)"), "{out}");
    assert!(out.contains("model stopped asking: the call budget (1 calls) is spent; run tg build again to ask the 2 chunk(s) left"), "{out}");
    // The budget and the spending are kept in the store and the manifest.
    {
        let store = textgraph::store::Store::open_existing(&d.join("db")).unwrap_or_else(|e| panic!("{e}"));
        let s: Value = serde_json::from_str(&store.setting(textgraph::llm::SUMMARY_SETTING).ok().flatten().unwrap_or_default()).unwrap_or_default();
        assert_eq!((s["budget"]["calls"].as_u64(), s["spent"]["calls"].as_u64(), s["spent"]["tokens"].as_u64()), (Some(1), Some(1), Some(120)), "{s}");
        let m: Value = serde_json::from_str(&store.manifest().ok().flatten().unwrap_or_default()).unwrap_or_default();
        let asked: u64 = m.as_array().into_iter().flatten().filter_map(|f| f["llm"]["asked"].as_u64()).sum();
        assert_eq!(asked, 1, "{m}");
    }
    // The next builds ask what is left (the documents not fully answered are extracted again).
    let out = ok(&build_llm(&d, "db", &mock.url, &["--llm-budget-tokens", "100"]));
    assert_eq!(mock.count(), 2, "{out}");
    assert!(out.contains("model stopped asking: the token budget (100 tokens) is spent"), "{out}");
    let out = ok(&build_llm(&d, "db", &mock.url, &[]));
    assert_eq!(mock.count(), 3, "{out}");
    assert!(!out.contains("stopped"), "{out}");
    let out = ok(&build_llm(&d, "db", &mock.url, &[]));
    assert!(out.starts_with("0 added, 0 changed, 3 unchanged"), "{out}");
    assert_eq!(mock.count(), 3);
    // The result equals one build without a budget.
    let fresh = Mock::start(good);
    ok(&build_llm(&d, "fresh", &fresh.url, &[]));
    assert_eq!(export(&d, "db"), export(&d, "fresh"));
}

#[test]
fn bad_model_options_are_clear_errors() {
    let d = corpus("options");
    for (args, message) in [
        (vec!["--llm-extract", "--llm-model", "m"], "tg: --llm-url is required with --llm-extract (e.g. http://127.0.0.1:8080/v1)\n"),
        (vec!["--llm-extract", "--llm-url", "http://127.0.0.1:8080/v1"], "tg: --llm-model is required with --llm-extract\n"),
        (
            vec!["--llm-extract", "--llm-url", "https://api.example.com/v1", "--llm-model", "m"],
            "tg: --llm-url \"https://api.example.com/v1\": tg speaks plain http:// to a model server (no TLS); give http://HOST:PORT/v1\n",
        ),
        (
            vec!["--llm-extract", "--llm-url", "http://10.1.2.3:8000/v1", "--llm-model", "m"],
            "tg: --llm-url host \"10.1.2.3\" is not this machine: documents would leave it; pass --llm-allow-remote to allow that\n",
        ),
        (vec!["--llm-extract", "--llm-url", "http://127.0.0.1:8080/v1", "--llm-model", "m", "--llm-timeout", "0"], "tg: --llm-timeout must be a positive number of seconds\n"),
    ] {
        let mut a = vec!["build", "corpus", "--db", "db"];
        a.extend(args);
        let o = tg(&d, &a);
        assert_eq!(o.status.code(), Some(2), "{a:?}");
        assert_eq!(stderr(&o), message, "{a:?}");
    }
    // Nothing was created.
    assert!(!d.join("db").exists());
}

/// The shared data folder (`TG_SHARED`, else `../shared` beside the repository).
fn shared() -> PathBuf {
    std::env::var_os("TG_SHARED").map(PathBuf::from).unwrap_or_else(|| common::root().join("../shared"))
}

/// FIRE relation → ours, for the gold whose argument types map too (the mapping of
/// `tg eval fire`, engine/extract/eval.rs).
fn fire_relation(r: &str) -> Option<&'static str> {
    match r {
        "Subsidiaryof" => Some("SUBSIDIARY_OF"),
        "ActionBuy" => Some("ACQUIRED"),
        "Employeeof" => Some("EMPLOYED_BY"),
        _ => None,
    }
}

fn fire_type(t: &str) -> Option<&'static str> {
    textgraph::extract::eval::FIRE_ENTITY_MAP.iter().find(|(f, _)| *f == t).map(|(_, o)| *o)
}

/// A paraphrase of a verbatim quote that does not occur in `text`: FIRE's tokenised
/// spacing undone (what a model "fixes" first), a word dropped, or a letter's case
/// changed, in turn.
fn paraphrase(quote: &str, text: &str, turn: usize) -> Option<String> {
    let words: Vec<&str> = quote.split(' ').collect();
    let tidy = quote.replace(" , ", ", ").replace(" 's", "'s").replace(" .", ".").replace("( ", "(").replace(" )", ")");
    let dropped = if words.len() >= 3 { Some([&words[..1], &words[2..]].concat().join(" ")) } else { None };
    let recased = quote.char_indices().find(|(_, c)| c.is_alphabetic()).map(|(i, c)| {
        let flipped: String = if c.is_uppercase() { c.to_lowercase().collect() } else { c.to_uppercase().collect() };
        format!("{}{flipped}{}", &quote[..i], &quote[i + c.len_utf8()..])
    });
    let candidates = [Some(tidy), dropped, recased];
    (0..3).map(|k| candidates[(turn + k) % 3].clone()).find_map(|c| c.filter(|p| p != quote && !text.contains(p.as_str())))
}

#[derive(Default, Debug)]
struct Offered {
    verbatim_in_vocabulary: usize,
    paraphrases: usize,
    out_of_vocabulary: usize,
}

/// FIRE dev gold replayed as the model's answer (docs/BENCHMARKS.md, "Model extraction
/// gate"): every sentence a document; for each chunk the mock answers every gold relation
/// inside it as a claim quoting the smallest span holding both arguments, verbatim, plus
/// a paraphrase of each in-vocabulary one. The gate must keep all verbatim in-vocabulary
/// gold and refuse every paraphrase; gold outside the vocabulary is refused too.
#[test]
fn fire_dev_gold_replayed_as_the_model_passes_every_verbatim_claim_and_no_paraphrase() {
    let path = shared().join("data/re_fire_financial/fire_dev.json");
    let Ok(raw) = std::fs::read_to_string(&path) else {
        eprintln!("note: {} is absent; skipping (set TG_SHARED to the shared folder)", path.display());
        return;
    };
    let data: Vec<Value> = serde_json::from_str(&raw).unwrap_or_else(|e| panic!("{e}"));
    let d = scratch("llm", "fire");
    // (document text, claims to offer: (claim, kind)) per instance.
    let mut docs: Vec<(String, Vec<(Value, u8)>)> = vec![];
    let mut turn = 0usize;
    for (i, inst) in data.iter().enumerate() {
        let tokens: Vec<&str> = inst["tokens"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        let text = tokens.join(" ");
        write(&d, &format!("corpus/fire-{i:03}.txt"), &format!("{text}\n"));
        let ents = inst["entities"].as_array().cloned().unwrap_or_default();
        let mut offers = vec![];
        for r in inst["relations"].as_array().into_iter().flatten() {
            let (Some(h), Some(t)) = (r["head"].as_u64().and_then(|k| ents.get(k as usize)), r["tail"].as_u64().and_then(|k| ents.get(k as usize))) else { continue };
            let span = |e: &Value| (e["start"].as_u64().unwrap_or(0) as usize, e["end"].as_u64().unwrap_or(0) as usize);
            let ((hs, he), (ts, te)) = (span(h), span(t));
            let quote = tokens[hs.min(ts)..he.max(te)].join(" ");
            let name = |e: &Value, s: usize, x: usize| {
                if e["text"].as_str().is_some_and(|t| text.contains(t)) { e["text"].as_str().unwrap_or("").to_string() } else { tokens[s..x].join(" ") }
            };
            let (ht, tt) = (h["type"].as_str().unwrap_or(""), t["type"].as_str().unwrap_or(""));
            let fire_rel = r["type"].as_str().unwrap_or("");
            let rel = fire_relation(fire_rel);
            let in_vocab = rel.is_some() && fire_type(ht).is_some() && fire_type(tt).is_some() && (rel != Some("EMPLOYED_BY") || fire_type(ht) == Some("Person"));
            let c = claim(&name(h, hs, he), fire_type(ht).unwrap_or(ht), rel.unwrap_or(fire_rel), &name(t, ts, te), fire_type(tt).unwrap_or(tt), &quote, "assertion", "document");
            if in_vocab {
                if let Some(p) = paraphrase(&quote, &text, turn) {
                    let mut pc = c.clone();
                    pc["quote"] = json!(p);
                    offers.push((pc, 1));
                }
                turn += 1;
                offers.push((c, 0));
            } else {
                offers.push((c, 2));
            }
        }
        docs.push((text, offers));
    }
    let offered = Arc::new(Mutex::new(Offered::default()));
    let (docs, o2) = (Arc::new(docs), offered.clone());
    let mock = Mock::start(move |chunk, _| {
        let mut claims = vec![];
        for (text, offers) in docs.iter().filter(|(t, _)| t.contains(chunk)) {
            let _ = text;
            for (c, kind) in offers {
                if c["quote"].as_str().is_some_and(|q| chunk.contains(q)) || *kind == 1 {
                    if let Ok(mut o) = o2.lock() {
                        match kind {
                            0 => o.verbatim_in_vocabulary += 1,
                            1 => o.paraphrases += 1,
                            _ => o.out_of_vocabulary += 1,
                        }
                    }
                    claims.push(c.clone());
                }
            }
        }
        Reply::Content(json!({"claims": claims}).to_string())
    });
    let started = std::time::Instant::now();
    let out = ok(&build_llm(&d, "db", &mock.url, &[]));
    let secs = started.elapsed().as_secs_f64();
    let o = offered.lock().map(|o| (o.verbatim_in_vocabulary, o.paraphrases, o.out_of_vocabulary)).unwrap_or_default();
    let line = out.lines().find(|l| l.starts_with("model claims: ")).unwrap_or("").to_string();
    println!(
        "FIRE dev replay: {} documents, offered {} verbatim in-vocabulary gold, {} paraphrases, {} out-of-vocabulary gold; {line}; build {secs:.1} s",
        data.len(),
        o.0,
        o.1,
        o.2
    );
    println!("{out}");
    let passed: usize = line.strip_prefix("model claims: ").and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(usize::MAX);
    let refused_count = |code: &str| -> usize { line.split(&format!("{code} ")).nth(1).and_then(|r| r.split([',', ')']).next()).and_then(|n| n.parse().ok()).unwrap_or(0) };
    assert!(o.0 >= 130, "{o:?}");
    assert_eq!(passed, o.0, "every verbatim in-vocabulary gold claim passes: {line}");
    assert_eq!(refused_count("quote_not_found"), o.1, "every paraphrase is refused as not verbatim: {line}");
    assert_eq!(refused_count("unknown_relation") + refused_count("bad_type"), o.2, "gold outside the vocabulary is refused: {line}");
    assert!(out.contains(&format!("{n} documents, {n} chunks: {n} asked, 0 cached, 0 failed, 0 not asked", n = data.len())), "{out}");
    // Replayed from the cache (no server at all) after the option was off: the same counts
    // and the same graph.
    let first = export(&d, "db");
    ok(&tg(&d, &["build", "corpus", "--db", "db"]));
    let again = ok(&build_llm(&d, "db", &dead_url(), &[]));
    assert!(again.contains(&format!("{n} chunks: 0 asked, {n} cached", n = data.len())), "{again}");
    assert!(again.contains(&format!("{line}\n")), "{again}");
    assert_eq!(export(&d, "db"), first);
}
