//! Building a book from Chariot's own analysis (`book build --analyse`).
//!
//! # What is expanded
//!
//! From the start position, ply by ply, every position in the tree is
//! searched to a fixed depth with MultiPV. The moves whose score is within
//! `margin` centipawns of the best are kept and weighted
//! `exp(-(best - score) / temperature)`, so equal moves share equally and a
//! slightly worse one is played now and then. Each position carries the
//! share of games that reach it when both sides play from the book (1 at
//! the start, multiplied down by each move's share of its position's
//! weight); a child is expanded only while its share is at least
//! `min_share` and its ply below `max_ply`. Transpositions and mirror images
//! are one position, and their shares add up.
//!
//! When a level holds more positions than the budget has left, the most
//! often reached are analysed first and the rest are left out.
//!
//! # Determinism
//!
//! Each position is searched by one thread, to a fixed depth, with fresh
//! tables, so its result depends only on the position. Worker threads share
//! out a level's positions, and the results are merged in a fixed order:
//! the same arguments give the same book byte for byte, on any number of
//! threads.

use super::build::{assemble, Orientation};
use chariot::book::{self, Book, Record};
use chariot::search::{self, Info, Job, Limits, Shared, Tables};
use chariot::xiangqi::{Move, Position};
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How to expand.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Positions of ply `0..max_ply` get book moves.
    pub max_ply: u32,
    /// Depth of each search.
    pub depth: u32,
    /// Lines searched per position.
    pub multipv: usize,
    /// Moves within this many centipawns of the best are kept.
    pub margin: i32,
    /// Centipawns that divide a move's weight by e.
    pub temperature: f64,
    /// A position is expanded only if at least this share of book games
    /// reaches it.
    pub min_share: f64,
    /// At most this many positions are searched.
    pub max_positions: usize,
    /// Positions searched at once.
    pub threads: usize,
    /// Transposition table of each search, in MB.
    pub hash_mb: usize,
}

/// What [`build`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Positions searched.
    pub searched: usize,
    /// Positions written (those with at least one kept move).
    pub positions: usize,
    /// Records written.
    pub records: usize,
    /// Positions left out because the budget ran out.
    pub over_budget: usize,
    /// Positions left out because another position had their lock.
    pub dropped_collisions: usize,
    /// Positions searched per ply.
    pub per_ply: Vec<usize>,
    /// Nodes searched in all.
    pub nodes: u64,
}

/// What one search found: the (first move, score) of each line, best
/// first, and the nodes it took.
type Analysis = (Vec<(Move, i32)>, u64);

/// The scored lines of one search: (first move, score), best first.
///
/// In a position that is its own mirror image, a move and its mirror image
/// are one choice: only the one with the smaller book code is searched.
fn analyse(pos: &Position, symmetric: bool, cfg: &Config) -> Analysis {
    let mut legal = pos.legal_moves().to_vec();
    if symmetric {
        legal.retain(|&m| book::encode_move(m) <= book::encode_move(book::mirror_move(m)));
    }
    if legal.is_empty() {
        return (Vec::new(), 0);
    }
    let limits = Limits {
        depth: Some(cfg.depth),
        ..Limits::default()
    };
    let tables = Arc::new(Tables::new(cfg.hash_mb));
    let job = Job {
        multipv: cfg.multipv.max(1),
        ..Job::new(pos.clone(), legal, limits, tables, None)
    };
    // The last complete report of each line: lines of the deepest
    // iteration replace those of shallower ones.
    let mut by_depth: BTreeMap<u32, Vec<Info>> = BTreeMap::new();
    let out = search::search(
        job,
        &Shared::default(),
        Instant::now(),
        &mut |info: Info| {
            if info.bound.is_none() && !info.pv.is_empty() {
                by_depth.entry(info.depth).or_default().push(info);
            }
        },
    );
    let Some((_, infos)) = by_depth.into_iter().next_back() else {
        return (
            out.best.map(|m| vec![(m, out.score)]).unwrap_or_default(),
            out.nodes,
        );
    };
    let mut lines: Vec<(usize, Move, i32)> = infos
        .into_iter()
        .map(|i| (i.multipv, i.pv[0], i.score))
        .collect();
    lines.sort_by_key(|&(k, _, _)| k);
    lines.dedup_by_key(|l| l.0);
    (
        lines.into_iter().map(|(_, m, s)| (m, s)).collect(),
        out.nodes,
    )
}

/// The kept moves of a search and their weights (the best weighs 1).
fn keep(lines: &[(Move, i32)], cfg: &Config) -> Vec<(Move, f64)> {
    let Some(best) = lines.iter().map(|&(_, s)| s).max() else {
        return Vec::new();
    };
    lines
        .iter()
        .filter(|&&(_, s)| s >= best - cfg.margin)
        .map(|&(m, s)| {
            (
                m,
                (-(f64::from(best - s)) / cfg.temperature.max(1e-9)).exp(),
            )
        })
        .collect()
}

/// The book records of a position's kept moves: the best weighs 1000, the
/// rest in proportion; in a symmetric position a move and its mirror image
/// share their weight.
fn records(lock: u32, kept: &[(Move, f64)], symmetric: bool) -> Vec<Record> {
    let mut out = Vec::new();
    for &(m, w) in kept {
        let pair = [m, book::mirror_move(m)];
        let moves = if symmetric && pair[1] != m {
            &pair[..]
        } else {
            &pair[..1]
        };
        let weight = 1000.0 * w / moves.len() as f64;
        out.extend(moves.iter().map(|&mv| Record {
            lock,
            mv: book::encode_move(mv),
            weight: weight.round().clamp(1.0, 65535.0) as u16,
        }));
    }
    out
}

/// A position of the tree: in its stored orientation, with the share of
/// book games that reach it.
struct Node {
    pos: Position,
    symmetric: bool,
    share: f64,
}

/// Searches the positions of one level on `threads` threads; results in
/// the order of `level`.
fn search_level(level: &[Node], cfg: &Config) -> std::io::Result<Vec<Analysis>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Analysis>>> =
        Mutex::new((0..level.len()).map(|_| None).collect());
    std::thread::scope(|scope| -> std::io::Result<()> {
        for _ in 0..cfg.threads.clamp(1, level.len().max(1)) {
            std::thread::Builder::new()
                .stack_size(search::SEARCH_STACK)
                .spawn_scoped(scope, || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(node) = level.get(i) else { break };
                    let r = analyse(&node.pos, node.symmetric, cfg);
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
                })?;
        }
        Ok(())
    })?;
    Ok(results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect())
}

/// Expands the tree from `start` (the standard start in the command) and
/// writes its book. `progress` hears about each finished level. Fails
/// only if a search thread cannot be started.
pub fn build(
    start: &Position,
    cfg: &Config,
    progress: &mut dyn FnMut(&str),
) -> std::io::Result<(Book, Report)> {
    let mut report = Report::default();
    let mut by_lock: HashMap<u32, Vec<Record>> = HashMap::new();
    let mut root = start.clone();
    root.clear_history();
    let o = Orientation::of(&root);
    let mut level = vec![Node {
        pos: o.stored(&root),
        symmetric: o.symmetric,
        share: 1.0,
    }];
    let started = Instant::now();
    for ply in 0..cfg.max_ply {
        if level.is_empty() {
            break;
        }
        // Most-reached first; the key breaks ties so the order is fixed.
        level.sort_by(|a, b| {
            b.share
                .total_cmp(&a.share)
                .then(a.pos.key().cmp(&b.pos.key()))
        });
        let room = cfg.max_positions.saturating_sub(report.searched);
        if level.len() > room {
            report.over_budget += level.len() - room;
            level.truncate(room);
        }
        let results = search_level(&level, cfg)?;
        report.searched += level.len();
        report.per_ply.push(level.len());
        // Children by the key of their stored orientation.
        let mut children: BTreeMap<u64, Node> = BTreeMap::new();
        for (node, (lines, nodes)) in level.iter().zip(results) {
            report.nodes += nodes;
            let kept = keep(&lines, cfg);
            let total: f64 = kept.iter().map(|&(_, w)| w).sum();
            if kept.is_empty() || total <= 0.0 {
                continue;
            }
            let lock = book::lock(&node.pos);
            match by_lock.entry(lock) {
                Entry::Occupied(_) => report.dropped_collisions += 1,
                Entry::Vacant(slot) => {
                    slot.insert(records(lock, &kept, node.symmetric));
                }
            }
            if ply + 1 >= cfg.max_ply {
                continue;
            }
            for &(m, w) in &kept {
                let share = node.share * w / total;
                if share < cfg.min_share {
                    continue;
                }
                let mut child = node.pos.clone();
                child.make_move(m);
                child.clear_history();
                if child.legal_moves().is_empty() {
                    continue;
                }
                let o = Orientation::of(&child);
                let stored = o.stored(&child);
                children
                    .entry(stored.key())
                    .and_modify(|c| c.share += share)
                    .or_insert(Node {
                        pos: stored,
                        symmetric: o.symmetric,
                        share,
                    });
            }
        }
        progress(&format!(
            "ply {ply}: {} positions searched ({} in all, {} nodes, {:.0} s)",
            level.len(),
            report.searched,
            report.nodes,
            started.elapsed().as_secs_f64()
        ));
        level = children.into_values().collect();
    }
    // The last level's moves are not followed, so `level` is empty here:
    // everything the budget left out was counted above.
    let (book, positions) = assemble(by_lock.into_values());
    report.positions = positions;
    report.records = book.len();
    Ok((book, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(threads: usize) -> Config {
        Config {
            max_ply: 3,
            depth: 3,
            multipv: 3,
            margin: 30,
            temperature: 15.0,
            min_share: 0.05,
            max_positions: 40,
            threads,
            hash_mb: 1,
        }
    }

    #[test]
    fn weights_fall_with_the_score_and_the_margin_cuts() {
        let m = |s: &str| Move::parse_iccs(s).unwrap();
        let cfg = small(1);
        let kept = keep(
            &[
                (m("h2e2"), 20),
                (m("b2e2"), 20),
                (m("c3c4"), 5),
                (m("a0a1"), -30),
            ],
            &cfg,
        );
        assert_eq!(kept.len(), 3, "a0a1 is 50 cp worse than the best");
        assert_eq!(kept[0].1, 1.0);
        assert_eq!(kept[1].1, 1.0);
        assert!((kept[2].1 - (-1.0f64).exp()).abs() < 1e-12);
    }

    #[test]
    fn the_book_is_legal_deterministic_and_covers_the_start() -> std::io::Result<()> {
        let start = Position::startpos();
        let (a, ra) = build(&start, &small(1), &mut |_| {})?;
        let (b, rb) = build(&start, &small(2), &mut |_| {})?;
        assert_eq!(a.to_bytes(), b.to_bytes(), "same book on 1 and 2 threads");
        assert_eq!(ra, rb);
        assert!(ra.searched <= 40);
        assert_eq!(ra.per_ply.len(), 3);
        let moves = a.probe(&start);
        assert!(!moves.is_empty(), "the start position has book moves");
        // Every stored move is legal in its position: walk the book's tree.
        let mut stack = vec![(start, 0u32)];
        let mut seen = 0;
        while let Some((pos, ply)) = stack.pop() {
            for (m, w) in a.probe(&pos) {
                assert!(pos.is_legal(m), "{m} in {}", pos.to_fen());
                assert!(w >= 1);
                seen += 1;
                if ply < 3 {
                    let mut next = pos.clone();
                    next.make_move(m);
                    stack.push((next, ply + 1));
                }
            }
        }
        assert!(seen >= a.len(), "every record is reached from the start");
        Ok(())
    }
}
