//! `tg mcp` (issue 23): a Model Context Protocol server over standard input and output.
//!
//! The transport is MCP's stdio one: JSON-RPC 2.0, one message per line, nothing else on
//! standard output (diagnostics go to standard error). The server answers `initialize`,
//! `ping`, `tools/list` and `tools/call`; notifications get no reply. It is written here
//! (serde_json only) rather than with the `rmcp` SDK: rmcp is async-only (tokio, its
//! macros and schemars), which would bring a runtime and a large build into a
//! synchronous tool for four methods over one pipe.
//!
//! Tools ([`tools`]) are typed (a JSON Schema each), read-only but for `record_claim`
//! (the same verbatim gate as `tg claim record`), bounded (`limit` items, `max_bytes` of
//! output) and cited. The store is opened for each call and closed after it, so other
//! `tg` commands on the case keep working while the server runs.

pub mod tools;

use std::io::{BufRead, Write};
use std::path::Path;

use serde_json::{Value as Json, json};

/// MCP protocol versions this server speaks, oldest first; it answers with the client's
/// version when it is one of these, else the newest.
pub const PROTOCOL_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// JSON-RPC error codes used.
mod code {
    pub const PARSE: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
}

fn error(id: &Json, code: i64, message: &str) -> Json {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn result(id: &Json, result: Json) -> Json {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// Handles one message; `None` for a notification or a response (no reply).
pub fn handle(db: &Path, msg: &Json) -> Option<Json> {
    let Some(obj) = msg.as_object() else { return Some(error(&Json::Null, code::INVALID_REQUEST, "a message must be a JSON object")) };
    let id = obj.get("id").cloned();
    let Some(method) = obj.get("method").and_then(Json::as_str) else {
        // A response to a request of ours (we send none), or garbage with an id.
        return id.filter(|_| !obj.contains_key("result") && !obj.contains_key("error")).map(|id| error(&id, code::INVALID_REQUEST, "no method"));
    };
    let id = id?; // notifications (notifications/initialized, …) need no answer
    let params = obj.get("params").cloned().unwrap_or(Json::Null);
    Some(match method {
        "initialize" => {
            let asked = params["protocolVersion"].as_str().unwrap_or_default();
            let version = PROTOCOL_VERSIONS.iter().find(|v| **v == asked).copied().unwrap_or(PROTOCOL_VERSIONS[PROTOCOL_VERSIONS.len() - 1]);
            result(
                &id,
                json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": false}},
                    "serverInfo": {"name": "textgraph", "title": "TextGraph (tg)", "version": env!("CARGO_PKG_VERSION")},
                    "instructions": tools::INSTRUCTIONS,
                }),
            )
        }
        "ping" => result(&id, json!({})),
        "tools/list" => result(&id, json!({"tools": tools::list()})),
        "tools/call" => {
            let Some(name) = params["name"].as_str() else { return Some(error(&id, code::INVALID_PARAMS, "tools/call needs params.name")) };
            let args = match &params["arguments"] {
                Json::Null => json!({}),
                a @ Json::Object(_) => a.clone(),
                _ => return Some(error(&id, code::INVALID_PARAMS, "params.arguments must be an object")),
            };
            match tools::call(db, name, &args) {
                Some(r) => result(&id, r),
                None => error(&id, code::INVALID_PARAMS, &format!("unknown tool {name:?} (tools/list names them)")),
            }
        }
        other => error(&id, code::METHOD_NOT_FOUND, &format!("method not found: {other}")),
    })
}

/// Serves until standard input ends; returns the exit status (0, or 2 if output failed).
pub fn serve(db: &Path, input: &mut dyn BufRead, output: &mut dyn Write) -> u8 {
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => return 0,
            Ok(_) => {}
            Err(e) => {
                eprintln!("tg mcp: cannot read standard input: {e}");
                return 2;
            }
        }
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Json>(text) {
            Err(e) => Some(error(&Json::Null, code::PARSE, &format!("parse error: {e}"))),
            Ok(Json::Array(_)) => Some(error(&Json::Null, code::INVALID_REQUEST, "batches are not supported: send one message per line")),
            Ok(msg) => handle(db, &msg),
        };
        if let Some(r) = reply {
            let mut s = serde_json::to_string(&r).unwrap_or_default();
            s.push('\n');
            if output.write_all(s.as_bytes()).and_then(|_| output.flush()).is_err() {
                return 2;
            }
        }
    }
}
