//! What `tg claim …` and `tg audit …` print: readable text, or with `--format json` one
//! JSON object (`{"ok": false, "error": CODE, "message": …}` for a refusal). The binary
//! prints a [`Reply`] and exits with its code; nothing here does IO.

use serde_json::{Value as Json, json};

use super::{ImportLine, Recorded, Refusal, Status, audit::Ingested, ledger::ClaimRecord};

/// Output of one command: standard output, standard error, exit status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// For standard output.
    pub stdout: String,
    /// For standard error.
    pub stderr: String,
    /// Exit status.
    pub code: u8,
}

fn pretty(v: &Json) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
}

/// A refusal, as the user asked for it.
pub fn refusal(r: &Refusal, json: bool) -> Reply {
    if json {
        Reply { stdout: pretty(&json!({"ok": false, "error": r.code, "message": r.message})), stderr: String::new(), code: tg_limits::exit::ERROR }
    } else {
        Reply { stdout: String::new(), stderr: format!("tg: refused ({}): {}\n", r.code, r.message), code: tg_limits::exit::ERROR }
    }
}

fn warnings_json(r: &ClaimRecord) -> Json {
    Json::Array(r.warnings.iter().map(|(c, m)| json!({"code": c, "message": m})).collect())
}

fn recorded_json(r: &Recorded) -> Json {
    let c = &r.record;
    json!({
        "ok": true, "id": c.id, "doc": c.doc, "start": r.at.0, "end": r.at.1,
        "subject": c.subject.0, "relation": c.relation, "object": c.object.0,
        "modality": c.modality, "polarity": c.polarity, "asserter": c.asserter.0,
        "new_entities": r.new_entities, "warnings": warnings_json(c), "already_recorded": r.already,
    })
}

fn recorded_text(r: &Recorded) -> String {
    let c = &r.record;
    let verb = if r.already { "already recorded" } else { "recorded" };
    format!("{verb} {} [{}:{}-{}] {}({}, {}) {} GENERATED\n", c.id, c.doc, r.at.0, r.at.1, c.relation, c.subject.0, c.object.0, c.modality)
}

fn warnings_text(c: &ClaimRecord) -> String {
    c.warnings.iter().map(|(code, m)| format!("warning: {} ({code}): {m}\n", c.id)).collect()
}

/// `tg claim record`.
pub fn recorded(r: &Recorded, json: bool) -> Reply {
    if json {
        Reply { stdout: pretty(&recorded_json(r)), ..Reply::default() }
    } else {
        let mut stdout = recorded_text(r);
        if !r.new_entities.is_empty() {
            stdout.push_str(&format!("new entities (GENERATED): {}\n", r.new_entities.join(", ")));
        }
        Reply { stdout, stderr: warnings_text(&r.record), code: 0 }
    }
}

/// `tg claim import`.
pub fn imported(lines: &[ImportLine], json: bool) -> Reply {
    let good = lines.iter().filter(|l| l.result.is_ok()).count();
    let bad = lines.len() - good;
    let code = if bad == 0 {
        tg_limits::exit::OK
    } else if good == 0 {
        tg_limits::exit::ERROR
    } else {
        tg_limits::exit::NO
    };
    if json {
        let results: Vec<Json> = lines
            .iter()
            .map(|l| match &l.result {
                Ok(r) => {
                    let mut v = recorded_json(r);
                    v["line"] = json!(l.line);
                    v
                }
                Err(e) => json!({"line": l.line, "ok": false, "error": e.code, "message": e.message}),
            })
            .collect();
        return Reply { stdout: pretty(&json!({"ok": bad == 0, "recorded": good, "refused": bad, "results": results})), stderr: String::new(), code };
    }
    let mut out = Reply { code, ..Reply::default() };
    for l in lines {
        match &l.result {
            Ok(r) => {
                out.stdout.push_str(&format!("line {}: {}", l.line, recorded_text(r)));
                out.stderr.push_str(&warnings_text(&r.record));
            }
            Err(e) => out.stderr.push_str(&format!("line {}: refused ({}): {}\n", l.line, e.code, e.message)),
        }
    }
    out.stdout.push_str(&format!("{good} recorded, {bad} refused\n"));
    out
}

/// `tg claim widen`.
pub fn widened(doc: &str, (a, b, text): &(usize, usize, String), json: bool) -> Reply {
    if json {
        Reply { stdout: pretty(&json!({"ok": true, "doc": doc, "start": a, "end": b, "bytes": b - a, "quote": text})), ..Reply::default() }
    } else {
        Reply { stdout: format!("[{doc}:{a}-{b}] {} bytes\n{text}\n", b - a), ..Reply::default() }
    }
}

/// `tg claim list`.
pub fn listed(claims: &[(ClaimRecord, Status, Option<String>)], json: bool) -> Reply {
    let status = |s: &Status| match s {
        Status::Cited(a, b) => (format!("cited {a}-{b}"), json!({"status": "cited", "start": a, "end": b})),
        Status::Stale => ("stale".to_string(), json!({"status": "stale"})),
        Status::Orphaned => ("orphaned (document gone)".to_string(), json!({"status": "orphaned"})),
    };
    if json {
        let items: Vec<Json> = claims
            .iter()
            .map(|(c, s, v)| {
                let mut j = status(s).1;
                j["id"] = json!(c.id);
                j["doc"] = json!(c.doc);
                j["subject"] = json!(c.subject.0);
                j["relation"] = json!(c.relation);
                j["object"] = json!(c.object.0);
                j["modality"] = json!(c.modality);
                j["quote"] = json!(c.quote);
                j["source"] = json!(c.source);
                j["audit"] = json!(v);
                j["warnings"] = warnings_json(c);
                j
            })
            .collect();
        return Reply { stdout: pretty(&json!({"ok": true, "claims": items})), ..Reply::default() };
    }
    let mut out = String::new();
    for (c, s, v) in claims {
        let audit = v.as_ref().map(|v| format!(" audit={v}")).unwrap_or_default();
        out.push_str(&format!("{} [{}] {}({}, {}) {} {}{audit}\n", c.id, c.doc, c.relation, c.subject.0, c.object.0, c.modality, status(s).0));
    }
    out.push_str(&format!("{} outside claim(s)\n", claims.len()));
    Reply { stdout: out, ..Reply::default() }
}

/// `tg audit ingest`.
pub fn ingested(r: &Ingested, json: bool) -> Reply {
    let kept: usize = r.counts.values().sum();
    let code = if r.refused.is_empty() {
        tg_limits::exit::OK
    } else if kept == 0 {
        tg_limits::exit::ERROR
    } else {
        tg_limits::exit::NO
    };
    if json {
        let refused: Vec<Json> = r.refused.iter().map(|(i, e)| json!({"verdict": i, "error": e.code, "message": e.message})).collect();
        return Reply { stdout: pretty(&json!({"ok": r.refused.is_empty(), "counts": r.counts, "summary": r.summary(), "refused": refused})), stderr: String::new(), code };
    }
    let stderr = r.refused.iter().map(|(i, e)| format!("verdict {i}: refused ({}): {}\n", e.code, e.message)).collect();
    Reply { stdout: r.summary() + "\n", stderr, code }
}
