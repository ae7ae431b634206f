//! Move ordering: hash move, winning captures by MVV-LVA, killers, the
//! counter-move, quiet moves by history, losing captures.

use super::see::see_ge;
use super::Searcher;
use xiangqi::types::{Move, EXCHANGE_VALUES};

pub const TT_MOVE_SCORE: i32 = 1 << 30;
pub const GOOD_CAPTURE: i32 = 1 << 28;
pub const KILLER_SCORE: i32 = 1 << 27;
pub const BAD_CAPTURE: i32 = -(1 << 28);

/// Picks the best-scored move among `moves[i..]` and swaps it to `i`.
#[inline]
pub fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> (Move, i32) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    (moves[i], scores[i])
}

impl Searcher<'_> {
    /// Scores moves for ordering: hash move, winning captures by MVV-LVA,
    /// killers, the counter-move, quiet moves by history, losing captures.
    pub(super) fn score_moves(
        &self,
        moves: &[Move],
        tt_move: Move,
        ply: usize,
        scores: &mut [i32],
    ) {
        let killers = self.stack[ply].killers;
        let counter = self.counter_move(ply);
        for (i, &m) in moves.iter().enumerate() {
            let victim = self.pos.piece_at(m.to());
            scores[i] = if m == tt_move {
                TT_MOVE_SCORE
            } else if victim.is_some() {
                let attacker = self.pos.piece_at(m.from()).kind().index();
                let mvv_lva =
                    EXCHANGE_VALUES[victim.kind().index()] * 16 - EXCHANGE_VALUES[attacker] / 8;
                if see_ge(&self.pos, m, 0) {
                    GOOD_CAPTURE + mvv_lva
                } else {
                    BAD_CAPTURE + mvv_lva
                }
            } else if m == killers[0] {
                KILLER_SCORE
            } else if m == killers[1] {
                KILLER_SCORE - 1
            } else if m == counter {
                KILLER_SCORE - 2
            } else {
                self.h.history(self.pos.piece_at(m.from()), m)
            };
        }
    }
}
