//! The viewer (issue 23): `tg export --format html` as one self-contained file and
//! `tg console` serving it on 127.0.0.1, both rendered in headless Chromium (Debian's
//! package) with the DOM checked after the page's script ran (`--dump-dom`): the graph's
//! counts, the inspector's cited claims, path mode, the GENERATED filter, the valid-time
//! slider and search, each set through the page's address.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{copy_dir, root, scratch, stderr, stdout, tg};

/// Chromium, or `None` (after saying why) to skip; required under `TG_REQUIRE_BROWSER=1`.
fn chromium() -> Option<PathBuf> {
    let p = std::env::var_os("TG_CHROMIUM").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("chromium"));
    if Command::new(&p).arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Some(p);
    }
    let why = format!("{} is not runnable; run scripts/browser.sh (Debian's chromium package)", p.display());
    if std::env::var("TG_REQUIRE_BROWSER").as_deref() == Ok("1") {
        panic!("TG_REQUIRE_BROWSER=1 but {why}");
    }
    eprintln!("SKIPPED: {why}");
    None
}

/// The DOM after the page's script ran.
fn dom(chrome: &Path, url: &str, profile: &Path) -> String {
    let o = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = stdout(&o);
    assert!(text.contains("data-ready=\"1\""), "the page's script did not finish on {url}:\n{}\n{}", text, stderr(&o));
    text
}

fn built(name: &str) -> PathBuf {
    let d = scratch("console", name);
    copy_dir(&root().join("fixtures/case-files"), &d.join("corpus"));
    for args in [&["build", "corpus", "--db", "db"][..], &["derive", "--db", "db"][..]] {
        let o = tg(&d, args);
        assert_eq!(o.status.code(), Some(0), "tg {args:?}: {}", stderr(&o));
    }
    // One outside claim, GENERATED, so the filter has something to hide.
    let o = tg(
        &d,
        &[
            "claim",
            "record",
            "--db",
            "db",
            "--doc",
            "registry-notes.txt",
            "--subject",
            "Marek Novak",
            "--relation",
            "CONTROLS",
            "--object",
            "Orion Nominees Ltd",
            "--quote",
            "Orion Nominees Ltd is controlled by Marek Novak.",
            "--modality",
            "assertion",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    d
}

/// The checks both the file and the served page must pass; `base` is the page's URL.
fn check_viewer(chrome: &Path, base: &str, profile: &Path) {
    let beta = "Organization%3Abeta%20holdings";
    let d = dom(chrome, base, profile);
    assert!(d.contains("id=\"status\">55 entities · 21 of 22 claims shown · 13 documents<"), "{d}");
    assert!(d.contains("<li data-id=\"Organization:beta holdings\" class=\"entity\">"), "{d}");
    let d = dom(chrome, &format!("{base}#generated=1"), profile);
    assert!(d.contains("22 of 22 claims shown"), "GENERATED claims are not shown when asked");
    let d = dom(chrome, &format!("{base}#t=2024-03-02"), profile);
    assert!(d.contains("14 of 22 claims shown"), "the time slider did not filter");
    let d = dom(chrome, &format!("{base}#select={beta}"), profile);
    assert!(d.contains("<h3 id=\"sel-name\">beta holdings</h3>"), "{d}");
    assert!(d.contains("same as: Organization:beta holdings, Organization:beta holdings sa"), "{d}");
    assert!(d.contains("<h4 id=\"sel-claims\">13 cited claims</h4>"), "{d}");
    assert!(
        d.contains("“2024-03-01,WT-1001,Acme Trading Ltd,Beta Holdings SA,NR,495000,SWIFT”")
            || d.contains("2024-03-01,WT-1001,Acme Trading Ltd,Beta Holdings SA,NR,495000,SWIFT</q><span class=\"cite\">[wire-log.csv:77-145]</span>"),
        "{d}"
    );
    assert!(d.contains("valid 2024-03-09 – open"), "no validity window in the inspector");
    let d = dom(chrome, &format!("{base}#from=Organization%3Aacme%20trading%20ltd&to=Organization%3Aorion%20nominees%20ltd"), profile);
    assert!(d.contains("<h4>path: 2 hops</h4>"), "{d}");
    assert!(d.contains("[wire-transfer-memo.txt:178-331]") && d.contains("[registry-notes.txt:116-218]"), "{d}");
    let d = dom(chrome, &format!("{base}#q=nauru"), profile);
    assert_eq!(d.matches("class=\"entity match\"").count(), 3, "search should mark nauru and the two entities whose claims quote it");
}

/// A screenshot of `url` (1280×800) as RGBA pixels, row by row.
fn screenshot(chrome: &Path, url: &str, profile: &Path, out: &Path) -> (u32, u32, Vec<u8>) {
    let o = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--hide-scrollbars",
            "--window-size=1280,800",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", out.display()))
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.exists(), "no screenshot of {url}: {}", stderr(&o));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(out).unwrap_or_else(|e| panic!("{e}"))));
    let mut reader = decoder.read_info().unwrap_or_else(|e| panic!("{e}"));
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader.next_frame(&mut buf).unwrap_or_else(|e| panic!("{e}"));
    let channels = info.color_type.samples();
    let rgba: Vec<u8> = buf[..info.buffer_size()].chunks(channels).flat_map(|p| [p[0], p[1], p[2], if channels == 4 { p[3] } else { 255 }]).collect();
    (info.width, info.height, rgba)
}

/// Pixels of each entity-type colour of the viewer's palette inside the canvas (the middle
/// column: the side list's swatches are outside it).
fn canvas_colours(w: u32, h: u32, px: &[u8]) -> Vec<(&'static str, usize)> {
    const PALETTE: [(&str, [u8; 3]); 4] = [("Person", [0x1e, 0x88, 0xe5]), ("Organization", [0x43, 0xa0, 0x47]), ("Location", [0xfb, 0x8c, 0x00]), ("Money", [0x8e, 0x24, 0xaa])];
    let mut counts = vec![0usize; PALETTE.len()];
    for y in 60..h.saturating_sub(10) {
        for x in 270..w.saturating_sub(370) {
            let i = ((y * w + x) * 4) as usize;
            if let Some(k) = PALETTE.iter().position(|(_, c)| px[i..i + 3] == *c) {
                counts[k] += 1;
            }
        }
    }
    PALETTE.iter().map(|(n, _)| *n).zip(counts).collect()
}

#[test]
fn a_screenshot_shows_the_graph_drawn_by_type() {
    let Some(chrome) = chromium() else { return };
    let d = built("shot");
    let o = tg(&d, &["export", "--db", "db", "--format", "html", "-o", "viewer.html"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let url = format!("file://{}", d.join("viewer.html").display());
    let (w, h, px) = screenshot(&chrome, &url, &d.join("profile"), &d.join("shot.png"));
    assert_eq!((w, h), (1280, 800));
    // The case has people, organisations and places: each drawn on the canvas in its colour.
    let colours = canvas_colours(w, h, &px);
    for kind in ["Person", "Organization", "Location"] {
        let n = colours.iter().find(|(k, _)| *k == kind).map_or(0, |c| c.1);
        assert!(n >= 20, "the canvas shows no {kind} node: {colours:?}");
    }
    // Before any claim is valid the graph shows fewer edges: the picture changes.
    let (_, _, early) = screenshot(&chrome, &format!("{url}#t=2024-01-01"), &d.join("profile"), &d.join("early.png"));
    assert_ne!(px, early, "the valid-time slider does not change the picture");
}

#[test]
fn the_html_export_is_one_self_contained_file_that_renders() {
    let d = built("html");
    let o = tg(&d, &["export", "--db", "db", "--format", "html", "-o", "viewer.html"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(d.join("viewer.html")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!html.contains("<script src") && !html.contains("<link") && !html.contains("@import"), "the viewer must not load anything");
    assert!(html.contains("default-src 'none'"), "no content security policy");
    let again = stdout(&tg(&d, &["export", "--db", "db", "--format", "html"]));
    assert!(again == html, "two html exports of one store differ");
    let Some(chrome) = chromium() else { return };
    let url = format!("file://{}", d.join("viewer.html").display());
    check_viewer(&chrome, &url, &d.join("profile"));
}

#[test]
fn the_console_serves_the_viewer_on_loopback_and_leaves_the_store_readable() {
    let d = built("console");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tg"))
        .current_dir(&d)
        .args(["console", "--db", "db", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("no stdout"))).read_line(&mut line).unwrap_or_else(|e| panic!("{e}"));
    let url = line.split_whitespace().find(|w| w.starts_with("http://127.0.0.1:")).unwrap_or_else(|| panic!("no URL in {line:?}")).to_string();
    assert!(line.starts_with("tg console: serving http://127.0.0.1:"), "{line}");
    let port = url.trim_start_matches("http://127.0.0.1:").trim_end_matches('/').to_string();
    let get = |host: &str, path: &str| {
        let mut s = std::net::TcpStream::connect(format!("127.0.0.1:{port}")).unwrap_or_else(|e| panic!("{e}"));
        write!(s, "GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap_or_else(|e| panic!("{e}"));
        let mut r = String::new();
        s.read_to_string(&mut r).unwrap_or_else(|e| panic!("{e}"));
        r
    };
    let r = get(&format!("127.0.0.1:{port}"), "/graph.json");
    assert!(r.starts_with("HTTP/1.1 200 OK\r\n") && r.contains("\"format\": \"textgraph-viewer/1\""), "{r}");
    assert!(get("evil.example", "/").starts_with("HTTP/1.1 403 Forbidden"), "a foreign Host must be refused");
    assert!(get(&format!("127.0.0.1:{port}"), "/nope").starts_with("HTTP/1.1 404"));
    // Other commands read the store while the console runs.
    let o = tg(&d, &["stats", "--db", "db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let result = std::panic::catch_unwind(|| {
        if let Some(chrome) = chromium() {
            check_viewer(&chrome, &url, &d.join("profile"));
        }
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}
