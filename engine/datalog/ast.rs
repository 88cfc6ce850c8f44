//! The `.dl` syntax tree, exactly as written, with source spans.
//!
//! This is the first IR stage: `parse` produces it, `components` rewrites it
//! (instantiating `.comp`/`.init`), and `ast2logic` lowers it into the
//! validated, typed `logic` program. Nothing here is checked beyond syntax.

use super::diag::Span;

/// A name as written, possibly qualified (`a.b.c`) by component instances.
pub type Name = String;

/// A whole program after `#include`s are resolved: items in source order.
#[derive(Clone, Debug, Default)]
pub struct AstProgram {
    /// Top-level items, in the order they appear (includes spliced in place).
    pub items: Vec<AstItem>,
}

/// One top-level directive, declaration, fact or rule.
#[derive(Clone, Debug)]
pub enum AstItem {
    /// `.type T <: base`, `.type T = A | B`, `.type T = [..]`, `.type T = U`.
    Type(AstTypeDecl),
    /// `.decl R(a: T, ...) qualifiers`.
    Decl(AstDecl),
    /// `.input`, `.output`, `.printsize`, `.limitsize`.
    Directive(AstDirective),
    /// A fact or a rule (a fact is a rule with an empty body).
    Clause(AstClause),
    /// `.comp Name<T..> : Base<..> { items }`.
    Component(AstComponent),
    /// `.init inst = Comp<Args>`.
    Init(AstInit),
    /// `.override rel` inside a component.
    Override(Name, Span),
    /// `.pragma "key" "value"`: recorded, mostly advisory.
    Pragma(String, String, Span),
}

/// The right-hand side of a `.type` declaration.
#[derive(Clone, Debug)]
pub enum AstTypeDef {
    /// `.type T <: symbol` — a new subtype of an existing type.
    Subtype(Name),
    /// `.type T = A | B` (also `.type T = A`, an alias when there is one member).
    Union(Vec<Name>),
    /// `.type T = [a: A, b: B]`.
    Record(Vec<AstAttr>),
}

/// A `.type` declaration.
#[derive(Clone, Debug)]
pub struct AstTypeDecl {
    /// The declared type's name.
    pub name: Name,
    /// What it is defined as.
    pub def: AstTypeDef,
    /// Where it was declared.
    pub span: Span,
}

/// An attribute `name: Type` of a relation or record type.
#[derive(Clone, Debug)]
pub struct AstAttr {
    /// Attribute name.
    pub name: String,
    /// Type name as written.
    pub ty: Name,
    /// Span of the attribute.
    pub span: Span,
}

/// A relation declaration, possibly declaring several relations with one signature.
#[derive(Clone, Debug)]
pub struct AstDecl {
    /// Relation names (`.decl A, B(x: number)` declares two).
    pub names: Vec<(Name, Span)>,
    /// Attributes, in order.
    pub attrs: Vec<AstAttr>,
    /// Qualifiers such as `output`, `eqrel`, `inline`, `brie` (lowercase, as written).
    pub qualifiers: Vec<(String, Span)>,
    /// `choice-domain` keys: each a list of attribute names.
    pub choice_domain: Vec<Vec<String>>,
    /// Where it was declared.
    pub span: Span,
}

/// Which IO directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DirectiveKind {
    /// `.input`
    Input,
    /// `.output`
    Output,
    /// `.printsize`
    PrintSize,
    /// `.limitsize`
    LimitSize,
}

/// An IO directive naming relations, with `key=value` parameters.
#[derive(Clone, Debug)]
pub struct AstDirective {
    /// Which directive.
    pub kind: DirectiveKind,
    /// Relations it applies to.
    pub rels: Vec<(Name, Span)>,
    /// Parameters in source order, values unquoted.
    pub params: Vec<(String, String)>,
    /// Where it was written.
    pub span: Span,
}

/// A fact or rule: heads `:-` body (disjunctive normal form is done later).
#[derive(Clone, Debug)]
pub struct AstClause {
    /// One or more heads.
    pub heads: Vec<AstAtom>,
    /// Body as written (empty for a fact).
    pub body: Vec<AstLiteral>,
    /// `R(x) <= R(y) :- …` subsumption: the dominated atom (the head is the dominating one).
    pub subsumed: Option<AstAtom>,
    /// `.plan` attached to the clause: version → atom order (1-based as in Soufflé).
    pub plan: Vec<(u32, Vec<u32>)>,
    /// Where it was written.
    pub span: Span,
}

/// A body literal.
#[derive(Clone, Debug)]
pub enum AstLiteral {
    /// `R(args)`
    Atom(AstAtom),
    /// `!R(args)`
    Negated(AstAtom),
    /// `lhs op rhs`
    Constraint(CmpOp, AstExpr, AstExpr, Span),
    /// `match(a, b)` / `contains(a, b)` and their negations; `true` / `false`.
    Pred(PredOp, Vec<AstExpr>, bool, Span),
    /// `( conj ; conj ; … )` — a parenthesised disjunction of conjunctions.
    Disjunction(Vec<Vec<AstLiteral>>, Span),
    /// `!( … )` is not Soufflé; negation applies to atoms only. Kept for error reporting.
    Bool(bool, Span),
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// A predicate-shaped constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredOp {
    /// `match(pattern, text)`: full regex match.
    Match,
    /// `contains(needle, haystack)`.
    Contains,
}

/// `R(args)`.
#[derive(Clone, Debug)]
pub struct AstAtom {
    /// Relation name (possibly qualified).
    pub rel: Name,
    /// Arguments.
    pub args: Vec<AstExpr>,
    /// Span of the whole atom.
    pub span: Span,
}

/// A term or expression.
#[derive(Clone, Debug)]
pub enum AstExpr {
    /// A named variable.
    Var(String, Span),
    /// `_`
    Wildcard(Span),
    /// An integer literal that fits a number (decimal, hex or binary).
    Int(i64, Span),
    /// An unsigned literal (`12u`).
    Unsigned(u64, Span),
    /// A float literal.
    Float(f64, Span),
    /// A string literal (escapes resolved).
    Str(String, Span),
    /// `nil`
    Nil(Span),
    /// `[a, b, ...]`
    Record(Vec<AstExpr>, Span),
    /// `-x`, `bnot x`, `lnot x`
    Unary(UnOp, Box<AstExpr>, Span),
    /// `a + b` etc.
    Binary(BinOp, Box<AstExpr>, Box<AstExpr>, Span),
    /// Built-in functor call `cat(a, b)`, `min(a, b)`, `range(a, b)`…
    Call(String, Vec<AstExpr>, Span),
    /// `@f(args)`: user-defined functor (not supported; diagnosed).
    UserCall(String, Vec<AstExpr>, Span),
    /// `as(expr, Type)`
    As(Box<AstExpr>, Name, Span),
    /// `count : {body}`, `sum e : {body}`, `min e : atom`…
    Aggregate(AggOp, Option<Box<AstExpr>>, Vec<AstLiteral>, Span),
    /// `$` or `autoinc()`: not supported; diagnosed.
    Counter(Span),
    /// `__LINE__` and `__FILE__` already resolved to literals by the parser never reach here;
    /// this marks an ADT branch constructor `$Branch(args)` (not supported).
    Adt(String, Span),
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation.
    Neg,
    /// Bitwise not.
    BNot,
    /// Logical not.
    LNot,
}

/// Binary operators, in Soufflé's spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `^`
    Pow,
    /// `band`
    BAnd,
    /// `bor`
    BOr,
    /// `bxor`
    BXor,
    /// `bshl`
    BShl,
    /// `bshr`
    BShr,
    /// `bshru`
    BShrU,
    /// `land`
    LAnd,
    /// `lor`
    LOr,
    /// `lxor`
    LXor,
}

/// Aggregate operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AggOp {
    /// `count`
    Count,
    /// `sum`
    Sum,
    /// `min`
    Min,
    /// `max`
    Max,
    /// `mean`
    Mean,
}

/// `.comp Name<Params> : Base<Args>, … { items }`.
#[derive(Clone, Debug)]
pub struct AstComponent {
    /// Component name.
    pub name: Name,
    /// Type parameters.
    pub params: Vec<String>,
    /// Base components with their type arguments.
    pub bases: Vec<(Name, Vec<Name>)>,
    /// Body items.
    pub items: Vec<AstItem>,
    /// Where it was declared.
    pub span: Span,
}

/// `.init inst = Comp<Args>`.
#[derive(Clone, Debug)]
pub struct AstInit {
    /// Instance name.
    pub name: String,
    /// Component instantiated.
    pub comp: Name,
    /// Type arguments.
    pub args: Vec<Name>,
    /// Where it was written.
    pub span: Span,
}

impl AstExpr {
    /// The source span of this expression.
    pub fn span(&self) -> Span {
        match self {
            AstExpr::Var(_, s)
            | AstExpr::Wildcard(s)
            | AstExpr::Int(_, s)
            | AstExpr::Unsigned(_, s)
            | AstExpr::Float(_, s)
            | AstExpr::Str(_, s)
            | AstExpr::Nil(s)
            | AstExpr::Record(_, s)
            | AstExpr::Unary(_, _, s)
            | AstExpr::Binary(_, _, _, s)
            | AstExpr::Call(_, _, s)
            | AstExpr::UserCall(_, _, s)
            | AstExpr::As(_, _, s)
            | AstExpr::Aggregate(_, _, _, s)
            | AstExpr::Counter(s)
            | AstExpr::Adt(_, s) => *s,
        }
    }
}

impl AstLiteral {
    /// The source span of this literal.
    pub fn span(&self) -> Span {
        match self {
            AstLiteral::Atom(a) | AstLiteral::Negated(a) => a.span,
            AstLiteral::Constraint(_, _, _, s) | AstLiteral::Pred(_, _, _, s) | AstLiteral::Disjunction(_, s) | AstLiteral::Bool(_, s) => *s,
        }
    }
}
