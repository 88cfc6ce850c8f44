//! `tg search`, `tg central`, `tg communities` as a user runs them on the case files
//! (issue 22): exact top hits with citations, determinism, incremental = full rebuild,
//! outside claims, GQL and REPL access, explanations, bad input.

mod common;

use common::copy_dir;

use std::path::{Path, PathBuf};

use common::{root, scratch, stderr, stdout, tg};

/// A scratch folder holding `corpus/` (a copy of the case files) built into `db`.
fn built(name: &str) -> PathBuf {
    let d = scratch("search", name);
    copy_dir(&root().join("fixtures/case-files"), &d.join("corpus"));
    build(&d, "db");
    d
}

fn build(d: &Path, db: &str) {
    let o = tg(d, &["build", "corpus", "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Runs `tg ARGS --db DB` and returns standard output, asserting success.
fn ok(d: &Path, db: &str, args: &[&str]) -> String {
    let mut a = args.to_vec();
    a.extend_from_slice(&["--db", db]);
    let o = tg(d, &a);
    assert_eq!(o.status.code(), Some(0), "tg {args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Everything the commands print for a fixed set of queries.
fn outputs(d: &Path, db: &str) -> String {
    let mut out = String::new();
    for q in ["wire transfer Beta Holdings", "structuring", "registered Panama", "Marek Novak director", "laund struct"] {
        for mode in ["bm25", "ppr", "hybrid"] {
            if mode == "ppr" && q == "structuring" {
                continue; // names no entity
            }
            out.push_str(&ok(d, db, &["search", q, "--mode", mode, "--k", "8", "--format", "json"]));
        }
    }
    out.push_str(&ok(d, db, &["central", "--format", "json"]));
    out.push_str(&ok(d, db, &["communities", "--format", "json"]));
    out
}

#[test]
fn top_hits_are_cited_with_modality_and_asserter() {
    let d = built("top");
    let out = ok(&d, "db", &["search", "wire transfer Beta Holdings", "--k", "3"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "  1. 5.2945 claim [correction-notice.txt:87-226] TRANSFERRED(Organization:acme trading ltd -> Organization:beta holdings sa) modality=reported polarity=positive asserter=document"
    );
    assert_eq!(lines[1], "     \"The memo of 4 March 2024 (wire-transfer-memo.txt) stated that Acme Trading Ltd sent four wires totalling USD 1,940,000 to Beta Holdings SA.\"");
    assert_eq!(lines[2], "  2. 3.4814 chunk [correction-notice.txt:0-552]");
    assert_eq!(lines[4], "  3. 2.9049 chunk [wire-transfer-memo.txt:670-851]");
    // Stemming: "structured" finds "structuring"; a prefix ("laund" has no match here,
    // "struct" does) matches at half weight.
    let s = ok(&d, "db", &["search", "structured", "--k", "2"]);
    assert!(s.starts_with("  1. 3.3701 chunk [decision-record.md:450-620]\n"), "{s}");
    let p = ok(&d, "db", &["search", "struct", "--k", "1"]);
    assert!(p.starts_with("  1. 1.6851 chunk [decision-record.md:450-620]\n"), "{p}");
    // An attributed claim shows who asserts it.
    let j: serde_json::Value = serde_json::from_str(&ok(&d, "db", &["search", "Gamma paid", "--k", "1", "--format", "json"])).unwrap_or_default();
    assert_eq!(j["hits"][0]["citation"], "[registry-notes.txt:395-494]");
    assert_eq!(j["hits"][0]["claim"]["asserter"], "Person:lena ortiz");
    assert_eq!(j["hits"][0]["claim"]["modality"], "reported");
    // Every hit's citation is the bytes it quotes.
    let all: serde_json::Value = serde_json::from_str(&ok(&d, "db", &["search", "Beta Holdings", "--k", "50", "--format", "json"])).unwrap_or_default();
    let hits = all["hits"].as_array().cloned().unwrap_or_default();
    assert!(hits.len() > 10);
    for h in hits {
        let doc = h["doc"].as_str().unwrap_or_default();
        let text = std::fs::read_to_string(d.join("corpus").join(doc)).unwrap_or_default();
        if !doc.contains('#') && (doc.ends_with(".txt") || doc.ends_with(".md") || doc.ends_with(".csv")) {
            let (a, b) = (h["start"].as_u64().unwrap_or(0) as usize, h["end"].as_u64().unwrap_or(0) as usize);
            assert_eq!(text.get(a..b), h["text"].as_str(), "{h}");
        }
    }
}

#[test]
fn hybrid_fuses_bm25_with_pagerank_from_named_entities() {
    let d = built("hybrid");
    let out = ok(&d, "db", &["search", "Beta Holdings", "--mode", "hybrid", "--k", "2"]);
    // Every unit naming Beta Holdings ties in PPR and shares its rank, so BM25 orders them.
    assert!(
        out.starts_with("entities named: Organization:beta holdings, Organization:beta holdings sa\n  1. 0.0328 chunk [bank-statement.pdf:0-411] (bm25 #1, ppr #1)\n"),
        "{out}"
    );
    let ppr = ok(&d, "db", &["search", "Marek Novak", "--mode", "ppr", "--k", "1", "--format", "json"]);
    let j: serde_json::Value = serde_json::from_str(&ppr).unwrap_or_default();
    // The whole name names the person, not the e-mail address that contains it.
    assert_eq!(j["seeds"], serde_json::json!(["Person:marek novak"]));
    assert_eq!(j["hits"].as_array().map(Vec::len), Some(1));
    // A query naming no entity has no PPR ranking: hybrid is BM25's order.
    let h: serde_json::Value = serde_json::from_str(&ok(&d, "db", &["search", "structuring", "--mode", "hybrid", "--format", "json"])).unwrap_or_default();
    let b: serde_json::Value = serde_json::from_str(&ok(&d, "db", &["search", "structuring", "--format", "json"])).unwrap_or_default();
    let cites = |v: &serde_json::Value| v["hits"].as_array().map(|a| a.iter().map(|h| h["citation"].clone()).collect::<Vec<_>>()).unwrap_or_default();
    assert_eq!(cites(&h), cites(&b));
}

#[test]
fn two_builds_give_identical_results() {
    let a = built("det-a");
    let b = built("det-b");
    assert_eq!(outputs(&a, "db"), outputs(&b, "db"));
}

#[test]
fn incremental_builds_answer_as_full_rebuilds() {
    let d = built("incr");
    // Change one file, add one, remove one; rebuild incrementally.
    let notes = d.join("corpus/registry-notes.txt");
    let mut text = std::fs::read_to_string(&notes).unwrap_or_default();
    text.push_str("\nDelta Freight Inc is registered in Panama. Delta Freight Inc paid Beta Holdings SA USD 12,000 on 7 March 2024.\n");
    std::fs::write(&notes, text).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(d.join("corpus/extra.txt"), "Orion Nominees Ltd wired USD 9,000 to Gamma Consulting LLC on 2 March 2024 to structure the payments.\n")
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_file(d.join("corpus/news-article.html")).unwrap_or_else(|e| panic!("{e}"));
    build(&d, "db");
    build(&d, "fresh");
    let incremental = outputs(&d, "db");
    assert!(incremental.contains("extra.txt"), "the new document is searchable");
    assert!(!incremental.contains("news-article.html"), "the removed document is gone");
    assert_eq!(incremental, outputs(&d, "fresh"));
}

#[test]
fn an_outside_claim_is_searchable_as_a_claim() {
    let d = built("outside");
    let quote = "Marek Novak: Split it. Four wires, each under 500k.";
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
            quote,
            "--modality",
            "reported",
            "--asserter",
            "Marek Novak",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&ok(&d, "db", &["search", "split four wires", "--k", "5", "--format", "json"])).unwrap_or_default();
    let claim = j["hits"].as_array().and_then(|a| a.iter().find(|h| h["kind"] == "claim").cloned()).unwrap_or_default();
    assert_eq!(claim["text"], quote);
    assert_eq!(claim["claim"]["relation"], "ASSOCIATED_WITH");
    assert_eq!(claim["claim"]["asserter"], "Person:marek novak");
    // A rebuild re-cites it from the ledger: the same answer.
    let before = ok(&d, "db", &["search", "split four wires", "--format", "json"]);
    build(&d, "db");
    assert_eq!(ok(&d, "db", &["search", "split four wires", "--format", "json"]), before);
}

#[test]
fn central_reports_hubs_bridges_and_orphans() {
    let d = built("central");
    let out = ok(&d, "db", &["central", "--top", "3"]);
    let want = "entity graph: 38 nodes, 12 edges; betweenness exact\n\
rank\tpagerank\tdegree\tbetweenness\tentity\n\
1\t0.167875\t6\t0.020270\tOrganization:beta holdings sa\n\
2\t0.104746\t3\t0.009009\tOrganization:acme trading ltd\n\
3\t0.070441\t4\t0.003754\tPerson:marek novak\n\
god nodes (2): Organization:beta holdings sa, Person:marek novak\n";
    assert!(out.starts_with(want), "{out}");
    assert!(out.contains("  Location:nauru -- Organization:beta holdings sa\n"), "{out}");
    assert!(out.contains("orphans (26): Account:number 0042778119,"), "{out}");
}

#[test]
fn communities_are_labelled_and_queryable_both_ways() {
    let d = built("communities");
    let out = ok(&d, "db", &["communities"]);
    assert!(out.starts_with("3 communities, 26 singletons (label propagation, 3 rounds)\ncommunity 1 (8 members): beta, holdings, acme, wire, trading\n"), "{out}");
    assert!(out.contains("  representative documents: registry-notes.txt (12), wire-transfer-memo.txt (7), wire-log.csv (6)\n"), "{out}");
    // Graph-first: the community of an entity.
    let e = ok(&d, "db", &["communities", "--entity", "Location:cyprus"]);
    assert!(e.contains("community 2 (2 members)") && !e.contains("community 1 "), "{e}");
    // Topic-first: every document of a community.
    let t = ok(&d, "db", &["communities", "--topic", "1"]);
    assert!(t.contains("  documents: registry-notes.txt (12), wire-transfer-memo.txt (7), wire-log.csv (6), "), "{t}");
    let bad = tg(&d, &["communities", "--topic", "9", "--db", "db"]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stderr(&bad), "tg: there is no community 9 (the case has 3)\n");
    let lone = tg(&d, &["communities", "--entity", "Person:priya raman", "--db", "db"]);
    assert_eq!(stderr(&lone), "tg: Person:priya raman is in no community: no claim links it to another entity\n");
}

#[test]
fn analytics_facts_are_explained_and_read_by_rules_gql_and_the_repl() {
    let d = built("facts");
    let ex = ok(&d, "db", &["explain", "community(\"Location:cyprus\", 2)", "--verify"]);
    assert_eq!(
        ex,
        "community(\"Location:cyprus\", 2)  [DERIVED by tg analytics: label propagation over the entity graph (3 rounds); its claims inside the community]\n\
└─ claim(\"e14b53a0aaef59df\", \"registry-notes.txt\", \"Organization:acme trading products ltd\", \"REGISTERED_AT\", \"Location:cyprus\", \"assertion\", \"positive\", \"document\")  [EXTRACTED]\n   └─ [registry-notes.txt:328-378] \"Acme Trading Products Ltd is registered in Cyprus.\"  ✓ re-hashed\n1/1 checks passed\n"
    );
    // A fact that does not hold: exit 1 (docs/CLI.md), saying so.
    let wrong = tg(&d, &["explain", "pagerank(\"Person:marek novak\", \"0.5\", 1)", "--db", "db"]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(format!("{}{}", stdout(&wrong), stderr(&wrong)).contains("neither stored nor derived"), "{}", stdout(&wrong));
    // A rule reading god_node.
    std::fs::write(
        d.join("hubs.dl"),
        ".decl god_node(e:symbol)\n.decl claim(id:symbol, doc:symbol, subject:symbol, relation:symbol, object:symbol, modality:symbol, polarity:symbol, asserter:symbol)\n\
.decl hub_payment(id:symbol, payer:symbol)\nhub_payment(id, s) :- claim(id, _, s, \"TRANSFERRED\", o, _, _, _), god_node(o).\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // (The file runs with the case's rule library: tg derive never replaces it.)
    assert!(ok(&d, "db", &["derive", "hubs.dl"]).contains("  +6 hub_payment (6 now)\n"));
    let why = ok(&d, "db", &["explain", "hub_payment(\"24bcbcee03e1fa97\", \"Organization:acme trading ltd\")", "--depth", "2"]);
    assert!(why.contains("└─ god_node(\"Organization:beta holdings sa\")  [DERIVED by tg analytics: degree at least 3"), "{why}");
    // GQL: node properties and the procedure.
    let g = ok(&d, "db", &["gql", "MATCH (e:Entity) WHERE e.community = 1 RETURN e.key, e.pagerank, e.degree ORDER BY e.pagerank DESC LIMIT 2", "--format", "tsv"]);
    // (derive ran the whole library above: "Beta Holdings" and "Beta Holdings SA" are one
    // class now, keyed by its least member.)
    assert_eq!(g, "e.key\te.pagerank\te.degree\nOrganization:beta holdings\t0.171103\t6\nOrganization:acme trading ltd\t0.106761\t3\n");
    let c =
        ok(&d, "db", &["gql", "CALL tg.search('wire transfer Beta Holdings', 3) YIELD rank, score, citation, modality RETURN rank, score, citation, modality", "--format", "tsv"]);
    assert_eq!(
        c,
        "rank\tscore\tcitation\tmodality\n1\t5.2945\t[correction-notice.txt:87-226]\treported\n2\t3.4814\t[correction-notice.txt:0-552]\t\n3\t2.9049\t[wire-transfer-memo.txt:670-851]\t\n"
    );
    // The REPL: analytics relations without declaring them, and the procedure.
    let r = ok(&d, "db", &["repl", "--format", "tsv", "-e", "?- pagerank(E, S, R), R <= 2.", "-e", "CALL tg.search('Panama', 1) YIELD citation RETURN citation"]);
    // (Every member of a class carries the class's rank. Since tg derive stores the
    // analytics, a one-atom query cites each row as a derived fact.)
    assert_eq!(
        r,
        "E\tS\tR\tcitation\nOrganization:acme trading ltd\t0.106761\t2\tderived\nOrganization:beta holdings\t0.171103\t1\tderived\nOrganization:beta holdings sa\t0.171103\t1\tderived\ncitation\n[registry-notes.txt:684-742]\n"
    );
}

/// `tg derive` stores the analytics as facts (issue 22): in the dump, read back by
/// `tg central` / `tg communities` exactly as computed now, recomputed when the store
/// changed since, and equal between an incrementally derived store and a fresh one.
#[test]
fn derive_stores_analytics_facts_that_central_and_communities_read() {
    let d = built("stored");
    let out = ok(&d, "db", &["derive"]);
    assert!(out.contains("  +191 in 10 analytics relation(s) (pagerank, community, …; --format json lists each)\n"), "{out}");
    assert!(out.contains("analytics stored: 36 entities ranked, 3 communities, 2 god nodes, 5 bridges, 24 orphans (tg central, tg communities)\n"), "{out}");
    let dump = ok(&d, "db", &["dump"]);
    for line in [
        "relation pagerank(symbol, symbol, number)\n",
        "derived entity_graph(36, 12, \"exact\", 3) INFERRED round=0 rule=",
        "derived pagerank(\"Organization:beta holdings\", \"0.171103\", 1) INFERRED round=0 rule=",
        "derived community(\"Location:cyprus\", 2) INFERRED",
        "derived community_label(1, 1, \"beta\", \"0.123186\") INFERRED",
    ] {
        assert!(dump.contains(line), "missing {line}");
    }
    // The method is recorded as the witness's rule; the first claims are its premises.
    let rule =
        dump.split("derived pagerank(\"Organization:beta holdings\", \"0.171103\", 1) INFERRED round=0 rule=").nth(1).and_then(|r| r.get(..32)).unwrap_or_default().to_string();
    assert!(dump.contains(&format!("rule {rule} tg analytics pagerank: PageRank over the entity graph")), "{rule}");
    // Read back equals computed now (--live), in both commands and formats.
    for cmd in [&["central"][..], &["central", "--format", "json"], &["communities"], &["communities", "--format", "json"], &["communities", "--entity", "Location:cyprus"]] {
        let mut live = cmd.to_vec();
        live.push("--live");
        assert_eq!(ok(&d, "db", cmd), ok(&d, "db", &live), "{cmd:?}");
    }
    // Explained through the method, recomputed, with the claims cited.
    let ex = ok(&d, "db", &["explain", "pagerank(\"Organization:beta holdings\", \"0.171103\", 1)", "--verify"]);
    assert!(ex.starts_with("pagerank(\"Organization:beta holdings\", \"0.171103\", 1)  [DERIVED by tg analytics: PageRank"), "{ex}");
    // A derive that changes nothing changes no analytics fact either.
    let again = ok(&d, "db", &["derive"]);
    assert!(again.contains("  derived layer unchanged\n") && !again.contains("analytics relation(s)"), "{again}");
    // A changed corpus: until derive runs, central computes (the stored facts are stale);
    // after it, the incremental store holds the analytics a fresh build derives.
    let notes = d.join("corpus/registry-notes.txt");
    let mut text = std::fs::read_to_string(&notes).unwrap_or_default();
    text.push_str("\nDelta Freight Inc paid Beta Holdings SA USD 12,000 on 7 March 2024. Delta Freight Inc paid Acme Trading Ltd USD 3,000 on 8 March 2024.\n");
    std::fs::write(&notes, text).unwrap_or_else(|e| panic!("{e}"));
    build(&d, "db");
    assert_eq!(ok(&d, "db", &["central", "--format", "json"]), ok(&d, "db", &["central", "--format", "json", "--live"]));
    // GQL too computes while the stored rows are stale: the new entity has its measures.
    let q = "MATCH (e:Entity) WHERE e.key = 'Organization:delta freight inc' RETURN e.degree, e.community";
    assert_eq!(ok(&d, "db", &["gql", q, "--format", "tsv"]), "e.degree\te.community\n2\t1\n");
    assert!(ok(&d, "db", &["derive"]).starts_with("incremental: "));
    build(&d, "fresh");
    ok(&d, "fresh", &["derive"]);
    let analytics = |db: &str| -> String {
        ok(&d, db, &["dump"])
            .split("\nderived ")
            .filter(|l| ["pagerank(", "entity_degree(", "betweenness(", "god_node(", "bridge(", "orphan(", "community", "entity_graph("].iter().any(|r| l.starts_with(r)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let inc = analytics("db");
    assert!(inc.contains("Organization:delta freight inc"), "the new entity is ranked");
    assert_eq!(inc, analytics("fresh"));
    assert_eq!(ok(&d, "db", &["communities", "--format", "json"]), ok(&d, "fresh", &["communities", "--format", "json"]));
    let q = "MATCH (e:Entity) WHERE e.pagerank IS NOT NULL RETURN e.key, e.pagerank, e.degree, e.betweenness, e.community ORDER BY e.key";
    assert_eq!(ok(&d, "db", &["gql", q, "--format", "tsv"]), ok(&d, "fresh", &["gql", q, "--format", "tsv"]));
}

/// A rule file that declares an analytics relation with other columns is refused before
/// anything runs (its rows would be misread).
#[test]
fn an_analytics_relation_declared_with_other_columns_is_refused() {
    let d = built("decl");
    std::fs::write(d.join("old.dl"), ".decl community_label(id:number, rank:number, term:symbol)\n.decl labelled(t:symbol)\nlabelled(t) :- community_label(_, _, t).\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let o = tg(&d, &["derive", "old.dl", "--db", "db"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("community_label") && stderr(&o).contains("tg computes it with columns [Number, Number, Symbol, Symbol]"), "{}", stderr(&o));
}

#[test]
fn bad_queries_are_clear_errors() {
    let d = built("bad");
    let o = tg(&d, &["search", "the of and", "--db", "db"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "tg: the query \"the of and\" has no searchable words (only stop words or punctuation)\n");
    let n = ok(&d, "db", &["search", "zzzyx"]);
    assert_eq!(n, "no hits for \"zzzyx\" among 59 units\n");
    let g = tg(&d, &["gql", "CALL tg.search(3)", "--db", "db"]);
    assert_eq!(g.status.code(), Some(1));
    assert!(stderr(&g).contains("tg.search(query [, k [, mode]]) needs a query string first"), "{}", stderr(&g));
    let y = tg(&d, &["gql", "CALL tg.search('x') YIELD nope RETURN nope", "--db", "db"]);
    assert!(stderr(&y).contains("yields rank, score"), "{}", stderr(&y));
    let s = tg(&d, &["gql", "CALL tg.search('wire')", "--script", "/dev/null"]);
    assert_ne!(s.status.code(), Some(0));
    let missing = tg(&d, &["search", "x", "--db", "nope"]);
    assert_eq!(missing.status.code(), Some(2));
}
