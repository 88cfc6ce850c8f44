//! Pattern matching (openCypher 9 "MATCH"): binds node and relationship patterns to the
//! graph by backtracking, with relationship uniqueness across one MATCH, variable-length
//! relationships, named paths and shortestPath / allShortestPaths.

use crate::ast::{Dir, Expr, PatternElement, PatternPart};
use crate::error::{GqlError, Result};
use crate::eval::{Ctx, Env};
use crate::graph::{Edge, Graph, Props, Sym};
use crate::slot::{self, SExpr};
use crate::value::{NodeId, Path, RelId, Value, equals};
use std::borrow::Cow;
use std::rc::Rc;

/// Slots of one pattern part in the extended row.
struct PartSlots {
    path: Option<usize>,
    nodes: Vec<usize>,
    rels: Vec<usize>,
}

/// A property requirement of a node or relationship pattern.
enum PropReq {
    /// No property map.
    Any,
    /// A map literal: each key's symbol (`None`: no element has the key) and value.
    Entries(Vec<(Option<Sym>, SExpr)>),
    /// Any other expression that must evaluate to a map.
    Expr(SExpr),
}

/// What a node pattern demands, resolved against the graph.
struct NodeReq {
    /// Label symbols; `None` when a label is unknown to the graph (nothing matches).
    labels: Option<Vec<Sym>>,
    /// The labels as a bit mask over [`crate::graph::Graph::label_bits`], when they have bits.
    mask: Option<u64>,
    props: PropReq,
}

/// What a relationship pattern demands, resolved against the graph.
struct RelReq {
    /// Allowed type symbols (empty: any); `None` when no named type exists in the graph.
    types: Option<Vec<Sym>>,
    props: PropReq,
}

/// A pattern compiled against the names in scope: the extended names (scope + new
/// variables, anonymous ones hidden behind a leading space), each element's slot, its
/// requirements by symbol, and the WHERE conjuncts placed at the first point in the
/// search where all their variables are bound (checkpoints: one per node pattern, in
/// binding order, then one per named path, the last one at the emitted row).
pub struct Compiled<'p> {
    parts: &'p [PatternPart],
    slots: Vec<PartSlots>,
    nodes: Vec<Vec<NodeReq>>,
    rels: Vec<Vec<RelReq>>,
    /// The first checkpoint of each part.
    offsets: Vec<usize>,
    /// Conjuncts to test at each checkpoint, and whether the filter was split.
    filters: Vec<Vec<SExpr>>,
    split: bool,
    /// Names of the extended row.
    pub names: Vec<String>,
    /// How many names were in scope before.
    pub bound_before: usize,
}

/// Whether a name is a hidden (anonymous) variable.
pub fn is_hidden(name: &str) -> bool {
    name.starts_with(' ')
}

fn prop_req(ctx: &Ctx, props: &Option<Expr>, names: &[String]) -> PropReq {
    match props {
        None => PropReq::Any,
        Some(Expr::Map(entries)) => PropReq::Entries(entries.iter().map(|(k, e)| (ctx.graph.sym(k), slot::compile(ctx, e, names))).collect()),
        Some(e) => PropReq::Expr(slot::compile(ctx, e, names)),
    }
}

/// Lays out the slots of `parts` after the names already in scope and resolves their
/// labels, types and property keys against the graph.
pub fn compile<'p>(ctx: &Ctx, parts: &'p [PatternPart], scope: &[String], counter: &mut usize) -> Compiled<'p> {
    let mut names: Vec<String> = scope.to_vec();
    let bound_before = names.len();
    let slot = |v: &Option<String>, names: &mut Vec<String>, counter: &mut usize| -> usize {
        match v {
            Some(n) => match names.iter().rposition(|x| x == n) {
                Some(i) => i,
                None => {
                    names.push(n.clone());
                    names.len() - 1
                }
            },
            None => {
                *counter += 1;
                names.push(format!(" anon{counter}"));
                names.len() - 1
            }
        }
    };
    let mut slots = vec![];
    let mut offsets = vec![];
    let mut total = 0;
    for p in parts {
        let mut nodes = vec![];
        let mut rels = vec![];
        for (i, n) in p.element.nodes.iter().enumerate() {
            nodes.push(slot(&n.var, &mut names, counter));
            if let Some(r) = p.element.rels.get(i) {
                rels.push(slot(&r.var, &mut names, counter));
            }
        }
        let path = p.var.as_ref().map(|v| slot(&Some(v.clone()), &mut names, counter));
        slots.push(PartSlots { path, nodes, rels });
        offsets.push(total);
        total += p.element.nodes.len() + 1;
    }
    let g = ctx.graph;
    let nodes = parts
        .iter()
        .map(|p| {
            p.element
                .nodes
                .iter()
                .map(|n| {
                    let labels: Option<Vec<Sym>> = n.labels.iter().map(|l| g.sym(l)).collect();
                    let mask = labels.as_ref().and_then(|l| g.label_mask(l));
                    NodeReq { labels, mask, props: prop_req(ctx, &n.props, &names) }
                })
                .collect()
        })
        .collect();
    let rels = parts
        .iter()
        .map(|p| {
            p.element
                .rels
                .iter()
                .map(|r| {
                    let known: Vec<Sym> = r.types.iter().filter_map(|t| g.sym(t)).collect();
                    RelReq { types: if !r.types.is_empty() && known.is_empty() { None } else { Some(known) }, props: prop_req(ctx, &r.props, &names) }
                })
                .collect()
        })
        .collect();
    let filters = vec![vec![]; total + 1];
    Compiled { parts, slots, nodes, rels, offsets, filters, split: false, names, bound_before }
}

impl Compiled<'_> {
    /// Attaches a WHERE condition: each conjunct is tested as soon as its variables are
    /// bound, so rows that fail it are never extended further.
    pub fn add_filter(&mut self, ctx: &Ctx, filter: &Expr) {
        let total = self.filters.len() - 1;
        // The checkpoint at which each slot is first bound.
        let mut at: Vec<Option<usize>> = vec![None; self.names.len()];
        let mut first_cp = None;
        for (pi, (p, s)) in self.parts.iter().zip(&self.slots).enumerate() {
            if p.element.nodes.is_empty() {
                continue;
            }
            let base = self.offsets[pi];
            first_cp.get_or_insert(base);
            for (j, &n) in s.nodes.iter().enumerate() {
                at[n].get_or_insert(base + j);
                if j > 0 {
                    at[s.rels[j - 1]].get_or_insert(base + j);
                }
            }
            if let Some(ps) = s.path {
                at[ps].get_or_insert(base + p.element.nodes.len());
            }
        }
        let first_cp = first_cp.unwrap_or(total);
        for a in at.iter_mut().take(self.bound_before) {
            *a = Some(first_cp);
        }
        let cs = slot::conjuncts(filter);
        self.split = cs.len() > 1;
        for c in cs {
            let cp = match slot::free_vars(c) {
                None => total,
                Some(vars) => {
                    let mut cp = first_cp;
                    for v in vars {
                        match self.names.iter().rposition(|x| *x == v).and_then(|i| at[i]) {
                            Some(x) => cp = cp.max(x),
                            None => cp = total,
                        }
                    }
                    cp
                }
            };
            let e = slot::compile(ctx, c, &self.names);
            self.filters[cp].push(e);
        }
    }
}

/// Whether node `n` carries the labels of `req`.
#[inline]
fn labels_fit(g: &Graph, req: &NodeReq, n: NodeId) -> bool {
    let Some(labels) = &req.labels else { return false };
    match req.mask {
        Some(m) => g.label_bits.get(n).is_some_and(|b| b & m == m),
        None => g.nodes.get(n).is_some_and(|node| labels.iter().all(|l| node.labels.contains(l))),
    }
}

/// Whether a relationship of type `typ` fits `req`'s types.
#[inline]
fn type_fits(req: &RelReq, typ: Sym) -> bool {
    req.types.as_ref().is_some_and(|t| t.is_empty() || t.contains(&typ))
}

/// The nodes a part's first node pattern can bind when nothing binds it yet: those of its
/// first label, or every node (callers still check the rest of the pattern).
fn label_candidates<'g>(g: &'g Graph, req: &NodeReq) -> Cow<'g, [NodeId]> {
    match &req.labels {
        None => Cow::Borrowed(&[]),
        Some(l) => match l.first() {
            Some(l) => Cow::Borrowed(g.by_label.get(l).map(Vec::as_slice).unwrap_or(&[])),
            None => Cow::Owned((0..g.nodes.len()).collect()),
        },
    }
}

/// The relationship types a [`Hop`] keeps.
pub enum TypeFilter {
    /// None: a type the graph has never seen.
    Nothing,
    /// Every type.
    Any,
    /// One type.
    One(Sym),
    /// Any of these.
    Set(Vec<Sym>),
}

impl TypeFilter {
    /// Whether type `t` is kept.
    #[inline]
    pub fn fits(&self, t: Sym) -> bool {
        match self {
            TypeFilter::Nothing => false,
            TypeFilter::Any => true,
            TypeFilter::One(x) => *x == t,
            TypeFilter::Set(v) => v.contains(&t),
        }
    }
}

/// A MATCH that is one relationship between two fresh node variables, `(a)-[r]-(b)`, with
/// labels and types but no property maps, no variable length and no path: the shape
/// [`crate::scan`] runs as a loop over the relationship lists. It yields exactly the
/// rows, in the same order, that the backtracking matcher would.
pub struct Hop<'c> {
    c: &'c Compiled<'c>,
    /// Slots of the start node, the relationship and the end node.
    pub slots: [usize; 3],
    /// The direction as written.
    pub dir: Dir,
}

impl<'c> Compiled<'c> {
    /// The pattern as a [`Hop`], when it has that shape.
    pub fn hop(&'c self) -> Option<Hop<'c>> {
        let [part] = self.parts else { return None };
        let el = &part.element;
        let ([_, _], [r]) = (el.nodes.as_slice(), el.rels.as_slice()) else { return None };
        if part.var.is_some() || part.shortest.is_some() || r.range.is_some() {
            return None;
        }
        let s = &self.slots[0];
        let slots = [s.nodes[0], s.rels[0], s.nodes[1]];
        let fresh = slots.iter().all(|&x| x >= self.bound_before);
        let distinct = slots[0] != slots[1] && slots[1] != slots[2] && slots[0] != slots[2];
        let plain = self.nodes[0].iter().all(|n| matches!(n.props, PropReq::Any)) && matches!(self.rels[0][0].props, PropReq::Any);
        (fresh && distinct && plain).then_some(Hop { c: self, slots, dir: r.dir })
    }
}

impl Hop<'_> {
    /// The candidates for the start node.
    pub fn starts<'g>(&self, g: &'g Graph) -> Cow<'g, [NodeId]> {
        label_candidates(g, &self.c.nodes[0][0])
    }

    /// Whether node `n` fits the start (`end == false`) or end node pattern.
    #[inline]
    pub fn node_fits(&self, g: &Graph, end: bool, n: NodeId) -> bool {
        labels_fit(g, &self.c.nodes[0][usize::from(end)], n) && n < g.nodes.len()
    }

    /// Whether every node of the graph fits the start (`end == false`) or end node
    /// pattern (each of its labels is on every node), so the scan need not check.
    pub fn fits_every_node(&self, g: &Graph, end: bool) -> bool {
        self.c.nodes[0][usize::from(end)].labels.as_ref().is_some_and(|ls| ls.iter().all(|l| g.by_label.get(l).is_some_and(|v| v.len() == g.nodes.len())))
    }

    /// The relationship types that fit, in a form cheap to test per relationship.
    pub fn types(&self) -> TypeFilter {
        match &self.c.rels[0][0].types {
            None => TypeFilter::Nothing,
            Some(t) => match t.as_slice() {
                [] => TypeFilter::Any,
                [one] => TypeFilter::One(*one),
                many => TypeFilter::Set(many.to_vec()),
            },
        }
    }

    /// The WHERE conjuncts tested once the start node is bound, those tested on a whole
    /// match (in the matcher's order), and whether the condition was split.
    pub fn filters(&self) -> (&[SExpr], Vec<&SExpr>, bool) {
        let f = &self.c.filters;
        (f.first().map(Vec::as_slice).unwrap_or(&[]), f.iter().skip(1).flatten().collect(), self.c.split)
    }
}

struct State {
    row: Vec<Value>,
    bound: Vec<bool>,
    used: Vec<RelId>,
    pnodes: Vec<NodeId>,
    prels: Vec<RelId>,
}

/// Calls `emit` with every extended row matching the pattern (and its filter), given the
/// row in scope; `emit` returns `false` to stop early.
pub fn matches(ctx: &Ctx, c: &Compiled, env: &Env, emit: &mut dyn FnMut(&[Value]) -> Result<bool>) -> Result<()> {
    let mut row = env.row.to_vec();
    row.resize(c.names.len(), Value::Null);
    let mut bound = vec![false; c.names.len()];
    for b in bound.iter_mut().take(c.bound_before.min(env.row.len())) {
        *b = true;
    }
    let mut st = State { row, bound, used: vec![], pnodes: vec![], prels: vec![] };
    let m = Matcher { ctx, c, aggs: env.aggs };
    m.part(0, &mut st, emit)?;
    Ok(())
}

struct Matcher<'a, 'g> {
    ctx: &'a Ctx<'g>,
    c: &'a Compiled<'a>,
    aggs: &'a [Value],
}

type Emit<'e> = dyn FnMut(&[Value]) -> Result<bool> + 'e;

impl<'g> Matcher<'_, 'g> {
    fn eval(&self, e: &SExpr, st: &State) -> Result<Value> {
        e.eval(self.ctx, &self.c.names, &st.row, self.aggs)
    }

    /// Whether the conjuncts placed at checkpoint `cp` hold.
    fn pass(&self, cp: usize, st: &State) -> Result<bool> {
        for f in self.c.filters.get(cp).map(Vec::as_slice).unwrap_or(&[]) {
            if !f.holds(self.ctx, &self.c.names, &st.row, self.c.split)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn props_ok(&self, st: &State, req: &PropReq, have: Props<'_>) -> Result<bool> {
        match req {
            PropReq::Any => Ok(true),
            // A map literal is checked entry by entry, without building the map.
            PropReq::Entries(entries) => {
                for (k, e) in entries {
                    let want = self.eval(e, st)?;
                    if k.and_then(|k| have.get(k)).is_none_or(|got| equals(got, &want) != Some(true)) {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            PropReq::Expr(e) => match self.eval(e, st)? {
                Value::Map(m) => Ok(m.iter().all(|(k, want)| self.ctx.graph.prop(have, k).is_some_and(|got| equals(got, want) == Some(true)))),
                Value::Null => Ok(false),
                other => Err(GqlError::type_error(format!("property map expected, got {}", other.type_name()))),
            },
        }
    }

    /// A property of a node pattern's map whose value is a constant scalar (a literal or a
    /// parameter): the key and value to look up in the graph's equality index.
    fn indexable(&self, req: &PropReq) -> Option<(Sym, Value)> {
        let PropReq::Entries(entries) = req else { return None };
        for (k, e) in entries {
            let (Some(k), SExpr::Lit(v)) = (k, e) else { continue };
            let scalar = match v {
                Value::Int(_) | Value::Str(_) | Value::Bool(_) => true,
                Value::Float(f) => !f.is_nan(),
                _ => false,
            };
            if scalar {
                return Some((*k, v.clone()));
            }
        }
        None
    }

    /// Whether node `n` fits node pattern `j` of part `pi` (labels, properties, binding).
    fn node_ok(&self, pi: usize, j: usize, n: NodeId, st: &State) -> Result<bool> {
        let slot = self.c.slots[pi].nodes[j];
        if st.bound[slot] {
            match &st.row[slot] {
                Value::Node(b) if *b == n => {}
                Value::Node(_) | Value::Null => return Ok(false),
                other => return Err(GqlError::type_error(format!("variable `{}` is a {}, not a node", self.c.names[slot], other.type_name()))),
            }
        }
        let req = &self.c.nodes[pi][j];
        let g = self.ctx.graph;
        if !labels_fit(g, req, n) {
            return Ok(false);
        }
        if matches!(req.props, PropReq::Any) {
            return Ok(n < g.nodes.len());
        }
        if n >= g.nodes.len() {
            return Ok(false);
        }
        self.props_ok(st, &req.props, g.node_props(n))
    }

    fn rel_ok(&self, pi: usize, j: usize, e: &Edge, st: &State) -> Result<bool> {
        let req = &self.c.rels[pi][j];
        if !type_fits(req, e.typ) {
            return Ok(false);
        }
        if matches!(req.props, PropReq::Any) {
            return Ok(true);
        }
        if e.rel() >= self.ctx.graph.rels.len() {
            return Ok(false);
        }
        self.props_ok(st, &req.props, self.ctx.graph.rel_props(e.rel()))
    }

    fn bind(st: &mut State, slot: usize, v: Value) -> bool {
        if st.bound[slot] {
            return false;
        }
        st.row[slot] = v;
        st.bound[slot] = true;
        true
    }

    fn unbind(st: &mut State, slot: usize, did: bool) {
        if did {
            st.bound[slot] = false;
            st.row[slot] = Value::Null;
        }
    }

    fn part(&self, pi: usize, st: &mut State, emit: &mut Emit) -> Result<bool> {
        let Some(part) = self.c.parts.get(pi) else {
            if !self.pass(self.c.filters.len() - 1, st)? {
                return Ok(true);
            }
            return emit(&st.row);
        };
        if part.element.nodes.is_empty() {
            return self.part(pi + 1, st, emit);
        }
        let first = self.c.slots[pi].nodes[0];
        let g = self.ctx.graph;
        let req = &self.c.nodes[pi][0];
        let indexed: Vec<NodeId>;
        let by_label: Cow<[NodeId]>;
        let cands: &[NodeId] = if st.bound[first] {
            match &st.row[first] {
                Value::Node(n) => {
                    indexed = vec![*n];
                    &indexed
                }
                _ => &[],
            }
        } else {
            match (req.labels.as_ref().and_then(|l| l.first()), self.indexable(&req.props)) {
                (Some(&l), Some((k, v))) => {
                    indexed = g.nodes_with(l, k, &v);
                    &indexed
                }
                _ => {
                    by_label = label_candidates(g, req);
                    &by_label
                }
            }
        };
        let cp = self.c.offsets[pi];
        for &n in cands {
            GqlError::check_cancelled()?;
            if !self.node_ok(pi, 0, n, st)? {
                continue;
            }
            let did = Self::bind(st, first, Value::Node(n));
            if !self.pass(cp, st)? {
                Self::unbind(st, first, did);
                continue;
            }
            let saved = (std::mem::take(&mut st.pnodes), std::mem::take(&mut st.prels));
            st.pnodes.push(n);
            let go = if part.shortest.is_some() { self.shortest(pi, n, st, emit)? } else { self.step(pi, 0, n, st, emit)? };
            st.pnodes = saved.0;
            st.prels = saved.1;
            Self::unbind(st, first, did);
            if !go {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The steps from `n` in direction `dir` (a self-loop once when undirected): the
    /// node's own relationship lists, which hold each step whole.
    fn expand(&self, n: NodeId, dir: Dir) -> impl Iterator<Item = Edge> + use<'_, 'g> {
        let g: &Graph = self.ctx.graph;
        let steps = |incoming: bool, on: bool| {
            let lists = if incoming { &g.inc } else { &g.out };
            if on { lists.get(n).map_or(&[][..], Vec::as_slice) } else { &[] }
        };
        let outs = steps(false, matches!(dir, Dir::Right | Dir::Both)).iter().copied();
        let incs = steps(true, matches!(dir, Dir::Left | Dir::Both)).iter().copied();
        outs.chain(incs.filter(move |e| !(dir == Dir::Both && e.other() == n)))
    }

    fn finish_part(&self, pi: usize, st: &mut State, emit: &mut Emit) -> Result<bool> {
        let did = match self.c.slots[pi].path {
            Some(s) => {
                let p = Value::Path(Rc::new(Path { nodes: st.pnodes.clone(), rels: st.prels.clone() }));
                if st.bound[s] {
                    if equals(&st.row[s], &p) != Some(true) {
                        return Ok(true);
                    }
                    None
                } else {
                    Self::bind(st, s, p);
                    Some(s)
                }
            }
            None => None,
        };
        let cp = self.c.offsets[pi] + self.c.parts[pi].element.nodes.len();
        let go = if self.pass(cp, st)? { self.part(pi + 1, st, emit)? } else { true };
        if let Some(s) = did {
            Self::unbind(st, s, true);
        }
        Ok(go)
    }

    fn step(&self, pi: usize, j: usize, cur: NodeId, st: &mut State, emit: &mut Emit) -> Result<bool> {
        let el: &PatternElement = &self.c.parts[pi].element;
        let Some(r) = el.rels.get(j) else { return self.finish_part(pi, st, emit) };
        let rslot = self.c.slots[pi].rels[j];
        let nslot = self.c.slots[pi].nodes[j + 1];
        if let Some((lo, hi)) = r.range {
            let lo = lo.unwrap_or(1);
            let hi = hi.unwrap_or(u64::MAX);
            // A bound list of relationships: follow exactly those.
            if st.bound[rslot] {
                let want: Vec<RelId> = match &st.row[rslot] {
                    Value::List(l) => l.iter().filter_map(|v| if let Value::Rel(r) = v { Some(*r) } else { None }).collect(),
                    _ => return Ok(true),
                };
                return self.follow(pi, j, cur, &want, 0, st, emit);
            }
            let mut acc = vec![];
            return self.varlen(pi, j, cur, lo, hi, &mut acc, st, emit);
        }
        let cp = self.c.offsets[pi] + j + 1;
        for e in self.expand(cur, r.dir) {
            let (rid, other) = (e.rel(), e.other());
            if st.used.contains(&rid) {
                continue;
            }
            if st.bound[rslot] && !matches!(&st.row[rslot], Value::Rel(b) if *b == rid) {
                continue;
            }
            if !self.rel_ok(pi, j, &e, st)? {
                continue;
            }
            let rdid = Self::bind(st, rslot, Value::Rel(rid));
            if !self.node_ok(pi, j + 1, other, st)? {
                Self::unbind(st, rslot, rdid);
                continue;
            }
            let ndid = Self::bind(st, nslot, Value::Node(other));
            if !self.pass(cp, st)? {
                Self::unbind(st, nslot, ndid);
                Self::unbind(st, rslot, rdid);
                continue;
            }
            st.used.push(rid);
            st.prels.push(rid);
            st.pnodes.push(other);
            let go = self.step(pi, j + 1, other, st, emit)?;
            st.pnodes.pop();
            st.prels.pop();
            st.used.pop();
            Self::unbind(st, nslot, ndid);
            Self::unbind(st, rslot, rdid);
            if !go {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    fn follow(&self, pi: usize, j: usize, cur: NodeId, want: &[RelId], k: usize, st: &mut State, emit: &mut Emit) -> Result<bool> {
        let r = &self.c.parts[pi].element.rels[j];
        if k == want.len() {
            if !self.node_ok(pi, j + 1, cur, st)? {
                return Ok(true);
            }
            let nslot = self.c.slots[pi].nodes[j + 1];
            let ndid = Self::bind(st, nslot, Value::Node(cur));
            let go = if self.pass(self.c.offsets[pi] + j + 1, st)? { self.step(pi, j + 1, cur, st, emit)? } else { true };
            Self::unbind(st, nslot, ndid);
            return Ok(go);
        }
        for e in self.expand(cur, r.dir) {
            let (rid, other) = (e.rel(), e.other());
            if rid != want[k] || st.used.contains(&rid) || !self.rel_ok(pi, j, &e, st)? {
                continue;
            }
            st.used.push(rid);
            st.prels.push(rid);
            st.pnodes.push(other);
            let go = self.follow(pi, j, other, want, k + 1, st, emit)?;
            st.pnodes.pop();
            st.prels.pop();
            st.used.pop();
            if !go {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    fn varlen(&self, pi: usize, j: usize, cur: NodeId, lo: u64, hi: u64, acc: &mut Vec<RelId>, st: &mut State, emit: &mut Emit) -> Result<bool> {
        GqlError::check_cancelled()?;
        let r = &self.c.parts[pi].element.rels[j];
        let depth = acc.len() as u64;
        if depth >= lo && self.node_ok(pi, j + 1, cur, st)? {
            let rslot = self.c.slots[pi].rels[j];
            let nslot = self.c.slots[pi].nodes[j + 1];
            let rdid = Self::bind(st, rslot, Value::list(acc.iter().map(|&x| Value::Rel(x)).collect()));
            let ndid = Self::bind(st, nslot, Value::Node(cur));
            let go = if self.pass(self.c.offsets[pi] + j + 1, st)? { self.step(pi, j + 1, cur, st, emit)? } else { true };
            Self::unbind(st, nslot, ndid);
            Self::unbind(st, rslot, rdid);
            if !go {
                return Ok(false);
            }
        }
        if depth < hi {
            for e in self.expand(cur, r.dir) {
                let (rid, other) = (e.rel(), e.other());
                if st.used.contains(&rid) || !self.rel_ok(pi, j, &e, st)? {
                    continue;
                }
                st.used.push(rid);
                st.prels.push(rid);
                st.pnodes.push(other);
                acc.push(rid);
                let go = self.varlen(pi, j, other, lo, hi, acc, st, emit)?;
                acc.pop();
                st.pnodes.pop();
                st.prels.pop();
                st.used.pop();
                if !go {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// shortestPath / allShortestPaths: the paths of the smallest length that match,
    /// found by deepening the length one step at a time.
    fn shortest(&self, pi: usize, start: NodeId, st: &mut State, emit: &mut Emit) -> Result<bool> {
        let part = &self.c.parts[pi];
        let all = part.shortest == Some(true);
        let Some(r) = part.element.rels.first() else { return self.finish_part(pi, st, emit) };
        let (lo, hi) = r.range.map_or((1, 1), |(a, b)| (a.unwrap_or(1), b.unwrap_or(u64::MAX)));
        let limit = hi.min(self.ctx.graph.rels.len() as u64);
        let mut len = lo;
        while len <= limit.max(lo) {
            let mut found: Vec<(Vec<RelId>, Vec<NodeId>, NodeId)> = vec![];
            let mut acc = vec![];
            let mut nodes = vec![];
            self.paths_of_len(pi, start, len, &mut acc, &mut nodes, st, &mut found, all)?;
            if !found.is_empty() {
                for (rels, ns, end) in found {
                    let rslot = self.c.slots[pi].rels[0];
                    let nslot = self.c.slots[pi].nodes[1];
                    let rv = if r.range.is_some() { Value::list(rels.iter().map(|&x| Value::Rel(x)).collect()) } else { Value::Rel(rels[0]) };
                    let rdid = Self::bind(st, rslot, rv);
                    let ndid = Self::bind(st, nslot, Value::Node(end));
                    let saved = (st.pnodes.len(), st.prels.len());
                    st.pnodes.extend(ns);
                    st.prels.extend(rels);
                    let go = if self.pass(self.c.offsets[pi] + 1, st)? { self.finish_part(pi, st, emit)? } else { true };
                    st.pnodes.truncate(saved.0);
                    st.prels.truncate(saved.1);
                    Self::unbind(st, nslot, ndid);
                    Self::unbind(st, rslot, rdid);
                    if !go {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            if len == u64::MAX {
                break;
            }
            len += 1;
            if len > limit {
                break;
            }
        }
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    fn paths_of_len(
        &self,
        pi: usize,
        cur: NodeId,
        left: u64,
        acc: &mut Vec<RelId>,
        nodes: &mut Vec<NodeId>,
        st: &State,
        found: &mut Vec<(Vec<RelId>, Vec<NodeId>, NodeId)>,
        all: bool,
    ) -> Result<()> {
        GqlError::check_cancelled()?;
        if !all && !found.is_empty() {
            return Ok(());
        }
        if left == 0 {
            if self.node_ok(pi, 1, cur, st)? {
                found.push((acc.clone(), nodes.clone(), cur));
            }
            return Ok(());
        }
        let r = &self.c.parts[pi].element.rels[0];
        for e in self.expand(cur, r.dir) {
            let (rid, other) = (e.rel(), e.other());
            if acc.contains(&rid) || st.used.contains(&rid) || !self.rel_ok(pi, 0, &e, st)? {
                continue;
            }
            acc.push(rid);
            nodes.push(other);
            self.paths_of_len(pi, other, left - 1, acc, nodes, st, found, all)?;
            nodes.pop();
            acc.pop();
        }
        Ok(())
    }
}
