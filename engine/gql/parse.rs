//! GQL text → [`Query`]: the only module that sees pest pairs of `grammar/gql.pest`.
//! Syntax errors carry `line:col` and what the parser expected there.

use pest::Parser as _;
use pest::iterators::Pair;

use crate::ast::*;
use crate::error::{ErrorClass, GqlError, Result};
use crate::value::Value;

mod grammar {
    //! The pest parser generated from `grammar/gql.pest`.
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "../../grammar/gql.pest"]
    pub struct GqlParser;
}
use grammar::{GqlParser, Rule};

/// Parses one statement (a query, optionally ending in `;`).
pub fn parse_query(src: &str) -> Result<Query> {
    too_deep(src)?;
    let mut pairs = GqlParser::parse(Rule::query, src).map_err(|e| syntax(src, e))?;
    let top = pairs.next().ok_or_else(|| GqlError::new(ErrorClass::SyntaxError, "empty query"))?;
    let mut lw = Lower { src };
    let st = top.into_inner().find(|p| p.as_rule() == Rule::statement).ok_or_else(|| GqlError::new(ErrorClass::SyntaxError, "empty query"))?;
    lw.statement(st)
}

/// Parses a script: statements separated by `;`.
pub fn parse_script(src: &str) -> Result<Vec<Query>> {
    too_deep(src)?;
    let mut pairs = GqlParser::parse(Rule::script, src).map_err(|e| syntax(src, e))?;
    let top = pairs.next().ok_or_else(|| GqlError::new(ErrorClass::SyntaxError, "empty script"))?;
    let mut lw = Lower { src };
    top.into_inner().filter(|p| p.as_rule() == Rule::statement).map(|p| lw.statement(p)).collect()
}

/// The depth limits of [`tg_limits::depth`], checked before parsing (the parser recurses).
fn too_deep(src: &str) -> Result<()> {
    tg_limits::depth::check(src, tg_limits::depth::Lang::Cypher)
        .map_err(|e| GqlError { class: ErrorClass::SyntaxError, detail: Some("TooDeep"), message: e.message, pos: None, offset: None }.at(src, e.offset))
}

fn rule_name(r: &Rule) -> String {
    let s = format!("{r:?}");
    match s.strip_prefix("kw_") {
        Some(k) => k.to_string(),
        None => s.replace('_', " "),
    }
}

fn syntax(src: &str, e: pest::error::Error<Rule>) -> GqlError {
    let offset = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((p, _)) => p,
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<String> = positives.iter().map(rule_name).collect();
            names.sort();
            names.dedup();
            names.truncate(8);
            names.join(", ")
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let found: String = src.get(offset..).unwrap_or("").chars().take(12).collect();
    let found = if found.is_empty() { "end of input".to_string() } else { format!("'{}'", found.split_whitespace().next().unwrap_or("")) };
    let msg = if expected.is_empty() { format!("unexpected {found}") } else { format!("expected {expected}; found {found}") };
    GqlError { class: ErrorClass::SyntaxError, detail: Some("InvalidSyntax"), message: msg, pos: None, offset: None }.at(src, offset)
}

struct Lower<'s> {
    src: &'s str,
}

fn err_at(src: &str, pos: usize, detail: &'static str, msg: impl Into<String>) -> GqlError {
    GqlError { class: ErrorClass::SyntaxError, detail: Some(detail), message: msg.into(), pos: None, offset: None }.at(src, pos)
}

fn unescape_name(s: &str) -> String {
    if let Some(inner) = s.strip_prefix('`').and_then(|t| t.strip_suffix('`')) { inner.replace("``", "`") } else { s.to_string() }
}

impl<'s> Lower<'s> {
    fn statement(&mut self, p: Pair<Rule>) -> Result<Query> {
        let mut parts = vec![];
        let mut union_all = vec![];
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::single_query => parts.push(self.single(c)?),
                Rule::union => union_all.push(c.into_inner().any(|k| k.as_rule() == Rule::kw_ALL)),
                _ => {}
            }
        }
        Ok(Query { parts, union_all })
    }

    fn single(&mut self, p: Pair<Rule>) -> Result<SingleQuery> {
        let mut clauses = vec![];
        for c in p.into_inner() {
            let pos = c.as_span().start();
            let kind = match c.as_rule() {
                Rule::match_clause => {
                    let mut optional = false;
                    let mut pattern = vec![];
                    let mut filter = None;
                    for x in c.into_inner() {
                        match x.as_rule() {
                            Rule::kw_OPTIONAL => optional = true,
                            Rule::pattern => pattern = self.pattern(x)?,
                            Rule::where_clause => filter = Some(self.where_(x)?),
                            _ => {}
                        }
                    }
                    ClauseKind::Match { optional, pattern, filter }
                }
                Rule::unwind_clause => {
                    let mut expr = None;
                    let mut var = String::new();
                    for x in c.into_inner() {
                        match x.as_rule() {
                            Rule::expression => expr = Some(self.expr(x)?),
                            Rule::variable => var = self.name(x),
                            _ => {}
                        }
                    }
                    ClauseKind::Unwind { expr: expr.unwrap_or(Expr::Lit(Value::Null)), var }
                }
                Rule::with_clause => {
                    let mut proj = None;
                    let mut filter = None;
                    for x in c.into_inner() {
                        match x.as_rule() {
                            Rule::projection_body => proj = Some(self.projection(x)?),
                            Rule::where_clause => filter = Some(self.where_(x)?),
                            _ => {}
                        }
                    }
                    ClauseKind::With { proj: proj.ok_or_else(|| err_at(self.src, pos, "InvalidSyntax", "WITH without items"))?, filter }
                }
                Rule::return_clause => {
                    let body = c.into_inner().find(|x| x.as_rule() == Rule::projection_body);
                    match body {
                        Some(b) => ClauseKind::Return(self.projection(b)?),
                        None => return Err(err_at(self.src, pos, "InvalidSyntax", "RETURN without items")),
                    }
                }
                Rule::create_clause => {
                    let pat = c.into_inner().find(|x| x.as_rule() == Rule::pattern);
                    match pat {
                        Some(p) => ClauseKind::Create(self.pattern(p)?),
                        None => ClauseKind::Create(vec![]),
                    }
                }
                Rule::call_clause => {
                    let mut name = String::new();
                    let mut yields = vec![];
                    let mut args = vec![];
                    for x in c.into_inner() {
                        match x.as_rule() {
                            Rule::proc_name => name = x.into_inner().map(|y| unescape_name(y.as_str())).collect::<Vec<_>>().join("."),
                            Rule::expression => args.push(self.expr(x)?),
                            Rule::yield_item => {
                                let mut it = x.into_inner();
                                let field = it.next().map(|y| self.name(y)).unwrap_or_default();
                                let var = it.find(|y| y.as_rule() == Rule::variable).map_or_else(|| field.clone(), |y| self.name(y));
                                yields.push((field, var));
                            }
                            _ => {}
                        }
                    }
                    ClauseKind::Call { name, args, yields }
                }
                Rule::write_clause => ClauseKind::Write(c.as_str().split_whitespace().next().unwrap_or("").to_uppercase()),
                _ => continue,
            };
            clauses.push(Clause { pos, kind });
        }
        Ok(SingleQuery { clauses })
    }

    fn where_(&mut self, p: Pair<Rule>) -> Result<Expr> {
        match p.into_inner().find(|x| x.as_rule() == Rule::expression) {
            Some(e) => self.expr(e),
            None => Ok(Expr::Lit(Value::Bool(true))),
        }
    }

    fn name(&self, p: Pair<Rule>) -> String {
        unescape_name(p.as_str().trim())
    }

    fn projection(&mut self, p: Pair<Rule>) -> Result<Projection> {
        let mut proj = Projection { distinct: false, star: false, items: vec![], order: vec![], skip: None, limit: None };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::distinct => proj.distinct = true,
                Rule::projection_items => {
                    for it in x.into_inner() {
                        match it.as_rule() {
                            Rule::star => proj.star = true,
                            Rule::projection_item => {
                                let mut expr = None;
                                let mut alias = None;
                                let mut text = String::new();
                                for y in it.into_inner() {
                                    match y.as_rule() {
                                        Rule::expression => {
                                            text = y.as_str().trim().to_string();
                                            expr = Some(self.expr(y)?);
                                        }
                                        Rule::variable => alias = Some(self.name(y)),
                                        _ => {}
                                    }
                                }
                                if let Some(expr) = expr {
                                    proj.items.push(ProjItem { expr, alias, text });
                                }
                            }
                            _ => {}
                        }
                    }
                }
                Rule::order_by => {
                    for si in x.into_inner().filter(|y| y.as_rule() == Rule::sort_item) {
                        let mut e = None;
                        let mut desc = false;
                        for y in si.into_inner() {
                            match y.as_rule() {
                                Rule::expression => e = Some(self.expr(y)?),
                                Rule::sort_dir => desc = y.as_str().to_uppercase().starts_with("DESC"),
                                _ => {}
                            }
                        }
                        if let Some(e) = e {
                            proj.order.push((e, desc));
                        }
                    }
                }
                Rule::skip => proj.skip = self.first_expr(x)?,
                Rule::limit => proj.limit = self.first_expr(x)?,
                _ => {}
            }
        }
        Ok(proj)
    }

    fn first_expr(&mut self, p: Pair<Rule>) -> Result<Option<Expr>> {
        match p.into_inner().find(|x| x.as_rule() == Rule::expression) {
            Some(e) => Ok(Some(self.expr(e)?)),
            None => Ok(None),
        }
    }

    fn pattern(&mut self, p: Pair<Rule>) -> Result<Vec<PatternPart>> {
        p.into_inner().filter(|x| x.as_rule() == Rule::pattern_part).map(|x| self.pattern_part(x)).collect()
    }

    fn pattern_part(&mut self, p: Pair<Rule>) -> Result<PatternPart> {
        let mut var = None;
        let mut shortest = None;
        let mut element = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => var = Some(self.name(x)),
                Rule::pattern_element => element = Some(self.element(x)?),
                Rule::shortest_path => {
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::shortest_kw => shortest = Some(y.as_str().to_lowercase().starts_with("all")),
                            Rule::pattern_element => element = Some(self.element(y)?),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(PatternPart { var, shortest, element: element.unwrap_or(PatternElement { nodes: vec![], rels: vec![] }) })
    }

    fn element(&mut self, p: Pair<Rule>) -> Result<PatternElement> {
        let mut el = PatternElement { nodes: vec![], rels: vec![] };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::pattern_element => return self.element(x),
                Rule::node_pattern => el.nodes.push(self.node(x)?),
                Rule::rel_pattern => el.rels.push(self.rel(x)?),
                _ => {}
            }
        }
        Ok(el)
    }

    fn node(&mut self, p: Pair<Rule>) -> Result<NodePat> {
        let sp = p.as_span();
        let mut n = NodePat { var: None, labels: vec![], props: None, span: SrcSpan(sp.start(), sp.end()) };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => n.var = Some(self.name(x)),
                Rule::node_labels => n.labels = x.into_inner().map(|y| self.name(y)).collect(),
                Rule::properties => n.props = self.props(x)?,
                _ => {}
            }
        }
        Ok(n)
    }

    fn props(&mut self, p: Pair<Rule>) -> Result<Option<Expr>> {
        match p.into_inner().next() {
            Some(x) => Ok(Some(self.atom(x)?)),
            None => Ok(None),
        }
    }

    fn rel(&mut self, p: Pair<Rule>) -> Result<RelPat> {
        let mut left = false;
        let mut right = false;
        let sp = p.as_span();
        let mut r = RelPat { var: None, types: vec![], dir: Dir::Both, range: None, props: None, span: SrcSpan(sp.start(), sp.end()) };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::left_arrow => left = true,
                Rule::right_arrow => right = true,
                Rule::rel_detail => {
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::variable => r.var = Some(self.name(y)),
                            Rule::rel_types => r.types = y.into_inner().map(|z| self.name(z)).collect(),
                            Rule::properties => r.props = self.props(y)?,
                            Rule::range => {
                                let mut lo = None;
                                let mut hi = None;
                                let mut dots = false;
                                for z in y.into_inner() {
                                    let pos = z.as_span().start();
                                    let num = |z: &Pair<Rule>| z.as_str().parse::<u64>().map_err(|_| err_at(self.src, pos, "IntegerOverflow", "range bound too large"));
                                    match z.as_rule() {
                                        Rule::range_lo => lo = Some(num(&z)?),
                                        Rule::range_hi => hi = Some(num(&z)?),
                                        Rule::range_dots => dots = true,
                                        _ => {}
                                    }
                                }
                                r.range = Some(if dots {
                                    (lo, hi)
                                } else if lo.is_some() {
                                    (lo, lo)
                                } else {
                                    (None, None)
                                });
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        r.dir = match (left, right) {
            (true, false) => Dir::Left,
            (false, true) => Dir::Right,
            _ => Dir::Both,
        };
        Ok(r)
    }

    fn kids(&mut self, p: Pair<Rule>) -> Result<Vec<Expr>> {
        p.into_inner().filter(|x| x.as_rule() != Rule::kw_OR && x.as_rule() != Rule::kw_XOR && x.as_rule() != Rule::kw_AND).map(|x| self.expr(x)).collect()
    }

    fn expr(&mut self, p: Pair<Rule>) -> Result<Expr> {
        match p.as_rule() {
            Rule::expression | Rule::slice_from | Rule::slice_to | Rule::lc_where | Rule::lc_map | Rule::case_else => match p.into_inner().next() {
                Some(x) => self.expr(x),
                None => Ok(Expr::Lit(Value::Null)),
            },
            Rule::or_expr | Rule::xor_expr | Rule::and_expr => {
                let rule = p.as_rule();
                let mut v = self.kids(p)?.into_iter();
                let mut acc = v.next().unwrap_or(Expr::Lit(Value::Null));
                for e in v {
                    acc = match rule {
                        Rule::or_expr => Expr::Or(Box::new(acc), Box::new(e)),
                        Rule::xor_expr => Expr::Xor(Box::new(acc), Box::new(e)),
                        _ => Expr::And(Box::new(acc), Box::new(e)),
                    };
                }
                Ok(acc)
            }
            Rule::not_expr => {
                let mut nots = 0;
                let mut inner = Expr::Lit(Value::Null);
                for x in p.into_inner() {
                    if x.as_rule() == Rule::not_op {
                        nots += 1;
                    } else {
                        inner = self.expr(x)?;
                    }
                }
                for _ in 0..nots {
                    inner = Expr::Not(Box::new(inner));
                }
                Ok(inner)
            }
            Rule::comparison => {
                let mut it = p.into_inner();
                let first = match it.next() {
                    Some(x) => self.expr(x)?,
                    None => return Ok(Expr::Lit(Value::Null)),
                };
                let mut chain = vec![];
                while let (Some(op), Some(rhs)) = (it.next(), it.next()) {
                    let op = match op.as_str().trim() {
                        "=" => CmpOp::Eq,
                        "<>" | "!=" => CmpOp::Ne,
                        "<" => CmpOp::Lt,
                        "<=" => CmpOp::Le,
                        ">" => CmpOp::Gt,
                        _ => CmpOp::Ge,
                    };
                    chain.push((op, self.expr(rhs)?));
                }
                Ok(if chain.is_empty() { first } else { Expr::Compare(Box::new(first), chain) })
            }
            Rule::pred_expr => {
                let mut it = p.into_inner();
                let mut acc = match it.next() {
                    Some(x) => self.expr(x)?,
                    None => return Ok(Expr::Lit(Value::Null)),
                };
                for suf in it {
                    let mut parts = suf.into_inner();
                    let Some(op) = parts.next() else { continue };
                    let rhs = match parts.next() {
                        Some(x) => Some(Box::new(self.expr(x)?)),
                        None => None,
                    };
                    let l = Box::new(acc);
                    let r = || rhs.clone().unwrap_or(Box::new(Expr::Lit(Value::Null)));
                    acc = match op.as_rule() {
                        Rule::starts_with => Expr::StrPred(StrOp::Starts, l, r()),
                        Rule::ends_with => Expr::StrPred(StrOp::Ends, l, r()),
                        Rule::contains => Expr::StrPred(StrOp::Contains, l, r()),
                        Rule::in_op => Expr::In(l, r()),
                        Rule::regex_op => Expr::Regex(l, r()),
                        Rule::is_null => Expr::IsNull(l, true),
                        _ => Expr::IsNull(l, false),
                    };
                }
                Ok(acc)
            }
            Rule::add_expr | Rule::mul_expr => {
                let mut it = p.into_inner();
                let mut acc = match it.next() {
                    Some(x) => self.expr(x)?,
                    None => return Ok(Expr::Lit(Value::Null)),
                };
                while let (Some(op), Some(rhs)) = (it.next(), it.next()) {
                    let op = match op.as_str().trim() {
                        "+" => ArithOp::Add,
                        "-" => ArithOp::Sub,
                        "*" => ArithOp::Mul,
                        "/" => ArithOp::Div,
                        _ => ArithOp::Mod,
                    };
                    acc = Expr::Arith(op, Box::new(acc), Box::new(self.expr(rhs)?));
                }
                Ok(acc)
            }
            Rule::pow_expr => {
                let mut v = self.kids(p)?.into_iter();
                let mut acc = v.next().unwrap_or(Expr::Lit(Value::Null));
                for e in v {
                    acc = Expr::Arith(ArithOp::Pow, Box::new(acc), Box::new(e));
                }
                Ok(acc)
            }
            Rule::unary_expr => {
                let mut negs = vec![];
                let mut inner = None;
                for x in p.into_inner() {
                    if x.as_rule() == Rule::unary_op {
                        negs.push(x.as_str() == "-");
                    } else {
                        inner = Some(x);
                    }
                }
                let Some(inner) = inner else { return Ok(Expr::Lit(Value::Null)) };
                // `-9223372036854775808` is a literal, not the negation of an overflowing one.
                if negs.last() == Some(&true)
                    && let Some(lit) = self.int_literal_of(&inner)
                {
                    negs.pop();
                    let mut e = self.int_lit(&lit, true)?;
                    for n in negs.iter().rev() {
                        if *n {
                            e = Expr::Neg(Box::new(e));
                        }
                    }
                    return Ok(e);
                }
                let mut e = self.expr(inner)?;
                for n in negs.iter().rev() {
                    if *n {
                        e = Expr::Neg(Box::new(e));
                    }
                }
                Ok(e)
            }
            Rule::postfix_expr => {
                let mut it = p.into_inner();
                let mut acc = match it.next() {
                    Some(x) => self.atom(x)?,
                    None => return Ok(Expr::Lit(Value::Null)),
                };
                for x in it {
                    match x.as_rule() {
                        Rule::postfix => {
                            let Some(y) = x.into_inner().next() else { continue };
                            acc = match y.as_rule() {
                                Rule::prop_lookup => {
                                    let key = y.into_inner().next().map(|k| self.name(k)).unwrap_or_default();
                                    Expr::Prop(Box::new(acc), key)
                                }
                                Rule::index => {
                                    let e = match y.into_inner().next() {
                                        Some(z) => self.expr(z)?,
                                        None => Expr::Lit(Value::Null),
                                    };
                                    Expr::Index(Box::new(acc), Box::new(e))
                                }
                                _ => {
                                    let mut from = None;
                                    let mut to = None;
                                    for z in y.into_inner() {
                                        match z.as_rule() {
                                            Rule::slice_from => from = Some(Box::new(self.expr(z)?)),
                                            Rule::slice_to => to = Some(Box::new(self.expr(z)?)),
                                            _ => {}
                                        }
                                    }
                                    Expr::Slice(Box::new(acc), from, to)
                                }
                            };
                        }
                        Rule::node_labels => {
                            let labels = x.into_inner().map(|y| self.name(y)).collect();
                            acc = Expr::HasLabels(Box::new(acc), labels);
                        }
                        _ => {}
                    }
                }
                Ok(acc)
            }
            _ => self.atom(p),
        }
    }

    fn int_literal_of(&self, p: &Pair<Rule>) -> Option<String> {
        if p.as_rule() != Rule::postfix_expr {
            return None;
        }
        let mut it = p.clone().into_inner();
        let a = it.next()?;
        if it.next().is_some() || a.as_rule() != Rule::int_lit {
            return None;
        }
        Some(a.as_str().to_string())
    }

    fn int_lit(&self, text: &str, negative: bool) -> Result<Expr> {
        let lower = text.to_ascii_lowercase();
        let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
            (h.to_string(), 16)
        } else if let Some(o) = lower.strip_prefix("0o") {
            (o.to_string(), 8)
        } else {
            (lower.clone(), 10)
        };
        let signed = if negative { format!("-{digits}") } else { digits };
        match i64::from_str_radix(&signed, radix) {
            Ok(v) => Ok(Expr::Lit(Value::Int(v))),
            Err(_) => Err(GqlError {
                class: ErrorClass::SyntaxError,
                detail: Some("IntegerOverflow"),
                message: format!("integer literal {text} does not fit in 64 bits"),
                pos: None,
                offset: None,
            }),
        }
    }

    fn atom(&mut self, p: Pair<Rule>) -> Result<Expr> {
        let pos = p.as_span().start();
        Ok(match p.as_rule() {
            Rule::null_lit => Expr::Lit(Value::Null),
            Rule::true_lit => Expr::Lit(Value::Bool(true)),
            Rule::false_lit => Expr::Lit(Value::Bool(false)),
            Rule::int_lit => self.int_lit(p.as_str(), false).map_err(|e| e.at(self.src, pos))?,
            Rule::float_lit => {
                let f: f64 = p.as_str().parse().map_err(|_| err_at(self.src, pos, "InvalidNumberLiteral", "invalid float literal"))?;
                if f.is_infinite() {
                    return Err(err_at(self.src, pos, "FloatingPointOverflow", "float literal too large"));
                }
                Expr::Lit(Value::Float(f))
            }
            Rule::string_lit => {
                let inner = p.into_inner().next().map(|x| x.as_str().to_string()).unwrap_or_default();
                Expr::Lit(Value::str(&unescape(&inner).map_err(|m| err_at(self.src, pos, "InvalidUnicodeLiteral", m))?))
            }
            Rule::list_literal => Expr::List(p.into_inner().map(|x| self.expr(x)).collect::<Result<_>>()?),
            Rule::map_literal => {
                let mut v = vec![];
                for e in p.into_inner() {
                    let mut it = e.into_inner();
                    let (Some(k), Some(x)) = (it.next(), it.next()) else { continue };
                    v.push((self.name(k), self.expr(x)?));
                }
                Expr::Map(v)
            }
            Rule::parameter => Expr::Param(p.as_str().trim_start_matches('$').to_string().pipe_unescape()),
            Rule::variable => Expr::Var(self.name(p), pos),
            Rule::paren_expr => match p.into_inner().next() {
                Some(x) => self.expr(x)?,
                None => Expr::Lit(Value::Null),
            },
            Rule::count_star => Expr::CountStar,
            Rule::case_expr => {
                let mut subject = None;
                let mut alts = vec![];
                let mut els = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::expression => subject = Some(Box::new(self.expr(x)?)),
                        Rule::case_alt => {
                            let mut it = x.into_inner().filter(|y| y.as_rule() == Rule::expression);
                            let (Some(w), Some(t)) = (it.next(), it.next()) else { continue };
                            alts.push((self.expr(w)?, self.expr(t)?));
                        }
                        Rule::case_else => els = Some(Box::new(self.expr(x)?)),
                        _ => {}
                    }
                }
                Expr::Case(subject, alts, els)
            }
            Rule::list_comprehension | Rule::quantifier => {
                let is_quant = p.as_rule() == Rule::quantifier;
                let mut q = Quant::All;
                let mut var = String::new();
                let mut list = Expr::Lit(Value::Null);
                let mut pred = None;
                let mut map = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::quant_kw => {
                            q = match x.as_str().to_uppercase().as_str() {
                                "ALL" => Quant::All,
                                "ANY" => Quant::Any,
                                "NONE" => Quant::None,
                                _ => Quant::Single,
                            }
                        }
                        Rule::variable => var = self.name(x),
                        Rule::expression => list = self.expr(x)?,
                        Rule::lc_where => pred = Some(Box::new(self.expr(x)?)),
                        Rule::lc_map => map = Some(Box::new(self.expr(x)?)),
                        _ => {}
                    }
                }
                if is_quant { Expr::Quant(q, var, Box::new(list), pred) } else { Expr::ListComp(var, Box::new(list), pred, map) }
            }
            Rule::pattern_comprehension => {
                let mut var = None;
                let mut el = None;
                let mut pred = None;
                let mut map = Expr::Lit(Value::Null);
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::variable => var = Some(self.name(x)),
                        Rule::rel_chain => el = Some(self.element(x)?),
                        Rule::lc_where => pred = Some(Box::new(self.expr(x)?)),
                        Rule::lc_map => map = self.expr(x)?,
                        _ => {}
                    }
                }
                Expr::PatternComp(var, el.unwrap_or(PatternElement { nodes: vec![], rels: vec![] }), pred, Box::new(map))
            }
            Rule::rel_chain => Expr::PatternPred(self.element(p)?),
            Rule::exists_subquery => {
                let mut pat = vec![];
                let mut filter = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::pattern => pat = self.pattern(x)?,
                        Rule::where_clause => filter = Some(Box::new(self.where_(x)?)),
                        Rule::single_query => return Ok(Expr::ExistsQuery(Box::new(self.single(x)?))),
                        _ => {}
                    }
                }
                Expr::Exists(pat, filter)
            }
            Rule::map_projection => {
                let mut inner = p.into_inner();
                let var = inner.next().map(|v| (self.name(v.clone()), v.as_span().start())).unwrap_or_default();
                let base = Expr::Var(var.0.clone(), var.1);
                let mut all = false;
                let mut entries = vec![];
                for x in inner {
                    match x.as_rule() {
                        Rule::mp_all => all = true,
                        Rule::mp_prop => {
                            let k = x.into_inner().next().map(|y| self.name(y)).unwrap_or_default();
                            entries.push((k.clone(), Expr::Prop(Box::new(base.clone()), k)));
                        }
                        Rule::mp_entry => {
                            let mut it = x.into_inner();
                            let k = it.next().map(|y| self.name(y)).unwrap_or_default();
                            let e = match it.next() {
                                Some(y) => self.expr(y)?,
                                None => Expr::Lit(Value::Null),
                            };
                            entries.push((k, e));
                        }
                        Rule::mp_var => {
                            if let Some(v) = x.into_inner().next() {
                                let (n, pos) = (self.name(v.clone()), v.as_span().start());
                                entries.push((n.clone(), Expr::Var(n, pos)));
                            }
                        }
                        _ => {}
                    }
                }
                Expr::MapProj(Box::new(base), all, entries)
            }
            Rule::function_call => {
                let mut name = String::new();
                let mut distinct = false;
                let mut args = vec![];
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::function_name => name = x.into_inner().map(|y| unescape_name(y.as_str())).collect::<Vec<_>>().join(".").to_lowercase(),
                        Rule::distinct => distinct = true,
                        Rule::expression => args.push(self.expr(x)?),
                        _ => {}
                    }
                }
                Expr::Func(name, distinct, args, pos)
            }
            _ => match p.into_inner().next() {
                Some(x) => self.expr(x)?,
                None => Expr::Lit(Value::Null),
            },
        })
    }
}

trait PipeUnescape {
    fn pipe_unescape(self) -> String;
}
impl PipeUnescape for String {
    fn pipe_unescape(self) -> String {
        unescape_name(&self)
    }
}

/// Resolves the escapes of a string literal's body.
fn unescape(s: &str) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let h: String = it.by_ref().take(4).collect();
                let ch = u32::from_str_radix(&h, 16).ok().and_then(char::from_u32).ok_or_else(|| format!("invalid unicode escape \\u{h}"))?;
                out.push(ch);
            }
            Some('U') => {
                let h: String = it.by_ref().take(8).collect();
                let ch = u32::from_str_radix(&h, 16).ok().and_then(char::from_u32).ok_or_else(|| format!("invalid unicode escape \\U{h}"))?;
                out.push(ch);
            }
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    Ok(out)
}
