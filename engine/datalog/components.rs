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

    /// Items of one instance of `comp` (names relative to the instance).
    fn instantiate(&mut self, comp: &str, args: &[String], env: &Env, span: Span) -> Option<Vec<AstItem>> {
        let Some(c) = env.comps.get(comp).cloned() else {
            self.diags.push(Diagnostic::error("TG0705", span, format!("undefined component {comp}")));
            return None;
        };
        if c.params.len() != args.len() {
            self.diags.push(Diagnostic::error(
                "TG0706",
                span,
                format!("component {comp} takes {} type parameter(s), {} given", c.params.len(), args.len()),
            ));
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
        for (base, base_args) in &c.bases {
            let bargs: Vec<String> = base_args.iter().map(|a| subst_type(a, &types)).collect();
            if let Some(base_items) = self.instantiate(base, &bargs, env, c.span) {
                for o in &overrides {
                    let overridable = base_items.iter().any(|i| matches!(i, AstItem::Decl(d) if d.names.iter().any(|n| &n.0 == o) && d.qualifiers.iter().any(|q| q.0 == "overridable")));
                    if !overridable {
                        self.diags.push(Diagnostic::error("TG0708", c.span, format!("relation {o} is overridden but not declared overridable in {base}")));
                    }
                }
                items.extend(base_items.into_iter().filter(|i| match i {
                    AstItem::Clause(cl) => !cl.heads.iter().any(|h| overrides.contains(&h.rel)),
                    _ => true,
                }));
            }
        }
        // The component's own scope: nested components are visible only inside.
        let mut inner_env = env.clone();
        for it in &c.items {
            if let AstItem::Component(n) = it {
                inner_env.comps.insert(n.name.clone(), n.clone());
            }
        }
        let own = self.scope(&c.items, &inner_env, &types);
        items.extend(own.into_iter().filter(|i| !matches!(i, AstItem::Override(..))));
        self.depth -= 1;
        Some(items)
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
                AstTypeDef::Record(fs) => AstTypeDef::Record(fs.into_iter().map(|mut f| {
                    f.ty = ty(&f.ty);
                    f
                }).collect()),
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
