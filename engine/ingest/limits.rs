//! Input limits that keep one hostile file from exhausting the machine.
//! Documented in docs/INGEST.md; every limit that trips becomes a skip or a warning
//! naming it, never a panic.

/// Largest file read at all (bytes); larger files are skipped.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;
/// Largest uncompressed size of one member of a DOCX/ODT/EPUB container.
pub const MAX_ZIP_MEMBER_BYTES: u64 = 64 * 1024 * 1024;
/// Largest total uncompressed size read from one container.
pub const MAX_ZIP_TOTAL_BYTES: u64 = 256 * 1024 * 1024;
/// Largest uncompressed/compressed ratio of a member bigger than 1 MiB (zip bombs).
pub const MAX_ZIP_RATIO: u64 = 100;
/// Most members a container may list.
pub const MAX_ZIP_ENTRIES: usize = 10_000;
/// Deepest HTML/XML element nesting that still opens blocks; deeper content is kept
/// as text of the innermost kept block, with a warning.
pub const MAX_NESTING: usize = 256;
/// Largest chunk (bytes): chunks pack whole sentences up to this size.
pub use tg_text::chunk::MAX_CHUNK_BYTES;
/// Longest log line (bytes) whose template is mined; longer lines are cut first.
pub const MAX_LOG_LINE_BYTES: usize = 4096;
/// Longest value stored as a `field` fact (bytes); longer values stay in the text only.
pub const MAX_FIELD_VALUE_BYTES: usize = 1024;
/// Deepest nesting of attachments (a mail attached to a mail attached to …).
pub const MAX_ATTACHMENT_DEPTH: u32 = 3;
/// Longest a PDF may take to extract in the child process (seconds).
pub const MAX_PDF_SECONDS: u64 = 120;
/// Address space of the PDF child process for a PDF of `bytes` bytes: a fixed 1 GiB base
/// plus 64 bytes per input byte (pdf-extract's layout keeps whole pages of glyphs).
pub fn pdf_memory_limit(bytes: u64) -> u64 {
    (1u64 << 30).saturating_add(bytes.saturating_mul(64))
}
/// Canonical text size (bytes) from which a document's structural facts are not held in
/// memory but produced in pieces as the store writes them (docs/ARCHITECTURE.md, "Large
/// documents"). The environment variable `TG_STREAM_BYTES` overrides it: tests set it
/// low to check that a streamed document is stored exactly as a whole one.
pub const STREAM_BYTES: usize = 1 << 20;

/// [`STREAM_BYTES`], or `TG_STREAM_BYTES` when that is set to a number.
pub fn stream_bytes() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::env::var("TG_STREAM_BYTES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(STREAM_BYTES))
}
