//! `bench`: a fixed search over a fixed list of positions, the engine's
//! functional signature. With one thread, a fixed depth, a fixed table size
//! and tables cleared before every position, the node count depends on the
//! search and evaluation alone; every commit that changes them states the
//! new count as `Bench: N`.

use crate::eval::nnue::Network;
use crate::search::{self, Job, Limits, Shared, Tables};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::position::Position;

/// Depth of `bench` when none is given.
pub const DEFAULT_DEPTH: u32 = 11;
/// Deepest bench accepted, from the command line and the protocol.
pub const MAX_DEPTH: u32 = 30;
/// Table size of `bench`, in megabytes.
pub const HASH_MB: usize = 16;

/// Openings, middlegames and endgames.
pub const POSITIONS: &[&str] = &[
    // Openings.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 1 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/9/RN1AKABNR b - - 1 1",
    "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR w - - 2 2",
    "r1bakabr1/9/c1n3nc1/p1p1p1pRp/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 8 5",
    "1rbakab1r/9/1cn3nc1/pR2p1p1p/2p6/9/P1P1P1P1P/2N1C2C1/9/2BAKABNR w - - 8 5",
    "r1bakab1r/9/1cn3nc1/p3p1p1p/2p6/6P2/P1P1P3P/1C2B1NC1/9/RN1AKAB1R w - - 6 4",
    "1rbakabnr/9/2n1c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "r1bakabr1/9/2n3n1c/p1p1p1p1p/9/9/PcP1P1P1P/C1N1C1N2/9/R1BAKABR1 w - - 10 6",
    "rnbakab1r/9/1c4n2/p1p1p3p/9/6p2/P1P1P2RP/1C2C1N2/9/RNBAKAB2 b - - 0 5",
    "r1bakabr1/9/1cn3n2/p1p1p1p1p/9/1R7/P1P1P1PcP/2N1C1NC1/9/2BAKAB1R b - - 9 5",
    // Middlegames.
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "rnb1kabnr/9/4ca3/4p1p1p/p1p6/6Pc1/P1P1P3P/NC2B4/5R3/1CBAKA1NR b - - 0 1",
    "rnbakabr1/9/9/p3p1p1p/2p6/6c2/PCc1P1P1P/N8/4K4/R1BA1ABNR w - - 0 1",
    "3a1k3/2r1a3r/b2Cb3n/p3p1p1p/1n4c2/P1p1P1PN1/2P2C2P/3RB4/1N3K3/3A1AB1R w - - 0 1",
    "1nba1k1n1/1r1r5/c7b/4N1p2/6P2/C2p4p/c3P3P/N7B/4A4/2B1KA2R w - - 0 1",
    "1nbakabnr/r8/C8/p1p1p1p1p/9/P5P2/2P1P2c1/C7B/R7R/c1BAKA1N1 b - - 0 1",
    "1nb1kCb1r/4a4/2r6/p3pn2p/2p3p2/P1B6/2P1C1P1P/8N/7Rc/RN1AKAB2 w - - 0 1",
    "3a2bn1/4k4/4b2r1/p1p3p2/2P1prP1p/9/P1R6/Rc7/N4C3/2BAKABN1 b - - 0 1",
    "2b2ab2/1c2k3r/7C1/2p3p2/1r1Cp1P1p/2PN5/4PRc2/4B4/R3A4/3A1KB2 b - - 0 1",
    "3k5/4c4/9/9/4P4/9/4C1N1r/9/9/4K4 w - - 0 1",
    "5k3/4c4/9/P8/9/4R4/9/4N4/9/4K4 w - - 0 1",
    "3k5/9/9/4r4/9/9/R8/2N6/1C7/4K4 w - - 0 1",
    "5k3/9/9/9/C1P1pN2r/9/9/9/9/3K5 w - - 0 1",
    "4k4/r8/R8/9/4N4/9/9/9/4K4/9 w - - 0 1",
    "3k5/9/4r4/9/9/9/4N4/9/9/1C2K4 w - - 0 1",
    "3a1a3/9/3kb4/9/9/r8/9/5K3/4A4/2BA2B2 w - - 0 1",
    "5k3/9/9/9/9/9/3R1n3/4B4/3N5/3K5 w - - 0 1",
    "3k5/9/9/9/2p6/2Np2R2/9/9/9/4K4 w - - 0 1",
    // Endgames.
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "3ak4/4a4/9/9/9/9/9/9/9/4K1R2 w - - 0 1",
    "4k4/9/9/9/2P6/9/9/9/9/3K1N3 w - - 0 1",
    "4k4/9/9/9/9/9/9/4r4/9/3K1N1R1 w - - 0 1",
    "2bak4/4a4/4b4/9/9/9/9/9/4C4/3K5 w - - 0 1",
    "3k5/9/9/4p4/9/4P4/9/9/9/5K3 w - - 0 1",
    "3k5/4a4/3a5/9/2n6/9/9/9/4A4/3K1R3 b - - 0 1",
    "4k4/9/4b4/9/9/9/9/2N6/4A4/4K4 w - - 0 1",
    "5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1",
];

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    pub positions: usize,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Whether a stop cut the run short.
    pub stopped: bool,
}

impl BenchReport {
    /// The report as protocol lines: `Nodes searched: N` and `Nodes/second: X`.
    pub fn lines(&self) -> Vec<String> {
        let ms = self.elapsed.as_millis().max(1) as u64;
        let mut lines = Vec::new();
        if self.stopped {
            lines.push(format!(
                "bench stopped after {} of {} positions",
                self.positions,
                POSITIONS.len()
            ));
        }
        lines.push(format!("Total time (ms): {ms}"));
        lines.push(format!("Nodes searched: {}", self.nodes));
        lines.push(format!(
            "Nodes/second: {}",
            self.nodes.saturating_mul(1000) / ms
        ));
        lines
    }
}

/// Searches every bench position to `depth` with one thread and fresh
/// tables, evaluating with `net` (`None`: the classical evaluation);
/// `shared.stop` cuts the run short.
pub fn run(depth: u32, net: Option<Arc<Network>>, shared: &Shared) -> BenchReport {
    let start = Instant::now();
    let mut report = BenchReport {
        positions: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        stopped: false,
    };
    let tables = Arc::new(Tables::new(HASH_MB));
    for fen in POSITIONS {
        if shared.stop.load(std::sync::atomic::Ordering::Relaxed) {
            report.stopped = true;
            break;
        }
        let pos = match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                log::error!("bench position '{fen}' refused: {e}");
                continue;
            }
        };
        let root_moves = pos.legal_moves().to_vec();
        tables.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let job = Job::new(pos, root_moves, limits, Arc::clone(&tables), net.clone());
        let outcome = search::search(job, shared, Instant::now(), &mut |_| {});
        report.nodes += outcome.nodes;
        report.positions += 1;
    }
    report.stopped |= shared.stop.load(std::sync::atomic::Ordering::Relaxed);
    report.elapsed = start.elapsed();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_valid_and_playable() {
        assert!(POSITIONS.len() >= 40);
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(pos.has_legal_move(), "{fen}");
        }
    }

    #[test]
    fn bench_is_deterministic() {
        let net = crate::eval::nets::builtin_net;
        let a = run(3, net(), &Shared::default());
        let b = run(3, net(), &Shared::default());
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.positions, POSITIONS.len());
        assert!(!a.stopped);
    }
}
