//! The property-graph view of a store (docs/GQL.md): entities, documents and chunks as
//! nodes, claims as relationships with their modality, asserter and citation.

use crate::gql::graph::Graph;

/// Builds the view (placeholder until the store mapping lands).
pub fn empty() -> Graph {
    Graph::default()
}

/// Opens the store at `path` and builds its property-graph view.
pub fn from_store(path: &std::path::Path) -> Result<Graph, String> {
    let _ = path;
    Ok(empty())
}
