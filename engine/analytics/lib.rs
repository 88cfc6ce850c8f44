//! Search, centrality and communities over the case graph (issue 22, docs/SEARCH.md).
//!
//! Terms (stemmed words) come from `tg_text::terms`; a document's search units (chunks
//! and claims) are kept by the store (`tg_store::search_units`).
//!
//! - [`linking`]: the entities a query names (PPR's seeds).
//! - [`stored`]: the results `tg derive` stored as facts, read back while current.
//! - [`search`]: BM25, personalized PageRank and their fusion (`tg search`).
//! - [`graph`]: the entity graph (claims between `same_as` classes) and PageRank.
//! - [`central`]: PageRank, degree, betweenness, god nodes, bridges, orphans (`tg central`).
//! - [`communities`]: label propagation, c-TF-IDF labels, representative documents (`tg communities`).
//! - [`facts`]: the results as relations: stored (`analytics` facts, tag DERIVED), explained,
//!   given to rules that declare them, and node properties of the GQL view.
//! - [`stored`]: the same rows stored by `tg derive` in the derived layer, and read back.

#![forbid(unsafe_code)]

pub mod central;
pub mod communities;
pub mod facts;
pub mod graph;
pub mod linking;
pub mod search;
pub mod stored;
