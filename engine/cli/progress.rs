//! The progress of `tg build` on a terminal (issue 20): files done of total, megabytes
//! read of total, MB/s and an ETA from the bytes still to read. The build's callback
//! reports files and ids; the sizes come from one walk of the corpus before the build
//! (the same walk the build makes), so a large file counts for what it weighs.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use textgraph::ingest::walk::{Entry, walk_with};

/// Bytes per megabyte in the display (decimal, as MB/s is usually read).
const MB: f64 = 1_000_000.0;

/// Byte counts behind the progress line.
pub struct Bytes {
    sizes: BTreeMap<String, u64>,
    total: u64,
    state: Mutex<(u64, Vec<String>)>,
    started: Instant,
}

impl Bytes {
    /// Sizes of the corpus files under `root` (the store at `exclude` left out).
    pub fn of_corpus(root: &Path, exclude: &Path, follow_links: bool) -> Bytes {
        let mut sizes = BTreeMap::new();
        for e in walk_with(root, &[exclude.to_path_buf()], follow_links) {
            if let Entry::File(id, path) = e {
                sizes.insert(id, std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0));
            }
        }
        let total = sizes.values().sum();
        Bytes { sizes, total, state: Mutex::new((0, vec![])), started: Instant::now() }
    }

    /// Total bytes of the corpus.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Counts the file of `id` done (once; an attachment's id counts nothing more) and
    /// returns the bytes done so far.
    pub fn done(&self, id: &str) -> u64 {
        let Ok(mut s) = self.state.lock() else { return 0 };
        let file = id.split('#').next().unwrap_or(id);
        if let Some(&n) = self.sizes.get(file)
            && !s.1.iter().any(|x| x == file)
        {
            s.1.push(file.to_string());
            s.0 += n;
        }
        s.0
    }

    /// The progress line: `3/13 files, 0.01 of 0.02 MB, 1.25 MB/s, ETA 0 s`.
    pub fn line(&self, files: usize, total_files: usize, bytes: u64) -> String {
        line(files, total_files, bytes, self.total, self.started.elapsed().as_secs_f64())
    }
}

/// [`Bytes::line`] from its numbers (pure, for tests).
pub fn line(files: usize, total_files: usize, bytes: u64, total: u64, secs: f64) -> String {
    let rate = if secs > 0.0 { bytes as f64 / MB / secs } else { 0.0 };
    let left = total.saturating_sub(bytes) as f64 / MB;
    let eta = if rate > 0.0 { format!("{:.0} s", left / rate) } else { "?".to_string() };
    format!("{files}/{total_files} files, {:.2} of {:.2} MB, {rate:.2} MB/s, ETA {eta}", bytes as f64 / MB, total as f64 / MB)
}

#[cfg(test)]
mod tests {
    use super::line;

    /// Rate and ETA come from the bytes: 2 of 10 MB in 1 s is 2 MB/s, 4 s left.
    #[test]
    fn rate_and_eta_from_bytes() {
        assert_eq!(line(1, 5, 2_000_000, 10_000_000, 1.0), "1/5 files, 2.00 of 10.00 MB, 2.00 MB/s, ETA 4 s");
        assert_eq!(line(0, 5, 0, 10_000_000, 0.0), "0/5 files, 0.00 of 10.00 MB, 0.00 MB/s, ETA ?");
    }
}
