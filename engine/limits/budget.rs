//! Resource budgets of one `tg` process: a memory ceiling, a deadline and a tuple budget
//! for Datalog. A watchdog thread ([`watch`]) samples the process's resident memory and
//! the clock; when a budget is passed it records why ([`tripped`]) and every evaluation
//! running under a [`crate::cancel::Token`] stops at its next poll, so the command ends
//! with a diagnostic (exit 2) instead of an abort. Datalog checks its tuple budget after
//! every round and names the relation that grew; GQL checks its row budget
//! ([`max_rows`]) whenever a clause adds a row to a table it holds.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

static TRIPPED: AtomicBool = AtomicBool::new(false);
static REASON: Mutex<Option<String>> = Mutex::new(None);
static MAX_TUPLES: AtomicU64 = AtomicU64::new(0);
static MAX_MEMORY: AtomicU64 = AtomicU64::new(0);
static MAX_ROWS: AtomicU64 = AtomicU64::new(0);

/// The budgets of one command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Resident memory ceiling in bytes (`None`: none).
    pub max_memory: Option<u64>,
    /// Wall-clock limit (`None`: none).
    pub timeout: Option<Duration>,
    /// Most tuples all Datalog relations may hold together (`None`: none).
    pub max_tuples: Option<u64>,
    /// Most rows one GQL clause may hold: a MATCH's or UNWIND's table, a projection's
    /// rows or groups, a UNION's result (`None`: none).
    pub max_rows: Option<u64>,
}

/// Whether a budget was passed (evaluations polling cancellation stop).
pub fn is_tripped() -> bool {
    TRIPPED.load(Ordering::Relaxed)
}

/// Why a budget was passed, if one was.
pub fn tripped() -> Option<String> {
    if !is_tripped() {
        return None;
    }
    REASON.lock().ok().and_then(|r| r.clone())
}

/// Records that a budget was passed (the first reason is kept).
pub fn trip(reason: String) {
    if let Ok(mut r) = REASON.lock()
        && r.is_none()
    {
        *r = Some(reason);
    }
    TRIPPED.store(true, Ordering::SeqCst);
}

/// Clears a trip (the REPL, after reporting it, goes on with the next input).
pub fn reset() {
    if let Ok(mut r) = REASON.lock() {
        *r = None;
    }
    TRIPPED.store(false, Ordering::SeqCst);
}

/// The Datalog tuple budget (`None`: none).
pub fn max_tuples() -> Option<u64> {
    match MAX_TUPLES.load(Ordering::Relaxed) {
        0 => None,
        n => Some(n),
    }
}

/// The GQL row budget (`None`: none).
pub fn max_rows() -> Option<u64> {
    match MAX_ROWS.load(Ordering::Relaxed) {
        0 => None,
        n => Some(n),
    }
}

/// Sets the GQL row budget without a watchdog (library callers and tests).
pub fn set_max_rows(n: Option<u64>) {
    MAX_ROWS.store(n.unwrap_or(0), Ordering::Relaxed);
}

/// The memory ceiling, if one is set (for messages).
pub fn max_memory() -> Option<u64> {
    match MAX_MEMORY.load(Ordering::Relaxed) {
        0 => None,
        n => Some(n),
    }
}

/// Sets the tuple budget without a watchdog (library callers and tests).
pub fn set_max_tuples(n: Option<u64>) {
    MAX_TUPLES.store(n.unwrap_or(0), Ordering::Relaxed);
}

/// The process's resident memory in bytes (Linux: `/proc/self/statm`; elsewhere `None`).
pub fn resident_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Total physical memory in bytes (Linux: `/proc/meminfo`).
pub fn physical_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The default memory ceiling: half the machine's memory, at most 8 GiB (a laptop stays usable).
pub fn default_max_memory() -> u64 {
    physical_bytes().map_or(4 << 30, |p| (p / 2).min(8 << 30))
}

/// Parses a size: a number of MiB, or a number with a `K`, `M`, `G` or `T` suffix (binary units).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], t[i..].to_ascii_uppercase()),
        None => (t, "M".to_string()),
    };
    let n: f64 = num.trim().parse().map_err(|_| format!("{s:?} is not a size (e.g. 512M, 4G)"))?;
    let mult: u64 = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "K" => 1 << 10,
        "M" | "" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("{s:?} is not a size (e.g. 512M, 4G)")),
    };
    if !(n.is_finite() && n > 0.0) {
        return Err(format!("{s:?} is not a positive size"));
    }
    Ok((n * mult as f64) as u64)
}

/// Stops the watchdog when dropped.
pub struct Watch {
    stop: std::sync::Arc<AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Starts the watchdog for `limits` (the tuple budget is set for Datalog to check).
pub fn watch(limits: Limits) -> Watch {
    set_max_tuples(limits.max_tuples);
    set_max_rows(limits.max_rows);
    MAX_MEMORY.store(limits.max_memory.unwrap_or(0), Ordering::Relaxed);
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let started = Instant::now();
    let handle = (limits.max_memory.is_some() || limits.timeout.is_some()).then(|| {
        std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                if let Some(max) = limits.max_memory
                    && let Some(rss) = resident_bytes()
                    && rss > max
                {
                    trip(format!("memory use passed the budget of {} MiB (--max-memory)", max >> 20));
                }
                if let Some(t) = limits.timeout
                    && started.elapsed() > t
                {
                    trip(format!("ran longer than the budget of {} s (--timeout)", t.as_secs_f64()));
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    });
    Watch { stop, handle }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes() {
        assert_eq!(super::parse_size("512"), Ok(512 << 20));
        assert_eq!(super::parse_size("2G"), Ok(2 << 30));
        assert_eq!(super::parse_size("100MiB"), Ok(100 << 20));
        assert!(super::parse_size("lots").is_err());
    }
}
