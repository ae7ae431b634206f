//! Perft: counts the leaf nodes of the legal move tree, the standard proof of
//! a move generator.

use crate::position::Position;
use crate::types::Move;

/// The deepest perft the engine's commands accept (`chariot perft`, `go
/// perft`). From the start position the count grows about 40-fold a ply:
/// depth 11 is about 6e17 paths, depth 12 about 2.4e19 (extrapolated from
/// the counts to depth 5), past what the `u64` count holds. Depth 9 already
/// takes hours, so the limit only refuses what could never finish or count.
pub const MAX_DEPTH: u32 = 11;

/// Number of legal move paths of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    #[cfg(debug_assertions)]
    if let Err(e) = pos.check_consistency() {
        panic!("inconsistent position {pos:?}: {e}");
    }
    match depth {
        0 => 1,
        // Bulk counting: the last ply is counted, not played.
        1 => pos.count_legal(),
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &m in moves.iter() {
                pos.make_move(m);
                nodes += perft(pos, depth - 1);
                pos.unmake_move();
            }
            nodes
        }
    }
}

/// The result of a perft run, as both the command line and `go perft` print it.
#[derive(Clone, Debug, Default)]
pub struct PerftReport {
    /// Leaves under each root move, sorted by move text.
    pub divide: Vec<(Move, u64)>,
    /// Leaf nodes summed over the root moves counted (1 at depth 0).
    pub total: u64,
    /// Wall-clock time the run took.
    pub elapsed: std::time::Duration,
    /// Whether `stop` cut the run short (the total is then partial).
    pub stopped: bool,
}

impl PerftReport {
    /// Runs perft, checking `stop` between root moves.
    pub fn run(
        pos: &mut Position,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
    ) -> PerftReport {
        let start = std::time::Instant::now();
        let mut report = PerftReport::default();
        if depth == 0 {
            report.total = 1;
        }
        let moves = if depth == 0 {
            Default::default()
        } else {
            pos.legal_moves()
        };
        for &m in moves.iter() {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                report.stopped = true;
                break;
            }
            pos.make_move(m);
            let n = perft(pos, depth - 1);
            pos.unmake_move();
            report.divide.push((m, n));
            report.total += n;
        }
        report.divide.sort_by_key(|(m, _)| m.to_string());
        report.elapsed = start.elapsed();
        report
    }

    /// Output lines: one per root move, a blank line, the total, time and speed.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .divide
            .iter()
            .map(|(m, n)| format!("{m}: {n}"))
            .collect();
        let nps = (self.total as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64;
        lines.push(String::new());
        if self.stopped {
            lines.push("Perft stopped early: the total below is partial".to_string());
        }
        lines.push(format!("Nodes searched: {}", self.total));
        lines.push(format!("Time: {} ms", self.elapsed.as_millis()));
        lines.push(format!("Nodes/second: {nps}"));
        lines
    }
}
