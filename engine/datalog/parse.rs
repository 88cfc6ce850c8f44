//! `.dl` text → [`AstProgram`]: the only module that sees pest pairs.
//!
//! Parsing resolves `#include` / `.include` (relative to the including file,
//! then to each `-I` directory; `.once` files are read once) and reports syntax
//! errors as diagnostics with what the parser expected.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use pest::Parser as _;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::ast::*;
use super::diag::{Diagnostic, Diagnostics, SourceMap, Span};

mod grammar {
    //! The pest parser generated from `grammar/datalog.pest`.
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "../../grammar/datalog.pest"]
    pub struct DlParser;
}
use grammar::{DlParser, Rule};

/// A clause's head atoms, body, `.plan` (version → atom order) and span.
type ClauseParts = (Vec<AstAtom>, Vec<AstLiteral>, Vec<(u32, Vec<u32>)>, Span);

/// Everything needed to parse one program: the file system view and include dirs.
#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// Extra directories searched for `#include` targets (`-I`).
    pub include_dirs: Vec<PathBuf>,
    /// The host functors a `.functor` declaration may name.
    pub hosts: super::host::HostTable,
}

/// Parses the program at `path` (reading it and its includes).
pub fn parse_file(path: &Path, opts: &ParseOptions, sm: &mut SourceMap, diags: &mut Diagnostics) -> AstProgram {
    let mut ctx = Ctx { opts, sm, diags, once: BTreeSet::new(), depth: 0 };
    let mut prog = AstProgram::default();
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let fid = ctx.sm.add(path.to_path_buf(), text);
            ctx.parse_source(fid, &mut prog.items);
        }
        Err(e) => ctx.diags.push(Diagnostic::global("TG0601", format!("cannot read program {}: {e}", path.display()))),
    }
    prog
}

/// Parses program text held in memory (the REPL, tests); includes resolve against `name`'s directory.
pub fn parse_str(name: &str, text: &str, opts: &ParseOptions, sm: &mut SourceMap, diags: &mut Diagnostics) -> AstProgram {
    let mut ctx = Ctx { opts, sm, diags, once: BTreeSet::new(), depth: 0 };
    let mut prog = AstProgram::default();
    let fid = ctx.sm.add(PathBuf::from(name), text.to_string());
    ctx.parse_source(fid, &mut prog.items);
    prog
}

struct Ctx<'a> {
    opts: &'a ParseOptions,
    sm: &'a mut SourceMap,
    diags: &'a mut Diagnostics,
    once: BTreeSet<PathBuf>,
    depth: usize,
}

fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::lor, Assoc::Left))
            .op(Op::infix(Rule::lxor, Assoc::Left))
            .op(Op::infix(Rule::land, Assoc::Left))
            .op(Op::infix(Rule::bor, Assoc::Left))
            .op(Op::infix(Rule::bxor, Assoc::Left))
            .op(Op::infix(Rule::band, Assoc::Left))
            .op(Op::infix(Rule::bshl, Assoc::Left) | Op::infix(Rule::bshr, Assoc::Left) | Op::infix(Rule::bshru, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left) | Op::infix(Rule::modulo, Assoc::Left))
            .op(Op::prefix(Rule::neg) | Op::prefix(Rule::bnot) | Op::prefix(Rule::lnot))
            .op(Op::infix(Rule::pow, Assoc::Right))
    })
}

fn friendly(rule: &Rule) -> &'static str {
    match rule {
        Rule::dot => "'.'",
        Rule::atom => "an atom",
        Rule::expr | Rule::constraint => "an expression",
        Rule::cmp_op => "a comparison operator",
        Rule::qname | Rule::ident => "a name",
        Rule::string => "a string",
        Rule::number | Rule::float => "a number",
        Rule::body => "a rule body",
        Rule::literal | Rule::neg_atom | Rule::pred | Rule::neg_pred => "a body literal",
        Rule::item | Rule::clause | Rule::subsumption_clause => "a declaration, directive or clause",
        Rule::EOI => "end of input",
        Rule::attr => "an attribute 'name: type'",
        Rule::qualifier | Rule::choice_domain => "a qualifier",
        Rule::kv => "a parameter 'key=value'",
        Rule::plan_item => "a plan 'N:(i,j,…)'",
        Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::modulo | Rule::pow => "an operator",
        _ => "",
    }
}

impl Ctx<'_> {
    fn span(&self, fid: u32, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span { file: fid, start: s.start() as u32, end: s.end() as u32 }
    }

    fn parse_source(&mut self, fid: u32, out: &mut Vec<AstItem>) {
        let text = self.sm.text(fid).to_string();
        if let Err(e) = tg_limits::depth::check(&text, tg_limits::depth::Lang::Datalog) {
            let end = (e.offset + 1).min(text.len());
            self.diags.push(Diagnostic::error("TG0104", Span { file: fid, start: e.offset as u32, end: end as u32 }, e.message));
            return;
        }
        match DlParser::parse(Rule::program, &text) {
            Ok(mut pairs) => {
                let Some(program) = pairs.next() else { return };
                let items: Vec<Pair<Rule>> = program.into_inner().collect();
                self.lower_items(fid, items, out);
            }
            Err(e) => {
                let pos = match e.location {
                    pest::error::InputLocation::Pos(p) => p,
                    pest::error::InputLocation::Span((s, _)) => s,
                };
                let mut expected: Vec<&str> = match &e.variant {
                    pest::error::ErrorVariant::ParsingError { positives, .. } => positives.iter().map(friendly).filter(|s| !s.is_empty()).collect(),
                    pest::error::ErrorVariant::CustomError { .. } => vec![],
                };
                expected.sort_unstable();
                expected.dedup();
                let found = text[pos..].chars().next();
                let probe = &text[..floor_boundary(&text, (pos + 2).min(text.len()))];
                let unterminated = probe.rfind("/*").is_some_and(|i| !text[i + 2..].contains("*/"));
                let msg = if unterminated {
                    "unterminated comment".to_string()
                } else {
                    match found {
                        None => "syntax error: unexpected end of file".to_string(),
                        Some(c) => format!("syntax error: unexpected '{c}'"),
                    }
                };
                let at = if unterminated {
                    probe.rfind("/*").unwrap_or(pos)
                } else if found.is_none() {
                    // At end of file, point just past the last token rather than at an empty line.
                    text.trim_end().len()
                } else {
                    pos
                };
                let end = (at + found.map(char::len_utf8).unwrap_or(0)).min(text.len());
                if self.sm.path(fid).is_file() && !tg_text::sniff::looks_like_datalog(&text) {
                    // Not Datalog at all: say so, without printing a line of the file.
                    let d = Diagnostic::global("TG0103", format!("{} is not a Datalog program", self.sm.path(fid).display()))
                        .with_note("it does not begin with a declaration, directive, fact or rule; its contents are not shown");
                    self.diags.push(d);
                    return;
                }
                let mut d = Diagnostic::error("TG0101", Span { file: fid, start: at as u32, end: end as u32 }, msg);
                if !expected.is_empty() && !unterminated {
                    d = d.with_note(format!("expected {}", expected.join(", ")));
                }
                self.diags.push(d);
            }
        }
    }

    fn lower_items(&mut self, fid: u32, items: Vec<Pair<Rule>>, out: &mut Vec<AstItem>) {
        for p in items {
            let span = self.span(fid, &p);
            match p.as_rule() {
                Rule::EOI => {}
                Rule::include => {
                    let raw = p.into_inner().next().map(|s| unquote(s.as_str())).unwrap_or_default();
                    self.include(fid, &raw, span, out);
                }
                Rule::once => {
                    self.once.insert(canonical(self.sm.path(fid)));
                }
                Rule::pragma => {
                    let mut it = p.into_inner();
                    let k = it.next().map(|s| unquote(s.as_str())).unwrap_or_default();
                    let v = it.next().map(|s| unquote(s.as_str())).unwrap_or_default();
                    out.push(AstItem::Pragma(k, v, span));
                }
                Rule::functor_decl => {
                    // A declaration of one of tg's host functors is accepted: rule files can
                    // say what they call, Soufflé-style. Any other cannot be bound.
                    let name = p.clone().into_inner().next().map(|n| n.as_str().to_string()).unwrap_or_default();
                    if super::host::HostFn::by_name(self.opts.hosts, &name).is_none() {
                        self.diags.push(Diagnostic::error("TG0501", span, "user-defined functors (.functor) are not supported").with_note(format!(
                            "tg binds functors in Rust; C++ functor libraries cannot be loaded; tg provides: {}",
                            super::host::HostFn::names(self.opts.hosts).join(", ")
                        )))
                    }
                }
                Rule::type_decl => {
                    let mut it = p.into_inner();
                    let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                    let def = match it.next() {
                        None => AstTypeDef::Subtype("symbol".into()),
                        Some(d) if d.as_rule() == Rule::subtype_def => AstTypeDef::Subtype(d.into_inner().next().map(|n| n.as_str().to_string()).unwrap_or_default()),
                        Some(d) => {
                            let Some(inner) = d.into_inner().next() else { continue };
                            match inner.as_rule() {
                                Rule::union_type => AstTypeDef::Union(inner.into_inner().map(|n| n.as_str().to_string()).collect()),
                                Rule::record_type => AstTypeDef::Record(inner.into_inner().map(|a| self.attr(fid, a)).collect()),
                                _ => {
                                    self.diags.push(Diagnostic::error("TG0502", span, "algebraic data types (branches with '{…}') are not supported"));
                                    continue;
                                }
                            }
                        }
                    };
                    out.push(AstItem::Type(AstTypeDecl { name, def, span }));
                }
                Rule::legacy_type => {
                    let mut it = p.into_inner();
                    let kind = it.next().map(|k| k.as_str().to_string()).unwrap_or_default();
                    let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                    let base = if kind == ".number_type" { "number" } else { "symbol" };
                    out.push(AstItem::Type(AstTypeDecl { name, def: AstTypeDef::Subtype(base.into()), span }));
                }
                Rule::decl => out.push(AstItem::Decl(self.decl(fid, p, span))),
                Rule::io_directive => {
                    let mut kind = DirectiveKind::Input;
                    let mut rels = vec![];
                    let mut params = vec![];
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::io_kind => {
                                kind = match q.as_str() {
                                    ".input" => DirectiveKind::Input,
                                    ".output" => DirectiveKind::Output,
                                    ".printsize" => DirectiveKind::PrintSize,
                                    _ => DirectiveKind::LimitSize,
                                }
                            }
                            Rule::qname => rels.push((q.as_str().to_string(), self.span(fid, &q))),
                            Rule::kv => {
                                let mut it = q.into_inner();
                                let k = it.next().map(|s| s.as_str().to_string()).unwrap_or_default();
                                let v = it
                                    .next()
                                    .and_then(|v| v.into_inner().next())
                                    .map(|v| if v.as_rule() == Rule::string { unquote(v.as_str()) } else { v.as_str().to_string() })
                                    .unwrap_or_default();
                                params.push((k, v));
                            }
                            _ => {}
                        }
                    }
                    out.push(AstItem::Directive(AstDirective { kind, rels, params, span }));
                }
                Rule::comp => {
                    let mut it = p.into_inner().peekable();
                    let Some(head) = it.next() else { continue };
                    let (name, params) = comp_type(head);
                    let mut bases = vec![];
                    let mut body = vec![];
                    for q in it {
                        if q.as_rule() == Rule::comp_type {
                            bases.push(comp_type(q));
                        } else {
                            body.push(q);
                        }
                    }
                    let mut items = vec![];
                    self.lower_items(fid, body, &mut items);
                    out.push(AstItem::Component(AstComponent { name, params, bases, items, span }));
                }
                Rule::init => {
                    let mut it = p.into_inner();
                    let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                    let (comp, args) = it.next().map(comp_type).unwrap_or_default();
                    out.push(AstItem::Init(AstInit { name, comp, args, span }));
                }
                Rule::override_ => {
                    let name = p.into_inner().next().map(|n| n.as_str().to_string()).unwrap_or_default();
                    out.push(AstItem::Override(name, span));
                }
                Rule::clause => {
                    let (heads, body, plan, span) = self.clause_parts(fid, p, span);
                    out.push(AstItem::Clause(AstClause { heads, body, subsumed: None, plan, span }));
                }
                Rule::subsumption_clause => {
                    // `dominated <= dominating :- body.`
                    let (mut atoms, body, plan, span) = self.clause_parts(fid, p, span);
                    let dominating = atoms.pop();
                    out.push(AstItem::Clause(AstClause { heads: atoms, body, subsumed: dominating, plan, span }));
                }
                _ => {}
            }
        }
    }

    /// Atoms, body and plan of a clause; its span ends at its '.' (or its .plan), not at the
    /// comments after it.
    fn clause_parts(&self, fid: u32, p: Pair<Rule>, mut span: Span) -> ClauseParts {
        let mut atoms = vec![];
        let mut body = vec![];
        let mut plan = vec![];
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::atom => atoms.push(self.atom(fid, q)),
                Rule::body => body = self.body(fid, q),
                Rule::plan => {
                    span.end = q.as_span().end() as u32;
                    plan = self.plan(q);
                }
                Rule::dot => span.end = q.as_span().end() as u32,
                _ => {}
            }
        }
        (atoms, body, plan, span)
    }

    fn include(&mut self, fid: u32, raw: &str, span: Span, out: &mut Vec<AstItem>) {
        if self.depth > 64 {
            self.diags.push(Diagnostic::error("TG0102", span, "includes nested too deeply (cycle?)"));
            return;
        }
        let base = self.sm.path(fid).parent().map(Path::to_path_buf).unwrap_or_default();
        let mut candidates = vec![base.join(raw)];
        candidates.extend(self.opts.include_dirs.iter().map(|d| d.join(raw)));
        let Some(found) = candidates.into_iter().find(|c| c.is_file()) else {
            self.diags.push(Diagnostic::error("TG0102", span, format!("cannot find included file \"{raw}\"")));
            return;
        };
        if self.once.contains(&canonical(&found)) {
            return;
        }
        match std::fs::read_to_string(&found) {
            Ok(text) => {
                let child = self.sm.add(found, text);
                self.depth += 1;
                self.parse_source(child, out);
                self.depth -= 1;
            }
            Err(e) => self.diags.push(Diagnostic::error("TG0102", span, format!("cannot read included file {}: {e}", found.display()))),
        }
    }

    fn attr(&self, fid: u32, p: Pair<Rule>) -> AstAttr {
        let span = self.span(fid, &p);
        let mut it = p.into_inner();
        let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
        let ty = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
        AstAttr { name, ty, span }
    }

    fn decl(&self, fid: u32, p: Pair<Rule>, span: Span) -> AstDecl {
        let mut d = AstDecl { names: vec![], attrs: vec![], qualifiers: vec![], choice_domain: vec![], span };
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::qname => d.names.push((q.as_str().to_string(), self.span(fid, &q))),
                Rule::attr => d.attrs.push(self.attr(fid, q)),
                Rule::qualifier => d.qualifiers.push((q.as_str().to_string(), self.span(fid, &q))),
                Rule::choice_domain => {
                    for k in q.into_inner() {
                        d.choice_domain.push(k.into_inner().map(|i| i.as_str().to_string()).collect());
                    }
                }
                _ => {}
            }
        }
        d
    }

    fn plan(&self, p: Pair<Rule>) -> Vec<(u32, Vec<u32>)> {
        p.into_inner()
            .map(|item| {
                let mut nums = item.into_inner().map(|n| n.as_str().parse::<u32>().unwrap_or(u32::MAX));
                let version = nums.next().unwrap_or(0);
                (version, nums.collect())
            })
            .collect()
    }

    fn atom(&self, fid: u32, p: Pair<Rule>) -> AstAtom {
        let span = self.span(fid, &p);
        let mut it = p.into_inner();
        let rel = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
        let args = it.map(|e| self.expr(fid, e)).collect();
        AstAtom { rel, args, span }
    }

    fn body(&self, fid: u32, p: Pair<Rule>) -> Vec<AstLiteral> {
        let span = self.span(fid, &p);
        let conjs: Vec<Vec<AstLiteral>> = p.into_inner().map(|c| c.into_inner().map(|l| self.literal(fid, l)).collect()).collect();
        if conjs.len() == 1 { conjs.into_iter().next().unwrap_or_default() } else { vec![AstLiteral::Disjunction(conjs, span)] }
    }

    fn literal(&self, fid: u32, p: Pair<Rule>) -> AstLiteral {
        let span = self.span(fid, &p);
        match p.as_rule() {
            Rule::atom => AstLiteral::Atom(self.atom(fid, p)),
            Rule::neg_atom => match p.into_inner().next() {
                Some(a) => AstLiteral::Negated(self.atom(fid, a)),
                None => AstLiteral::Bool(true, span),
            },
            Rule::constraint => {
                let mut it = p.into_inner();
                let l = it.next().map(|e| self.expr(fid, e));
                let op = it.next().map(|o| cmp(o.as_str())).unwrap_or(CmpOp::Eq);
                let r = it.next().map(|e| self.expr(fid, e));
                match (l, r) {
                    (Some(l), Some(r)) => AstLiteral::Constraint(op, l, r, span),
                    _ => AstLiteral::Bool(true, span),
                }
            }
            Rule::pred | Rule::neg_pred => {
                let negated = p.as_rule() == Rule::neg_pred;
                let inner = if negated { p.into_inner().next() } else { Some(p) };
                let Some(inner) = inner else { return AstLiteral::Bool(true, span) };
                let mut it = inner.into_inner();
                let op = if it.next().map(|o| o.as_str() == "match").unwrap_or(false) { PredOp::Match } else { PredOp::Contains };
                let args = it.map(|e| self.expr(fid, e)).collect();
                AstLiteral::Pred(op, args, !negated, span)
            }
            Rule::kw_true => AstLiteral::Bool(true, span),
            Rule::kw_false => AstLiteral::Bool(false, span),
            Rule::paren_body => {
                let inner = p.into_inner().next();
                match inner {
                    Some(b) => {
                        let mut lits = self.body(fid, b);
                        if lits.len() == 1 { lits.pop().unwrap_or(AstLiteral::Bool(true, span)) } else { AstLiteral::Disjunction(vec![lits], span) }
                    }
                    None => AstLiteral::Bool(true, span),
                }
            }
            _ => AstLiteral::Bool(true, span),
        }
    }

    fn expr(&self, fid: u32, p: Pair<Rule>) -> AstExpr {
        let pairs: Pairs<Rule> = p.into_inner();
        pratt()
            .map_primary(|q| self.primary(fid, q))
            .map_prefix(|op, rhs| {
                let span = self.span(fid, &op).to(rhs.span());
                let u = match op.as_rule() {
                    Rule::bnot => UnOp::BNot,
                    Rule::lnot => UnOp::LNot,
                    _ => UnOp::Neg,
                };
                AstExpr::Unary(u, Box::new(rhs), span)
            })
            .map_infix(|lhs, op, rhs| {
                let span = lhs.span().to(rhs.span());
                let b = match op.as_rule() {
                    Rule::add => BinOp::Add,
                    Rule::sub => BinOp::Sub,
                    Rule::mul => BinOp::Mul,
                    Rule::div => BinOp::Div,
                    Rule::modulo => BinOp::Mod,
                    Rule::pow => BinOp::Pow,
                    Rule::band => BinOp::BAnd,
                    Rule::bor => BinOp::BOr,
                    Rule::bxor => BinOp::BXor,
                    Rule::bshl => BinOp::BShl,
                    Rule::bshr => BinOp::BShr,
                    Rule::bshru => BinOp::BShrU,
                    Rule::land => BinOp::LAnd,
                    Rule::lor => BinOp::LOr,
                    _ => BinOp::LXor,
                };
                AstExpr::Binary(b, Box::new(lhs), Box::new(rhs), span)
            })
            .parse(pairs)
    }

    fn primary(&self, fid: u32, p: Pair<Rule>) -> AstExpr {
        let span = self.span(fid, &p);
        match p.as_rule() {
            Rule::var => AstExpr::Var(p.as_str().to_string(), span),
            Rule::wildcard => AstExpr::Wildcard(span),
            Rule::nil => AstExpr::Nil(span),
            Rule::string => AstExpr::Str(unquote(p.as_str()), span),
            Rule::float => AstExpr::Float(p.as_str().parse().unwrap_or(f64::NAN), span),
            Rule::number => parse_number(p.as_str(), span),
            // `10.0.0.1` is the number 0x0A000001, as in Soufflé.
            Rule::ipv4 => AstExpr::Int(p.as_str().split('.').fold(0i64, |acc, o| (acc << 8) | o.parse::<i64>().unwrap_or(0)), span),
            Rule::line_macro => {
                let (line, _) = self.sm.line_col(fid, span.start);
                AstExpr::Int(line as i64, span)
            }
            Rule::file_macro => AstExpr::Str(self.sm.path(fid).display().to_string(), span),
            Rule::paren_expr => match p.into_inner().next() {
                Some(e) => self.expr(fid, e),
                None => AstExpr::Wildcard(span),
            },
            Rule::record => AstExpr::Record(p.into_inner().map(|e| self.expr(fid, e)).collect(), span),
            Rule::call => {
                let mut it = p.into_inner();
                let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                AstExpr::Call(name, it.map(|e| self.expr(fid, e)).collect(), span)
            }
            Rule::user_call => {
                let mut it = p.into_inner();
                let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
                AstExpr::UserCall(name, it.map(|e| self.expr(fid, e)).collect(), span)
            }
            Rule::as_expr => {
                let mut it = p.into_inner();
                let e = it.next().map(|e| self.expr(fid, e)).unwrap_or(AstExpr::Wildcard(span));
                let ty = it.next().map(|t| t.as_str().to_string()).unwrap_or_default();
                AstExpr::As(Box::new(e), ty, span)
            }
            Rule::counter => AstExpr::Counter(span),
            Rule::adt_ctor => AstExpr::Adt(p.as_str().to_string(), span),
            Rule::aggregate => {
                let mut op = AggOp::Count;
                let mut target = None;
                let mut body = vec![];
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::agg_op => {
                            op = match q.as_str() {
                                "sum" => AggOp::Sum,
                                "min" => AggOp::Min,
                                "max" => AggOp::Max,
                                "mean" => AggOp::Mean,
                                _ => AggOp::Count,
                            }
                        }
                        Rule::expr => target = Some(Box::new(self.expr(fid, q))),
                        Rule::agg_body => {
                            if let Some(b) = q.into_inner().next() {
                                body = self.body(fid, b);
                            }
                        }
                        Rule::atom => body = vec![AstLiteral::Atom(self.atom(fid, q))],
                        _ => {}
                    }
                }
                AstExpr::Aggregate(op, target, body, span)
            }
            _ => AstExpr::Wildcard(span),
        }
    }
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn comp_type(p: Pair<Rule>) -> (Name, Vec<Name>) {
    let mut it = p.into_inner();
    let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
    (name, it.map(|n| n.as_str().to_string()).collect())
}

fn cmp(s: &str) -> CmpOp {
    match s {
        "!=" => CmpOp::Ne,
        "<" => CmpOp::Lt,
        "<=" => CmpOp::Le,
        ">" => CmpOp::Gt,
        ">=" => CmpOp::Ge,
        _ => CmpOp::Eq,
    }
}

fn parse_number(text: &str, span: Span) -> AstExpr {
    let (digits, unsigned) = match text.strip_suffix('u') {
        Some(d) => (d, true),
        None => (text, false),
    };
    let value = if let Some(h) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = digits.strip_prefix("0b").or_else(|| digits.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else {
        digits.parse::<u64>().ok()
    };
    let v = value.unwrap_or(u64::MAX);
    if unsigned { AstExpr::Unsigned(v, span) } else { AstExpr::Int(v.min(i64::MAX as u64) as i64, span) }
}

/// Strips the quotes of a string literal and resolves its escapes (`\n`, `\t`, `\"`, `\\`…), as Soufflé does.
fn unquote(s: &str) -> String {
    let inner = s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(s);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(q @ ('"' | '\\' | '\'')) => out.push(q),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}
