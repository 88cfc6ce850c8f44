//! `tg mcp` (issue 23): the JSON-RPC framing checked line by line, then the whole server
//! end to end with the official MCP Python client (`tests/consumers/mcp_client.py`):
//! every tool called, answers bounded, ranked and cited, one claim recorded through the
//! verbatim gate and one refused, another `tg` reading the store while the server runs.

mod common;
mod consumers;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{copy_dir, root, scratch, stderr, stdout, tg};

fn built(name: &str) -> PathBuf {
    let d = scratch("mcp", name);
    copy_dir(&root().join("fixtures/case-files"), &d.join("corpus"));
    for args in [&["build", "corpus", "--db", "db"][..], &["derive", "--db", "db"][..]] {
        let o = tg(&d, args);
        assert_eq!(o.status.code(), Some(0), "tg {args:?}: {}", stderr(&o));
    }
    d
}

/// Sends lines to `tg mcp`, returns its reply lines as JSON.
fn session(d: &std::path::Path, lines: &[&str]) -> Vec<serde_json::Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tg"))
        .current_dir(d)
        .args(["mcp", "--db", "db"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    for l in lines {
        writeln!(stdin, "{l}").unwrap_or_else(|e| panic!("{e}"));
    }
    drop(stdin);
    let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect()
}

#[test]
fn json_rpc_framing() {
    let d = built("framing");
    let r = session(
        &d,
        &[
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"contradictions","arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"why","arguments":{"entity":"Nobody At All"}}}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","limit":1000}}}"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"resources/list"}"#,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope"}}"#,
            "not json",
            r#"[{"jsonrpc":"2.0","id":8,"method":"ping"}]"#,
            r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#,
        ],
    );
    assert_eq!(r.len(), 10, "{r:?}");
    assert_eq!(r[0]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(r[0]["result"]["serverInfo"]["name"], "textgraph");
    let names: Vec<&str> = r[1]["result"]["tools"].as_array().into_iter().flatten().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["search", "neighbors", "why", "path", "timeline", "contradictions", "communities", "gql", "explain", "record_claim"]);
    let c = &r[2]["result"];
    assert_eq!(c["isError"], false);
    assert_eq!(c["structuredContent"]["total"], 1);
    assert_eq!(c["structuredContent"]["items"][0]["first"]["citation"], "[registry-notes.txt:496-560]");
    assert_eq!(r[3]["result"]["isError"], true);
    assert_eq!(r[3]["result"]["content"][0]["text"], "no entity matches 'Nobody At All'");
    assert_eq!(r[4]["result"]["content"][0]["text"], "argument \"limit\" must be an integer from 1 to 100");
    assert_eq!(r[5]["error"]["code"], -32601);
    assert_eq!(r[6]["error"]["code"], -32602);
    assert_eq!(r[7]["error"]["code"], -32700);
    assert_eq!(r[8]["error"]["message"], "batches are not supported: send one message per line");
    assert_eq!(r[9]["id"], 9);
    assert_eq!(r[9]["result"], serde_json::json!({}));
}

#[test]
fn the_python_mcp_client_calls_every_tool() {
    let d = built("client");
    let Some(py) = consumers::python(root(), "mcp") else { return };
    let o = Command::new(py).arg(root().join("tests/consumers/mcp_client.py")).arg(env!("CARGO_BIN_EXE_tg")).arg(d.join("db")).output().unwrap_or_else(|e| panic!("{e}"));
    let text = stdout(&o);
    assert!(o.status.success(), "{text}\n{}", stderr(&o));
    for line in [
        "ok tools/list: 10 typed tools",
        "ok path: 2 hops [wire-log.csv:77-145] [registry-notes.txt:116-218]",
        "ok contradictions: [registry-notes.txt:496-560] vs [registry-notes.txt:562-619]",
        "ok record_claim refuses a paraphrase: refused (quote_not_found)",
        "ok record_claim: gen-462d45e68df671e6 [registry-notes.txt:170-218]",
        "ok another tg reads the store while the server runs",
        "ok all",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    // The recorded claim is in the store, tagged GENERATED.
    let o = tg(&d, &["claim", "list", "--db", "db"]);
    assert!(stdout(&o).contains("gen-462d45e68df671e6"), "{}", stdout(&o));
}
