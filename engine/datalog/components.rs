//! Component expansion: `.comp` templates and `.init` instances become plain items.
//!
//! An instance `.init a = C<T>` copies C's items (and its bases'), substitutes
//! type parameters, and qualifies every relation and type declared inside with
//! `a.`; references to outer relations stay as written. `.override R` in a
//! derived component drops the base's clauses for R (R must be `overridable`).

use std::collections::{BTreeSet, HashMap};

use super::ast::*;
use super::diag::{Diagnostic, Diagnostics, Span};

/// Expands every component instance of a program; the result has no `.comp` or `.init` left.
pub fn expand(prog: AstProgram, diags: &mut Diagnostics) -> AstProgram {
    let top: HashMap<String, AstComponent> = prog.items.iter().filter_map(|i| if let AstItem::Component(c) = i { Some((c.name.clone(), c.clone())) } else { None }).collect();
    check_overrides(&prog.items, &top, diags);
    let mut x = Expander { diags, depth: 0 };
    let env = Env::default();
    let items = x.scope(&prog.items, &env, &HashMap::new());
    AstProgram { items }
}

#[derive(Clone, Default)]
struct Env {
    comps: HashMap<String, AstComponent>,
}

struct Expander<'a> {
    diags: &'a mut Diagnostics,
    depth: usize,
}

impl Expander<'_> {
    /// Expands the items of one scope: collects its components, instantiates its `.init`s.
    fn scope(&mut self, items: &[AstItem], outer: &Env, types: &HashMap<String, String>) -> Vec<AstItem> {
        let mut env = outer.clone();
        for it in items {
            if let AstItem::Component(c) = it {
                if env.comps.contains_key(&c.name) && !outer.comps.contains_key(&c.name) {
                    self.diags.push(Diagnostic::error("TG0702", c.span, format!("redefinition of component {}", c.name)));
                }
                env.comps.insert(c.name.clone(), c.clone());
            }
        }
        let mut out = vec![];
        let mut inst_names = BTreeSet::new();
        for it in items {
            match it {
                AstItem::Component(_) => {}
                AstItem::Init(init) => {
                    if !inst_names.insert(init.name.clone()) {
                        self.diags.push(Diagnostic::error("TG0703", init.span, format!("redefinition of instance {}", init.name)));
                        continue;
                    }
                    let args: Vec<String> = init.args.iter().map(|a| subst_type(a, types)).collect();
                    let Some(inner) = self.instantiate(&init.comp, &args, &env, init.span) else { continue };
                    out.extend(qualify(inner, &init.name));
                }
                AstItem::Override(name, span) => {
                    if self.depth == 0 {
                        self.diags.push(Diagnostic::error("TG0704", *span, format!(".override {name} outside of a component")));
                    }
                    out.push(it.clone());
                }
                other => out.push(subst_item(other.clone(), types)),
            }
        }
        out
    }

    /// Items of one instance of `comp` (names relative to the instance), each flagged
    /// `own` when it comes from the component's (or a base's) own body rather than a nested instance.
    fn instantiate(&mut self, comp: &str, args: &[String], env: &Env, span: Span) -> Option<Vec<AstItem>> {
        self.instantiate_flagged(comp, args, env, span).map(|v| v.into_iter().map(|(i, _)| i).collect())
    }

    fn instantiate_flagged(&mut self, comp: &str, args: &[String], env: &Env, span: Span) -> Option<Vec<(AstItem, bool)>> {
        let Some(c) = env.comps.get(comp).cloned() else {
            self.diags.push(Diagnostic::error("TG0705", span, format!("undefined component {comp}")));
            return None;
        };
        if c.params.len() != args.len() {
            self.diags.push(Diagnostic::error("TG0706", span, format!("component {comp} takes {} type parameter(s), {} given", c.params.len(), args.len())));
            return None;
        }
        if self.depth > 32 {
            self.diags.push(Diagnostic::error("TG0707", span, format!("component {comp} instantiates itself without end")));
            return None;
        }
        let types: HashMap<String, String> = c.params.iter().cloned().zip(args.iter().cloned()).collect();
        self.depth += 1;
        let mut items = vec![];
        let overrides: BTreeSet<String> = c.items.iter().filter_map(|i| if let AstItem::Override(n, _) = i { Some(n.clone()) } else { None }).collect();
        // The component's scope sees its own nested components and those of its bases.
        let mut inner_env = env.clone();
        for (base, _) in &c.bases {
            let base = subst_type(base, &types);
            self.nested_comps(&base, env, &mut inner_env, 0);
        }
        for it in &c.items {
            if let AstItem::Component(n) = it {
                inner_env.comps.insert(n.name.clone(), n.clone());
            }
        }
        for (base, base_args) in &c.bases {
            let base = subst_type(base, &types);
            let bargs: Vec<String> = base_args.iter().map(|a| subst_type(a, &types)).collect();
            if let Some(base_items) = self.instantiate_flagged(&base, &bargs, env, c.span) {
                items.extend(base_items.into_iter().filter(|(i, own)| match i {
                    AstItem::Clause(cl) => !(*own && cl.heads.iter().any(|h| overrides.contains(&h.rel))),
                    _ => true,
                }));
            }
        }
        for it in &c.items {
            match it {
                AstItem::Component(_) | AstItem::Override(..) => {}
                AstItem::Init(init) => {
                    let iargs: Vec<String> = init.args.iter().map(|a| subst_type(a, &types)).collect();
                    let comp_name = subst_type(&init.comp, &types);
                    if let Some(inner) = self.instantiate(&comp_name, &iargs, &inner_env, init.span) {
                        items.extend(qualify(inner, &init.name).into_iter().map(|i| (i, false)));
                    }
                }
                other => items.push((subst_item(other.clone(), &types), true)),
            }
        }
        self.depth -= 1;
        Some(items)
    }

    /// Adds the components nested in `comp` (and in its bases) to `env`.
    fn nested_comps(&mut self, comp: &str, lookup: &Env, env: &mut Env, depth: usize) {
        let Some(c) = lookup.comps.get(comp).cloned() else { return };
        if depth > 32 {
            return;
        }
        for (b, _) in &c.bases {
            self.nested_comps(b, lookup, env, depth + 1);
        }
        for it in &c.items {
            if let AstItem::Component(n) = it {
                env.comps.insert(n.name.clone(), n.clone());
            }
        }
    }
}

/// Checks every component definition, instantiated or not: an `.override` must name a
/// relation that a base declares `overridable`.
fn check_overrides(items: &[AstItem], env: &HashMap<String, AstComponent>, diags: &mut Diagnostics) {
    for it in items {
        let AstItem::Component(c) = it else { continue };
        for o in c.items.iter().filter_map(|i| if let AstItem::Override(n, s) = i { Some((n, s)) } else { None }) {
            let mut found = None;
            let mut stack: Vec<&str> = c.bases.iter().map(|b| b.0.as_str()).collect();
            let mut seen = BTreeSet::new();
            while let Some(b) = stack.pop() {
                if !seen.insert(b.to_string()) {
                    continue;
                }
                let Some(bc) = env.get(b) else {
                    // A base given by a type parameter is checked at instantiation.
                    found = Some(true);
                    break;
                };
                for bi in &bc.items {
                    if let AstItem::Decl(d) = bi
                        && d.names.iter().any(|n| &n.0 == o.0)
                    {
                        found = Some(found.unwrap_or(false) || d.qualifiers.iter().any(|q| q.0 == "overridable"));
                    }
                }
                stack.extend(bc.bases.iter().map(|x| x.0.as_str()));
            }
            match found {
                Some(true) => {}
                Some(false) => diags.push(Diagnostic::error("TG0708", c.span, format!("override of non-overridable relation {} in component {}", o.0, c.name))),
                None => diags.push(Diagnostic::error("TG0709", *o.1, format!("override of non-inherited relation {} in component {}", o.0, c.name))),
            }
        }
        let mut inner = env.clone();
        for ci in &c.items {
            if let AstItem::Component(n) = ci {
                inner.insert(n.name.clone(), n.clone());
            }
        }
        check_overrides(&c.items, &inner, diags);
    }
}

fn subst_type(t: &str, types: &HashMap<String, String>) -> String {
    types.get(t).cloned().unwrap_or_else(|| t.to_string())
}

fn subst_item(item: AstItem, types: &HashMap<String, String>) -> AstItem {
    if types.is_empty() {
        return item;
    }
    map_names(item, &|n| n.to_string(), &|t| subst_type(t, types))
}

/// Qualifies the relations and types declared among `items` with `inst.`.
fn qualify(items: Vec<AstItem>, inst: &str) -> Vec<AstItem> {
    let mut rels = BTreeSet::new();
    let mut types = BTreeSet::new();
    for i in &items {
        match i {
            AstItem::Decl(d) => rels.extend(d.names.iter().map(|n| n.0.clone())),
            AstItem::Type(t) => {
                types.insert(t.name.clone());
            }
            _ => {}
        }
    }
    let rel_map = |n: &str| if rels.contains(n) { format!("{inst}.{n}") } else { n.to_string() };
    let type_map = |t: &str| if types.contains(t) { format!("{inst}.{t}") } else { t.to_string() };
    items.into_iter().map(|i| map_names(i, &rel_map, &type_map)).collect()
}

fn map_names(item: AstItem, rel: &dyn Fn(&str) -> String, ty: &dyn Fn(&str) -> String) -> AstItem {
    match item {
        AstItem::Type(mut t) => {
            t.name = ty(&t.name);
            t.def = match t.def {
                AstTypeDef::Subtype(b) => AstTypeDef::Subtype(ty(&b)),
                AstTypeDef::Union(ms) => AstTypeDef::Union(ms.iter().map(|m| ty(m)).collect()),
                AstTypeDef::Record(fs) => AstTypeDef::Record(
                    fs.into_iter()
                        .map(|mut f| {
                            f.ty = ty(&f.ty);
                            f
                        })
                        .collect(),
                ),
            };
            AstItem::Type(t)
        }
        AstItem::Decl(mut d) => {
            for n in &mut d.names {
                n.0 = rel(&n.0);
            }
            for a in &mut d.attrs {
                a.ty = ty(&a.ty);
            }
            AstItem::Decl(d)
        }
        AstItem::Directive(mut d) => {
            for n in &mut d.rels {
                n.0 = rel(&n.0);
            }
            AstItem::Directive(d)
        }
        AstItem::Clause(mut c) => {
            for h in &mut c.heads {
                map_atom(h, rel, ty);
            }
            if let Some(s) = &mut c.subsumed {
                map_atom(s, rel, ty);
            }
            for l in &mut c.body {
                map_lit(l, rel, ty);
            }
            AstItem::Clause(c)
        }
        AstItem::Override(n, s) => AstItem::Override(n, s),
        other => other,
    }
}

fn map_atom(a: &mut AstAtom, rel: &dyn Fn(&str) -> String, ty: &dyn Fn(&str) -> String) {
    a.rel = rel(&a.rel);
    for e in &mut a.args {
        map_expr(e, rel, ty);
    }
}

fn map_lit(l: &mut AstLiteral, rel: &dyn Fn(&str) -> String, ty: &dyn Fn(&str) -> String) {
    match l {
        AstLiteral::Atom(a) | AstLiteral::Negated(a) => map_atom(a, rel, ty),
        AstLiteral::Constraint(_, a, b, _) => {
            map_expr(a, rel, ty);
            map_expr(b, rel, ty);
        }
        AstLiteral::Pred(_, args, _, _) => args.iter_mut().for_each(|e| map_expr(e, rel, ty)),
        AstLiteral::Disjunction(cs, _) => cs.iter_mut().flatten().for_each(|x| map_lit(x, rel, ty)),
        AstLiteral::Bool(..) => {}
    }
}

fn map_expr(e: &mut AstExpr, rel: &dyn Fn(&str) -> String, ty: &dyn Fn(&str) -> String) {
    match e {
        AstExpr::Record(a, _) | AstExpr::Call(_, a, _) | AstExpr::UserCall(_, a, _) => a.iter_mut().for_each(|x| map_expr(x, rel, ty)),
        AstExpr::Unary(_, a, _) => map_expr(a, rel, ty),
        AstExpr::As(a, t, _) => {
            map_expr(a, rel, ty);
            *t = ty(t);
        }
        AstExpr::Binary(_, a, b, _) => {
            map_expr(a, rel, ty);
            map_expr(b, rel, ty);
        }
        AstExpr::Aggregate(_, t, body, _) => {
            if let Some(t) = t {
                map_expr(t, rel, ty);
            }
            body.iter_mut().for_each(|l| map_lit(l, rel, ty));
        }
        _ => {}
    }
}
