//! Search, centrality and communities over the case graph (issue 22, docs/SEARCH.md).
//!
//! - [`text`]: terms (stemmed words) of text, for the index, queries and topic labels.
//! - [`index`]: a document's search units (chunks and claims), kept by the store.
//! - [`linking`]: the entities a query names (PPR's seeds).
//! - [`search`]: BM25, personalized PageRank and their fusion (`tg search`).
//! - [`graph`]: the entity graph (claims between `same_as` classes) and PageRank.
//! - [`central`]: PageRank, degree, betweenness, god nodes, bridges, orphans (`tg central`).
//! - [`communities`]: label propagation, c-TF-IDF labels, representative documents (`tg communities`).
//! - [`facts`]: the results as relations: stored (`analytics` facts, tag DERIVED), explained,
//!   given to rules that declare them, and node properties of the GQL view.
//! - [`stored`]: the same rows stored by `tg derive` in the derived layer, and read back.

pub mod central;
pub mod communities;
pub mod facts;
pub mod graph;
pub mod index;
pub mod linking;
pub mod search;
pub mod stored;
pub mod text;
