//! Host functors: functions written in Rust that rules call as `@name(args)`.
//!
//! Soufflé binds `.functor` declarations to C++ libraries; this engine binds a table of
//! Rust functions that the embedding application hands to the compiler
//! ([`crate::driver::Compiler::hosts`]). The engine knows no functor of its own, so it
//! compiles and is tested without any rule library; tg's table lives with its rules. A
//! `.functor` declaration of a name in the table is accepted (and checked); any other is
//! an error. Host functors must be pure, so witnesses replay exactly.

use std::hash::{Hash, Hasher};

use super::logic::Kind;
use super::value::Values;

/// A host functor: its name, signature and implementation.
#[derive(Clone, Copy)]
pub struct HostFn {
    /// The name rules call it by (without the `@`).
    pub name: &'static str,
    /// Argument kinds.
    pub args: &'static [Kind],
    /// Result kind.
    pub result: Kind,
    /// The implementation: argument words of the kinds `args` names in, the result word out
    /// (symbols interned in `values`, floats as their bits).
    pub function: fn(&[u32], &mut Values) -> u32,
}

/// The host functors a program may call, sorted by name (for messages).
pub type HostTable = &'static [HostFn];

// Functors are identified by name: two entries of one table never share a name.
impl PartialEq for HostFn {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}
impl Eq for HostFn {}
impl Hash for HostFn {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state)
    }
}
impl std::fmt::Debug for HostFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "@{}{}", self.name, self.signature())
    }
}

impl HostFn {
    /// The functor called `name` in `table`, if there is one.
    pub fn by_name(table: HostTable, name: &str) -> Option<HostFn> {
        table.iter().find(|h| h.name == name).copied()
    }

    /// Every name in `table` (for messages).
    pub fn names(table: HostTable) -> Vec<&'static str> {
        table.iter().map(|h| h.name).collect()
    }

    /// Argument kinds.
    pub fn args(self) -> &'static [Kind] {
        self.args
    }

    /// Result kind.
    pub fn result(self) -> Kind {
        self.result
    }

    /// The declared type names Soufflé would write for this signature (`symbol`, `number`, `float`).
    pub fn signature(self) -> String {
        let t = |k: &Kind| match k {
            Kind::Symbol => "symbol",
            Kind::Float => "float",
            Kind::Unsigned => "unsigned",
            _ => "number",
        };
        let args: Vec<&str> = self.args.iter().map(t).collect();
        format!("({}):{}", args.join(", "), t(&self.result))
    }

    /// Applies the functor to argument words of the kinds [`HostFn::args`] names.
    pub fn call(self, a: &[u32], values: &mut Values) -> u32 {
        (self.function)(a, values)
    }
}
