//! `tg`: the TextGraph command line.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use textgraph::datalog::driver::{RunOptions, compile, run, show_plans};
use textgraph::datalog::io::OutputDir;

/// TextGraph: case documents in, a byte-cited knowledge graph out.
#[derive(Parser, Debug)]
#[command(name = "tg", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Evaluate a Datalog program like `souffle -F FACTS -D OUT prog.dl`.
    Run {
        /// The program (.dl).
        program: PathBuf,
        /// Directory holding `<relation>.facts` inputs.
        #[arg(short = 'F', long = "facts", default_value = ".")]
        facts: PathBuf,
        /// Directory for `<relation>.csv` outputs; `-` prints them to stdout.
        #[arg(short = 'D', long = "output", default_value = ".")]
        output: String,
        /// Directories searched by `#include`.
        #[arg(short = 'I', long = "include-dir")]
        include: Vec<PathBuf>,
        /// Keep a canonical witness (rule, body tuples) for every derived tuple.
        #[arg(long)]
        provenance: bool,
        /// Print the proof tree of a fact such as 'path(1,5)' (needs --provenance; repeatable).
        #[arg(long)]
        explain: Vec<String>,
        /// Depth limit of proof trees.
        #[arg(long, default_value_t = 8)]
        depth: usize,
        /// Print something about the program instead of evaluating it: `plan` (join orders and indexes).
        #[arg(long, value_parser = ["plan"])]
        show: Option<String>,
        /// Accepted for Soufflé compatibility: the C preprocessor is never run.
        #[arg(long = "no-preprocessor", hide = true)]
        no_preprocessor: bool,
    },
}

/// Exit status of a run that failed (bad program, bad input, IO error); 0 is success.
const EXIT_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run { program, facts, output, include, provenance, explain, depth, show, no_preprocessor: _ } => {
            if !explain.is_empty() && !provenance {
                eprintln!("tg: --explain needs --provenance (witnesses are only kept when asked for)");
                return ExitCode::from(EXIT_ERROR);
            }
            let compiled = match compile(&program, &include) {
                Ok(c) => c,
                Err(diags) => {
                    eprint!("{diags}");
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            if !compiled.warnings.is_empty() {
                eprint!("{}", compiled.warnings);
            }
            if show.is_some() {
                print!("{}", show_plans(&compiled));
                return ExitCode::SUCCESS;
            }
            let out = if output == "-" { OutputDir::Stdout } else { OutputDir::Dir(PathBuf::from(output)) };
            let opts = RunOptions { fact_dir: facts, output: out, provenance, explain, explain_depth: depth };
            match run(compiled, &opts) {
                Ok((report, _, _)) => {
                    let mut so = std::io::stdout().lock();
                    if so.write_all(report.stdout.as_bytes()).is_err() {
                        return ExitCode::SUCCESS;
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprint!("{e}");
                    ExitCode::from(EXIT_ERROR)
                }
            }
        }
    }
}
