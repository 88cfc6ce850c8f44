//! The Datalog engine used alone, as a library: compile a program with one host functor,
//! load facts, evaluate, read a relation and explain one derived tuple.
//!
//! Run with `cargo run -p tg-datalog --example reachability`.

use tg_datalog::driver::Compiler;
use tg_datalog::eval::{Database, EvalConfig, evaluate};
use tg_datalog::host::{HostFn, HostTable};
use tg_datalog::logic::Kind;
use tg_datalog::value::Values;

/// `@shout(s)`: the symbol upper-cased — a host functor, written in Rust.
fn shout(args: &[u32], values: &mut Values) -> u32 {
    let text = values.symbol(args.first().copied().unwrap_or(0)).to_uppercase();
    values.intern(&text)
}

/// The functors this application gives its programs.
static HOSTS: HostTable = &[HostFn { name: "shout", args: &[Kind::Symbol], result: Kind::Symbol, function: shout }];

const PROGRAM: &str = r#"
.decl edge(a: symbol, b: symbol)
edge("a", "b"). edge("b", "c"). edge("c", "d").
.decl reach(a: symbol, b: symbol)
reach(x, y) :- edge(x, y).
reach(x, z) :- reach(x, y), edge(y, z).
.decl loud(a: symbol)
loud(@shout(y)) :- reach("a", y).
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let compiled = Compiler::new().hosts(HOSTS).text("example.dl", PROGRAM)?;
    let mut db = Database::new(&compiled.prog, compiled.values.clone(), &EvalConfig { provenance: true });
    evaluate(&compiled.prog, &compiled.strata, &mut db).map_err(|d| d.render(&compiled.sources))?;
    for name in ["reach", "loud"] {
        let r = compiled.prog.relations.iter().position(|rel| rel.name == name).ok_or("no such relation")?;
        println!("{name}: {} tuples", db.rels[r].len());
    }
    let fact = tg_datalog::trace::parse_fact(&compiled.prog, &mut db, r#"reach("a","d")"#).map_err(|e| e.to_string())?;
    print!("{}", tg_datalog::trace::explain(&compiled.prog, &db, &fact, 8).map_err(|e| e.to_string())?);
    Ok(())
}
