//! Cooperative cancellation of long evaluations (a Datalog fixpoint, a GQL match).
//!
//! The REPL runs each query on a worker thread under a [`Token`]; Ctrl-C sets the token,
//! and the evaluators, which poll [`cancelled`] in their outer loops, stop soon after and
//! report it as an error, so nothing half-computed is kept. The token is found through a
//! thread-local rather than passed down every call, because the evaluators' inner
//! signatures are shared with the batch paths (`tg derive`, `tg gql`) that never cancel.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag one thread sets to ask evaluations running under it to stop.
#[derive(Clone, Debug, Default)]
pub struct Token(Arc<AtomicBool>);

impl Token {
    /// A fresh, unset token.
    pub fn new() -> Token {
        Token::default()
    }

    /// Asks every evaluation running under this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Token::cancel`] was called, or a budget of the process was passed
    /// ([`crate::budget`]).
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed) || crate::budget::is_tripped()
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Token>> = const { RefCell::new(None) };
}

/// Runs `f` with `token` as this thread's cancellation token (restoring the previous one after).
pub fn with_token<R>(token: &Token, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Token>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.borrow_mut().replace(token.clone())));
    f()
}

/// This thread's token, if an evaluation runs under one (evaluators keep it for their loops).
pub fn current() -> Option<Token> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Whether this thread's evaluation was asked to stop.
pub fn cancelled() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(Token::is_cancelled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_nest_and_restore() {
        assert!(!cancelled());
        let outer = Token::new();
        let inner = Token::new();
        inner.cancel();
        with_token(&outer, || {
            assert!(!cancelled());
            with_token(&inner, || assert!(cancelled()));
            assert!(!cancelled());
            outer.cancel();
            assert!(cancelled());
        });
        assert!(!cancelled());
        assert!(current().is_none());
    }
}
