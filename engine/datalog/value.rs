//! Values: 32-bit words, plus the symbol and record tables that give them meaning.
//!
//! A word is read according to its column's [`Kind`]: `number` is two's-complement
//! `i32`, `unsigned` is `u32`, `float` is `f32` bits, `symbol` an index into the
//! symbol table, a record an index into the record table (0 is `nil`).
//! Intern ids never decide output order: [`Values::cmp`] orders symbols by text.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::logic::{Kind, RecordType};

/// The symbol and record tables of one evaluation.
#[derive(Clone, Debug, Default)]
pub struct Values {
    symbols: Vec<String>,
    symbol_ids: HashMap<String, u32>,
    records: Vec<Vec<u32>>,
    record_ids: HashMap<Vec<u32>, u32>,
}

impl Values {
    /// An empty table (record 0 is reserved for `nil`).
    pub fn new() -> Self {
        let mut v = Values::default();
        v.records.push(vec![]);
        v
    }

    /// Interns a symbol.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.symbol_ids.get(s) {
            return i;
        }
        let i = self.symbols.len() as u32;
        self.symbols.push(s.to_string());
        self.symbol_ids.insert(s.to_string(), i);
        i
    }

    /// Looks a symbol up without interning it.
    pub fn lookup(&self, s: &str) -> Option<u32> {
        self.symbol_ids.get(s).copied()
    }

    /// The text of a symbol id.
    pub fn symbol(&self, i: u32) -> &str {
        self.symbols.get(i as usize).map(String::as_str).unwrap_or("")
    }

    /// Interns a record (a tuple of words); returns its id (never 0).
    pub fn pack(&mut self, fields: &[u32]) -> u32 {
        if let Some(&i) = self.record_ids.get(fields) {
            return i;
        }
        let i = self.records.len() as u32;
        self.records.push(fields.to_vec());
        self.record_ids.insert(fields.to_vec(), i);
        i
    }

    /// Finds an existing record's id without creating it.
    pub fn find_record(&self, fields: &[u32]) -> Option<u32> {
        self.record_ids.get(fields).copied()
    }

    /// The fields of a record id (`None` for `nil` or an unknown id).
    pub fn unpack(&self, id: u32) -> Option<&[u32]> {
        if id == 0 {
            return None;
        }
        self.records.get(id as usize).map(Vec::as_slice)
    }

    /// Number of interned symbols.
    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// Orders two words of one kind by value (symbols by text, records field-wise).
    pub fn cmp(&self, kind: Kind, a: u32, b: u32, recs: &[RecordType]) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        match kind {
            Kind::Number => (a as i32).cmp(&(b as i32)),
            Kind::Unsigned => a.cmp(&b),
            Kind::Float => f32::from_bits(a).total_cmp(&f32::from_bits(b)),
            Kind::Symbol => self.symbol(a).cmp(self.symbol(b)),
            Kind::Record(t) => match (self.unpack(a), self.unpack(b)) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Less,
                (Some(_), None) => Ordering::Greater,
                (Some(x), Some(y)) => {
                    let fields = recs.get(t).map(|r| r.fields.as_slice()).unwrap_or(&[]);
                    for (i, (fx, fy)) in x.iter().zip(y).enumerate() {
                        let k = fields.get(i).map(|f| f.1).unwrap_or(Kind::Number);
                        let o = self.cmp(k, *fx, *fy, recs);
                        if o != Ordering::Equal {
                            return o;
                        }
                    }
                    Ordering::Equal
                }
            },
        }
    }

    /// For each symbol id, its rank in text order: comparing ranks compares texts.
    pub fn symbol_ranks(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..self.symbols.len() as u32).collect();
        ids.sort_unstable_by(|a, b| self.symbols[*a as usize].cmp(&self.symbols[*b as usize]));
        let mut rank = vec![0u32; ids.len()];
        for (r, id) in ids.into_iter().enumerate() {
            rank[id as usize] = r as u32;
        }
        rank
    }

    /// Renders a word of a kind as Soufflé prints it in `.csv` outputs.
    pub fn render(&self, kind: Kind, w: u32, recs: &[RecordType], out: &mut String) {
        match kind {
            Kind::Number => out.push_str(itoa::Buffer::new().format(w as i32)),
            Kind::Unsigned => out.push_str(itoa::Buffer::new().format(w)),
            Kind::Float => out.push_str(&format_float(f32::from_bits(w))),
            Kind::Symbol => out.push_str(self.symbol(w)),
            Kind::Record(t) => match self.unpack(w) {
                None => out.push_str("nil"),
                Some(fields) => {
                    let fields = fields.to_vec();
                    let kinds: Vec<Kind> = recs.get(t).map(|r| r.fields.iter().map(|f| f.1).collect()).unwrap_or_default();
                    out.push('[');
                    for (i, f) in fields.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        let k = kinds.get(i).copied().unwrap_or(Kind::Number);
                        self.render(k, *f, recs, out);
                    }
                    out.push(']');
                }
            },
        }
    }
}

/// Formats a float the way Soufflé's `std::ostream << float` does by default (`%g`, 6 significant digits).
pub fn format_float(f: f32) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let v = f as f64;
    let exp = v.abs().log10().floor() as i32;
    if !(-5..6).contains(&exp) {
        let s = format!("{:.5e}", v);
        // Rust prints `1.50000e6`; %g prints `1.5e+06`.
        let (mant, e) = s.split_once('e').unwrap_or((&s, "0"));
        let mant = trim_zeros(mant);
        let e: i32 = e.parse().unwrap_or(0);
        format!("{mant}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
    } else {
        let decimals = (5 - exp).max(0) as usize;
        trim_zeros(&format!("{:.*}", decimals, v)).to_string()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
}

/// Encodes a float as a word.
pub fn float_word(f: f32) -> u32 {
    f.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_printf_g() {
        assert_eq!(format_float(1.5), "1.5");
        assert_eq!(format_float(0.1), "0.1");
        assert_eq!(format_float(100.0), "100");
        assert_eq!(format_float(1234567.0), "1.23457e+06");
        assert_eq!(format_float(0.00001), "1e-05");
        assert_eq!(format_float(-2.25), "-2.25");
        assert_eq!(format_float(3.0), "3");
    }
}
