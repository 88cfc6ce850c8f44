//! [`AstProgram`] → [`LogicProgram`]: name resolution, typing, groundedness.
//!
//! Splits multi-head rules and disjunctions, numbers variables, lifts
//! aggregates and generator functors into their own literals, infers the kind
//! of every variable and expression, and checks that every variable is
//! grounded. Problems become diagnostics; lowering never stops at the first.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::ast::*;
use super::diag::{Diagnostic, Diagnostics, SourceMap, Span};
use super::host::{HostFn, HostTable};
use super::logic::{self, Aggregate, Atom, Expr, Functor, IoSpec, Kind, Lit, LogicProgram, LogicRelation, RecordType, RelId, TypeInfo, VarId};
use super::value::Values;

/// Lowers a parsed (component-expanded) program. Constants are interned into `values`;
/// `@name(…)` calls resolve to the functors of `hosts`.
pub fn lower(ast: &AstProgram, sm: &SourceMap, values: &mut Values, diags: &mut Diagnostics, hosts: HostTable) -> LogicProgram {
    let mut cx = Lower { sm, values, diags, hosts, prog: LogicProgram::default(), type_ids: HashMap::new(), rel_ids: HashMap::new() };
    cx.types(ast);
    cx.relations(ast);
    cx.directives(ast);
    for item in &ast.items {
        match item {
            AstItem::Clause(c) => cx.clause(c),
            AstItem::Component(c) => cx.diags.push(Diagnostic::error("TG0701", c.span, format!("component '{}' was not expanded", c.name))),
            _ => {}
        }
    }
    cx.eqrel_rules();
    cx.inline_checks(ast);
    cx.prog
}

struct Lower<'a> {
    sm: &'a SourceMap,
    values: &'a mut Values,
    diags: &'a mut Diagnostics,
    hosts: HostTable,
    prog: LogicProgram,
    type_ids: HashMap<String, usize>,
    rel_ids: HashMap<String, RelId>,
}

const PRIMITIVES: [(&str, Kind); 4] = [("number", Kind::Number), ("unsigned", Kind::Unsigned), ("float", Kind::Float), ("symbol", Kind::Symbol)];

impl Lower<'_> {
    // ---- types ---------------------------------------------------------------

    fn types(&mut self, ast: &AstProgram) {
        for (name, kind) in PRIMITIVES {
            self.type_ids.insert(name.into(), self.prog.types.len());
            self.prog.types.push(TypeInfo { name: name.into(), kind, supers: vec![], members: vec![] });
        }
        let decls: Vec<&AstTypeDecl> = ast.items.iter().filter_map(|i| if let AstItem::Type(t) = i { Some(t) } else { None }).collect();
        for t in &decls {
            if self.type_ids.contains_key(&t.name) {
                self.diags.push(Diagnostic::error("TG0303", t.span, format!("redefinition of type {}", t.name)));
                continue;
            }
            let kind = if let AstTypeDef::Record(_) = t.def {
                self.prog.records.push(RecordType { name: t.name.clone(), fields: vec![] });
                Kind::Record(self.prog.records.len() - 1)
            } else {
                Kind::Number // placeholder, fixed below
            };
            self.type_ids.insert(t.name.clone(), self.prog.types.len());
            self.prog.types.push(TypeInfo { name: t.name.clone(), kind, supers: vec![], members: vec![] });
        }
        // Resolve subtypes and unions to their primitive kinds (iterate: declarations may come in any order).
        let mut resolved: BTreeSet<usize> = (0..4).collect();
        for t in &decls {
            if let (Some(&id), AstTypeDef::Record(_)) = (self.type_ids.get(&t.name), &t.def) {
                resolved.insert(id);
            }
        }
        loop {
            let mut progress = false;
            for t in &decls {
                let Some(&id) = self.type_ids.get(&t.name) else { continue };
                if resolved.contains(&id) {
                    continue;
                }
                match &t.def {
                    AstTypeDef::Subtype(base) => match self.type_ids.get(base.as_str()) {
                        Some(&b) if resolved.contains(&b) => {
                            self.prog.types[id].kind = self.prog.types[b].kind;
                            self.prog.types[id].supers = vec![b];
                            resolved.insert(id);
                            progress = true;
                        }
                        Some(_) => {}
                        None => {
                            self.diags.push(Diagnostic::error("TG0302", t.span, format!("undefined base type {base} of {}", t.name)));
                            resolved.insert(id);
                        }
                    },
                    AstTypeDef::Union(members) => {
                        let ids: Vec<Option<usize>> = members.iter().map(|m| self.type_ids.get(m.as_str()).copied()).collect();
                        if let Some(pos) = ids.iter().position(Option::is_none) {
                            self.diags.push(Diagnostic::error("TG0302", t.span, format!("undefined type {} in union {}", members[pos], t.name)));
                            resolved.insert(id);
                            continue;
                        }
                        let ids: Vec<usize> = ids.into_iter().flatten().collect();
                        if ids.iter().all(|m| resolved.contains(m)) {
                            let kinds: BTreeSet<Kind> = ids.iter().map(|&m| self.prog.types[m].kind).collect();
                            if kinds.len() > 1 {
                                let names: Vec<&str> = kinds.iter().map(|k| kind_name(*k)).collect();
                                self.diags.push(Diagnostic::error(
                                    "TG0304",
                                    t.span,
                                    format!("union type {} is defined over {{{}}} (multiple primitive types in union)", t.name, names.join(", ")),
                                ));
                            }
                            self.prog.types[id].kind = kinds.into_iter().next().unwrap_or(Kind::Number);
                            self.prog.types[id].members = ids;
                            resolved.insert(id);
                            progress = true;
                        }
                    }
                    AstTypeDef::Record(_) => {}
                }
            }
            if !progress {
                break;
            }
        }
        for t in &decls {
            let Some(&id) = self.type_ids.get(&t.name) else { continue };
            if !resolved.contains(&id) {
                self.diags.push(Diagnostic::error("TG0305", t.span, format!("type {} is defined in terms of itself", t.name)));
                resolved.insert(id);
            }
        }
        for t in &decls {
            if let AstTypeDef::Record(fields) = &t.def {
                let Some(&id) = self.type_ids.get(&t.name) else { continue };
                let Kind::Record(rid) = self.prog.types[id].kind else { continue };
                let mut fs = vec![];
                for f in fields {
                    let k = self.resolve_type(&f.ty, f.span).map(|t| self.prog.types[t].kind).unwrap_or(Kind::Number);
                    fs.push((f.name.clone(), k));
                }
                self.prog.records[rid].fields = fs;
            }
        }
    }

    fn resolve_type(&mut self, name: &str, span: Span) -> Option<usize> {
        match self.type_ids.get(name) {
            Some(&t) => Some(t),
            None => {
                self.diags.push(Diagnostic::error("TG0302", span, format!("undefined type {name}")));
                None
            }
        }
    }

    // ---- relations -------------------------------------------------------------

    fn relations(&mut self, ast: &AstProgram) {
        for item in &ast.items {
            let AstItem::Decl(d) = item else { continue };
            let mut kinds = vec![];
            let mut attr_types = vec![];
            let mut seen = BTreeSet::new();
            for a in &d.attrs {
                if !seen.insert(a.name.clone()) {
                    self.diags.push(Diagnostic::error("TG0206", a.span, format!("attribute {} occurs twice", a.name)));
                }
                let k = self.resolve_type(&a.ty, a.span).map(|t| self.prog.types[t].kind).unwrap_or(Kind::Number);
                kinds.push(k);
                attr_types.push(a.ty.clone());
            }
            let attr_names: Vec<String> = d.attrs.iter().map(|a| a.name.clone()).collect();
            let mut quals: BTreeSet<&str> = BTreeSet::new();
            for (q, qspan) in &d.qualifiers {
                if !quals.insert(q.as_str()) {
                    self.diags.push(Diagnostic::error("TG0216", *qspan, format!("{q} qualifier already set")));
                }
            }
            let eqrel = quals.contains("eqrel");
            if eqrel && (kinds.len() != 2 || kinds[0] != kinds[1]) {
                self.diags.push(Diagnostic::error("TG0207", d.span, "an eqrel relation must be binary with both attributes of one type"));
            }
            for bad in ["btree", "brie", "btree_delete", "eqrel"] {
                let n = d.qualifiers.iter().filter(|q| ["btree", "brie", "btree_delete", "eqrel"].contains(&q.0.as_str())).count();
                if n > 1 && quals.contains(bad) {
                    self.diags.push(Diagnostic::error("TG0208", d.span, "multiple representations specified for one relation"));
                    break;
                }
            }
            let mut choice = vec![];
            for key in &d.choice_domain {
                let mut cols = vec![];
                for k in key {
                    match attr_names.iter().position(|a| a == k) {
                        Some(c) => cols.push(c),
                        None => self.diags.push(Diagnostic::error("TG0209", d.span, format!("choice-domain attribute {k} is not declared"))),
                    }
                }
                cols.sort_unstable();
                cols.dedup();
                if !choice.contains(&cols) {
                    choice.push(cols);
                }
            }
            for (name, span) in &d.names {
                if let Some(&prev) = self.rel_ids.get(name) {
                    let pspan = self.prog.relations[prev].span;
                    let (l, _) = self.sm.line_col(pspan.file, pspan.start);
                    self.diags.push(Diagnostic::error("TG0201", *span, format!("redefinition of relation {name}")).with_note(format!("previous definition at line {l}")));
                    continue;
                }
                let mut rel = LogicRelation {
                    name: name.clone(),
                    attr_names: attr_names.clone(),
                    attr_types: attr_types.clone(),
                    kinds: kinds.clone(),
                    eqrel,
                    inputs: vec![],
                    outputs: vec![],
                    printsize: false,
                    limitsize: None,
                    choice: choice.clone(),
                    inline: quals.contains("inline"),
                    span: *span,
                };
                if self.type_ids.get(name).is_some_and(|&t| t >= PRIMITIVES.len()) {
                    self.diags.push(Diagnostic::error("TG0217", *span, format!("name clash on relation {name}: a type has the same name")));
                }
                // Legacy qualifiers `input`/`output`/`printsize` on the declaration.
                if quals.contains("input") {
                    rel.inputs.push(IoSpec::default());
                }
                if quals.contains("output") {
                    rel.outputs.push(IoSpec::default());
                }
                if quals.contains("printsize") {
                    rel.printsize = true;
                }
                self.rel_ids.insert(name.clone(), self.prog.relations.len());
                self.prog.relations.push(rel);
            }
        }
    }

    fn directives(&mut self, ast: &AstProgram) {
        for item in &ast.items {
            let AstItem::Directive(d) = item else { continue };
            for (name, span) in &d.rels {
                let Some(&r) = self.rel_ids.get(name) else {
                    self.diags.push(Diagnostic::error("TG0202", *span, format!("undefined relation {name}")));
                    continue;
                };
                let spec = IoSpec { params: d.params.iter().cloned().collect::<BTreeMap<_, _>>() };
                let rel = &mut self.prog.relations[r];
                match d.kind {
                    DirectiveKind::Input => rel.inputs.push(spec),
                    DirectiveKind::Output => rel.outputs.push(spec),
                    DirectiveKind::PrintSize => {
                        if rel.printsize {
                            self.diags.push(Diagnostic::error("TG0607", *span, format!("redefinition of printsize directives for relation {name}")));
                        }
                        rel.printsize = true;
                    }
                    DirectiveKind::LimitSize => {
                        let n = spec.get("n").and_then(|n| n.parse().ok());
                        if n.is_none() {
                            self.diags.push(Diagnostic::error("TG0603", d.span, ".limitsize needs a parameter n=<number>"));
                        }
                        rel.limitsize = n;
                    }
                }
            }
        }
    }

    /// `inline` is accepted and evaluated as a materialised relation; these are the
    /// restrictions Soufflé places on it, checked so programs stay portable.
    fn inline_checks(&mut self, ast: &AstProgram) {
        for r in &self.prog.relations {
            if r.inline && (!r.inputs.is_empty() || !r.outputs.is_empty() || r.printsize) {
                self.diags.push(Diagnostic::error("TG0218", r.span, format!("inline relation {} cannot have IO directives", r.name)));
            }
        }
        // Cycles made only of inline relations cannot be unfolded.
        let n = self.prog.relations.len();
        let mut g = petgraph::graph::DiGraph::<usize, ()>::new();
        let nodes: Vec<_> = (0..n).map(|i| g.add_node(i)).collect();
        for rule in &self.prog.rules {
            let h = rule.head.0;
            let mut deps = vec![];
            rule.body.iter().for_each(|l| l.deps(&mut deps));
            for (d, _) in deps {
                if self.prog.relations[h].inline && self.prog.relations[d].inline {
                    g.add_edge(nodes[d], nodes[h], ());
                }
            }
        }
        for scc in petgraph::algo::tarjan_scc(&g) {
            let cyclic = scc.len() > 1 || scc.iter().any(|x| g.contains_edge(*x, *x));
            if cyclic {
                let mut names: Vec<&str> = scc.iter().map(|x| self.prog.relations[g[*x]].name.as_str()).collect();
                names.sort_unstable();
                let first = scc.iter().map(|x| g[*x]).min().unwrap_or(0);
                self.diags.push(Diagnostic::error("TG0219", self.prog.relations[first].span, format!("cannot inline cyclically dependent relations {{{}}}", names.join(", "))));
            }
        }
        // A negated inline atom may not use `_`, nor negate rules that introduce new variables.
        for item in &ast.items {
            let AstItem::Clause(c) = item else { continue };
            let mut negs = vec![];
            collect_negated(&c.body, &mut negs);
            for a in negs {
                let Some(&r) = self.rel_ids.get(&a.rel) else { continue };
                if !self.prog.relations[r].inline {
                    continue;
                }
                if a.args.iter().any(|e| matches!(e, AstExpr::Wildcard(_))) {
                    self.diags.push(Diagnostic::error("TG0220", a.span, "cannot inline a negated atom containing an unnamed variable"));
                    continue;
                }
                let introduces = self.prog.rules.iter().filter(|rule| rule.head.0 == r).any(|rule| {
                    let mut head_vars = BTreeSet::new();
                    for e in &rule.head.1 {
                        if let Expr::Var(v) = e {
                            head_vars.insert(*v);
                        }
                    }
                    rule.body
                        .iter()
                        .any(|l| matches!(l, Lit::Atom(at) if at.args.iter().any(|e| matches!(e, Expr::Var(v) if !head_vars.contains(v) && !rule.var_names[*v].starts_with('_')))))
                });
                if introduces {
                    self.diags.push(Diagnostic::error("TG0221", a.span, "cannot inline a negated relation which may introduce new variables"));
                }
            }
        }
    }

    /// `eqrel` relations get their closure as ordinary rules (documented in docs/ARCHITECTURE.md).
    fn eqrel_rules(&mut self) {
        for r in 0..self.prog.relations.len() {
            if !self.prog.relations[r].eqrel || self.prog.relations[r].arity() != 2 {
                continue;
            }
            let span = self.prog.relations[r].span;
            let name = self.prog.relations[r].name.clone();
            let v = |i| Expr::Var(i);
            let atom = |a, b| Lit::Atom(Atom { rel: r, args: vec![v(a), v(b)], span });
            let rules = [
                (format!("{name}(x, x) :- {name}(x, _). // eqrel reflexivity"), (r, vec![v(0), v(0)]), vec![atom(0, 1)], 2),
                (format!("{name}(y, y) :- {name}(_, y). // eqrel reflexivity"), (r, vec![v(1), v(1)]), vec![atom(0, 1)], 2),
                (format!("{name}(y, x) :- {name}(x, y). // eqrel symmetry"), (r, vec![v(1), v(0)]), vec![atom(0, 1)], 2),
                (format!("{name}(x, z) :- {name}(x, y), {name}(y, z). // eqrel transitivity"), (r, vec![v(0), v(2)]), vec![atom(0, 1), atom(1, 2)], 3),
            ];
            for (text, head, body, n) in rules {
                self.prog.rules.push(logic::Rule {
                    hash: rule_hash(&text),
                    text,
                    head,
                    body,
                    num_vars: n,
                    var_names: ["x", "y", "z"].iter().take(n).map(|s| s.to_string()).collect(),
                    plan: vec![],
                    subsumed: None,
                    span,
                });
            }
        }
    }

    // ---- clauses ---------------------------------------------------------------

    fn clause(&mut self, c: &AstClause) {
        let text = normalise_ws(self.sm.snippet(c.span));
        let conjs = dnf(&c.body);
        let mut n = 0usize;
        for head in &c.heads {
            let Some(&hrel) = self.rel_ids.get(&head.rel) else {
                self.diags.push(Diagnostic::error("TG0202", head.span, format!("undefined relation {}", head.rel)));
                continue;
            };
            if self.prog.relations[hrel].arity() != head.args.len() {
                self.arity_error(hrel, head);
                continue;
            }
            for conj in &conjs {
                let hash_text = if c.heads.len() * conjs.len() > 1 { format!("{text} #{n}") } else { text.clone() };
                n += 1;
                if let Some(rule) = self.rule(c, hrel, head, conj, hash_text) {
                    self.prog.rules.push(rule);
                }
            }
        }
    }

    fn arity_error(&mut self, rel: RelId, atom: &AstAtom) {
        let r = &self.prog.relations[rel];
        self.diags.push(Diagnostic::error("TG0205", atom.span, format!("mismatching arity of relation {}: {} argument(s) given, {} declared", r.name, atom.args.len(), r.arity())));
    }

    fn rule(&mut self, c: &AstClause, hrel: RelId, head: &AstAtom, body: &[&AstLiteral], text: String) -> Option<logic::Rule> {
        let errors_before = self.diags.0.len();
        let mut b = RuleBuilder::default();
        // A name used inside an aggregate is shared with the rule only if the rule grounds it
        // outside every aggregate; otherwise it is local to the aggregate (Soufflé's scoping).
        let subsumption_atoms: Vec<AstLiteral> = match &c.subsumed {
            Some(dom) => vec![AstLiteral::Atom(head.clone()), AstLiteral::Atom(dom.clone())],
            None => vec![],
        };
        let scope_lits: Vec<&AstLiteral> = subsumption_atoms.iter().chain(body.iter().copied()).collect();
        let top_names = grounded_names(&scope_lits);
        let mut lits = vec![];
        let mut head_args: Vec<PExpr> = vec![];
        let mut dominated = None;
        if let Some(dom) = &c.subsumed {
            // `head <= dom :- body`: both atoms are read; the head tuple is deleted when the body holds.
            if self.rel_ids.get(&dom.rel) != Some(&hrel) {
                self.diags.push(Diagnostic::error("TG0210", dom.span, "both atoms of a subsumptive rule must be of the same relation"));
            }
            for (i, l) in subsumption_atoms.iter().enumerate() {
                let before = lits.len();
                self.lit(l, &mut b, &top_names, &mut lits);
                let args = lits[before..].iter().find_map(|x| if let PLit::Atom(_, a, _) = x { Some(a.clone()) } else { None }).unwrap_or_default();
                if i == 0 { head_args = args } else { dominated = Some(args) }
            }
        }
        for l in body.iter().copied() {
            self.lit(l, &mut b, &top_names, &mut lits);
        }
        if c.subsumed.is_none() {
            head_args = head.args.iter().map(|a| self.expr(a, &mut b, &top_names, &mut lits, true)).collect();
        }
        let is_fact = c.body.is_empty() && c.subsumed.is_none() && lits.is_empty();
        if is_fact {
            for (a, ast) in head_args.iter().zip(&head.args) {
                if !a.is_constant() {
                    self.diags.push(Diagnostic::error("TG0204", ast.span(), "argument in fact is not constant"));
                }
            }
        }
        // Kind inference.
        let head_kinds = self.prog.relations[hrel].kinds.clone();
        let mut inf = Infer { kinds: vec![None; b.names.len()], conflicts: BTreeSet::new(), records: &self.prog.records, changed: false, const_errors: BTreeSet::new() };
        loop {
            inf.changed = false;
            for (a, k) in head_args.iter().zip(&head_kinds) {
                inf.unify(a, *k);
            }
            inf.lits(&lits, &self.prog.relations);
            if !inf.changed {
                if inf.default_pass(&lits) {
                    continue;
                }
                break;
            }
        }
        let const_errors = std::mem::take(&mut inf.const_errors);
        let inferred_kinds = std::mem::take(&mut inf.kinds);
        let kind_conflicts = std::mem::take(&mut inf.conflicts);
        for v in &kind_conflicts {
            let name = &b.names[*v];
            let span = b.spans.get(*v).copied().unwrap_or(c.span);
            self.diags.push(Diagnostic::error("TG0301", span, format!("unable to deduce type for variable {name}")).with_note("its uses require different primitive types"));
        }
        for msg in &const_errors {
            self.diags.push(Diagnostic::error("TG0306", c.span, *msg));
        }
        if kind_conflicts.is_empty() {
            self.subtype_checks(&b, hrel, &head_args, &lits, c.span);
            let mut casts = vec![];
            for e in &head_args {
                casts_in(e, &mut casts);
            }
            for l in &lits {
                if let PLit::Cmp(_, x, y, _) = l {
                    casts_in(x, &mut casts);
                    casts_in(y, &mut casts);
                }
            }
            for (inner, k) in casts {
                if let PExpr::Var(v) = inner
                    && let Some(ik) = inferred_kinds[*v]
                    && (ik == Kind::Symbol) != (k == Kind::Symbol)
                {
                    self.diags.push(Diagnostic::error("TG0309", c.span, format!("cannot cast {} from {} to {}", b.names[*v], kind_name(ik), kind_name(k))));
                }
            }
        }
        let kinds: Vec<Kind> = inferred_kinds.iter().map(|k| k.unwrap_or(Kind::Number)).collect();
        // Groundedness and singletons, unless the rule already failed (a dropped atom would
        // make every variable it binds look ungrounded).
        let failed = self.diags.0[errors_before..].iter().any(|d| d.severity == super::diag::Severity::Error);
        if !failed {
            self.grounded(&b, &head_args, &lits, dominated.as_deref(), c.span);
            for (name, (count, span)) in &b.occurrences {
                if *count == 1 && !name.starts_with('_') && !is_fact {
                    self.diags.push(Diagnostic::warning("TG0211", *span, format!("variable {name} only occurs once")));
                }
            }
        }
        if self.diags.0[errors_before..].iter().any(|d| d.severity == super::diag::Severity::Error) {
            return None;
        }
        let mut fin = Finish { values: self.values, kinds: &kinds, records: &self.prog.records };
        let head_exprs: Vec<Expr> = head_args.iter().zip(&head_kinds).map(|(a, k)| fin.expr(a, *k)).collect();
        let body_lits: Vec<Lit> = lits.iter().map(|l| fin.lit(l, &self.prog.relations)).collect();
        let dominated = dominated.map(|d| d.iter().zip(&head_kinds).map(|(a, k)| fin.expr(a, *k)).collect());
        Some(logic::Rule {
            hash: rule_hash(&text),
            text,
            head: (hrel, head_exprs),
            body: body_lits,
            num_vars: b.names.len(),
            var_names: b.names.clone(),
            plan: c.plan.clone(),
            subsumed: dominated,
            span: c.span,
        })
    }

    /// Is type `a` a subtype of `b` (equal, a declared ancestor, or a member of a union)?
    fn subtype(&self, a: usize, b: usize) -> bool {
        if a == b {
            return true;
        }
        let tb = &self.prog.types[b];
        if !tb.members.is_empty() {
            return tb.members.iter().any(|m| self.subtype(a, *m));
        }
        let ta = &self.prog.types[a];
        if !ta.members.is_empty() {
            return ta.members.iter().all(|m| self.subtype(*m, b));
        }
        let mut cur = a;
        for _ in 0..64 {
            match self.prog.types[cur].supers.first() {
                Some(&s) if s == b => return true,
                Some(&s) => cur = s,
                None => return false,
            }
        }
        false
    }

    /// Soufflé's subtype discipline for named variables: a variable takes the most specific
    /// type of the atoms it appears in (an error if two of them share no values), and a head
    /// argument must be a subtype of the head's declared type.
    fn subtype_checks(&mut self, b: &RuleBuilder, hrel: RelId, head: &[PExpr], lits: &[PLit], span: Span) {
        let attr_type = |this: &Self, r: RelId, c: usize| this.type_ids.get(this.prog.relations[r].attr_types.get(c).map(String::as_str).unwrap_or("")).copied();
        let mut vt: Vec<Option<usize>> = vec![None; b.names.len()];
        let mut bad: BTreeSet<VarId> = BTreeSet::new();
        let mut note: BTreeMap<VarId, String> = BTreeMap::new();
        let mut meet = |this: &Self, v: VarId, t: usize, vt: &mut Vec<Option<usize>>| match vt[v] {
            None => vt[v] = Some(t),
            Some(u) if this.subtype(t, u) => vt[v] = Some(t),
            Some(u) if this.subtype(u, t) => {}
            Some(u) => {
                bad.insert(v);
                note.insert(v, format!("its uses require types {} and {}, which share no values", this.prog.types[u].name, this.prog.types[t].name));
            }
        };
        for l in lits {
            let (r, args): (RelId, Vec<Option<&PExpr>>) = match l {
                PLit::Atom(r, args, _) => (*r, args.iter().map(Some).collect()),
                PLit::Neg(r, args, _) => (*r, args.iter().map(Option::as_ref).collect()),
                _ => continue,
            };
            for (c, a) in args.into_iter().enumerate() {
                if let (Some(PExpr::Var(v)), Some(t)) = (a, attr_type(self, r, c))
                    && !b.names[*v].starts_with('_')
                {
                    meet(self, *v, t, &mut vt);
                }
            }
        }
        for l in lits {
            if let PLit::Cmp(_, PExpr::Var(x), PExpr::Var(y), _) = l
                && let (Some(tx), Some(ty)) = (vt[*x], vt[*y])
                && !self.subtype(tx, ty)
                && !self.subtype(ty, tx)
            {
                for v in [*x, *y] {
                    bad.insert(v);
                    note.insert(
                        v,
                        format!(
                            "it is compared with a value of type {}, which shares no values with {}",
                            self.prog.types[if v == *x { ty } else { tx }].name,
                            self.prog.types[if v == *x { tx } else { ty }].name
                        ),
                    );
                }
            }
        }
        for v in &bad {
            let sp = b.spans.get(*v).copied().unwrap_or(span);
            let mut d = Diagnostic::error("TG0307", sp, format!("unable to deduce type for variable {}", b.names[*v]));
            if let Some(n) = note.get(v) {
                d = d.with_note(n.clone());
            }
            self.diags.push(d);
        }
        for (c, a) in head.iter().enumerate() {
            if let PExpr::As(_, _, Some(t)) = a
                && let Some(h) = attr_type(self, hrel, c)
                && !self.subtype(*t, h)
            {
                self.diags.push(
                    Diagnostic::error("TG0308", span, format!("cast to {} is not a subtype of the declared type {}", self.prog.types[*t].name, self.prog.types[h].name))
                        .with_note(format!("{}'s attribute {} is declared {}", self.prog.relations[hrel].name, self.prog.relations[hrel].attr_names[c], self.prog.types[h].name)),
                );
            }
            if let PExpr::Var(v) = a
                && !bad.contains(v)
                && let (Some(t), Some(h)) = (vt[*v], attr_type(self, hrel, c))
                && !self.subtype(t, h)
            {
                let sp = b.spans.get(*v).copied().unwrap_or(span);
                self.diags.push(
                    Diagnostic::error(
                        "TG0308",
                        sp,
                        format!("argument type {} of {} is not a subtype of the declared type {}", self.prog.types[t].name, b.names[*v], self.prog.types[h].name),
                    )
                    .with_note(format!("{}'s attribute {} is declared {}", self.prog.relations[hrel].name, self.prog.relations[hrel].attr_names[c], self.prog.types[h].name)),
                );
            }
        }
    }

    fn grounded(&mut self, b: &RuleBuilder, head: &[PExpr], lits: &[PLit], dominated: Option<&[PExpr]>, span: Span) {
        let mut bound = vec![false; b.names.len()];
        ground_lits(lits, &mut bound);
        let report = |v: VarId, this: &mut Self| {
            let sp = b.spans.get(v).copied().unwrap_or(span);
            this.diags.push(Diagnostic::error("TG0203", sp, format!("ungrounded variable {}", b.names[v])));
        };
        let mut reported = BTreeSet::new();
        let mut need = vec![];
        for a in head {
            a.vars(&mut need);
        }
        if let Some(d) = dominated {
            for a in d {
                a.vars(&mut need);
            }
        }
        needed_lits(lits, &mut need);
        for v in need {
            if !bound[v] && reported.insert(v) {
                report(v, self);
            }
        }
        // Aggregate bodies: their locals must be grounded inside.
        fn agg_check(lits: &[PLit], bound: &[bool], out: &mut Vec<VarId>) {
            for l in lits {
                if let PLit::Agg { target, body, locals, .. } = l {
                    let mut inner = bound.to_vec();
                    ground_lits(body, &mut inner);
                    let mut need = vec![];
                    if let Some(t) = target {
                        t.vars(&mut need);
                    }
                    needed_lits(body, &mut need);
                    for v in need {
                        if !inner[v] && (locals.contains(&v) || !bound[v]) {
                            out.push(v);
                        }
                    }
                    agg_check(body, &inner, out);
                }
            }
        }
        let mut bad = vec![];
        agg_check(lits, &bound, &mut bad);
        for v in bad {
            if reported.insert(v) {
                report(v, self);
            }
        }
    }

    fn lit(&mut self, l: &AstLiteral, b: &mut RuleBuilder, top: &BTreeMap<String, usize>, out: &mut Vec<PLit>) {
        match l {
            AstLiteral::Atom(a) => {
                let Some(rel) = self.atom_rel(a) else { return };
                let mut args = vec![];
                let mut eqs = vec![];
                for e in &a.args {
                    let pe = match e {
                        AstExpr::Wildcard(s) => PExpr::Var(b.fresh("_", *s)),
                        _ => self.expr(e, b, top, out, true),
                    };
                    match pe {
                        PExpr::Var(_) => args.push(pe),
                        other => {
                            // A non-variable argument becomes a fresh variable plus an equality.
                            let v = b.fresh("_arg", e.span());
                            eqs.push(PLit::Cmp(CmpOp::Eq, PExpr::Var(v), other, e.span()));
                            args.push(PExpr::Var(v));
                        }
                    }
                }
                out.push(PLit::Atom(rel, args, a.span));
                out.extend(eqs);
            }
            AstLiteral::Negated(a) => {
                let Some(rel) = self.atom_rel(a) else { return };
                let args = a
                    .args
                    .iter()
                    .map(|e| match e {
                        AstExpr::Wildcard(_) => None,
                        _ => Some(self.expr(e, b, top, out, true)),
                    })
                    .collect();
                out.push(PLit::Neg(rel, args, a.span));
            }
            AstLiteral::Constraint(op, l, r, span) => {
                let le = self.expr(l, b, top, out, true);
                let re = self.expr(r, b, top, out, true);
                out.push(PLit::Cmp(*op, le, re, *span));
            }
            AstLiteral::Pred(op, args, positive, span) => {
                let mut es: Vec<PExpr> = args.iter().map(|e| self.expr(e, b, top, out, true)).collect();
                if es.len() != 2 {
                    self.diags.push(Diagnostic::error("TG0212", *span, "match/contains take two arguments"));
                    return;
                }
                let y = es.pop().unwrap_or(PExpr::Int(0));
                let x = es.pop().unwrap_or(PExpr::Int(0));
                out.push(PLit::Pred(*op, x, y, *positive));
            }
            AstLiteral::Bool(true, _) => {}
            AstLiteral::Bool(false, _) => out.push(PLit::False),
            AstLiteral::Disjunction(_, span) => {
                self.diags.push(Diagnostic::error("TG0503", *span, "disjunction inside an aggregate body is not supported"));
            }
        }
    }

    fn atom_rel(&mut self, a: &AstAtom) -> Option<RelId> {
        let Some(&rel) = self.rel_ids.get(&a.rel) else {
            self.diags.push(Diagnostic::error("TG0202", a.span, format!("undefined relation {}", a.rel)));
            return None;
        };
        if self.prog.relations[rel].arity() != a.args.len() {
            self.arity_error(rel, a);
            return None;
        }
        Some(rel)
    }

    fn expr(&mut self, e: &AstExpr, b: &mut RuleBuilder, top: &BTreeMap<String, usize>, out: &mut Vec<PLit>, count: bool) -> PExpr {
        match e {
            AstExpr::Var(name, span) => PExpr::Var(b.var(name, *span, count)),
            AstExpr::Wildcard(span) => {
                self.diags.push(Diagnostic::error("TG0213", *span, "underscore in a position where a value is needed"));
                PExpr::Int(0)
            }
            AstExpr::Int(i, span) => {
                if *i > u32::MAX as i64 {
                    self.diags.push(Diagnostic::error("TG0304", *span, "number constant out of range"));
                }
                PExpr::Int(*i)
            }
            AstExpr::Unsigned(u, _) => PExpr::Uns(*u),
            AstExpr::Float(f, _) => PExpr::Flt(*f),
            AstExpr::Str(s, _) => PExpr::Str(s.clone()),
            AstExpr::Nil(_) => PExpr::Nil,
            AstExpr::Record(args, _) => PExpr::Record(args.iter().map(|a| self.expr_or_fresh(a, b, top, out, count)).collect()),
            AstExpr::Unary(op, a, _) => {
                let inner = self.expr(a, b, top, out, count);
                match (op, inner) {
                    (UnOp::Neg, PExpr::Int(i)) => PExpr::Int(-i),
                    (UnOp::Neg, PExpr::Flt(f)) => PExpr::Flt(-f),
                    (op, inner) => PExpr::Unary(*op, Box::new(inner)),
                }
            }
            AstExpr::Binary(op, l, r, _) => {
                let le = self.expr(l, b, top, out, count);
                let re = self.expr(r, b, top, out, count);
                PExpr::Binary(*op, Box::new(le), Box::new(re))
            }
            AstExpr::Call(name, args, span) => {
                let es: Vec<PExpr> = args.iter().map(|a| self.expr(a, b, top, out, count)).collect();
                let (f, arity): (Functor, &[usize]) = match name.as_str() {
                    "cat" => (Functor::Cat, &[]),
                    "strlen" => (Functor::Strlen, &[1]),
                    "substr" => (Functor::Substr, &[3]),
                    "ord" => (Functor::Ord, &[1]),
                    "to_number" | "to_int" => (Functor::ToNumber, &[1]),
                    "to_string" => (Functor::ToString, &[1]),
                    "to_float" => (Functor::ToFloat, &[1]),
                    "to_unsigned" => (Functor::ToUnsigned, &[1]),
                    "min" => (Functor::Min, &[]),
                    "max" => (Functor::Max, &[]),
                    "range" => {
                        if !(2..=3).contains(&es.len()) {
                            self.diags.push(Diagnostic::error("TG0212", *span, "range takes two or three arguments"));
                        }
                        let v = b.fresh("_range", *span);
                        out.push(PLit::Range(v, es, *span));
                        return PExpr::Var(v);
                    }
                    "autoinc" => {
                        self.diags.push(Diagnostic::error("TG0504", *span, "autoinc() is not supported: its values depend on evaluation history"));
                        return PExpr::Int(0);
                    }
                    other => {
                        self.diags.push(Diagnostic::error("TG0214", *span, format!("unknown functor {other}")));
                        return PExpr::Int(0);
                    }
                };
                if !arity.is_empty() && !arity.contains(&es.len()) || arity.is_empty() && es.is_empty() {
                    self.diags.push(Diagnostic::error("TG0212", *span, format!("wrong number of arguments for {name}")));
                    return PExpr::Int(0);
                }
                PExpr::Call(f, es)
            }
            AstExpr::UserCall(name, args, span) => {
                let Some(h) = HostFn::by_name(self.hosts, name) else {
                    self.diags.push(
                        Diagnostic::error("TG0501", *span, format!("user-defined functor @{name} is not supported"))
                            .with_note(format!("tg provides these host functors: {}", HostFn::names(self.hosts).join(", "))),
                    );
                    return PExpr::Int(0);
                };
                if args.len() != h.args().len() {
                    self.diags.push(Diagnostic::error("TG0212", *span, format!("@{name} takes {} argument(s): {name}{}", h.args().len(), h.signature())));
                    return PExpr::Int(0);
                }
                let es: Vec<PExpr> = args.iter().map(|a| self.expr(a, b, top, out, count)).collect();
                PExpr::Call(Functor::Host(h), es)
            }
            AstExpr::As(inner, ty, span) => {
                let ie = self.expr(inner, b, top, out, count);
                let t = self.resolve_type(ty, *span);
                let k = t.map(|t| self.prog.types[t].kind).unwrap_or(Kind::Number);
                PExpr::As(Box::new(ie), k, t)
            }
            AstExpr::Counter(span) => {
                self.diags.push(Diagnostic::error("TG0504", *span, "the counter '$' is not supported: its values depend on evaluation history"));
                PExpr::Int(0)
            }
            AstExpr::Adt(name, span) => {
                self.diags.push(Diagnostic::error("TG0502", *span, format!("algebraic data type constructor {name} is not supported")));
                PExpr::Int(0)
            }
            AstExpr::Aggregate(op, target, body, span) => {
                let top_outside = top;
                // Inner scope: names not used outside this aggregate are local to it.
                let mut inner_names = BTreeMap::new();
                if let Some(t) = target {
                    count_names(t, &mut inner_names, true);
                }
                for l in body {
                    count_lit_names(l, &mut inner_names, true);
                }
                // Nested aggregates share what this aggregate's body grounds.
                let mut inner_top = top.clone();
                let body_refs: Vec<&AstLiteral> = body.iter().collect();
                for (k, v) in grounded_names(&body_refs) {
                    inner_top.insert(k, v);
                }
                let top = &inner_top;
                // Shared names get their (outer) slot now, so every slot created below is local.
                for name in inner_names.keys() {
                    if top_outside.contains_key(name) {
                        b.var(name, *span, false);
                    }
                }
                let mut saved = vec![];
                for name in inner_names.keys() {
                    if !top_outside.contains_key(name) {
                        saved.push((name.clone(), b.scope.remove(name)));
                    }
                }
                let first_local = b.names.len();
                let mut inner_lits = vec![];
                for l in body {
                    self.lit(l, b, top, &mut inner_lits);
                }
                let t = target.as_ref().map(|t| self.expr(t, b, top, &mut inner_lits, true));
                for (name, prev) in saved {
                    match prev {
                        Some(v) => b.scope.insert(name, v),
                        None => b.scope.remove(&name),
                    };
                }
                if *op != AggOp::Count && t.is_none() {
                    self.diags.push(Diagnostic::error("TG0215", *span, "this aggregate needs a target expression"));
                }
                let locals: Vec<VarId> = (first_local..b.names.len()).collect();
                let out_var = b.fresh("_agg", *span);
                out.push(PLit::Agg { out: out_var, op: *op, target: t, body: inner_lits, locals, span: *span });
                PExpr::Var(out_var)
            }
        }
    }

    fn expr_or_fresh(&mut self, e: &AstExpr, b: &mut RuleBuilder, top: &BTreeMap<String, usize>, out: &mut Vec<PLit>, count: bool) -> PExpr {
        match e {
            AstExpr::Wildcard(s) => PExpr::Var(b.fresh("_", *s)),
            _ => self.expr(e, b, top, out, count),
        }
    }
}

/// Soufflé-style rule id: blake3 of the normalised clause text, first 16 bytes.
pub fn rule_hash(text: &str) -> [u8; 16] {
    let h = blake3::hash(text.as_bytes());
    let mut out = [0u8; 16];
    out.copy_from_slice(&h.as_bytes()[..16]);
    out
}

fn normalise_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Number => "number",
        Kind::Unsigned => "unsigned",
        Kind::Float => "float",
        Kind::Symbol => "symbol",
        Kind::Record(_) => "record",
    }
}

fn collect_negated<'a>(lits: &'a [AstLiteral], out: &mut Vec<&'a AstAtom>) {
    for l in lits {
        match l {
            AstLiteral::Negated(a) => out.push(a),
            AstLiteral::Disjunction(cs, _) => cs.iter().for_each(|c| collect_negated(c, out)),
            _ => {}
        }
    }
}

/// Expands disjunctions into a list of conjunctions (each a list of borrowed literals).
fn dnf(body: &[AstLiteral]) -> Vec<Vec<&AstLiteral>> {
    let mut acc: Vec<Vec<&AstLiteral>> = vec![vec![]];
    for l in body {
        match l {
            AstLiteral::Disjunction(alts, _) => {
                let mut next = vec![];
                for prefix in &acc {
                    for alt in alts {
                        for tail in dnf(alt) {
                            let mut c = prefix.clone();
                            c.extend(tail);
                            next.push(c);
                        }
                    }
                }
                acc = next;
            }
            other => {
                for c in &mut acc {
                    c.push(other);
                }
            }
        }
    }
    acc
}

/// The `as` casts inside an expression: (cast expression, target kind).
fn casts_in<'a>(e: &'a PExpr, out: &mut Vec<(&'a PExpr, Kind)>) {
    match e {
        PExpr::As(inner, k, _) => {
            out.push((inner, *k));
            casts_in(inner, out);
        }
        PExpr::Record(a) | PExpr::Call(_, a) => a.iter().for_each(|x| casts_in(x, out)),
        PExpr::Unary(_, a) => casts_in(a, out),
        PExpr::Binary(_, a, b) => {
            casts_in(a, out);
            casts_in(b, out);
        }
        _ => {}
    }
}

/// Names grounded by a conjunction outside any aggregate: positive atom arguments, then
/// names equated to expressions (without aggregates) over grounded names, to a fixpoint.
fn grounded_names(lits: &[&AstLiteral]) -> BTreeMap<String, usize> {
    let mut g = BTreeMap::new();
    for l in lits {
        if let AstLiteral::Atom(a) = l {
            for e in &a.args {
                count_names(e, &mut g, false);
            }
        }
    }
    loop {
        let before = g.len();
        for l in lits {
            if let AstLiteral::Constraint(CmpOp::Eq, x, y, _) = l {
                for (p, q) in [(x, y), (y, x)] {
                    let mut qn = BTreeMap::new();
                    count_names(q, &mut qn, true);
                    if !has_aggregate(q) && qn.keys().all(|n| g.contains_key(n)) {
                        count_names(p, &mut g, false);
                    }
                }
            }
        }
        if g.len() == before {
            return g;
        }
    }
}

fn has_aggregate(e: &AstExpr) -> bool {
    match e {
        AstExpr::Aggregate(..) => true,
        AstExpr::Record(a, _) | AstExpr::Call(_, a, _) | AstExpr::UserCall(_, a, _) => a.iter().any(has_aggregate),
        AstExpr::Unary(_, a, _) | AstExpr::As(a, _, _) => has_aggregate(a),
        AstExpr::Binary(_, a, b, _) => has_aggregate(a) || has_aggregate(b),
        _ => false,
    }
}

/// Counts variable names in an expression; with `descend`, also inside aggregates.
fn count_names(e: &AstExpr, out: &mut BTreeMap<String, usize>, descend: bool) {
    match e {
        AstExpr::Var(n, _) => *out.entry(n.clone()).or_insert(0) += 1,
        AstExpr::Record(a, _) | AstExpr::Call(_, a, _) | AstExpr::UserCall(_, a, _) => a.iter().for_each(|x| count_names(x, out, descend)),
        AstExpr::Unary(_, a, _) | AstExpr::As(a, _, _) => count_names(a, out, descend),
        AstExpr::Binary(_, a, b, _) => {
            count_names(a, out, descend);
            count_names(b, out, descend);
        }
        AstExpr::Aggregate(_, t, body, _) if descend => {
            if let Some(t) = t {
                count_names(t, out, descend);
            }
            for l in body {
                count_lit_names(l, out, descend);
            }
        }
        _ => {}
    }
}

fn count_lit_names(l: &AstLiteral, out: &mut BTreeMap<String, usize>, descend: bool) {
    match l {
        AstLiteral::Atom(a) | AstLiteral::Negated(a) => a.args.iter().for_each(|x| count_names(x, out, descend)),
        AstLiteral::Constraint(_, a, b, _) => {
            count_names(a, out, descend);
            count_names(b, out, descend);
        }
        AstLiteral::Pred(_, args, _, _) => args.iter().for_each(|x| count_names(x, out, descend)),
        AstLiteral::Disjunction(cs, _) => cs.iter().flatten().for_each(|x| count_lit_names(x, out, descend)),
        AstLiteral::Bool(..) => {}
    }
}

/// Variable slots of one rule being built.
#[derive(Default)]
struct RuleBuilder {
    names: Vec<String>,
    spans: Vec<Span>,
    scope: HashMap<String, VarId>,
    occurrences: BTreeMap<String, (usize, Span)>,
}

impl RuleBuilder {
    fn var(&mut self, name: &str, span: Span, count: bool) -> VarId {
        if count {
            let e = self.occurrences.entry(name.to_string()).or_insert((0, span));
            e.0 += 1;
        }
        if let Some(&v) = self.scope.get(name) {
            return v;
        }
        let v = self.fresh(name, span);
        self.scope.insert(name.to_string(), v);
        v
    }

    fn fresh(&mut self, name: &str, span: Span) -> VarId {
        self.names.push(name.to_string());
        self.spans.push(span);
        self.names.len() - 1
    }
}

/// An expression before kinds are known.
#[derive(Clone, Debug)]
enum PExpr {
    Var(VarId),
    Int(i64),
    Uns(u64),
    Flt(f64),
    Str(String),
    Nil,
    Record(Vec<PExpr>),
    Unary(UnOp, Box<PExpr>),
    Binary(BinOp, Box<PExpr>, Box<PExpr>),
    Call(Functor, Vec<PExpr>),
    /// `as(e, T)`: the kind of `T` and the type id (when it resolved).
    As(Box<PExpr>, Kind, Option<usize>),
}

impl PExpr {
    fn vars(&self, out: &mut Vec<VarId>) {
        match self {
            PExpr::Var(v) => out.push(*v),
            PExpr::Record(a) | PExpr::Call(_, a) => a.iter().for_each(|x| x.vars(out)),
            PExpr::Unary(_, a) | PExpr::As(a, _, _) => a.vars(out),
            PExpr::Binary(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            _ => {}
        }
    }

    fn is_constant(&self) -> bool {
        let mut v = vec![];
        self.vars(&mut v);
        v.is_empty()
    }
}

/// A literal before kinds are known.
#[derive(Clone, Debug)]
enum PLit {
    Atom(RelId, Vec<PExpr>, Span),
    Neg(RelId, Vec<Option<PExpr>>, Span),
    Cmp(CmpOp, PExpr, PExpr, Span),
    Pred(PredOp, PExpr, PExpr, bool),
    Agg { out: VarId, op: AggOp, target: Option<PExpr>, body: Vec<PLit>, locals: Vec<VarId>, span: Span },
    Range(VarId, Vec<PExpr>, Span),
    False,
}

/// Marks variables bound by positive literals (fixpoint over equalities, records, aggregates).
fn ground_lits(lits: &[PLit], bound: &mut [bool]) {
    loop {
        let mut changed = false;
        let mut set = |v: VarId, bound: &mut [bool]| {
            if !bound[v] {
                bound[v] = true;
                changed = true;
            }
        };
        for l in lits {
            match l {
                PLit::Atom(_, args, _) => {
                    for a in args {
                        if let PExpr::Var(v) = a {
                            set(*v, bound);
                        }
                    }
                }
                PLit::Cmp(CmpOp::Eq, a, b, _) => {
                    for (x, y) in [(a, b), (b, a)] {
                        if all_bound(y, bound) {
                            bind_pattern(x, bound, &mut set);
                        }
                    }
                }
                PLit::Agg { out, target, body, locals, .. } => {
                    // The result is bound once every outer variable used inside is bound.
                    let mut used = vec![];
                    if let Some(t) = target {
                        t.vars(&mut used);
                    }
                    needed_lits(body, &mut used);
                    let mut inner = bound.to_vec();
                    for v in locals {
                        inner[*v] = false;
                    }
                    ground_lits(body, &mut inner);
                    let outer_ok = used.iter().all(|v| locals.contains(v) || bound[*v] || inner[*v]);
                    if outer_ok {
                        set(*out, bound);
                    }
                }
                PLit::Range(out, args, _) if args.iter().all(|a| all_bound(a, bound)) => {
                    set(*out, bound);
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
}

fn all_bound(e: &PExpr, bound: &[bool]) -> bool {
    let mut v = vec![];
    e.vars(&mut v);
    v.iter().all(|v| bound[*v])
}

/// `pattern = <bound value>` binds a variable, or every variable inside a record pattern.
fn bind_pattern(e: &PExpr, bound: &mut [bool], set: &mut impl FnMut(VarId, &mut [bool])) {
    match e {
        PExpr::Var(v) => set(*v, bound),
        PExpr::Record(args) => args.iter().for_each(|a| bind_pattern(a, bound, set)),
        _ => {}
    }
}

/// Variables that must be bound for the literals to be evaluated (not counting binders).
fn needed_lits(lits: &[PLit], out: &mut Vec<VarId>) {
    for l in lits {
        match l {
            PLit::Neg(_, args, _) => args.iter().flatten().for_each(|a| a.vars(out)),
            PLit::Cmp(_, a, b, _) | PLit::Pred(_, a, b, _) => {
                a.vars(out);
                b.vars(out);
            }
            PLit::Range(_, args, _) => args.iter().for_each(|a| a.vars(out)),
            PLit::Agg { locals, target, body, .. } => {
                let mut inner = vec![];
                if let Some(t) = target {
                    t.vars(&mut inner);
                }
                needed_lits(body, &mut inner);
                let mut bound_inside = vec![false; inner.iter().copied().max().map(|m| m + 1).unwrap_or(0).max(locals.iter().copied().max().map(|m| m + 1).unwrap_or(0))];
                for l in body {
                    if let PLit::Atom(_, args, _) = l {
                        for a in args {
                            if let PExpr::Var(v) = a
                                && *v < bound_inside.len()
                            {
                                bound_inside[*v] = true;
                            }
                        }
                    }
                }
                out.extend(inner.into_iter().filter(|v| !locals.contains(v) && !bound_inside.get(*v).copied().unwrap_or(false)));
            }
            _ => {}
        }
    }
}

/// Kind inference state for one rule.
struct Infer<'a> {
    kinds: Vec<Option<Kind>>,
    conflicts: BTreeSet<VarId>,
    records: &'a [RecordType],
    changed: bool,
    /// Constants used at a kind they cannot have (`"a"` as a number, `nil` as a symbol…).
    const_errors: BTreeSet<&'static str>,
}

impl Infer<'_> {
    fn set(&mut self, v: VarId, k: Kind) {
        match self.kinds[v] {
            None => {
                self.kinds[v] = Some(k);
                self.changed = true;
            }
            Some(k2) if k2 != k => {
                self.conflicts.insert(v);
            }
            _ => {}
        }
    }

    fn kind_of(&self, e: &PExpr) -> Option<Kind> {
        match e {
            PExpr::Var(v) => self.kinds[*v],
            PExpr::Int(_) | PExpr::Nil | PExpr::Record(_) => None,
            PExpr::Uns(_) => Some(Kind::Unsigned),
            PExpr::Flt(_) => Some(Kind::Float),
            PExpr::Str(_) => Some(Kind::Symbol),
            PExpr::Unary(_, a) => self.kind_of(a),
            PExpr::Binary(_, a, b) => self.kind_of(a).or_else(|| self.kind_of(b)),
            PExpr::As(_, k, _) => Some(*k),
            PExpr::Call(f, args) => match f {
                Functor::Cat | Functor::Substr | Functor::ToString => Some(Kind::Symbol),
                Functor::Strlen | Functor::Ord | Functor::ToNumber => Some(Kind::Number),
                Functor::ToFloat => Some(Kind::Float),
                Functor::ToUnsigned => Some(Kind::Unsigned),
                Functor::Min | Functor::Max | Functor::As => args.iter().find_map(|a| self.kind_of(a)),
                Functor::Host(h) => Some(h.result()),
            },
        }
    }

    fn unify(&mut self, e: &PExpr, k: Kind) {
        let is_record = matches!(k, Kind::Record(_));
        match e {
            PExpr::Var(v) => self.set(*v, k),
            PExpr::Int(_) if k == Kind::Symbol || is_record => {
                self.const_errors.insert("number constant (type mismatch)");
            }
            PExpr::Flt(_) if k == Kind::Symbol || is_record => {
                self.const_errors.insert("float constant (type mismatch)");
            }
            PExpr::Str(_) if k != Kind::Symbol => {
                self.const_errors.insert("symbol constant (type mismatch)");
            }
            PExpr::Nil if !is_record => {
                self.const_errors.insert("nil constant used as a non-record");
            }
            PExpr::Record(args) => {
                if let Kind::Record(t) = k {
                    let fields: Vec<Kind> = self.records.get(t).map(|r| r.fields.iter().map(|f| f.1).collect()).unwrap_or_default();
                    if fields.len() == args.len() {
                        for (a, fk) in args.iter().zip(fields) {
                            self.unify(a, fk);
                        }
                    } else {
                        self.const_errors.insert("record constructor of the wrong arity");
                    }
                } else {
                    self.const_errors.insert("record used as a non-record");
                }
            }
            PExpr::Unary(_, a) => self.unify(a, k),
            PExpr::Binary(_, a, b) => {
                self.unify(a, k);
                self.unify(b, k);
            }
            PExpr::Call(f, args) => match f {
                Functor::Cat => args.iter().for_each(|a| self.unify(a, Kind::Symbol)),
                Functor::Strlen => args.iter().for_each(|a| self.unify(a, Kind::Symbol)),
                Functor::Substr => {
                    if let [s, i, n] = args.as_slice() {
                        self.unify(s, Kind::Symbol);
                        self.unify(i, Kind::Number);
                        self.unify(n, Kind::Number);
                    }
                }
                Functor::Min | Functor::Max => args.iter().for_each(|a| self.unify(a, k)),
                Functor::Host(h) => args.iter().zip(h.args()).for_each(|(a, ak)| self.unify(a, *ak)),
                _ => {}
            },
            _ => {}
        }
    }

    fn lits(&mut self, lits: &[PLit], rels: &[LogicRelation]) {
        for l in lits {
            match l {
                PLit::Atom(r, args, _) => {
                    for (a, k) in args.iter().zip(&rels[*r].kinds) {
                        self.unify(a, *k);
                    }
                }
                PLit::Neg(r, args, _) => {
                    for (a, k) in args.iter().zip(&rels[*r].kinds) {
                        if let Some(a) = a {
                            self.unify(a, *k);
                        }
                    }
                }
                PLit::Cmp(_, a, b, _) => {
                    if let Some(k) = self.kind_of(a).or_else(|| self.kind_of(b)) {
                        self.unify(a, k);
                        self.unify(b, k);
                    }
                }
                PLit::Pred(_, a, b, _) => {
                    self.unify(a, Kind::Symbol);
                    self.unify(b, Kind::Symbol);
                }
                PLit::Agg { out, op, target, body, .. } => {
                    self.lits(body, rels);
                    match op {
                        AggOp::Count => self.set(*out, Kind::Number),
                        AggOp::Mean => self.set(*out, Kind::Float),
                        _ => {
                            if let Some(t) = target {
                                if let Some(k) = self.kind_of(t) {
                                    self.set(*out, k);
                                } else if let Some(k) = self.kinds[*out] {
                                    self.unify(t, k);
                                }
                            }
                        }
                    }
                }
                PLit::Range(out, args, _) => {
                    let k = args.iter().find_map(|a| self.kind_of(a)).or(self.kinds[*out]);
                    if let Some(k) = k {
                        self.set(*out, k);
                        for a in args {
                            self.unify(a, k);
                        }
                    }
                }
                PLit::False => {}
            }
        }
    }

    /// When nothing more can be inferred, numbers default to `number`; returns true if that changed anything.
    fn default_pass(&mut self, lits: &[PLit]) -> bool {
        self.changed = false;
        fn walk(inf: &mut Infer, lits: &[PLit]) {
            for l in lits {
                match l {
                    PLit::Cmp(_, a, b, _) if inf.kind_of(a).is_none() && inf.kind_of(b).is_none() && !matches!(a, PExpr::Record(_)) && !matches!(b, PExpr::Record(_)) => {
                        inf.unify(a, Kind::Number);
                        inf.unify(b, Kind::Number);
                    }
                    PLit::Agg { body, out, target, .. } => {
                        walk(inf, body);
                        if let Some(t) = target
                            && inf.kind_of(t).is_none()
                        {
                            inf.unify(t, Kind::Number);
                            let _ = out;
                        }
                    }
                    PLit::Range(out, args, _) if inf.kinds[*out].is_none() => {
                        inf.set(*out, Kind::Number);
                        for a in args {
                            inf.unify(a, Kind::Number);
                        }
                    }
                    _ => {}
                }
            }
        }
        walk(self, lits);
        self.changed
    }
}

/// Turns pre-expressions into typed, interned expressions.
struct Finish<'a> {
    values: &'a mut Values,
    kinds: &'a [Kind],
    records: &'a [RecordType],
}

impl Finish<'_> {
    fn kind_of(&self, e: &PExpr) -> Option<Kind> {
        let inf = Infer { kinds: self.kinds.iter().map(|k| Some(*k)).collect(), conflicts: BTreeSet::new(), records: self.records, changed: false, const_errors: BTreeSet::new() };
        inf.kind_of(e)
    }

    fn expr(&mut self, e: &PExpr, k: Kind) -> Expr {
        match e {
            PExpr::Var(v) => Expr::Var(*v),
            PExpr::Int(i) => Expr::Const(match k {
                Kind::Float => (*i as f32).to_bits(),
                Kind::Symbol => self.values.intern(&i.to_string()),
                _ => *i as i32 as u32,
            }),
            PExpr::Uns(u) => Expr::Const(match k {
                Kind::Float => (*u as f32).to_bits(),
                _ => *u as u32,
            }),
            PExpr::Flt(f) => Expr::Const(match k {
                Kind::Number => *f as i32 as u32,
                Kind::Unsigned => *f as u32,
                _ => (*f as f32).to_bits(),
            }),
            PExpr::Str(s) => Expr::Const(self.values.intern(s)),
            PExpr::Nil => Expr::Const(0),
            PExpr::Record(args) => {
                let fields: Vec<Kind> = match k {
                    Kind::Record(t) => self.records.get(t).map(|r| r.fields.iter().map(|f| f.1).collect()).unwrap_or_default(),
                    _ => vec![],
                };
                Expr::Record(args.iter().enumerate().map(|(i, a)| self.expr(a, fields.get(i).copied().unwrap_or(Kind::Number))).collect())
            }
            PExpr::Unary(op, a) => Expr::Unary(*op, k, Box::new(self.expr(a, k))),
            // `+` on symbols concatenates, as in Soufflé.
            PExpr::Binary(BinOp::Add, a, b) if k == Kind::Symbol => Expr::Call(Functor::Cat, vec![Kind::Symbol, Kind::Symbol], vec![self.expr(a, k), self.expr(b, k)]),
            PExpr::Binary(op, a, b) => Expr::Binary(*op, k, Box::new(self.expr(a, k)), Box::new(self.expr(b, k))),
            PExpr::As(a, _, _) => {
                let ik = self.kind_of(a).unwrap_or(Kind::Number);
                let inner = self.expr(a, ik);
                Expr::Call(Functor::As, vec![ik], vec![inner])
            }
            PExpr::Call(f, args) => {
                let arg_kinds: Vec<Kind> = match f {
                    Functor::Cat | Functor::Strlen => args.iter().map(|_| Kind::Symbol).collect(),
                    Functor::Substr => vec![Kind::Symbol, Kind::Number, Kind::Number],
                    Functor::Min | Functor::Max => args.iter().map(|_| k).collect(),
                    Functor::Host(h) => h.args().to_vec(),
                    // `as` reinterprets without converting: a value keeps the kind it was computed at.
                    _ => args
                        .iter()
                        .map(|a| match a {
                            PExpr::As(inner, _, _) => self.kind_of(inner).unwrap_or(Kind::Number),
                            _ => self.kind_of(a).unwrap_or(Kind::Number),
                        })
                        .collect(),
                };
                let es = args.iter().zip(&arg_kinds).map(|(a, ak)| self.expr(a, *ak)).collect();
                Expr::Call(*f, arg_kinds, es)
            }
        }
    }

    fn lit(&mut self, l: &PLit, rels: &[LogicRelation]) -> Lit {
        match l {
            PLit::Atom(r, args, span) => Lit::Atom(Atom { rel: *r, args: args.iter().zip(&rels[*r].kinds).map(|(a, k)| self.expr(a, *k)).collect(), span: *span }),
            PLit::Neg(r, args, span) => Lit::Neg(*r, args.iter().zip(&rels[*r].kinds).map(|(a, k)| a.as_ref().map(|a| self.expr(a, *k))).collect(), *span),
            PLit::Cmp(op, a, b, span) => {
                let k = self.kind_of(a).or_else(|| self.kind_of(b)).unwrap_or(Kind::Number);
                Lit::Cmp(*op, k, self.expr(a, k), self.expr(b, k), *span)
            }
            PLit::Pred(op, a, b, pos) => {
                let (x, y) = (self.expr(a, Kind::Symbol), self.expr(b, Kind::Symbol));
                match op {
                    PredOp::Match => Lit::Match(x, y, *pos),
                    PredOp::Contains => Lit::Contains(x, y, *pos),
                }
            }
            PLit::Agg { out, op, target, body, locals, span } => {
                let k = target.as_ref().and_then(|t| self.kind_of(t)).unwrap_or(Kind::Number);
                let target = target.as_ref().map(|t| self.expr(t, k));
                let body = body.iter().map(|l| self.lit(l, rels)).collect();
                Lit::Agg(Box::new(Aggregate { out: *out, op: *op, kind: k, target, body, locals: locals.clone(), span: *span }))
            }
            PLit::Range(out, args, span) => {
                let k = self.kinds[*out];
                Lit::Range(*out, k, args.iter().map(|a| self.expr(a, k)).collect(), *span)
            }
            PLit::False => Lit::False,
        }
    }
}
