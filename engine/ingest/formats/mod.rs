//! One extractor per format family, and the dispatch that picks one by extension
//! (then by content for unknown extensions).
//!
//! Each extractor is `fn(&[u8]) -> Result<Extracted, Skip>`: it never panics on
//! input (PDF extraction, which can, runs under `catch_unwind`), and anything it
//! cannot read becomes a [`Skip`] with a one-line reason.

pub mod chat;
pub mod csv;
pub mod email;
pub mod html;
pub mod markdown;
pub mod office;
pub mod pdf;
pub mod rtf;
pub mod structured;
pub mod text;
pub mod xml;
pub mod zipread;

use tg_text::document::{Extracted, Skip};

/// The extension of a file name, lower-cased (`""` when none).
pub fn extension(name: &str) -> String {
    let base = name.rsplit('/').next().unwrap_or(name);
    match base.rfind('.') {
        Some(i) if i > 0 => base[i + 1..].to_ascii_lowercase(),
        _ => String::new(),
    }
}

/// Extracts a file's canonical document, choosing the extractor from the file name's
/// extension; an unknown extension is sniffed (PDF, RTF, zip containers) and otherwise
/// read as plain text when it is text.
pub fn extract(name: &str, bytes: &[u8]) -> Result<Extracted, Skip> {
    let ext = extension(name);
    match ext.as_str() {
        "txt" | "text" => {
            let (text, warnings) = decode_text(bytes)?;
            Ok(with_warnings(chat::extract_if_chat(&text).unwrap_or_else(|| text::extract(text, "txt")), warnings))
        }
        "md" | "markdown" => {
            let (text, warnings) = decode_text(bytes)?;
            Ok(with_warnings(markdown::extract(text), warnings))
        }
        "log" => {
            let (text, warnings) = decode_text(bytes)?;
            Ok(with_warnings(text::extract_log(text), warnings))
        }
        "html" | "htm" | "xhtml" => {
            let (text, warnings) = decode_text(bytes)?;
            Ok(with_warnings(html::extract(&text), warnings))
        }
        "csv" => csv::extract(bytes, b',', "csv"),
        "tsv" | "tab" => csv::extract(bytes, b'\t', "tsv"),
        "json" => {
            let (text, warnings) = decode_text(bytes)?;
            Ok(with_warnings(chat::extract_if_slack(&text).unwrap_or_else(|| structured::extract_json(text)), warnings))
        }
        "jsonl" | "ndjson" => {
            let (text, warnings) = decode_text(bytes)?;
            Ok(with_warnings(structured::extract_jsonl(text), warnings))
        }
        "yaml" | "yml" => {
            let (text, warnings) = decode_text(bytes)?;
            Ok(with_warnings(structured::extract_yaml(text), warnings))
        }
        "toml" => {
            let (text, warnings) = decode_text(bytes)?;
            Ok(with_warnings(structured::extract_toml(text), warnings))
        }
        "pdf" => pdf::extract(bytes),
        "docx" => office::extract_docx(bytes),
        "odt" => office::extract_odt(bytes),
        "epub" => office::extract_epub(bytes),
        "rtf" => rtf::extract(bytes),
        "eml" => email::extract_eml(bytes),
        "mbox" => email::extract_mbox(bytes),
        _ => sniff(bytes),
    }
}

/// Unknown extension: recognise a few formats by their first bytes, else plain text.
fn sniff(bytes: &[u8]) -> Result<Extracted, Skip> {
    if bytes.starts_with(b"%PDF-") {
        return pdf::extract(bytes);
    }
    if bytes.starts_with(b"{\\rtf") {
        return rtf::extract(bytes);
    }
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return office::extract_any_zip(bytes);
    }
    let (text, warnings) = decode_text(bytes)?;
    Ok(with_warnings(text::extract(text, "txt"), warnings))
}

fn with_warnings(mut x: Extracted, warnings: Vec<String>) -> Extracted {
    x.warnings.splice(0..0, warnings);
    x
}

/// Reads bytes as text: UTF-8 (BOM dropped), UTF-16 with a BOM, or — when the bytes
/// are not valid UTF-8 but look like text — Windows-1252 with a warning. Empty files
/// and binary data (NUL bytes or many control characters) are skipped.
pub fn decode_text(bytes: &[u8]) -> Result<(String, Vec<String>), Skip> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Skip::new(if bytes.is_empty() { "empty file" } else { "empty file (only whitespace)" }));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return decode_text(rest);
    }
    for (bom, enc) in [(&b"\xFF\xFE"[..], encoding_rs::UTF_16LE), (&b"\xFE\xFF"[..], encoding_rs::UTF_16BE)] {
        if bytes.starts_with(bom) {
            let (text, _, bad) = enc.decode(bytes);
            // Two bytes that happen to look like a BOM do not make a text.
            if !text.chars().any(|c| c.is_ascii_alphanumeric() || c.is_ascii_whitespace()) {
                break;
            }
            let mut w = vec![];
            if bad {
                w.push(format!("malformed {} replaced by U+FFFD", enc.name()));
            }
            return Ok((text.into_owned(), w));
        }
    }
    if looks_binary(bytes) {
        return Err(Skip::new("binary file (not text, format not recognised)"));
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok((s.to_string(), vec![])),
        Err(e) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            Ok((text.into_owned(), vec![format!("invalid UTF-8 at byte {}: decoded as Windows-1252", e.valid_up_to())]))
        }
    }
}

/// NUL bytes, or more than 10 % control characters, in the first 8 KiB.
pub fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    if head.contains(&0) {
        return true;
    }
    let controls = head.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c)).count();
    controls * 10 > head.len()
}
