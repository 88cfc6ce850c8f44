//! `crepe` (Datalog compiled by a Rust macro) as an oracle: the same programs,
//! evaluated by tg's interpreter on random graphs, must give the same tuples.

// The relations `crepe!` generates carry no doc comments.
#![allow(missing_docs)]

use std::collections::BTreeSet;

use crepe::crepe;
use proptest::prelude::*;
use textgraph::datalog::driver::compile_str;
use textgraph::datalog::eval::{Database, EvalConfig, evaluate};

crepe! {
    @input
    struct Edge(u32, u32);
    @input
    struct Blocked(u32);
    @output
    struct Path(u32, u32);
    @output
    struct Open(u32, u32);
    @output
    struct SameGen(u32, u32);

    Path(x, y) <- Edge(x, y);
    Path(x, z) <- Path(x, y), Edge(y, z);
    Open(x, y) <- Path(x, y), !Blocked(y);
    SameGen(x, y) <- Edge(p, x), Edge(p, y), (x != y);
    SameGen(x, y) <- Edge(a, x), SameGen(a, b), Edge(b, y);
}

const PROGRAM: &str = r#"
.decl edge(x:number, y:number)
.decl blocked(x:number)
.decl path(x:number, y:number)
.decl open(x:number, y:number)
.decl samegen(x:number, y:number)
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z).
open(x, y) :- path(x, y), !blocked(y).
samegen(x, y) :- edge(p, x), edge(p, y), x != y.
samegen(x, y) :- edge(a, x), samegen(a, b), edge(b, y).
"#;

fn tg(edges: &[(u32, u32)], blocked: &[u32]) -> [BTreeSet<(u32, u32)>; 3] {
    let c = compile_str("oracle.dl", PROGRAM).unwrap_or_else(|e| panic!("{e}"));
    let mut db = Database::new(&c.prog, c.values.clone(), &EvalConfig::default());
    let rel = |n: &str| c.prog.relation(n).unwrap_or_else(|| panic!("no relation {n}"));
    db.load(rel("edge"), edges.iter().flat_map(|(a, b)| [*a, *b]).collect());
    db.load(rel("blocked"), blocked.to_vec());
    evaluate(&c.prog, &c.strata, &mut db).unwrap_or_else(|d| panic!("{}", d.message));
    let pairs = |n: &str| {
        let rows = db.rels[rel(n)].rows();
        rows.chunks_exact(2).map(|r| (r[0], r[1])).collect::<BTreeSet<_>>()
    };
    [pairs("path"), pairs("open"), pairs("samegen")]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn interpreter_matches_crepe(edges in proptest::collection::vec((0u32..25, 0u32..25), 0..60),
                                 blocked in proptest::collection::vec(0u32..25, 0..8)) {
        let mut rt = Crepe::new();
        rt.extend(edges.iter().map(|(a, b)| Edge(*a, *b)));
        rt.extend(blocked.iter().map(|b| Blocked(*b)));
        let (path, open, samegen) = rt.run();
        let want = [
            path.into_iter().map(|Path(a, b)| (a, b)).collect::<BTreeSet<_>>(),
            open.into_iter().map(|Open(a, b)| (a, b)).collect(),
            samegen.into_iter().map(|SameGen(a, b)| (a, b)).collect(),
        ];
        prop_assert_eq!(tg(&edges, &blocked), want);
    }
}
