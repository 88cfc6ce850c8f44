//! Differential tests: the semi-naive evaluator against the naive reference
//! evaluator on random stratified programs and inputs, and witnesses that do
//! not depend on the order rules are written in.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use textgraph::datalog::driver::{Compiled, compile_str};
use textgraph::datalog::eval::{Database, EvalConfig, evaluate};
use textgraph::datalog::naive;

/// A tiny deterministic generator, so a failing case prints as a seed plus program text.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

const VARS: [&str; 4] = ["X", "Y", "Z", "W"];

/// A random program over EDB `e`, `f` and IDB `r0..r2`: relation `ri` reads `rj` (j ≤ i)
/// positively and negates only `rj` (j < i) or the EDB, so it is always stratified.
fn random_program(seed: u64) -> String {
    let mut g = Gen(seed | 1);
    let mut p = String::new();
    p.push_str(".decl e(a:number, b:number)\n.input e\n.decl f(a:number, b:number)\n.input f\n");
    for i in 0..3 {
        p.push_str(&format!(".decl r{i}(a:number, b:number)\n.output r{i}\n"));
    }
    for i in 0..3u64 {
        for _ in 0..1 + g.below(3) {
            let mut sources: Vec<String> = vec!["e".into(), "f".into()];
            sources.extend((0..=i).map(|j| format!("r{j}")));
            let n_atoms = 1 + g.below(3);
            let mut body = vec![];
            let mut bound: BTreeSet<&str> = BTreeSet::new();
            for _ in 0..n_atoms {
                let rel = g.pick(&sources).clone();
                let a = if g.below(6) == 0 { format!("{}", g.below(4)) } else { g.pick(&VARS).to_string() };
                let b = g.pick(&VARS).to_string();
                for v in [&a, &b] {
                    if let Some(v) = VARS.iter().find(|x| **x == v.as_str()) {
                        bound.insert(v);
                    }
                }
                body.push(format!("{rel}({a}, {b})"));
            }
            let vars: Vec<&str> = bound.iter().copied().collect();
            if vars.is_empty() {
                continue;
            }
            if g.below(3) == 0 {
                let mut neg: Vec<String> = vec!["e".into(), "f".into()];
                neg.extend((0..i).map(|j| format!("r{j}")));
                let rel = g.pick(&neg).clone();
                let a = g.pick(&vars).to_string();
                let b = if g.below(2) == 0 { "_".to_string() } else { g.pick(&vars).to_string() };
                body.push(format!("!{rel}({a}, {b})"));
            }
            if g.below(3) == 0 {
                let op = *g.pick(&["<", "!=", "<=", ">"]);
                body.push(format!("{} {op} {}", g.pick(&vars), g.pick(&vars)));
            }
            let head = if g.below(5) == 0 {
                let v = g.pick(&vars).to_string();
                body.push(format!("C = count : {{ e({v}, _) }}"));
                format!("r{i}({v}, C)")
            } else {
                format!("r{i}({}, {})", g.pick(&vars), g.pick(&vars))
            };
            p.push_str(&format!("{head} :- {}.\n", body.join(", ")));
        }
    }
    p
}

fn random_edges(seed: u64, n: u64) -> Vec<Vec<u32>> {
    let mut g = Gen(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    (0..n).map(|_| vec![g.below(6) as u32, g.below(6) as u32]).collect()
}

fn relation_sets(c: &Compiled, db: &Database) -> BTreeMap<String, BTreeSet<Vec<u32>>> {
    let mut out = BTreeMap::new();
    for (r, rel) in c.prog.relations.iter().enumerate() {
        let stride = db.rels[r].stride();
        let rows = db.rels[r].rows();
        let set = rows.chunks_exact(stride).map(|x| x[..rel.arity()].to_vec()).collect();
        out.insert(rel.name.clone(), set);
    }
    out
}

fn seminaive(text: &str, e: &[Vec<u32>], f: &[Vec<u32>], provenance: bool) -> (Compiled, Database) {
    let c = match compile_str("random.dl", text) {
        Ok(c) => c,
        Err(d) => panic!("generated program does not compile:\n{text}\n{d}"),
    };
    let mut db = Database::new(&c.prog, c.values.clone(), &EvalConfig { provenance });
    let (re, rf) = (c.prog.relation("e").unwrap_or(0), c.prog.relation("f").unwrap_or(1));
    db.load(re, e.concat());
    db.load(rf, f.concat());
    if let Err(d) = evaluate(&c.prog, &c.strata, &mut db) {
        panic!("evaluation failed: {}", d.message);
    }
    (c, db)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn seminaive_equals_naive(seed in any::<u64>(), ne in 0u64..20, nf in 0u64..20) {
        let text = random_program(seed);
        let (e, f) = (random_edges(seed, ne), random_edges(seed.rotate_left(7), nf));
        let (c, db) = seminaive(&text, &e, &f, false);
        let mut values = c.values.clone();
        let inputs = vec![(c.prog.relation("e").unwrap_or(0), e.clone()), (c.prog.relation("f").unwrap_or(1), f.clone())];
        let reference = naive::evaluate(&c.prog, &c.strata, &mut values, &inputs);
        let fast = relation_sets(&c, &db);
        for (r, rel) in c.prog.relations.iter().enumerate() {
            prop_assert_eq!(&fast[&rel.name], &reference[r], "relation {} differs for program\n{}", rel.name, text);
        }
    }

    #[test]
    fn witnesses_do_not_depend_on_rule_order(seed in any::<u64>(), ne in 0u64..15) {
        let text = random_program(seed);
        let e = random_edges(seed, ne);
        let f = random_edges(seed ^ 0xABCD, ne);
        // Same program, rules listed in reverse order, inputs reversed.
        let (decls, rules): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with('.'));
        let reversed = format!("{}\n{}\n", decls.join("\n"), rules.iter().rev().copied().collect::<Vec<_>>().join("\n"));
        let (c1, db1) = seminaive(&text, &e, &f, true);
        let (mut e2, mut f2) = (e.clone(), f.clone());
        e2.reverse();
        f2.reverse();
        let (c2, db2) = seminaive(&reversed, &e2, &f2, true);
        let show = |c: &Compiled, db: &Database| {
            let mut out = BTreeSet::new();
            let Some(ws) = &db.witnesses else { return out };
            for r in 0..c.prog.relations.len() {
                for (row, w) in ws.iter(r) {
                    let rule = w.rule.map(|i| c.prog.rules[i].hash);
                    out.insert((c.prog.relations[r].name.clone(), row, w.round, rule, w.body.iter().map(|(br, b)| (c.prog.relations[*br].name.clone(), b.clone())).collect::<Vec<_>>()));
                }
            }
            out
        };
        prop_assert_eq!(show(&c1, &db1), show(&c2, &db2), "witnesses differ for\n{}", text);
    }
}
