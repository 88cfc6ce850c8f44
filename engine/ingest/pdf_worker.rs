//! PDF extraction in a child process (`tg __extract-pdf`): the parent writes the PDF to
//! the child's stdin and reads a JSON result from its stdout. A child that crashes
//! (abort, stack overflow — which `catch_unwind` cannot catch) or runs past
//! [`MAX_PDF_SECONDS`](super::limits::MAX_PDF_SECONDS) becomes a skip with the reason.
//! On Linux the child dies with its parent (`PR_SET_PDEATHSIG`), so a killed `tg build`
//! leaves no extractor running, and its address space is capped
//! ([`pdf_memory_limit`](super::limits::pdf_memory_limit)): a PDF that needs more becomes
//! a skip naming the limit instead of exhausting the machine.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::limits::MAX_PDF_SECONDS;
use tg_text::document::{Block, Extracted, Skip};

/// A block as it crosses the pipe: kind, start, end, parent, title span, level.
type WireBlock = (String, usize, usize, Option<usize>, Option<(usize, usize)>, u32);

/// The result as it crosses the pipe.
#[derive(Serialize, Deserialize)]
enum Wire {
    /// Extracted: text, blocks `(kind, start, end, parent, title, level)`, warnings.
    Ok { text: String, blocks: Vec<WireBlock>, warnings: Vec<String> },
    /// Skipped, with the reason.
    Skip(String),
}

/// The block kinds a PDF yields, as `'static` names.
fn kind(k: &str) -> &'static str {
    ["page", "paragraph", "list_item", "section", "list", "table", "row", "heading"].into_iter().find(|x| *x == k).unwrap_or("block")
}

/// The child's side: extracts `bytes` and returns the JSON to print.
pub fn child_main(bytes: &[u8]) -> String {
    // Test hook (tests/hardening.rs): a child that never finishes, to show it dies with
    // its parent.
    if std::env::var_os("TG_TEST_PDF_WORKER_HANG").is_some() {
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    let wire = match super::catch_quietly(|| super::formats::pdf::extract(bytes)) {
        Ok(Ok(x)) => {
            Wire::Ok { blocks: x.blocks.iter().map(|b| (b.kind.to_string(), b.span.0, b.span.1, b.parent, b.title, b.level)).collect(), text: x.text, warnings: x.warnings }
        }
        Ok(Err(s)) => Wire::Skip(s.0),
        Err(msg) => Wire::Skip(format!("extractor failed: {}", msg.lines().next().unwrap_or(""))),
    };
    serde_json::to_string(&wire).unwrap_or_else(|e| format!("{{\"Skip\":\"cannot encode result: {e}\"}}"))
}

/// The parent's side: runs `exe __extract-pdf` on `bytes`.
pub fn extract_in_child(exe: &Path, bytes: &[u8]) -> Result<Extracted, Skip> {
    let mut cmd = Command::new(exe);
    cmd.arg("__extract-pdf").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let memory = super::limits::pdf_memory_limit(bytes.len() as u64);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt as _;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: only async-signal-safe calls (prctl, getppid, setrlimit, _exit) run
        // between fork and exec.
        #[allow(unsafe_code)]
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
                // The parent may have died before prctl took effect.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                let lim = libc::rlimit { rlim_cur: memory as libc::rlim_t, rlim_max: memory as libc::rlim_t };
                libc::setrlimit(libc::RLIMIT_AS, &lim);
                Ok(())
            });
        }
    }
    let mut child = cmd.spawn().map_err(|e| Skip::new(format!("cannot start the PDF extractor: {e}")))?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let limit = Duration::from_secs(MAX_PDF_SECONDS);
    let (status, out, errors) = std::thread::scope(|s| {
        s.spawn(move || {
            if let Some(mut i) = stdin {
                let _ = i.write_all(bytes);
            }
        });
        let reader = s.spawn(move || {
            let mut v = vec![];
            if let Some(mut o) = stdout {
                let _ = o.read_to_end(&mut v);
            }
            v
        });
        let errors = s.spawn(move || {
            let mut v = vec![];
            if let Some(e) = stderr {
                let _ = e.take(64 * 1024).read_to_end(&mut v);
            }
            v
        });
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => break Some(st),
                Ok(None) if started.elapsed() > limit => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => break None,
            }
        };
        (status, reader.join().unwrap_or_default(), errors.join().unwrap_or_default())
    });
    let Some(status) = status else {
        return Err(Skip::new(format!("PDF extraction took longer than {MAX_PDF_SECONDS} s (limit)")));
    };
    match serde_json::from_slice::<Wire>(&out) {
        Ok(Wire::Ok { text, blocks, warnings }) => {
            let blocks = blocks.into_iter().map(|(k, s, e, parent, title, level)| Block { kind: kind(&k), span: (s, e), parent, title, level }).collect();
            Ok(Extracted { format: "pdf", text, blocks, warnings, ..Default::default() })
        }
        Ok(Wire::Skip(reason)) => Err(Skip(reason)),
        Err(_) if String::from_utf8_lossy(&errors).contains("memory allocation of") => {
            Err(Skip::new(format!("PDF extraction needs more than its memory limit of {} MiB", memory >> 20)))
        }
        Err(_) => Err(Skip::new(format!("PDF extractor crashed ({status})"))),
    }
}
