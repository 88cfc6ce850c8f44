//! Stratification: relations grouped into strongly connected components,
//! ordered so that every relation is complete before it is negated or aggregated.
//!
//! Negation or aggregation inside one component is an error naming the cycle.

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;

use super::diag::{Diagnostic, Diagnostics};
use super::logic::{LogicProgram, RelId};

/// One stratum: a set of mutually recursive relations and the rules that define them.
#[derive(Clone, Debug)]
pub struct Stratum {
    /// Relations computed in this stratum (sorted by id).
    pub relations: Vec<RelId>,
    /// Indices into `LogicProgram::rules` whose head is in this stratum.
    pub rules: Vec<usize>,
    /// True if some rule reads a relation of this stratum (needs a fixpoint loop).
    pub recursive: bool,
}

/// Computes strata in evaluation order. Ties between independent components are
/// broken by relation name, so the order is a function of the program text.
pub fn stratify(prog: &LogicProgram, diags: &mut Diagnostics) -> Vec<Stratum> {
    let n = prog.relations.len();
    let mut g: DiGraph<RelId, bool> = DiGraph::with_capacity(n, prog.rules.len());
    let nodes: Vec<_> = (0..n).map(|r| g.add_node(r)).collect();
    for rule in &prog.rules {
        let mut deps = vec![];
        for l in &rule.body {
            l.deps(&mut deps);
        }
        for (r, negative) in deps {
            g.add_edge(nodes[r], nodes[rule.head.0], negative);
        }
    }
    let sccs = tarjan_scc(&g);
    let mut comp_of = vec![0usize; n];
    for (i, c) in sccs.iter().enumerate() {
        for node in c {
            comp_of[g[*node]] = i;
        }
    }
    // Report every rule that negates or aggregates over its own component.
    let mut reported = std::collections::BTreeSet::new();
    for rule in &prog.rules {
        let head = rule.head.0;
        let mut deps = vec![];
        rule.body.iter().for_each(|l| l.deps(&mut deps));
        for (r, negative) in deps {
            if negative && comp_of[r] == comp_of[head] && reported.insert((comp_of[head], r)) {
                let mut names: Vec<&str> = sccs[comp_of[head]].iter().map(|x| prog.relations[g[*x]].name.as_str()).collect();
                names.sort_unstable();
                diags.push(Diagnostic::error("TG0401", rule.span, format!("unable to stratify relation(s) {{{}}}", names.join(", "))).with_note(format!(
                    "{} is negated or aggregated while computing {}, which it depends on: cycle {}",
                    prog.relations[r].name,
                    prog.relations[head].name,
                    cycle_text(&names)
                )));
            }
        }
    }
    // Topological order of the condensation, smallest name first among ready components.
    let m = sccs.len();
    let mut indeg = vec![0usize; m];
    let mut succ: Vec<Vec<usize>> = vec![vec![]; m];
    for e in g.edge_indices() {
        let Some((a, b)) = g.edge_endpoints(e) else { continue };
        let (ca, cb) = (comp_of[g[a]], comp_of[g[b]]);
        if ca != cb {
            succ[ca].push(cb);
            indeg[cb] += 1;
        }
    }
    let key = |c: usize| sccs[c].iter().map(|x| prog.relations[g[*x]].name.clone()).min().unwrap_or_default();
    let mut ready: std::collections::BTreeSet<(String, usize)> = (0..m).filter(|c| indeg[*c] == 0).map(|c| (key(c), c)).collect();
    let mut order = vec![];
    while let Some(first) = ready.iter().next().cloned() {
        ready.remove(&first);
        let c = first.1;
        order.push(c);
        for &s in &succ[c] {
            indeg[s] -= 1;
            if indeg[s] == 0 {
                ready.insert((key(s), s));
            }
        }
    }
    order
        .into_iter()
        .map(|c| {
            let mut relations: Vec<RelId> = sccs[c].iter().map(|x| g[*x]).collect();
            relations.sort_unstable();
            let rules: Vec<usize> = (0..prog.rules.len()).filter(|&i| relations.contains(&prog.rules[i].head.0)).collect();
            let recursive = rules.iter().any(|&i| {
                let mut deps = vec![];
                prog.rules[i].body.iter().for_each(|l| l.deps(&mut deps));
                deps.iter().any(|(r, _)| relations.contains(r))
            });
            Stratum { relations, rules, recursive }
        })
        .collect()
}

fn cycle_text(names: &[&str]) -> String {
    let mut s = names.join(" -> ");
    if let Some(first) = names.first() {
        s.push_str(" -> ");
        s.push_str(first);
    }
    s
}
