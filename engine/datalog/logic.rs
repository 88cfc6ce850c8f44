//! The validated, typed program: what `ast2logic` produces and `plan` consumes.
//!
//! Every relation has an id and per-column [`Kind`]s; every rule has one head,
//! a conjunctive body (disjunctions and multiple heads are split), numbered
//! variable slots and typed expressions. Names no longer matter here except
//! for messages and output.

use std::collections::BTreeMap;

use super::ast::{AggOp, BinOp, CmpOp, UnOp};
use super::diag::Span;

/// Index of a relation in [`LogicProgram::relations`].
pub type RelId = usize;
/// Index of a variable slot in a rule.
pub type VarId = usize;

/// The primitive kind of a value: how its 32-bit word is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Signed 32-bit integer (`number`).
    Number,
    /// Unsigned 32-bit integer (`unsigned`).
    Unsigned,
    /// 32-bit IEEE float (`float`).
    Float,
    /// Interned string (`symbol`).
    Symbol,
    /// Interned record of the given record type.
    Record(usize),
}

/// A declared type: its name, the kind of its values and what it derives from.
#[derive(Clone, Debug)]
pub struct TypeInfo {
    /// Type name.
    pub name: String,
    /// Primitive kind.
    pub kind: Kind,
    /// The primitive-or-user types it is a direct subtype of (for subtype checks).
    pub supers: Vec<usize>,
    /// For union types, the member types.
    pub members: Vec<usize>,
}

/// A record type's fields.
#[derive(Clone, Debug)]
pub struct RecordType {
    /// Type name.
    pub name: String,
    /// Field names and kinds.
    pub fields: Vec<(String, Kind)>,
}

/// IO parameters of one `.input`/`.output` directive.
#[derive(Clone, Debug, Default)]
pub struct IoSpec {
    /// Parameters as written (`IO`, `filename`, `delimiter`, `headers`, …).
    pub params: BTreeMap<String, String>,
}

impl IoSpec {
    /// A parameter's value.
    pub fn get(&self, k: &str) -> Option<&str> {
        self.params.get(k).map(String::as_str)
    }
}

/// A relation and everything declared about it.
#[derive(Clone, Debug)]
pub struct LogicRelation {
    /// Fully qualified name.
    pub name: String,
    /// Attribute names.
    pub attr_names: Vec<String>,
    /// Attribute type names (for messages).
    pub attr_types: Vec<String>,
    /// Attribute kinds.
    pub kinds: Vec<Kind>,
    /// `eqrel`: closed under reflexivity, symmetry and transitivity.
    pub eqrel: bool,
    /// `.input` directives.
    pub inputs: Vec<IoSpec>,
    /// `.output` directives.
    pub outputs: Vec<IoSpec>,
    /// `.printsize`.
    pub printsize: bool,
    /// `.limitsize` bound.
    pub limitsize: Option<usize>,
    /// `choice-domain` keys as column lists.
    pub choice: Vec<Vec<usize>>,
    /// Declared `inline` (evaluated like any relation; see docs/ARCHITECTURE.md).
    pub inline: bool,
    /// Declared at.
    pub span: Span,
}

impl LogicRelation {
    /// Number of columns.
    pub fn arity(&self) -> usize {
        self.kinds.len()
    }
}

/// A typed expression over a rule's variable slots.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A variable slot.
    Var(VarId),
    /// A constant word (already interned / encoded for its kind).
    Const(u32),
    /// Unary operator evaluated at a kind.
    Unary(UnOp, Kind, Box<Expr>),
    /// Binary operator evaluated at a kind (operand kind).
    Binary(BinOp, Kind, Box<Expr>, Box<Expr>),
    /// Built-in functor; the kinds are of the arguments (for overloading).
    Call(Functor, Vec<Kind>, Vec<Expr>),
    /// Record constructor.
    Record(Vec<Expr>),
}

impl Expr {
    /// Appends the variables the expression reads.
    pub fn vars(&self, out: &mut Vec<VarId>) {
        match self {
            Expr::Var(v) => out.push(*v),
            Expr::Const(_) => {}
            Expr::Unary(_, _, a) => a.vars(out),
            Expr::Binary(_, _, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Expr::Call(_, _, a) | Expr::Record(a) => a.iter().for_each(|x| x.vars(out)),
        }
    }
}

/// Built-in functors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Functor {
    /// `cat(a, b, …)`
    Cat,
    /// `strlen(s)`
    Strlen,
    /// `substr(s, i, n)`
    Substr,
    /// `ord(s)`
    Ord,
    /// `to_number(x)`
    ToNumber,
    /// `to_string(x)`
    ToString,
    /// `to_float(x)`
    ToFloat,
    /// `to_unsigned(x)`
    ToUnsigned,
    /// `min(a, b, …)`
    Min,
    /// `max(a, b, …)`
    Max,
    /// `as(x, T)`: no-op conversion between kinds of equal width (bit cast for records/symbols).
    As,
    /// `@name(args)`: a host functor tg provides (entity-resolution features, dates, logarithms).
    Host(super::host::HostFn),
}

/// A body literal of a lowered rule.
#[derive(Clone, Debug)]
pub enum Lit {
    /// A positive atom. Arguments are variables or constants only.
    Atom(Atom),
    /// A negated atom. `None` arguments are wildcards.
    Neg(RelId, Vec<Option<Expr>>, Span),
    /// A comparison at a kind.
    Cmp(CmpOp, Kind, Expr, Expr, Span),
    /// `match(pattern, text)` (`true`) or its negation.
    Match(Expr, Expr, bool),
    /// `contains(needle, text)` (`true`) or its negation.
    Contains(Expr, Expr, bool),
    /// An aggregate binding `out`.
    Agg(Box<Aggregate>),
    /// `out = range(from, to[, step])`: binds out to each value.
    Range(VarId, Kind, Vec<Expr>, Span),
    /// `false`: the rule never fires.
    False,
}

/// A positive atom.
#[derive(Clone, Debug)]
pub struct Atom {
    /// Relation.
    pub rel: RelId,
    /// Arguments: `Var` or `Const`.
    pub args: Vec<Expr>,
    /// Written at.
    pub span: Span,
}

/// An aggregate `out = op target : { body }`.
#[derive(Clone, Debug)]
pub struct Aggregate {
    /// The variable receiving the result.
    pub out: VarId,
    /// The operator.
    pub op: AggOp,
    /// Kind of the target expression (result kind except for count and mean).
    pub kind: Kind,
    /// What is aggregated (none for `count`).
    pub target: Option<Expr>,
    /// The inner body.
    pub body: Vec<Lit>,
    /// Variables local to the aggregate (reset for each outer binding).
    pub locals: Vec<VarId>,
    /// Written at.
    pub span: Span,
}

/// A lowered rule: one head, a conjunctive body.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Content hash of the rule's text (first 16 bytes of blake3): its stable id.
    pub hash: [u8; 16],
    /// Canonical text of the source clause, for explanations.
    pub text: String,
    /// The head relation and argument expressions.
    pub head: (RelId, Vec<Expr>),
    /// The body.
    pub body: Vec<Lit>,
    /// Number of variable slots.
    pub num_vars: usize,
    /// Names of the variable slots (generated ones start with `_`).
    pub var_names: Vec<String>,
    /// `.plan` as written: version → 1-based atom order.
    pub plan: Vec<(u32, Vec<u32>)>,
    /// Subsumption: the dominated head atom (`head <= dominated`).
    pub subsumed: Option<Vec<Expr>>,
    /// Written at.
    pub span: Span,
}

/// A validated program.
#[derive(Clone, Debug, Default)]
pub struct LogicProgram {
    /// Types by id.
    pub types: Vec<TypeInfo>,
    /// Record types by id.
    pub records: Vec<RecordType>,
    /// Relations by id.
    pub relations: Vec<LogicRelation>,
    /// Rules (facts included, with empty bodies), in source order.
    pub rules: Vec<Rule>,
}

impl LogicProgram {
    /// Looks a relation up by name.
    pub fn relation(&self, name: &str) -> Option<RelId> {
        self.relations.iter().position(|r| r.name == name)
    }
}

impl Lit {
    /// Relations this literal reads, with whether the read is negative (or through an aggregate).
    pub fn deps(&self, out: &mut Vec<(RelId, bool)>) {
        match self {
            Lit::Atom(a) => out.push((a.rel, false)),
            Lit::Neg(r, _, _) => out.push((*r, true)),
            Lit::Agg(a) => {
                let mut inner = vec![];
                for l in &a.body {
                    l.deps(&mut inner);
                }
                out.extend(inner.into_iter().map(|(r, _)| (r, true)));
            }
            _ => {}
        }
    }
}
