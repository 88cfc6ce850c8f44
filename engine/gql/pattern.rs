//! Pattern matching (openCypher 9 "MATCH"): binds node and relationship patterns to the
//! graph by backtracking, with relationship uniqueness across one MATCH, variable-length
//! relationships, named paths and shortestPath / allShortestPaths.

use crate::gql::ast::{Dir, Expr, PatternElement, PatternPart, RelPat};
use crate::gql::error::{GqlError, Result};
use crate::gql::eval::{Ctx, Env};
use crate::gql::value::{NodeId, Path, RelId, Value, equals};
use std::rc::Rc;

/// Slots of one pattern part in the extended row.
struct PartSlots {
    path: Option<usize>,
    nodes: Vec<usize>,
    rels: Vec<usize>,
}

/// A pattern compiled against the names in scope: the extended names (scope + new
/// variables, anonymous ones hidden behind a leading space) and each element's slot.
pub struct Compiled<'p> {
    parts: &'p [PatternPart],
    slots: Vec<PartSlots>,
    /// Names of the extended row.
    pub names: Vec<String>,
    /// How many names were in scope before.
    pub bound_before: usize,
}

/// Whether a name is a hidden (anonymous) variable.
pub fn is_hidden(name: &str) -> bool {
    name.starts_with(' ')
}

/// Lays out the slots of `parts` after the names already in scope.
pub fn compile<'p>(parts: &'p [PatternPart], scope: &[String], counter: &mut usize) -> Compiled<'p> {
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
    }
    Compiled { parts, slots, names, bound_before }
}

struct State {
    row: Vec<Value>,
    bound: Vec<bool>,
    used: Vec<RelId>,
    pnodes: Vec<NodeId>,
    prels: Vec<RelId>,
}

/// Calls `emit` with every extended row matching the pattern, given the row in scope;
/// `emit` returns `false` to stop early.
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

impl Matcher<'_, '_> {
    fn env<'s>(&'s self, st: &'s State) -> Env<'s> {
        Env { names: &self.c.names, row: &st.row, aggs: self.aggs }
    }

    fn props_ok(&self, st: &State, props: &Option<Expr>, have: &std::collections::BTreeMap<String, Value>) -> Result<bool> {
        let Some(p) = props else { return Ok(true) };
        // A map literal is checked entry by entry, without building the map.
        if let Expr::Map(entries) = p {
            for (k, e) in entries {
                let want = self.ctx.eval(e, &self.env(st))?;
                if have.get(k).is_none_or(|got| equals(got, &want) != Some(true)) {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let v = self.ctx.eval(p, &self.env(st))?;
        match v {
            Value::Map(m) => Ok(m.iter().all(|(k, want)| have.get(k).is_some_and(|got| equals(got, want) == Some(true)))),
            Value::Null => Ok(false),
            other => Err(GqlError::type_error(format!("property map expected, got {}", other.type_name()))),
        }
    }

    /// A property of a node pattern's map whose value is a constant scalar (a literal or a
    /// parameter): the key and value to look up in the graph's equality index.
    fn indexable<'p>(&self, props: &'p Option<Expr>, st: &State) -> Result<Option<(&'p str, Value)>> {
        let Some(Expr::Map(entries)) = props else { return Ok(None) };
        for (k, e) in entries {
            if !matches!(e, Expr::Lit(_) | Expr::Param(_)) {
                continue;
            }
            let v = self.ctx.eval(e, &self.env(st))?;
            let scalar = match &v {
                Value::Int(_) | Value::Str(_) | Value::Bool(_) => true,
                Value::Float(f) => !f.is_nan(),
                _ => false,
            };
            if scalar {
                return Ok(Some((k.as_str(), v)));
            }
        }
        Ok(None)
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
        let np = &self.c.parts[pi].element.nodes[j];
        let g = self.ctx.graph;
        if !g.has_labels(n, &np.labels) {
            return Ok(false);
        }
        match g.nodes.get(n) {
            Some(node) => self.props_ok(st, &np.props, &node.props),
            None => Ok(false),
        }
    }

    fn rel_ok(&self, r: &RelPat, id: RelId, st: &State) -> Result<bool> {
        let Some(rel) = self.ctx.graph.rels.get(id) else { return Ok(false) };
        if !r.types.is_empty() && !r.types.contains(&rel.typ) {
            return Ok(false);
        }
        self.props_ok(st, &r.props, &rel.props)
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

    fn part(&self, pi: usize, st: &mut State, emit: &mut dyn FnMut(&[Value]) -> Result<bool>) -> Result<bool> {
        let Some(part) = self.c.parts.get(pi) else { return emit(&st.row) };
        if part.element.nodes.is_empty() {
            return self.part(pi + 1, st, emit);
        }
        let first = self.c.slots[pi].nodes[0];
        let g = self.ctx.graph;
        let cands: Vec<NodeId> = if st.bound[first] {
            match &st.row[first] {
                Value::Node(n) => vec![*n],
                _ => vec![],
            }
        } else if let Some(l) = part.element.nodes[0].labels.first() {
            match self.indexable(&part.element.nodes[0].props, st)? {
                Some((k, v)) => g.nodes_with(l, k, &v),
                None => g.by_label.get(l).cloned().unwrap_or_default(),
            }
        } else {
            (0..g.nodes.len()).collect()
        };
        for n in cands {
            if !self.node_ok(pi, 0, n, st)? {
                continue;
            }
            let did = Self::bind(st, first, Value::Node(n));
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

    fn expand(&self, n: NodeId, dir: Dir) -> Vec<(RelId, NodeId)> {
        let g = self.ctx.graph;
        let mut v = vec![];
        if matches!(dir, Dir::Right | Dir::Both) {
            for &r in g.out.get(n).map(Vec::as_slice).unwrap_or(&[]) {
                v.push((r, g.rels[r].dst));
            }
        }
        if matches!(dir, Dir::Left | Dir::Both) {
            for &r in g.inc.get(n).map(Vec::as_slice).unwrap_or(&[]) {
                let rel = &g.rels[r];
                if dir == Dir::Both && rel.src == rel.dst {
                    continue;
                }
                v.push((r, rel.src));
            }
        }
        v
    }

    fn finish_part(&self, pi: usize, st: &mut State, emit: &mut dyn FnMut(&[Value]) -> Result<bool>) -> Result<bool> {
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
        let go = self.part(pi + 1, st, emit)?;
        if let Some(s) = did {
            Self::unbind(st, s, true);
        }
        Ok(go)
    }

    fn step(&self, pi: usize, j: usize, cur: NodeId, st: &mut State, emit: &mut dyn FnMut(&[Value]) -> Result<bool>) -> Result<bool> {
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
        for (rid, other) in self.expand(cur, r.dir) {
            if st.used.contains(&rid) {
                continue;
            }
            if st.bound[rslot] && !matches!(&st.row[rslot], Value::Rel(b) if *b == rid) {
                continue;
            }
            if !self.rel_ok(r, rid, st)? {
                continue;
            }
            let rdid = Self::bind(st, rslot, Value::Rel(rid));
            if !self.node_ok(pi, j + 1, other, st)? {
                Self::unbind(st, rslot, rdid);
                continue;
            }
            let ndid = Self::bind(st, nslot, Value::Node(other));
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
    fn follow(&self, pi: usize, j: usize, cur: NodeId, want: &[RelId], k: usize, st: &mut State, emit: &mut dyn FnMut(&[Value]) -> Result<bool>) -> Result<bool> {
        let r = &self.c.parts[pi].element.rels[j];
        if k == want.len() {
            if !self.node_ok(pi, j + 1, cur, st)? {
                return Ok(true);
            }
            let nslot = self.c.slots[pi].nodes[j + 1];
            let ndid = Self::bind(st, nslot, Value::Node(cur));
            let go = self.step(pi, j + 1, cur, st, emit)?;
            Self::unbind(st, nslot, ndid);
            return Ok(go);
        }
        for (rid, other) in self.expand(cur, r.dir) {
            if rid != want[k] || st.used.contains(&rid) || !self.rel_ok(r, rid, st)? {
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
    fn varlen(&self, pi: usize, j: usize, cur: NodeId, lo: u64, hi: u64, acc: &mut Vec<RelId>, st: &mut State, emit: &mut dyn FnMut(&[Value]) -> Result<bool>) -> Result<bool> {
        let r = &self.c.parts[pi].element.rels[j];
        let depth = acc.len() as u64;
        if depth >= lo && self.node_ok(pi, j + 1, cur, st)? {
            let rslot = self.c.slots[pi].rels[j];
            let nslot = self.c.slots[pi].nodes[j + 1];
            let rdid = Self::bind(st, rslot, Value::list(acc.iter().map(|&x| Value::Rel(x)).collect()));
            let ndid = Self::bind(st, nslot, Value::Node(cur));
            let go = self.step(pi, j + 1, cur, st, emit)?;
            Self::unbind(st, nslot, ndid);
            Self::unbind(st, rslot, rdid);
            if !go {
                return Ok(false);
            }
        }
        if depth < hi {
            for (rid, other) in self.expand(cur, r.dir) {
                if st.used.contains(&rid) || !self.rel_ok(r, rid, st)? {
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
    fn shortest(&self, pi: usize, start: NodeId, st: &mut State, emit: &mut dyn FnMut(&[Value]) -> Result<bool>) -> Result<bool> {
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
                    let go = self.finish_part(pi, st, emit)?;
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
    fn paths_of_len(&self, pi: usize, cur: NodeId, left: u64, acc: &mut Vec<RelId>, nodes: &mut Vec<NodeId>, st: &State, found: &mut Vec<(Vec<RelId>, Vec<NodeId>, NodeId)>, all: bool) -> Result<()> {
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
        for (rid, other) in self.expand(cur, r.dir) {
            if acc.contains(&rid) || st.used.contains(&rid) || !self.rel_ok(r, rid, st)? {
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
