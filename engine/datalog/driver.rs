//! `tg run`: compile a program, load its inputs, evaluate, write its outputs.

use std::path::{Path, PathBuf};

use super::ast2logic;
use super::components;
use super::diag::{Diagnostic, Diagnostics, SourceMap};
use super::eval::{Database, EvalConfig, evaluate};
use super::host::HostTable;
use super::io::{OutputDir, read_inputs, write_output};
use super::logic::LogicProgram;
use super::parse::{ParseOptions, parse_file, parse_str};
use super::stratify::{Stratum, stratify};
use super::trace;
use super::value::Values;

/// A program that passed every check and is ready to evaluate.
#[derive(Debug)]
pub struct Compiled {
    /// Source files, for messages.
    pub sources: SourceMap,
    /// The validated program.
    pub prog: LogicProgram,
    /// Evaluation order.
    pub strata: Vec<Stratum>,
    /// Constants interned while lowering.
    pub values: Values,
    /// Warnings, rendered.
    pub warnings: String,
}

/// A program that did not compile: its error codes and every diagnostic rendered (with
/// `file:line:col`, the caret line and notes), which is what a user is shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rendered}")]
pub struct CompileError {
    /// The codes of the errors, in order (`TG0212`, …).
    pub codes: Vec<&'static str>,
    /// Every diagnostic (errors and warnings), rendered.
    pub rendered: String,
}

impl CompileError {
    fn of(diags: &Diagnostics, sm: &SourceMap) -> CompileError {
        let codes = diags.0.iter().filter(|d| d.severity == super::diag::Severity::Error).map(|d| d.code).collect();
        CompileError { codes, rendered: diags.render(sm) }
    }
}

/// Compiles programs: the include directories and host functors a program may use.
///
/// `Compiler::default()` knows no host functors; an application that gives its rules
/// Rust functions hands them over with [`Compiler::hosts`].
#[derive(Clone, Debug, Default)]
pub struct Compiler {
    opts: ParseOptions,
}

impl Compiler {
    /// A compiler with no include directories and no host functors.
    pub fn new() -> Compiler {
        Compiler::default()
    }

    /// Searches `dirs` for `#include` targets (`-I`).
    pub fn include_dirs(mut self, dirs: &[PathBuf]) -> Compiler {
        self.opts.include_dirs = dirs.to_vec();
        self
    }

    /// Lets programs call (and declare with `.functor`) the functors of `table`.
    pub fn hosts(mut self, table: HostTable) -> Compiler {
        self.opts.hosts = table;
        self
    }

    /// Compiles the program at `path`; on failure returns the rendered diagnostics.
    pub fn file(&self, path: &Path) -> Result<Compiled, CompileError> {
        let mut sm = SourceMap::default();
        let mut diags = Diagnostics::default();
        let ast = parse_file(path, &self.opts, &mut sm, &mut diags);
        self.finish(ast, sm, diags)
    }

    /// Compiles program text held in memory (`name` is used in messages and to resolve includes).
    pub fn text(&self, name: &str, text: &str) -> Result<Compiled, CompileError> {
        let mut sm = SourceMap::default();
        let mut diags = Diagnostics::default();
        let ast = parse_str(name, text, &self.opts, &mut sm, &mut diags);
        self.finish(ast, sm, diags)
    }

    /// Compiles one program made of several files held in memory, in order (a rule
    /// library and a case's rule files). Diagnostics name each file.
    pub fn sources(&self, files: &[(String, String)]) -> Result<Compiled, CompileError> {
        let (ast, sm, diags) = self.parse_sources(files);
        self.finish(ast, sm, diags)
    }

    /// Compiles in-memory sources like [`Compiler::sources`], but interns the program's
    /// constants into `values`, a table that outlives the program: the REPL evaluates many
    /// programs (one per query) over the same relations, which stay valid only while every
    /// program shares one symbol table. The returned `Compiled::values` is empty.
    pub fn sources_into(&self, files: &[(String, String)], values: &mut Values) -> Result<Compiled, CompileError> {
        let (ast, sm, diags) = self.parse_sources(files);
        self.lower_into(ast, sm, diags, values).map(|(sources, prog, strata, warnings)| Compiled { sources, prog, strata, values: Values::new(), warnings })
    }

    fn parse_sources(&self, files: &[(String, String)]) -> (super::ast::AstProgram, SourceMap, Diagnostics) {
        let mut sm = SourceMap::default();
        let mut diags = Diagnostics::default();
        let mut ast = super::ast::AstProgram { items: vec![] };
        for (name, text) in files {
            ast.items.extend(parse_str(name, text, &self.opts, &mut sm, &mut diags).items);
        }
        (ast, sm, diags)
    }

    fn finish(&self, ast: super::ast::AstProgram, sm: SourceMap, diags: Diagnostics) -> Result<Compiled, CompileError> {
        let mut values = Values::new();
        let (sources, prog, strata, warnings) = self.lower_into(ast, sm, diags, &mut values)?;
        Ok(Compiled { sources, prog, strata, values, warnings })
    }

    fn lower_into(&self, ast: super::ast::AstProgram, sm: SourceMap, mut diags: Diagnostics, values: &mut Values) -> Result<Lowered, CompileError> {
        if diags.has_errors() {
            return Err(CompileError::of(&diags, &sm));
        }
        let ast = components::expand(ast, &mut diags);
        let prog = ast2logic::lower(&ast, &sm, values, &mut diags, self.opts.hosts);
        if diags.has_errors() {
            return Err(CompileError::of(&diags, &sm));
        }
        let strata = stratify(&prog, &mut diags);
        if diags.has_errors() {
            return Err(CompileError::of(&diags, &sm));
        }
        let warnings = diags.render(&sm);
        Ok((sm, prog, strata, warnings))
    }
}

/// Compiles the program at `path` with no host functors.
pub fn compile(path: &Path, include_dirs: &[PathBuf]) -> Result<Compiled, CompileError> {
    Compiler::new().include_dirs(include_dirs).file(path)
}

/// Compiles program text held in memory, with no host functors.
pub fn compile_str(name: &str, text: &str) -> Result<Compiled, CompileError> {
    Compiler::new().text(name, text)
}

type Lowered = (SourceMap, LogicProgram, Vec<Stratum>, String);

/// Options of one `tg run`.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Directory of `<rel>.facts` inputs.
    pub fact_dir: PathBuf,
    /// Where outputs go.
    pub output: OutputDir,
    /// Keep witnesses.
    pub provenance: bool,
    /// Facts to explain after evaluation.
    pub explain: Vec<String>,
    /// Depth limit of explanations.
    pub explain_depth: usize,
    /// Let `.input`/`.output` `filename=` leave the `-F`/`-D` folders (`tg run --allow-paths`).
    pub allow_paths: bool,
}

/// What a run printed.
#[derive(Debug, Default)]
pub struct RunReport {
    /// Text for standard output (`.printsize`, `IO=stdout`, explanations), in a fixed order.
    pub stdout: String,
}

/// Evaluates a compiled program with inputs from `opts.fact_dir`.
pub fn run(c: Compiled, opts: &RunOptions) -> Result<(RunReport, Database, LogicProgram), String> {
    let Compiled { sources, prog, strata, mut values, .. } = c;
    let render = |d: Diagnostic| d.render(&sources);
    let inputs = read_inputs(&prog, &opts.fact_dir, opts.allow_paths, &mut values).map_err(render)?;
    let mut db = Database::new(&prog, values, &EvalConfig { provenance: opts.provenance });
    for (r, rows) in inputs {
        db.load(r, rows);
    }
    evaluate(&prog, &strata, &mut db).map_err(render)?;
    let mut report = RunReport::default();
    if let OutputDir::Dir(d) = &opts.output {
        std::fs::create_dir_all(d).map_err(|e| render(Diagnostic::global("TG0606", format!("cannot create output directory {}: {e}", d.display()))))?;
    }
    for (r, rel) in prog.relations.iter().enumerate() {
        let rows = db.rels[r].rows();
        let stride = db.rels[r].stride();
        for spec in &rel.outputs {
            if let Some(s) = write_output(&prog, r, spec, &rows, stride, &db.values, &opts.output, opts.allow_paths).map_err(render)? {
                report.stdout.push_str(&s);
            }
        }
        if rel.printsize {
            report.stdout.push_str(&format!("{}\t{}\n", rel.name, db.rels[r].len()));
        }
    }
    for fact in &opts.explain {
        let f = trace::parse_fact(&prog, &mut db, fact).map_err(|e| format!("error[TG0801]: {e}\n"))?;
        let text = trace::explain(&prog, &db, &f, opts.explain_depth).map_err(|e| format!("error[TG0801]: {e}\n"))?;
        report.stdout.push_str(&text);
    }
    Ok((report, db, prog))
}

/// The evaluation plan of every rule, stratum by stratum (`tg run --show plan`).
pub fn show_plans(c: &Compiled) -> String {
    use super::logic::Lit;
    use super::plan::{plan_rule, show};
    let prog = &c.prog;
    let arity = |r: usize| prog.relations[r].arity();
    let names = |r: usize| prog.relations[r].name.clone();
    let mut out = String::new();
    for (i, s) in c.strata.iter().enumerate() {
        let rels: Vec<&str> = s.relations.iter().map(|r| prog.relations[*r].name.as_str()).collect();
        out.push_str(&format!("stratum {i}: {}{}\n", rels.join(", "), if s.recursive { " (recursive)" } else { "" }));
        for &ri in &s.rules {
            let rule = &prog.rules[ri];
            if rule.body.is_empty() {
                continue;
            }
            out.push_str(&format!("  rule {}\n", rule.text));
            let var = |v: usize| rule.var_names.get(v).cloned().unwrap_or_default();
            let mut versions = vec![None];
            if s.recursive {
                versions = vec![];
                versions.push(None);
                for (pos, l) in rule.body.iter().enumerate() {
                    if let Lit::Atom(a) = l
                        && s.relations.contains(&a.rel)
                    {
                        versions.push(Some(pos));
                    }
                }
            }
            for (v, delta) in versions.iter().enumerate() {
                let label = if delta.is_some() { format!("version {}", v - 1) } else { "round 0".to_string() };
                match plan_rule(rule, *delta, v.saturating_sub(1), &arity) {
                    Ok(ops) => {
                        out.push_str(&format!("    {label}:\n"));
                        for line in show(&ops, &names, &var).lines() {
                            out.push_str(&format!("      {line}\n"));
                        }
                    }
                    Err(d) => out.push_str(&format!("    {label}: {}\n", d.message)),
                }
            }
        }
    }
    out
}
