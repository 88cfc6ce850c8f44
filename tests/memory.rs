//! Bounded memory for large documents (issue 19; docs/ARCHITECTURE.md, "Large
//! documents"): a large document's structural facts are made in pieces as the store
//! writes them, and the store writes its supports and search units in staged batches.
//! A streamed document must be stored exactly as a whole one: the same dump, graph, search
//! index and verification, fresh and after a change. No timing or memory measurement:
//! what is held is checked by counting the facts an ingested document keeps.

use std::path::Path;
use std::process::{Command, Output};

use textgraph::ingest::{Extractions, Streamed, extract_tree, facts};
use textgraph::store::{CitedFact, FactSource, NewDocument, PackedFacts, Piece, SourceDigest, Store, StoreError};

mod common;

use common::{stdout, write};

/// A wire-transfer table of `rows` rows; `salt` changes every fifth row's amount.
fn wires(rows: usize, salt: usize) -> String {
    let names = ["Acme Holdings Ltd", "Beta Trading Inc", "Gamma LLC", "Delta Shipping Corp", "John Smith", "Maria Garcia"];
    let mut t = String::from("date\treference\toriginator\tbeneficiary\tamount\tcurrency\tmemo\n");
    for i in 0..rows {
        let (a, b) = (names[i % 6], names[(i / 6 + 1 + i) % 6]);
        let b = if a == b { names[(i + 1) % 6] } else { b };
        let amount = 1000 + (i * 7919) % 900_000 + if i % 5 == 0 { salt } else { 0 };
        t.push_str(&format!("2024-{:02}-{:02}\tW{i:07}\t{a}\t{b}\t{amount}.00\tUSD\tinvoice {} for services\n", i % 12 + 1, i % 28 + 1, 10000 + i));
    }
    t
}

/// Entity-dense prose: `n` sentences of transfers and officers.
fn dense(n: usize) -> String {
    let orgs = ["Acme Holdings Ltd", "Beta Trading Inc", "Gamma LLC", "Delta Shipping Corp"];
    let people = ["John Smith", "Maria Garcia", "Wei Zhang"];
    let mut t = String::from("# Transfers\n\n");
    for i in 0..n {
        t.push_str(&format!(
            "{} wired ${} to {} on March {}, 2024. {}, the CEO of {}, approved the transfer.\n",
            orgs[i % 4],
            1000 + i * 37,
            orgs[(i + 1) % 4],
            i % 28 + 1,
            people[i % 3],
            orgs[(i + 2) % 4]
        ));
        if i % 40 == 39 {
            t.push_str(&format!("\n## Part {}\n\n", i / 40));
        }
    }
    t
}

/// Runs `tg` in `dir` with extra environment variables.
fn tg_env(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tg"));
    c.current_dir(dir).env_remove("TG_DB").env_remove("TG_STREAM_BYTES").env_remove("TG_STAGED_SUPPORTS");
    for (k, v) in env {
        c.env(k, v);
    }
    c.args(args).output().unwrap_or_else(|e| panic!("cannot run tg: {e}"))
}

/// Streams every document and writes it in batches of 300 supports.
const STREAMED: &[(&str, &str)] = &[("TG_STREAM_BYTES", "0"), ("TG_STAGED_SUPPORTS", "300")];
/// Holds every document whole and writes it in one batch.
const WHOLE: &[(&str, &str)] = &[("TG_STREAM_BYTES", "1000000000"), ("TG_STAGED_SUPPORTS", "1000000000")];

/// What a user reads of a store: its dump, its graph, search hits, verification.
fn views(d: &Path, db: &str) -> Vec<String> {
    let mut out = vec![];
    for args in [
        vec!["dump", "--db", db],
        vec!["export", "--db", db, "--format", "json"],
        vec!["search", "--db", db, "wired transfer Gamma"],
        vec!["search", "--db", db, "Maria Garcia CEO"],
        vec!["verify", "--db", db],
    ] {
        let o = tg_env(d, &[], &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
        out.push(stdout(&o));
    }
    // The search index itself, unit by unit, and its totals.
    let store = Store::open_existing(&d.join(db)).unwrap_or_else(|e| panic!("{e}"));
    out.push(format!("{:?} {:?}", store.search_totals().unwrap_or_default(), store.all_units().unwrap_or_default()));
    out
}

fn build(d: &Path, env: &[(&str, &str)], db: &str) -> String {
    let o = tg_env(d, env, &["build", "case", "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    stdout(&o).lines().next().unwrap_or_default().to_string()
}

#[test]
fn a_streamed_build_equals_a_whole_build() {
    let d = common::scratch("memory", "streamed");
    let case = d.join("case");
    write(&case, "wires.tsv", &wires(700, 0));
    write(&case, "dense.md", &dense(300));
    write(&case, "memo.txt", "Acme Corp wired $2,000,000 to Beta Ltd.\n\nBeta Ltd is a subsidiary of Gamma Holdings.\n");
    assert_eq!(build(&d, STREAMED, "streamed"), "3 added, 0 changed, 0 unchanged, 0 removed, 0 skipped; store streamed");
    build(&d, WHOLE, "whole");
    let whole = views(&d, "whole");
    assert!(whole[0].matches("\"TRANSFERRED\"").count() >= 700, "every row is a claim");
    assert!(whole[0].contains("fact field(\"wires.tsv\", 700, \"memo\", \"invoice 10699 for services\") STRUCTURAL"), "the last row's fields are stored");
    assert_eq!(views(&d, "streamed"), whole);
    // Streaming is deterministic: a second streamed build of the same corpus is the same.
    build(&d, STREAMED, "again");
    assert_eq!(views(&d, "again"), whole);
    // A changed table and a changed text, re-stored streamed (the old version's supports
    // and search units out first), equal a fresh whole build of the new corpus.
    write(&case, "wires.tsv", &wires(650, 3));
    write(&case, "dense.md", &dense(280));
    assert_eq!(build(&d, STREAMED, "streamed"), "0 added, 2 changed, 1 unchanged, 0 removed, 0 skipped; store streamed");
    build(&d, WHOLE, "fresh");
    let fresh = views(&d, "fresh");
    assert_ne!(fresh, whole);
    assert_eq!(views(&d, "streamed"), fresh);
    // And a whole rebuild of a streamed store's changed document matches too.
    write(&case, "wires.tsv", &wires(700, 0));
    write(&case, "dense.md", &dense(300));
    build(&d, WHOLE, "streamed");
    assert_eq!(views(&d, "streamed"), whole);
}

/// The enrichment `tg build` gives ingest: claims a block at a time.
fn enrich(id: &str, doc: &textgraph::text::document::Extracted, emit: &mut dyn FnMut(PackedFacts, Option<usize>) -> Result<(), StoreError>) -> Result<Vec<String>, StoreError> {
    textgraph::extract::each_block_facts(id, doc, textgraph::extract::vocab::Vocabulary::builtin(), emit)
}

/// A fact source that counts how often the store asks for its facts, and the marks it
/// gives.
struct Counted<'a>(&'a dyn FactSource, std::cell::Cell<usize>, std::cell::Cell<usize>);

impl FactSource for Counted<'_> {
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        self.1.set(self.1.get() + 1);
        self.0.each(emit)
    }

    fn each_piece(&self, emit: &mut dyn FnMut(Piece) -> Result<(), StoreError>) -> Result<(), StoreError> {
        self.1.set(self.1.get() + 1);
        self.0.each_piece(&mut |piece| {
            if matches!(piece, Piece::Settled(_)) {
                self.2.set(self.2.get() + 1);
            }
            emit(piece)
        })
    }

    fn once(&self) -> bool {
        self.0.once()
    }
}

#[test]
fn a_large_document_keeps_nothing_until_written() {
    // 12,000 rows are more than 1 MiB of text: ingest defers the table's structural facts
    // (84,000 fields, 12,000 rows) and its claims to the write, which makes them a piece
    // (a block of rows, at most BLOCK_FIELDS cells) at a time.
    let text = wires(12_000, 0);
    assert!(text.len() >= textgraph::ingest::limits::STREAM_BYTES);
    let mut out: Extractions = vec![];
    extract_tree("wires.tsv", "wires.tsv", text.clone().into_bytes(), 0, None, &enrich, &mut out);
    let Some(Ok(ready)) = out.pop() else { panic!("the table is extracted") };
    assert_eq!(ready.deferred.as_deref(), Some(&[][..]), "structural facts are deferred");
    assert!(ready.facts.is_empty(), "no fact is held: {}", ready.facts.len());
    // The pieces: structural facts at most PIECE at a time, then the claims.
    let source = Streamed::new(&ready, &enrich);
    assert!(source.once());
    let (mut largest, mut structural, mut all) = (0usize, 0usize, Vec::<CitedFact>::new());
    source
        .each(&mut |piece| {
            if piece.first().is_some_and(|f| f.tag == textgraph::store::Tag::Structural) {
                largest = largest.max(piece.len());
                structural += piece.len();
            }
            all.extend_from_slice(piece);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(largest <= facts::PIECE, "{largest}");
    assert_eq!(structural, facts::facts("wires.tsv", &ready.doc, &[]).len());
    assert!(structural > 96_000, "{structural}");
    assert_eq!(all.iter().filter(|f| f.rel == "claim").count(), 12_000, "every row is a claim, in every block");
    // The claims are those of the document extracted at once into packed facts.
    let (whole_claims, _) = textgraph::extract::document_facts("wires.tsv", &ready.doc, textgraph::extract::vocab::Vocabulary::builtin());
    assert_eq!(all[structural..], whole_claims.to_vec()[..]);
    // Stored from the pieces (staged, the source read once), the document equals the one
    // stored from the collected facts in one batch.
    let d = common::scratch("memory", "pieces");
    let doc = NewDocument { id: "wires.tsv", format: ready.doc.format, source: SourceDigest::of(text.as_bytes()), text: &ready.doc.text };
    let streamed = Store::open(&d.join("streamed")).unwrap_or_else(|e| panic!("{e}"));
    textgraph::rules::schema::declare_schema(&streamed).unwrap_or_else(|e| panic!("{e}"));
    let counted = Counted(&source, std::cell::Cell::new(0), std::cell::Cell::new(0));
    assert_eq!(streamed.put_document_from(&doc, &counted).unwrap_or_else(|e| panic!("{e}")), all.len());
    assert_eq!(counted.1.get(), 1, "a source made as it is read is read once");
    // Blocks of at most BLOCK_FIELDS cells (whole rows of 7): the chunks each settles have
    // their units written before the next, one mark between two blocks.
    let blocks = 12_000usize.div_ceil(textgraph::extract::BLOCK_FIELDS / 7);
    assert!(blocks >= 2, "{blocks}");
    assert_eq!(counted.2.get(), blocks - 1, "one mark between two blocks");
    let mut whole = Store::open(&d.join("whole")).unwrap_or_else(|e| panic!("{e}"));
    whole.set_batch_supports(usize::MAX);
    textgraph::rules::schema::declare_schema(&whole).unwrap_or_else(|e| panic!("{e}"));
    whole.put_document(&doc, &all).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(streamed.dump().unwrap_or_default(), whole.dump().unwrap_or_default());
    assert_eq!(streamed.all_units().unwrap_or_default(), whole.all_units().unwrap_or_default());
    assert_eq!(streamed.search_totals().unwrap_or_default(), whole.search_totals().unwrap_or_default());
    assert!(streamed.pending_documents().unwrap_or_default().is_empty());
    let v = streamed.verify().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.verified, v.checked);
}

/// A source read once whose second piece cites past the end of the text.
struct BadSecondPiece(Vec<CitedFact>);

impl FactSource for BadSecondPiece {
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        emit(&self.0)?;
        let mut bad = self.0[0].clone();
        bad.spans = vec![(0, 1_000_000)];
        emit(&[bad])
    }

    fn once(&self) -> bool {
        true
    }
}

/// A source read once that marks its facts settled and then gives a mention before the
/// mark (a broken promise: a chunk's unit would miss that entity).
struct MentionAfterMark(Vec<CitedFact>);

impl FactSource for MentionAfterMark {
    fn each(&self, emit: &mut dyn FnMut(&[CitedFact]) -> Result<(), StoreError>) -> Result<(), StoreError> {
        emit(&self.0)
    }

    fn each_piece(&self, emit: &mut dyn FnMut(Piece) -> Result<(), StoreError>) -> Result<(), StoreError> {
        let (mentions, rest): (Vec<CitedFact>, Vec<CitedFact>) = self.0.iter().cloned().partition(|f| f.rel == "mention");
        emit(Piece::Facts(&rest))?;
        emit(Piece::Settled(u64::MAX))?;
        emit(Piece::Facts(&mentions))
    }

    fn once(&self) -> bool {
        true
    }
}

#[test]
fn a_source_read_once_that_fails_its_checks_leaves_nothing() {
    let text = dense(200);
    let mut out: Extractions = vec![];
    extract_tree("dense.md", "dense.md", text.clone().into_bytes(), 0, None, &enrich, &mut out);
    let Some(Ok(ready)) = out.pop() else { panic!("the text is extracted") };
    let mut good = vec![];
    ready
        .each(&mut |piece| {
            good.extend_from_slice(piece);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(good.len() > 1000, "{}", good.len());
    let d = common::scratch("memory", "bad-piece");
    let store = Store::open(&d.join("db")).unwrap_or_else(|e| panic!("{e}"));
    textgraph::rules::schema::declare_schema(&store).unwrap_or_else(|e| panic!("{e}"));
    let doc = NewDocument { id: "dense.md", format: ready.doc.format, source: SourceDigest::of(text.as_bytes()), text: &ready.doc.text };
    // Written once, then again from a source that fails half-way: the error names the
    // span, and neither the old version nor the half-written new one stays.
    store.put_document_from(&doc, &good).unwrap_or_else(|e| panic!("{e}"));
    assert!(store.document("dense.md").unwrap_or_default().is_some());
    let err = store.put_document_from(&doc, &BadSecondPiece(good.clone())).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("dense.md") && err.contains("0-1000000"), "{err}");
    assert!(store.document("dense.md").unwrap_or_default().is_none());
    assert!(store.pending_documents().unwrap_or_default().is_empty());
    let empty = Store::open(&d.join("empty")).unwrap_or_else(|e| panic!("{e}"));
    textgraph::rules::schema::declare_schema(&empty).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.dump().unwrap_or_default(), empty.dump().unwrap_or_default());
    assert_eq!(store.search_totals().unwrap_or_default(), (0, 0));
    // A source that breaks its settled mark is refused the same way, naming what came late.
    let err = store.put_document_from(&doc, &MentionAfterMark(good.clone())).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("a mention given after the source said it was settled"), "{err}");
    assert!(store.document("dense.md").unwrap_or_default().is_none());
    assert_eq!(store.dump().unwrap_or_default(), empty.dump().unwrap_or_default());
}
