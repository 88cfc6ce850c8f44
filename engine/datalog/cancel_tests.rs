//! Cancellation reaches evaluation: a token cancelled from another thread stops a
//! fixpoint between rounds and inside one long round.

/// Runs `program` with a token another thread cancels after a moment; returns the
/// diagnostic code the evaluation stopped with.
fn cancel_soon(program: &str) -> Option<&'static str> {
    let c = crate::driver::compile_str("t.dl", program).unwrap_or_else(|e| panic!("{e}"));
    let mut db = crate::eval::Database::new(&c.prog, c.values.clone(), &crate::eval::EvalConfig { provenance: false });
    let token = tg_limits::cancel::Token::new();
    let canceller = token.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        canceller.cancel();
    });
    let r = tg_limits::cancel::with_token(&token, || crate::eval::evaluate(&c.prog, &c.strata, &mut db));
    let _ = t.join();
    r.err().map(|d| d.code)
}

#[test]
fn a_fixpoint_of_billions_of_rounds_stops() {
    // One new row per round for two billion rounds: it only ends by cancellation.
    let code = cancel_soon(".decl n(x: number)\nn(0).\nn(x + 1) :- n(x), x < 2000000000.\n");
    assert_eq!(code, Some(crate::eval::CANCELLED));
}

#[test]
fn one_long_round_stops() {
    // A single round joining 10^5 × 10^5 × 10^5 rows: stopped inside the round.
    let code = cancel_soon(".decl n(x: number)\nn(x) :- x = range(0, 100000).\n.decl p(x: number)\np(x) :- n(x), n(y), n(z), x + y + z < 0.\n");
    assert_eq!(code, Some(crate::eval::CANCELLED));
}
