//! `tg`: the TextGraph command line. This file sets up the process (budgets from the
//! global options, a deep stack, a cancellation token); `cli` parses and runs commands.

use std::process::ExitCode;

use clap::Parser as _;
use textgraph::limits::exit;

mod cli;
use cli::args::{Cli, Command, DEFAULT_MAX_ROWS, DEFAULT_MAX_TUPLES};

/// Stack of the thread every command runs on: deep (but bounded) nesting in programs and
/// queries recurses, and the depth limits (`textgraph::limits::depth`) stay well inside it.
const STACK_BYTES: usize = 1 << 30;

fn main() -> ExitCode {
    large_allocations_mapped();
    let alone = std::env::args_os().len() == 1;
    let cli = if alone { None } else { Some(Cli::parse()) };
    let limits = match cli.as_ref().map(limits_of).transpose() {
        Ok(l) => l.unwrap_or(textgraph::limits::budget::Limits {
            max_memory: Some(textgraph::limits::budget::default_max_memory()),
            timeout: None,
            max_tuples: Some(DEFAULT_MAX_TUPLES),
            max_rows: Some(DEFAULT_MAX_ROWS),
        }),
        Err(e) => {
            eprintln!("tg: {e}");
            return ExitCode::from(exit::ERROR);
        }
    };
    // The PDF child runs under an address-space cap a 1 GiB stack would not fit in.
    if let Some(Cli { command: Command::ExtractPdf, .. }) = &cli {
        return cli::dispatch(cli);
    }
    let run = move || {
        let _watch = textgraph::limits::budget::watch(limits);
        let token = textgraph::limits::cancel::Token::new();
        textgraph::limits::cancel::with_token(&token, || cli::dispatch(cli))
    };
    match std::thread::Builder::new().stack_size(STACK_BYTES).spawn(run).map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(exit::ERROR),
    }
}

/// Allocations of 1 MiB or more get mappings of their own, returned to the system when
/// freed. glibc's threshold otherwise rises to 32 MiB after the first large free, and a
/// large document's vectors then come from the heap and stay there: ~8 MB of the peak of
/// a 5 MB document (docs/BENCHMARKS.md, "Blocks of cells, a smaller cache, cells one at a time").
fn large_allocations_mapped() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of glibc's allocator; it is called before any
    // other thread exists, and a refused setting (return 0) leaves the default.
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// The budgets the global options ask for.
fn limits_of(cli: &Cli) -> Result<textgraph::limits::budget::Limits, String> {
    let max_memory = match &cli.max_memory {
        Some(s) => textgraph::limits::budget::parse_size(s).map_err(|e| format!("--max-memory: {e}"))?,
        None => textgraph::limits::budget::default_max_memory(),
    };
    let timeout = match cli.timeout {
        Some(t) if t.is_finite() && t > 0.0 => Some(std::time::Duration::from_secs_f64(t)),
        Some(t) => return Err(format!("--timeout: {t} is not a positive number of seconds")),
        None => None,
    };
    Ok(textgraph::limits::budget::Limits {
        max_memory: Some(max_memory),
        timeout,
        max_tuples: Some(cli.max_tuples.unwrap_or(DEFAULT_MAX_TUPLES)),
        max_rows: Some(cli.max_rows.unwrap_or(DEFAULT_MAX_ROWS)),
    })
}
