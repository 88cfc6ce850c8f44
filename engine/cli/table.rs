//! Tabular output shared by the commands that print rows: `tsv` (tabs and newlines in a
//! field become spaces) and `csv` (RFC 4180 quoting), a header row first.

/// The rows as `tsv` or `csv` (anything else is taken as `tsv`).
pub fn render(format: &str, header: &[&str], rows: &[Vec<String>]) -> String {
    let field = |s: &str| -> String {
        if format == "csv" {
            if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
        } else {
            s.replace(['\t', '\n', '\r'], " ")
        }
    };
    let sep = if format == "csv" { "," } else { "\t" };
    let mut out = header.iter().map(|h| field(h)).collect::<Vec<_>>().join(sep);
    out.push('\n');
    for r in rows {
        out.push_str(&r.iter().map(|f| field(f)).collect::<Vec<_>>().join(sep));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    /// Fields are quoted for csv and flattened for tsv.
    #[test]
    fn quotes_and_flattens() {
        let rows = vec![vec!["a,b".to_string(), "c\td".to_string()]];
        assert_eq!(super::render("csv", &["x", "y"], &rows), "x,y\n\"a,b\",c\td\n");
        assert_eq!(super::render("tsv", &["x", "y"], &rows), "x\ty\na,b\tc d\n");
    }
}
