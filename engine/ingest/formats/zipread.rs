//! Reading members of DOCX/ODT/EPUB containers within limits: a member's declared and
//! actual uncompressed size, the container's total, the compression ratio (zip bombs)
//! and the member count are all bounded (see `limits`); crossing one skips the file
//! with a reason naming the limit.

use std::io::{Cursor, Read};

use crate::limits::{MAX_ZIP_ENTRIES, MAX_ZIP_MEMBER_BYTES, MAX_ZIP_RATIO, MAX_ZIP_TOTAL_BYTES};
use tg_text::document::Skip;

/// An opened container.
pub struct Container<'a> {
    archive: zip::ZipArchive<Cursor<&'a [u8]>>,
    total: u64,
}

impl<'a> Container<'a> {
    /// Opens a zip container held in memory.
    pub fn open(bytes: &'a [u8], what: &str) -> Result<Container<'a>, Skip> {
        let archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| Skip::new(format!("invalid {what} (not a readable zip container: {e})")))?;
        if archive.len() > MAX_ZIP_ENTRIES {
            return Err(Skip::new(format!("{what} has {} zip members (limit {MAX_ZIP_ENTRIES})", archive.len())));
        }
        Ok(Container { archive, total: 0 })
    }

    /// Member names, in archive order.
    pub fn names(&self) -> Vec<String> {
        self.archive.file_names().flatten().map(|n| n.into_owned()).collect()
    }

    /// Whether the container has a member of this name.
    pub fn has(&self, name: &str) -> bool {
        self.archive.index_for_name(name).is_some()
    }

    /// A member's bytes (`None` if absent), enforcing the limits.
    pub fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, Skip> {
        let mut f = match self.archive.by_name(name) {
            Ok(f) => f,
            Err(zip::result::ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(Skip::new(format!("zip member {name} unreadable: {e}"))),
        };
        let size = f.size();
        let packed = f.compressed_size().max(1);
        if size > MAX_ZIP_MEMBER_BYTES {
            return Err(Skip::new(format!("zip member {name} is {size} bytes uncompressed (limit {MAX_ZIP_MEMBER_BYTES})")));
        }
        if size > 1024 * 1024 && size / packed > MAX_ZIP_RATIO {
            return Err(Skip::new(format!("zip bomb: member {name} expands {}x (limit {MAX_ZIP_RATIO}x)", size / packed)));
        }
        let mut out = Vec::with_capacity(size.min(MAX_ZIP_MEMBER_BYTES) as usize);
        // The declared size may lie: never read past the limit.
        (&mut f).take(MAX_ZIP_MEMBER_BYTES + 1).read_to_end(&mut out).map_err(|e| Skip::new(format!("zip member {name} unreadable: {e}")))?;
        if out.len() as u64 > MAX_ZIP_MEMBER_BYTES {
            return Err(Skip::new(format!("zip member {name} is over {MAX_ZIP_MEMBER_BYTES} bytes uncompressed (limit)")));
        }
        self.total += out.len() as u64;
        if self.total > MAX_ZIP_TOTAL_BYTES {
            return Err(Skip::new(format!("container expands past {MAX_ZIP_TOTAL_BYTES} bytes in total (limit)")));
        }
        Ok(Some(out))
    }

    /// A member as UTF-8 text (BOM dropped; invalid bytes replaced).
    pub fn read_text(&mut self, name: &str) -> Result<Option<String>, Skip> {
        Ok(self.read(name)?.map(|b| {
            let b = b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&b);
            String::from_utf8_lossy(b).into_owned()
        }))
    }
}
