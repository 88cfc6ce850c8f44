//! Claims from outside extractors (issue 9), through the real `tg` binary over a copy of
//! `fixtures/case-files` after `tg build`: every refusal and warning with its exact
//! message, verbatim quotes, occurrences, widening, JSONL import, the audit round trip,
//! and GENERATED claims surviving rebuilds (re-cited, stale, orphaned, back again).

mod common;

use common::copy_dir;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{root, scratch, stderr, stdout, tg};

const MEMO: &str = "wire-transfer-memo.txt";

/// A scratch folder holding `corpus/` (a copy of the case files) built into `db`.
fn built(name: &str) -> PathBuf {
    let d = scratch("claims", name);
    copy_dir(&root().join("fixtures/case-files"), &d.join("corpus"));
    let o = tg(&d, &["build", "corpus", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    d
}

/// `tg claim record --db db` with the memo as document and the given flags.
fn record(d: &Path, flags: &[&str]) -> Output {
    let mut args = vec!["claim", "record", "--db", "db", "--doc", MEMO];
    args.extend_from_slice(flags);
    tg(d, &args)
}

/// A refusal in text form: exit 2, nothing on stdout, `tg: refused (CODE): MESSAGE`.
fn refused(o: &Output, code: &str, message: &str) {
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(o), stderr(o));
    assert_eq!(stdout(o), "");
    assert_eq!(stderr(o), format!("tg: refused ({code}): {message}\n"));
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

const GAMMA_QUOTE: &str = "Gamma Consulting LLC is named as the introducer in the board minutes";

fn gamma(d: &Path) -> Output {
    record(d, &["--subject", "Gamma Consulting LLC", "--relation", "ASSOCIATED_WITH", "--object", "Acme Trading Ltd", "--quote", GAMMA_QUOTE, "--modality", "assertion"])
}

fn dump(d: &Path) -> String {
    stdout(&tg(d, &["dump", "--db", "db"]))
}

#[test]
fn a_claim_is_recorded_generated_between_extracted_entities() {
    let d = built("record");
    let o = gamma(&d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("recorded gen-"), "{out}");
    assert!(out.ends_with(" [wire-transfer-memo.txt:561-629] ASSOCIATED_WITH(Organization:gamma consulting llc, Organization:acme trading ltd) assertion GENERATED\n"), "{out}");
    assert_eq!(stderr(&o), "");
    let id = out.split_whitespace().nth(1).unwrap_or_default().to_string();
    let dump = dump(&d);
    let line = format!(
        "fact claim(\"{id}\", \"wire-transfer-memo.txt\", \"Organization:gamma consulting llc\", \"ASSOCIATED_WITH\", \"Organization:acme trading ltd\", \"assertion\", \"positive\", \"document\") GENERATED supports=1\n  [wire-transfer-memo.txt:561-629] GENERATED"
    );
    assert!(dump.contains(&line), "{dump}");
    assert!(dump.contains(&format!("fact claim_generated(\"{id}\", \"cli\") GENERATED supports=1")));
    // The entities were extracted: they stay EXTRACTED.
    assert!(dump.contains("fact entity(\"Organization:gamma consulting llc\", \"Organization\") EXTRACTED"));
    assert!(dump.contains("fact entity(\"Organization:acme trading ltd\", \"Organization\") EXTRACTED"));
    // Recording it again writes nothing.
    let again = gamma(&d);
    assert_eq!(stdout(&again), out.replacen("recorded", "already recorded", 1));
    assert_eq!(dump, self::dump(&d));
    // The citation verifies.
    let v = stdout(&tg(&d, &["verify", "--db", "db"]));
    assert!(!v.contains("FAILED"), "{v}");
}

#[test]
fn a_quote_differing_by_one_character_is_refused() {
    let d = built("one-char");
    let bad = GAMMA_QUOTE.replace("minutes", "minutez");
    let o = record(&d, &["--subject", "Gamma Consulting LLC", "--relation", "ASSOCIATED_WITH", "--object", "Acme Trading Ltd", "--quote", &bad, "--modality", "assertion"]);
    refused(&o, "quote_not_found", "the quote does not occur verbatim in wire-transfer-memo.txt (its longest prefix that does is 67 of 68 bytes)");
    // Whitespace is not folded either.
    let spaced = GAMMA_QUOTE.replace("is named", "is  named");
    let o = record(
        &d,
        &["--subject", "Gamma Consulting LLC", "--relation", "ASSOCIATED_WITH", "--object", "Acme Trading Ltd", "--quote", &spaced, "--modality", "assertion", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        json(&o),
        serde_json::json!({"ok": false, "error": "quote_not_found", "message": "the quote does not occur verbatim in wire-transfer-memo.txt (its longest prefix that does is 24 of 69 bytes)"})
    );
    assert!(!dump(&d).contains("GENERATED"));
}

#[test]
fn several_occurrences_need_a_choice() {
    let d = built("occurrences");
    let base = ["--subject", "Acme Trading Ltd", "--relation", "TRANSFERRED", "--object", "Beta Holdings SA", "--quote", "Beta Holdings SA", "--modality", "assertion"];
    refused(
        &record(&d, &base),
        "quote_ambiguous",
        "the quote occurs 3 times in wire-transfer-memo.txt (at bytes 148, 274, 481); choose one with occurrence (1 to 3) or near (a byte offset)",
    );
    refused(&record(&d, &[&base[..], &["--occurrence", "4"]].concat()), "bad_occurrence", "occurrence 4 is out of range: the quote occurs 3 time(s) in wire-transfer-memo.txt");
    let o = record(&d, &[&base[..], &["--occurrence", "2", "--format", "json"]].concat());
    assert_eq!((json(&o)["start"].clone(), json(&o)["end"].clone()), (serde_json::json!(274), serde_json::json!(290)));
    let o = record(&d, &[&base[..], &["--near", "470", "--format", "json"]].concat());
    assert_eq!(json(&o)["start"], serde_json::json!(481));
}

#[test]
fn every_refusal_has_its_code_and_message() {
    let d = built("refusals");
    let q = ["--quote", GAMMA_QUOTE];
    let with = |extra: &[&str]| record(&d, &[&q[..], extra].concat());
    let gamma_acme = ["--subject", "Gamma Consulting LLC", "--object", "Acme Trading Ltd"];
    refused(
        &with(&[&gamma_acme[..], &["--relation", "ASSOCIATED_WITH"]].concat()),
        "missing_modality",
        "modality is required: one of assertion, reported, hedged, denied, undecided, question",
    );
    refused(
        &with(&[&gamma_acme[..], &["--relation", "ASSOCIATED_WITH", "--modality", "probable"]].concat()),
        "unknown_modality",
        "modality \"probable\" is not one of assertion, reported, hedged, denied, undecided, question",
    );
    refused(
        &with(&[&gamma_acme[..], &["--relation", "ASSOCIATED_WITH", "--modality", "assertion", "--polarity", "maybe"]].concat()),
        "bad_polarity",
        "polarity \"maybe\" is not positive or negative",
    );
    refused(
        &with(&[&gamma_acme[..], &["--relation", "LAUNDERED", "--modality", "assertion"]].concat()),
        "unknown_relation",
        "relation LAUNDERED is not in the vocabulary; allowed relations: ACQUIRED, ALIAS_OF, ASSOCIATED_WITH, BENEFICIAL_OWNER_OF, CHARGED, CONTROLS, CO_DEFENDANT, DEFRAUDED, DESIGNATED, DIRECTOR_OF, EMPLOYED_BY, HOLDS_ACCOUNT, MISAPPROPRIATED_FROM, OFFICER_OF, ORDERED_TO_PAY, OWNS, PAID, RECEIVED_FROM, REGISTERED_AT, SETTLED_WITH, SIGNED, SUBSIDIARY_OF, TRANSFERRED",
    );
    refused(
        &with(&[&gamma_acme[..], &["--relation", "DIRECTOR_OF", "--modality", "assertion"]].concat()),
        "wrong_type",
        "DIRECTOR_OF does not allow a subject of type Organization; allowed subject types: Person",
    );
    refused(
        &with(&[&gamma_acme[..], &["--relation", "TRANSFERRED", "--modality", "assertion", "--attr", "colour=red"]].concat()),
        "unknown_attribute",
        "TRANSFERRED has no attribute colour; its attributes: amount, currency, date, reference, from_account, to_account, total_amount, transfers",
    );
    refused(
        &with(&[&gamma_acme[..], &["--relation", "TRANSFERRED", "--modality", "assertion", "--attr", "amount"]].concat()),
        "bad_attribute",
        "--attr \"amount\" is not KEY=VALUE",
    );
    refused(
        &with(&["--subject", "Zorblax", "--object", "Acme Trading Ltd", "--relation", "TRANSFERRED", "--modality", "assertion"]),
        "untyped_entity",
        "no entity of the store is named \"Zorblax\" and its type cannot be told from the name; give subject_type (one of: Account, Date, Email, Location, Money, Organization, Person, Phone, Reference)",
    );
    refused(
        &with(&["--subject", "Zorblax", "--subject-type", "Company", "--object", "Acme Trading Ltd", "--relation", "TRANSFERRED", "--modality", "assertion"]),
        "bad_type",
        "subject type Company is not in the vocabulary; types: Account, Date, Email, Location, Money, Organization, Person, Phone, Reference",
    );
    refused(
        &with(&[&gamma_acme[..], &["--relation", "ASSOCIATED_WITH", "--modality", "reported", "--asserter", "Location:nauru"]].concat()),
        "wrong_type",
        "an asserter must be a Person or an Organization, not a Location",
    );
    refused(&record(&d, &[&gamma_acme[..], &["--relation", "ASSOCIATED_WITH", "--modality", "assertion", "--quote", ""]].concat()), "empty_quote", "the quote is empty");
    let o =
        tg(&d, &["claim", "record", "--db", "db", "--doc", "nope.txt", "--subject", "A Ltd", "--relation", "OWNS", "--object", "B Ltd", "--quote", "x", "--modality", "assertion"]);
    refused(&o, "document_not_found", "document \"nope.txt\" is not in the store");
    // A name two entities answer to: "Acme" is the memo's defined term for Acme Trading
    // Ltd, and an outside claim made a Person:acme.
    let o = with(&["--subject", "Acme", "--subject-type", "Person", "--object", "Gamma Consulting LLC", "--relation", "ASSOCIATED_WITH", "--modality", "assertion"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("new entities (GENERATED): Person:acme\n"));
    assert!(dump(&d).contains("fact entity(\"Person:acme\", \"Person\") GENERATED"));
    refused(
        &with(&["--subject", "Acme", "--object", "Gamma Consulting LLC", "--relation", "TRANSFERRED", "--modality", "assertion"]),
        "ambiguous_entity",
        "subject \"Acme\" names several entities: Organization:acme trading ltd, Person:acme; give subject_type or the entity key",
    );
    // Nothing refused was written.
    assert_eq!(dump(&d).matches("fact claim_generated(").count(), 1);
}

#[test]
fn reported_claims_warn_when_the_asserter_is_outside_the_quote() {
    let d = built("warnings");
    let quote = "Acme Trading Ltd (\"Acme\") sent four wires";
    let o = record(&d, &["--subject", "Acme", "--relation", "TRANSFERRED", "--object", "Beta", "--quote", quote, "--modality", "reported", "--asserter", "Dana Whitfield"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let id = stdout(&o).split_whitespace().nth(1).unwrap_or_default().to_string();
    // Dana Whitfield signs the memo ("From: Dana Whitfield, AML Investigations"): she is an
    // entity of the case already, so no GENERATED one is made for her.
    assert!(stdout(&o).contains("TRANSFERRED(Organization:acme trading ltd, Organization:beta holdings sa) reported GENERATED\n"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("new entities"), "{}", stdout(&o));
    let msg = "the asserter \"Dana Whitfield\" is not named inside the quote; attribution outside the quoted span is the commonest extraction error";
    assert_eq!(stderr(&o), format!("warning: {id} (asserter_outside_quote): {msg}\n"));
    let dump = dump(&d);
    assert!(dump.contains(&format!("fact claim_warning(\"{id}\", \"asserter_outside_quote\", \"{}\") GENERATED", msg.replace('"', "\\\""))), "{dump}");
    assert!(dump.contains("fact entity(\"Person:dana whitfield\", \"Person\") EXTRACTED"), "{dump}");
    // Without an asserter.
    let o = record(&d, &["--subject", "Acme", "--relation", "TRANSFERRED", "--object", "Beta", "--quote", quote, "--modality", "reported", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        json(&o)["warnings"],
        serde_json::json!([{"code": "reported_without_asserter", "message": "a reported claim names no asserter; say who the quote attributes it to"}])
    );
    // An asserter named inside the quote: no warning.
    let o = tg(
        &d,
        &[
            "claim",
            "record",
            "--db",
            "db",
            "--doc",
            "chat/transcript.txt",
            "--subject",
            "Marek Novak",
            "--relation",
            "ASSOCIATED_WITH",
            "--object",
            "Lena Ortiz",
            "--quote",
            "Marek Novak: Split it. Four wires, each under 500k.",
            "--modality",
            "reported",
            "--asserter",
            "Marek Novak",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn widen_returns_the_smallest_span_within_budget_or_says_none_exists() {
    let d = built("widen");
    let base = ["claim", "widen", "--db", "db", "--doc", MEMO, "--quote", "a company registered in Nauru", "--must-include", "Beta Holdings SA"];
    let o = tg(&d, &base);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "[wire-transfer-memo.txt:274-330] 56 bytes\nBeta Holdings SA (\"Beta\"), a company registered in Nauru\n");
    let o = tg(&d, &[&base[..], &["--must-include", "Acme Trading Ltd", "--format", "json"]].concat());
    assert_eq!(
        json(&o)["quote"],
        serde_json::json!("Acme Trading Ltd (\"Acme\") sent four wires totalling USD 1,940,000 to Beta Holdings SA (\"Beta\"), a company registered in Nauru")
    );
    refused(
        &tg(&d, &[&base[..], &["--budget", "30"]].concat()),
        "no_span_within_budget",
        "no span of at most 30 bytes contains the quote and \"Beta Holdings SA\"; the smallest is 56 bytes (274-330)",
    );
    refused(&tg(&d, &[&base[..], &["--must-include", "Omega Ltd"]].concat()), "mention_not_found", "\"Omega Ltd\" does not occur verbatim in wire-transfer-memo.txt");
}

#[test]
fn import_records_good_lines_and_reports_bad_ones_by_line() {
    let d = built("import");
    let good = serde_json::json!({"doc": MEMO, "subject": "Gamma Consulting LLC", "relation": "ASSOCIATED_WITH", "object": "Acme Trading Ltd", "quote": GAMMA_QUOTE, "modality": "assertion", "source": "model-x"});
    let good2 = serde_json::json!({"doc": "chat/transcript.txt", "subject": "Marek Novak", "subject_type": "Person", "relation": "ASSOCIATED_WITH", "object": "Lena Ortiz", "object_type": "Person", "quote": "Lena Ortiz: Yes, last wire WT-1004 sent.", "modality": "assertion"});
    let no_quote = serde_json::json!({"doc": MEMO, "subject": "Gamma Consulting LLC", "relation": "ASSOCIATED_WITH", "object": "Acme Trading Ltd", "modality": "assertion"});
    let bad_quote = serde_json::json!({"doc": MEMO, "subject": "Gamma Consulting LLC", "relation": "ASSOCIATED_WITH", "object": "Acme Trading Ltd", "quote": "Gamma Consulting Ltd", "modality": "assertion"});
    let text = format!("{good}\n\n{{not json\n{no_quote}\n{bad_quote}\n{good2}\n");
    std::fs::write(d.join("claims.jsonl"), text).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["claim", "import", "claims.jsonl", "--db", "db"]);
    assert_eq!(o.status.code(), Some(1), "some lines refused, others kept");
    let out = stdout(&o);
    assert!(out.starts_with("line 1: recorded gen-"), "{out}");
    assert!(out.contains("\nline 6: recorded gen-"), "{out}");
    assert!(out.ends_with("2 recorded, 3 refused\n"), "{out}");
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].starts_with("line 3: refused (bad_json): not a claim object: key must be a string at line 1 column 2"), "{err}");
    assert_eq!(lines[1], "line 4: refused (missing_field): field \"quote\" is required");
    assert_eq!(lines[2], "line 5: refused (quote_not_found): the quote does not occur verbatim in wire-transfer-memo.txt (its longest prefix that does is 18 of 20 bytes)");
    let dump = dump(&d);
    assert_eq!(dump.matches("fact claim_generated(").count(), 2);
    assert!(dump.contains("\"model-x\") GENERATED"));
    assert!(dump.contains("\"import\") GENERATED"));
    // JSON: one object with a result per line.
    let o = tg(&d, &["claim", "import", "claims.jsonl", "--db", "db", "--format", "json"]);
    let j = json(&o);
    assert_eq!((j["ok"].clone(), j["recorded"].clone(), j["refused"].clone()), (serde_json::json!(false), serde_json::json!(2), serde_json::json!(3)));
    assert_eq!(j["results"][0]["already_recorded"], serde_json::json!(true));
    assert_eq!(j["results"][2], serde_json::json!({"line": 4, "ok": false, "error": "missing_field", "message": "field \"quote\" is required"}));
    // What `tg vocab prompt` asks an outside extractor for: no "doc" (given by --doc),
    // attributes as numbers.
    let line = serde_json::json!({
        "subject": "Acme Trading Ltd", "subject_type": "Organization", "relation": "TRANSFERRED", "object": "Beta Holdings SA",
        "object_type": "Organization", "modality": "assertion", "polarity": "positive", "asserter": "document",
        "quote": "Acme Trading Ltd (\"Acme\") sent four wires totalling USD 1,940,000 to Beta Holdings SA", "attributes": {"amount": 1940000, "currency": "USD"}
    });
    std::fs::write(d.join("model.jsonl"), format!("{line}\n")).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["claim", "import", "model.jsonl", "--db", "db", "--doc", MEMO, "--source", "model-z", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let id = json(&o)["results"][0]["id"].as_str().unwrap_or_default().to_string();
    let dump = self::dump(&d);
    assert!(dump.contains(&format!("fact claim_attr(\"{id}\", \"amount\", \"1940000\") GENERATED")), "{dump}");
    assert!(dump.contains(&format!("fact claim_generated(\"{id}\", \"model-z\") GENERATED")));
    // An unknown field is refused rather than ignored.
    std::fs::write(d.join("extra.jsonl"), "{\"doc\": \"x\", \"confidence\": 0.9}\n").unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["claim", "import", "extra.jsonl", "--db", "db"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("line 1: refused (bad_json): not a claim object: unknown field `confidence`, expected one of"), "{}", stderr(&o));
}

fn emit(d: &Path, sample: &str, seed: &str, out: &str) -> serde_json::Value {
    // --force: the test writes the same batch file more than once.
    let o = tg(d, &["audit", "emit", "--db", "db", "--sample", sample, "--seed", seed, "-o", out, "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&std::fs::read_to_string(d.join(out)).unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn audit_round_trip_and_sample_determinism() {
    let d = built("audit");
    assert_eq!(gamma(&d).status.code(), Some(0));
    // Every claim of the store, extracted and outside, is in the population.
    let claims = dump(&d).matches("fact claim(").count();
    assert!(claims > 6);
    let o = tg(&d, &["audit", "emit", "--db", "db", "--sample", "6", "--seed", "7", "-o", "b1.json"]);
    assert_eq!(stdout(&o), format!("6 of {claims} claims written to b1.json (seed 7)\n"));
    let b1 = emit(&d, "6", "7", "b1.json");
    let b2 = emit(&d, "6", "7", "b2.json");
    assert_eq!(std::fs::read(d.join("b1.json")).ok(), std::fs::read(d.join("b2.json")).ok(), "same seed, same batch");
    let b3 = emit(&d, "6", "8", "b3.json");
    let items = |b: &serde_json::Value| b["items"].as_array().cloned().unwrap_or_default().iter().map(|i| i["item"].as_str().unwrap_or_default().to_string()).collect::<Vec<_>>();
    assert_ne!(items(&b1), items(&b3), "another seed, another sample");
    assert_eq!(items(&emit(&d, "3", "7", "b4.json")), items(&b1)[..3], "a smaller sample of a seed is a prefix");
    assert_eq!(items(&b2).len(), 6);
    // Each item: the quote alone and the claim, no method, no claim id.
    let first = &b1["items"][0];
    let keys: Vec<&String> = first.as_object().map(|m| m.keys().collect()).unwrap_or_default();
    assert_eq!(keys, ["claim", "item", "prompt", "quote"]);
    let text = std::fs::read_to_string(d.join("b1.json")).unwrap_or_default();
    assert!(!text.contains("gen-") && !text.contains("EXTRACTED") && !text.contains("GENERATED"), "the method is not shown");
    assert!(b1["instruction"].as_str().unwrap_or_default().contains("Try to refute the claim"));
    // Verdicts: 3 supported, 2 refuted, 1 unsupported, and two bad entries.
    let all = emit(&d, "100000", "7", "all.json");
    assert_eq!(all["items"].as_array().map(Vec::len), Some(claims));
    let o = tg(&d, &["audit", "emit", "--db", "db", "--generated-only", "-o", "gen.json"]);
    assert_eq!(stdout(&o), "1 of 1 claims written to gen.json (seed 0)\n");
    let verdicts: Vec<serde_json::Value> = items(&b1)
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let verdict = ["supported", "supported", "refuted", "supported", "refuted", "unsupported"][i];
            serde_json::json!({"item": it, "verdict": verdict, "reason": format!("reason {i}")})
        })
        .chain([serde_json::json!({"item": "0000000000000000", "verdict": "supported", "reason": ""}), serde_json::json!({"item": items(&b1)[0], "verdict": "true", "reason": ""})])
        .collect();
    std::fs::write(d.join("verdicts.json"), serde_json::json!({"verdicts": verdicts}).to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["audit", "ingest", "verdicts.json", "--db", "db"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "3 supported · 2 refuted · 1 unsupported · 2/6 refuted = 33.3%\n");
    assert_eq!(
        stderr(&o),
        "verdict 7: refused (unknown_item): item \"0000000000000000\" is not a claim of this store\nverdict 8: refused (bad_verdict): verdict \"true\" is not one of supported, refuted, unsupported\n"
    );
    let dump = dump(&d);
    assert_eq!(dump.matches("fact claim_audit(").count(), 6);
    assert!(dump.contains("\"refuted\", \"reason 2\") GENERATED supports=1"), "{dump}");
    // Refuted claims are not deleted.
    assert_eq!(dump.matches("fact claim(").count(), claims);
    // A verdict replaces the earlier one on the same claim.
    let again = serde_json::json!([{"item": items(&b1)[2], "verdict": "supported", "reason": "on second thought"}]);
    std::fs::write(d.join("v2.json"), again.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["audit", "ingest", "v2.json", "--db", "db"]);
    assert_eq!(stdout(&o), "1 supported · 0 refuted · 0/1 refuted = 0.0%\n");
    let dump = self::dump(&d);
    assert_eq!(dump.matches("fact claim_audit(").count(), 6);
    assert!(!dump.contains("\"reason 2\""));
    // Audit status is a fact rules can filter on.
    std::fs::write(
        d.join("trusted.dl"),
        ".decl claim(id:symbol, doc:symbol, s:symbol, r:symbol, o:symbol, m:symbol, p:symbol, a:symbol)\n\
         .decl claim_audit(id:symbol, verdict:symbol, reason:symbol)\n\
         .decl refuted_claim(id:symbol)\n\
         refuted_claim(id) :- claim(id, _, _, _, _, _, _, _), claim_audit(id, \"refuted\", _).\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["derive", "trusted.dl", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(self::dump(&d).matches("derived refuted_claim(").count(), 1, "two refuted, one since judged supported");
    // ... and GQL can filter on it.
    let o = tg(&d, &["gql", "MATCH ()-[c]->() WHERE c.audit = 'refuted' RETURN c.id", "--db", "db", "--format", "tsv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2, "a header and the refuted claim: {}", stdout(&o));
    let o = tg(&d, &["gql", "MATCH ()-[c]->() WHERE c.tag = 'GENERATED' RETURN c.source, c.audit", "--db", "db", "--format", "tsv"]);
    assert!(stdout(&o).lines().nth(1).is_some_and(|l| l.starts_with("cli")), "{}", stdout(&o));
    // Not JSON at all.
    std::fs::write(d.join("bad.json"), "verdicts: none").unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["audit", "ingest", "bad.json", "--db", "db", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(json(&o)["error"], serde_json::json!("bad_json"));
}

#[test]
fn generated_claims_survive_rebuilds_and_are_recited_or_kept_stale() {
    let d = built("rebuild");
    let o = gamma(&d);
    assert_eq!(o.status.code(), Some(0));
    let id = stdout(&o).split_whitespace().nth(1).unwrap_or_default().to_string();
    // Audit it, so the verdict must survive too.
    let b = emit(&d, "100000", "1", "b.json");
    let item = b["items"].as_array().cloned().unwrap_or_default().into_iter().find(|i| i["quote"] == GAMMA_QUOTE).map(|i| i["item"].clone()).unwrap_or_default();
    std::fs::write(d.join("v.json"), serde_json::json!([{"item": item, "verdict": "supported", "reason": "stated"}]).to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tg(&d, &["audit", "ingest", "v.json", "--db", "db"]).status.code(), Some(0));
    let before = dump(&d);
    // An unchanged corpus: byte-identical store.
    let o = tg(&d, &["build", "corpus", "--db", "db"]);
    assert!(stdout(&o).starts_with("0 added, 0 changed, "), "{}", stdout(&o));
    assert_eq!(before, dump(&d));
    // The memo changes elsewhere: the claim and its verdict are re-cited at the new span.
    let memo = d.join("corpus").join(MEMO);
    let text = std::fs::read_to_string(&memo).unwrap_or_default();
    std::fs::write(&memo, text.replacen("MEMORANDUM", "MEMORANDUM (revised)\n\nAn inserted paragraph.", 1)).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["build", "corpus", "--db", "db"]);
    assert_eq!(stderr(&o), "");
    let after = dump(&d);
    let shift = "MEMORANDUM (revised)\n\nAn inserted paragraph.".len() - "MEMORANDUM".len();
    let (a, b) = (561 + shift, 629 + shift);
    assert!(after.contains(&format!("fact claim(\"{id}\", \"wire-transfer-memo.txt\", \"Organization:gamma consulting llc\", \"ASSOCIATED_WITH\", \"Organization:acme trading ltd\", \"assertion\", \"positive\", \"document\") GENERATED supports=1\n  [wire-transfer-memo.txt:{a}-{b}] GENERATED")), "{after}");
    assert!(after.contains(&format!("fact claim_audit(\"{id}\", \"supported\", \"stated\") GENERATED supports=1\n  [wire-transfer-memo.txt:{a}-{b}] GENERATED")));
    assert_eq!(
        stdout(&tg(&d, &["claim", "list", "--db", "db"])),
        format!(
            "{id} [wire-transfer-memo.txt] ASSOCIATED_WITH(Organization:gamma consulting llc, Organization:acme trading ltd) assertion cited {a}-{b} audit=supported\n1 outside claim(s)\n"
        )
    );
    assert!(!stdout(&tg(&d, &["verify", "--db", "db"])).contains("FAILED"));
    // Proposing it again finds it, at its new span.
    assert!(stdout(&gamma(&d)).starts_with(&format!("already recorded {id} [wire-transfer-memo.txt:{a}-{b}]")));
    // The quote is edited away: the claim is kept, stale, with a warning.
    let text = std::fs::read_to_string(&memo).unwrap_or_default();
    std::fs::write(&memo, text.replace("is named as the introducer", "was named as the introducer")).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["build", "corpus", "--db", "db"]);
    assert_eq!(
        stderr(&o),
        format!(
            "warning: wire-transfer-memo.txt: outside claim {id} is stale: its quote no longer occurs in the text; kept in the ledger as claim_stale (quote \"Gamma Consulting LLC is named as the introducer in the board…\")\n"
        )
    );
    let stale = dump(&d);
    assert!(!stale.contains(&format!("fact claim(\"{id}\"")));
    assert!(stale.contains(&format!("fact claim_stale(\"{id}\", \"wire-transfer-memo.txt\", \"{GAMMA_QUOTE}\") GENERATED supports=1\n  [wire-transfer-memo.txt:0-0] GENERATED")));
    assert!(stdout(&tg(&d, &["claim", "list", "--db", "db"])).contains(" assertion stale audit=supported\n"));
    // The file goes: the ledger keeps the claim (orphaned), with a warning.
    let saved = std::fs::read_to_string(&memo).unwrap_or_default();
    std::fs::remove_file(&memo).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["build", "corpus", "--db", "db"]);
    assert_eq!(stderr(&o), "warning: wire-transfer-memo.txt: document removed; its 1 outside claim(s) stay in the ledger without facts until it returns\n");
    assert!(stdout(&tg(&d, &["claim", "list", "--db", "db"])).contains(" assertion orphaned (document gone) audit=supported\n"));
    // It comes back with the quote: cited again, verdict and all.
    std::fs::write(&memo, saved.replace("was named as the introducer", "is named as the introducer")).unwrap_or_else(|e| panic!("{e}"));
    tg(&d, &["build", "corpus", "--db", "db"]);
    let back = dump(&d);
    assert!(back.contains(&format!("fact claim(\"{id}\"")));
    assert!(back.contains(&format!("fact claim_audit(\"{id}\", \"supported\", \"stated\") GENERATED")));
    assert!(!back.contains("claim_stale(\""));
}

#[test]
fn generated_stays_generated_in_dump_and_export_even_when_extracted_too() {
    let d = built("identical");
    // The extractor found TRANSFERRED(acme, beta) in this very sentence; an outside
    // extractor proposes the same claim over the same quote.
    let quote = "Between 1 and 3 March 2024 Acme Trading Ltd (\"Acme\") sent four wires totalling USD 1,940,000 to Beta Holdings SA (\"Beta\"), a company registered in Nauru.";
    let o = record(
        &d,
        &["--subject", "Acme Trading Ltd", "--relation", "TRANSFERRED", "--object", "Beta Holdings SA", "--quote", quote, "--modality", "assertion", "--source", "model-y"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let id = stdout(&o).split_whitespace().nth(1).unwrap_or_default().to_string();
    let dump = dump(&d);
    let claims: Vec<&str> =
        dump.lines().filter(|l| l.starts_with("fact claim(") && l.contains("\"wire-transfer-memo.txt\", \"Organization:acme trading ltd\", \"TRANSFERRED\"")).collect();
    assert_eq!(claims.len(), 2, "{claims:?}");
    assert!(claims.iter().any(|l| l.contains(&id) && l.ends_with("GENERATED supports=1")));
    assert!(claims.iter().any(|l| !l.contains(&id) && l.ends_with("EXTRACTED supports=1")));
    let o = tg(&d, &["export", "--db", "db"]);
    let j = json(&o);
    let facts = j["facts"].as_array().cloned().unwrap_or_default();
    let ours: Vec<&serde_json::Value> = facts.iter().filter(|f| f["args"][0] == serde_json::json!(id)).collect();
    assert!(ours.len() >= 2, "claim and claim_generated");
    for f in ours {
        assert_eq!(f["tag"], serde_json::json!("GENERATED"), "{f}");
        assert_eq!(f["citations"][0]["tag"], serde_json::json!("GENERATED"));
        assert_eq!(f["citations"][0]["quote"], serde_json::json!(quote));
    }
    // A rebuild after the extractor changes (another vocabulary: every document is
    // extracted again) keeps it GENERATED.
    let vocab = std::fs::read_to_string(root().join("stdlib/vocab/finance.toml")).unwrap_or_default() + "\n[types.Vessel]\ndescription = \"a ship\"\n";
    std::fs::write(d.join("case.toml"), vocab).unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["build", "corpus", "--db", "db", "--vocab", "case.toml"]);
    assert!(stdout(&o).starts_with("0 added, ") && stdout(&o).contains(" changed, 0 unchanged"), "{}", stdout(&o));
    let again = self::dump(&d);
    assert!(again.lines().any(|l| l.starts_with(&format!("fact claim(\"{id}\"")) && l.ends_with("GENERATED supports=1")));
}

#[test]
fn names_resolve_through_same_as_when_the_store_derives_it() {
    let d = built("same-as");
    let base = ["--relation", "ASSOCIATED_WITH", "--object", "Gamma Consulting LLC", "--quote", GAMMA_QUOTE, "--modality", "assertion", "--format", "json"];
    // Without same_as, "Acme Corp" is a new entity (its legal form types it).
    let o = record(&d, &[&["--subject", "Acme Corp"][..], &base].concat());
    assert_eq!(json(&o)["subject"], serde_json::json!("Organization:acme corp"));
    assert_eq!(json(&o)["new_entities"], serde_json::json!(["Organization:acme corp"]));
    // Rules linking the two names (as stdlib/identity.dl's same_as would).
    std::fs::write(
        d.join("identity.dl"),
        ".decl entity(e:symbol, t:symbol)\n.decl same_as(a:symbol, b:symbol)\nsame_as(\"Organization:acme co\", e) :- entity(e, \"Organization\"), e = \"Organization:acme trading ltd\".\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["derive", "identity.dl", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = record(&d, &[&["--subject", "Acme Co", "--subject-type", "Organization"][..], &base].concat());
    assert_eq!(json(&o)["subject"], serde_json::json!("Organization:acme trading ltd"), "{}", stdout(&o));
    assert_eq!(json(&o)["new_entities"], serde_json::json!([]));
}
