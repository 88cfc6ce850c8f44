//! The HTTP side of `tg console`: a small blocking HTTP/1.1 server on 127.0.0.1 only,
//! one connection at a time. `GET /` is the viewer, `GET /graph.json` its data; the store
//! is opened for each request and closed after it, so other `tg` commands keep working.
//! A request whose `Host` is not this loopback address and port is refused (403), so a
//! web page elsewhere cannot read the case through DNS rebinding.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;

use tg_store::Store;

/// Largest request head read (request line and headers).
const MAX_HEAD: usize = 16 * 1024;

/// Binds 127.0.0.1:`port` (0: a free port) and returns the listener and its URL.
pub fn bind(port: u16) -> std::io::Result<(TcpListener, String)> {
    let l = TcpListener::bind(("127.0.0.1", port))?;
    let port = l.local_addr()?.port();
    Ok((l, format!("http://127.0.0.1:{port}/")))
}

fn respond(s: &mut TcpStream, status: &str, ctype: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = s.write_all(head.as_bytes()).and_then(|_| s.write_all(body)).and_then(|_| s.flush());
}

/// Answers one connection.
pub fn handle(db: &Path, port: u16, mut s: TcpStream) {
    let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(10)));
    let mut reader = BufReader::new(match s.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    let mut head = vec![];
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" || line == "\n" => break,
            Ok(_) => {
                head.push(line.trim_end().to_string());
                if head.iter().map(String::len).sum::<usize>() > MAX_HEAD {
                    return respond(&mut s, "431 Request Header Fields Too Large", "text/plain", b"request head too large\n");
                }
            }
        }
    }
    let Some(first) = head.first() else { return };
    let mut parts = first.split_whitespace();
    let (method, target) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    let host = head.iter().skip(1).find_map(|h| h.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("host")).map(|(_, v)| v.trim().to_string()));
    let allowed = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    if !host.as_ref().is_some_and(|h| allowed.contains(h)) {
        return respond(&mut s, "403 Forbidden", "text/plain", b"tg console answers requests for 127.0.0.1 only\n");
    }
    if method != "GET" && method != "HEAD" {
        return respond(&mut s, "405 Method Not Allowed", "text/plain", b"only GET\n");
    }
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let page = |f: fn(&Store) -> Result<String, tg_store::StoreError>| Store::open_existing(db).and_then(|st| f(&st));
    let (status, ctype, body) = match path {
        "/" | "/index.html" => match page(super::html) {
            Ok(h) => ("200 OK", "text/html; charset=utf-8", h),
            Err(e) => ("503 Service Unavailable", "text/plain", format!("tg: {e}\n")),
        },
        "/graph.json" => match page(|st| super::data(st).map(|v| serde_json::to_string_pretty(&v).unwrap_or_default() + "\n")) {
            Ok(h) => ("200 OK", "application/json", h),
            Err(e) => ("503 Service Unavailable", "text/plain", format!("tg: {e}\n")),
        },
        _ => ("404 Not Found", "text/plain", "not found\n".to_string()),
    };
    let body = if method == "HEAD" { String::new() } else { body };
    respond(&mut s, status, ctype, body.as_bytes());
}

/// Serves until the process is stopped; `on_ready` gets the URL once listening.
pub fn serve(db: &Path, port: u16, on_ready: &mut dyn FnMut(&str)) -> std::io::Result<()> {
    let (l, url) = bind(port)?;
    let port = l.local_addr()?.port();
    on_ready(&url);
    for conn in l.incoming() {
        match conn {
            Ok(s) => handle(db, port, s),
            Err(e) => eprintln!("tg console: {e}"),
        }
    }
    Ok(())
}
