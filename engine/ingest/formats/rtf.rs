//! RTF: a small, linear reader of the text of an RTF file — groups, control words
//! (`\par`, `\line`, `\tab`, `\'hh` in the document code page, `\uN` with its
//! fallback skipped), destinations that hold no body text skipped (`\*`, font and
//! colour tables, style sheets, `\info`, pictures, objects, headers/footers). The text
//! then gets plain-text blocks. Group nesting is not recursive, so deep files are safe.

use super::text::{outline, text_items};
use tg_text::document::{Extracted, Skip};

const SKIP_DESTINATIONS: &[&str] = &[
    "fonttbl",
    "colortbl",
    "stylesheet",
    "info",
    "pict",
    "object",
    "header",
    "footer",
    "headerl",
    "headerr",
    "footerl",
    "footerr",
    "listtable",
    "listoverridetable",
    "revtbl",
    "rsidtbl",
    "generator",
    "xmlnstbl",
    "themedata",
    "colorschememapping",
    "datastore",
    "latentstyles",
    "pgdsctbl",
    "filetbl",
    "fldinst",
    "mmathPr",
    "bkmkstart",
    "bkmkend",
    "nonshppict",
    "shppict",
    "blipuid",
];

/// An RTF document.
pub fn extract(bytes: &[u8]) -> Result<Extracted, Skip> {
    if !bytes.starts_with(b"{\\rtf") {
        return Err(Skip::new("not RTF (no {\\rtf header)"));
    }
    let mut encoding = encoding_rs::WINDOWS_1252;
    let mut out = String::new();
    // Per group: (skipping?, unicode fallback count).
    let mut stack: Vec<(bool, usize)> = vec![];
    let mut skipping = false;
    let mut uc = 1usize;
    let mut pending_skip = 0usize;
    let mut raw: Vec<u8> = vec![];
    let mut i = 0;
    let flush = |raw: &mut Vec<u8>, out: &mut String, enc: &'static encoding_rs::Encoding| {
        if !raw.is_empty() {
            let (s, _, _) = enc.decode(raw);
            out.push_str(&s);
            raw.clear();
        }
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'{' => {
                stack.push((skipping, uc));
                i += 1;
            }
            b'}' => {
                flush(&mut raw, &mut out, encoding);
                if let Some((s, u)) = stack.pop() {
                    skipping = s;
                    uc = u;
                }
                i += 1;
            }
            b'\\' => {
                let Some(&n) = bytes.get(i + 1) else { break };
                if n.is_ascii_alphabetic() {
                    let mut j = i + 1;
                    while j < bytes.len() && bytes[j].is_ascii_alphabetic() && j - i < 32 {
                        j += 1;
                    }
                    let word = std::str::from_utf8(&bytes[i + 1..j]).unwrap_or("");
                    let ns = j;
                    if j < bytes.len() && (bytes[j] == b'-' || bytes[j].is_ascii_digit()) {
                        j += 1;
                        while j < bytes.len() && bytes[j].is_ascii_digit() && j - ns < 11 {
                            j += 1;
                        }
                    }
                    let param: Option<i64> = std::str::from_utf8(&bytes[ns..j]).ok().and_then(|p| p.parse().ok());
                    if j < bytes.len() && bytes[j] == b' ' {
                        j += 1;
                    }
                    i = j;
                    if pending_skip > 0 && word != "u" {
                        pending_skip -= 1;
                        continue;
                    }
                    if SKIP_DESTINATIONS.contains(&word) {
                        skipping = true;
                        continue;
                    }
                    if skipping {
                        continue;
                    }
                    match word {
                        "par" | "sect" | "page" => {
                            flush(&mut raw, &mut out, encoding);
                            out.push_str("\n\n");
                        }
                        "line" | "row" => {
                            flush(&mut raw, &mut out, encoding);
                            out.push('\n');
                        }
                        "tab" | "cell" => {
                            flush(&mut raw, &mut out, encoding);
                            out.push('\t');
                        }
                        "uc" => uc = param.unwrap_or(1).clamp(0, 8) as usize,
                        "u" => {
                            flush(&mut raw, &mut out, encoding);
                            let v = param.unwrap_or(0);
                            let v = if v < 0 { v + 65536 } else { v };
                            if let Some(ch) = u32::try_from(v).ok().and_then(char::from_u32) {
                                out.push(ch);
                            }
                            pending_skip = uc;
                        }
                        "ansicpg" => {
                            if let Some(enc) = param.and_then(|p| encoding_rs::Encoding::for_label(format!("windows-{p}").as_bytes())) {
                                encoding = enc;
                            }
                        }
                        "emdash" => out.push('—'),
                        "endash" => out.push('–'),
                        "lquote" => out.push('‘'),
                        "rquote" => out.push('’'),
                        "ldblquote" => out.push('“'),
                        "rdblquote" => out.push('”'),
                        "bullet" => out.push('•'),
                        _ => {}
                    }
                } else if n == b'\'' {
                    let hex = bytes.get(i + 2..i + 4).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
                    i += 4;
                    if pending_skip > 0 {
                        pending_skip -= 1;
                        continue;
                    }
                    if !skipping && let Some(b) = hex {
                        raw.push(b);
                    }
                } else {
                    i += 2;
                    if n == b'*' {
                        skipping = true;
                    } else if !skipping {
                        match n {
                            b'\\' | b'{' | b'}' => raw.push(n),
                            b'~' => raw.extend_from_slice("\u{a0}".as_bytes()),
                            b'\n' | b'\r' => {
                                flush(&mut raw, &mut out, encoding);
                                out.push_str("\n\n");
                            }
                            _ => {}
                        }
                    }
                }
            }
            b'\r' | b'\n' => i += 1,
            _ => {
                if pending_skip > 0 {
                    pending_skip -= 1;
                } else if !skipping {
                    raw.push(c);
                }
                i += 1;
            }
        }
    }
    flush(&mut raw, &mut out, encoding);
    // Normalise: trim line ends, at most one blank line in a row.
    let mut text = String::with_capacity(out.len());
    let mut blank = 0;
    for line in out.lines() {
        let l = line.trim_end();
        if l.is_empty() {
            blank += 1;
            continue;
        }
        if !text.is_empty() {
            text.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        text.push_str(l);
    }
    if text.trim().is_empty() {
        return Err(Skip::new("RTF has no text"));
    }
    let blocks = outline(&text, text_items(&text));
    Ok(Extracted { format: "rtf", text, blocks, ..Default::default() })
}
