//! The staged move picker: a node's moves in the order it tries them,
//! generated only when needed.
//!
//! 1. the hash move, checked for legality before anything is generated;
//! 2. good captures (static exchange >= 0), by MVV-LVA;
//! 3. the killers and the counter-move, each checked for legality;
//! 4. quiet moves, by their histories (`Heuristics::quiet_score`;
//!    generated only now);
//! 5. bad captures, by MVV-LVA.
//!
//! Since most nodes that cut off do so on the hash move or a capture, most
//! nodes never generate a quiet move, and only the captures actually
//! reached pay for an exchange evaluation. In check, every evasion is
//! generated at once (after the hash move) and ordered in the same
//! classes: good captures, killers and counter-move, quiet moves by
//! their histories, bad captures. The quiescence search asks for
//! captures only: the hash move if it is a capture, then good and bad
//! captures. No move is returned twice: the hash move, killers and the
//! counter-move are skipped when the generator produces them again.
//!
//! Each move comes with an ordering score whose range tells its stage (see
//! the constants below); the search uses it to reduce and prune.

use super::history::{Heuristics, QuietContext};
use super::see::{exchange_value, see_ge};
use xiangqi::movegen::{GenType, Legality, MoveList, MAX_MOVES};
use xiangqi::position::Position;
use xiangqi::types::Move;

/// Score of the hash move.
pub const TT_MOVE_SCORE: i32 = 1 << 30;
/// Good captures (and captures evading check) score this plus MVV-LVA.
pub const GOOD_CAPTURE: i32 = 1 << 28;
/// The first killer scores this, the second one less, the counter-move two
/// less; quiet moves score their histories, a few times `history_max()`
/// at most.
pub const KILLER_SCORE: i32 = 1 << 27;
/// The lowest score of a killer or the counter-move.
pub const LOWEST_REFUTATION: i32 = KILLER_SCORE - 2;
/// Bad captures score this plus MVV-LVA (always negative).
pub const BAD_CAPTURE: i32 = -(1 << 28);

/// Where the picker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Refutations,
    GenQuiets,
    Quiets,
    BadCaptures,
    EvasionTtMove,
    GenEvasions,
    Evasions,
    Done,
}

/// Which moves a picker returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every legal move (not in check).
    All,
    /// Captures only (the quiescence search, not in check).
    Captures,
    /// Every legal move, in check.
    Evasions,
}

/// MVV-LVA: the most valuable victim first, then the least valuable attacker.
#[inline(always)]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    exchange_value(pos.piece_at(m.to())) * 16 - exchange_value(pos.piece_at(m.from())) / 8
}

/// Swaps the best-scored move among `moves[from..end]` to `from` and
/// returns it with its score.
#[inline(always)]
fn select(moves: &mut [Move], scores: &mut [i32], from: usize, end: usize) -> (Move, i32) {
    let mut best = from;
    for j in from + 1..end {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(from, best);
    scores.swap(from, best);
    (moves[from], scores[from])
}

/// Sorts `moves[start..]` by score, highest first; equal scores keep their
/// order (a stable sort).
#[inline(always)]
fn sort_descending(moves: &mut [Move], scores: &mut [i32], start: usize) {
    let n = moves.len() - start;
    let mut pairs = [(0i32, Move::NULL); MAX_MOVES];
    for (k, pair) in pairs[..n].iter_mut().enumerate() {
        *pair = (scores[start + k], moves[start + k]);
    }
    pairs[..n].sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    for (k, &(score, m)) in pairs[..n].iter().enumerate() {
        scores[start + k] = score;
        moves[start + k] = m;
    }
}

/// The moves of one node, one at a time (see the module comment).
pub struct MovePicker {
    stage: Stage,
    captures_only: bool,
    tt_move: Move,
    /// Killers, then the counter-move (`Move::NULL` where none).
    refutations: [Move; 3],
    /// Index of the next refutation to try.
    refutation: usize,
    /// Where quiet moves are scored (continuation rows, ply, pawns).
    quiet: QuietContext,
    /// Captures from 0, quiet moves appended after them; bad captures are
    /// moved down to `0..bad_end` as the good-capture stage finds them.
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    cur: usize,
    bad_end: usize,
    /// The position's legality tests, kept from generating the captures
    /// for generating the quiet moves.
    legality: Option<Legality>,
}

impl MovePicker {
    /// A picker for a node of the main search (every move); `in_check`
    /// switches to evasions.
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move, in_check: bool) -> MovePicker {
        let mode = if in_check { Mode::Evasions } else { Mode::All };
        MovePicker::with_mode(mode, tt_move, [killers[0], killers[1], counter])
    }

    /// A picker for the quiescence search: captures only, or every evasion
    /// in check.
    pub fn quiescence(tt_move: Move, in_check: bool) -> MovePicker {
        let mode = if in_check {
            Mode::Evasions
        } else {
            Mode::Captures
        };
        MovePicker::with_mode(mode, tt_move, [Move::NULL; 3])
    }

    /// Scores quiet moves in the node's context `quiet` (its continuation
    /// rows, ply and pawns), not by their history alone.
    pub fn with_context(mut self, quiet: QuietContext) -> MovePicker {
        self.quiet = quiet;
        self
    }

    fn with_mode(mode: Mode, tt_move: Move, refutations: [Move; 3]) -> MovePicker {
        MovePicker {
            stage: match mode {
                Mode::All | Mode::Captures => Stage::TtMove,
                Mode::Evasions => Stage::EvasionTtMove,
            },
            captures_only: mode == Mode::Captures,
            tt_move,
            refutations,
            refutation: 0,
            quiet: QuietContext::NONE,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            cur: 0,
            bad_end: 0,
            legality: None,
        }
    }

    /// Whether the hash move may be returned: legal here (which checks that
    /// it is pseudo-legal first: a move from a key collision or another
    /// position is refused), and a capture if only captures are wanted.
    #[inline]
    fn tt_move_ok(&self, pos: &Position) -> bool {
        let m = self.tt_move;
        !m.is_null()
            && (!self.captures_only || pos.is_capture(m))
            && pos.is_pseudo_legal(m)
            && pos.is_legal(m)
    }

    /// Whether the refutation `i` may be returned: a legal quiet move not
    /// returned already (as the hash move or an earlier refutation).
    #[inline]
    fn refutation_ok(&self, pos: &Position, i: usize) -> bool {
        let m = self.refutations[i];
        !m.is_null()
            && m != self.tt_move
            && !self.refutations[..i].contains(&m)
            && !pos.is_capture(m)
            && pos.is_pseudo_legal(m)
            && pos.is_legal(m)
    }

    /// The next move and its ordering score, or `None` when all are out.
    pub fn next(&mut self, pos: &Position, h: &Heuristics) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TtMove | Stage::EvasionTtMove => {
                    self.stage = if self.stage == Stage::TtMove {
                        Stage::GenCaptures
                    } else {
                        Stage::GenEvasions
                    };
                    if self.tt_move_ok(pos) {
                        return Some((self.tt_move, TT_MOVE_SCORE));
                    }
                }
                Stage::GenCaptures => {
                    // Captures are generated first only when not in check.
                    let legality = pos.legality_info_given(false);
                    pos.generate_with(&legality, GenType::Captures, &mut self.moves);
                    self.legality = Some(legality);
                    for (i, &m) in self.moves.iter().enumerate() {
                        self.scores[i] = mvv_lva(pos, m);
                    }
                    self.cur = 0;
                    self.bad_end = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    let end = self.moves.len();
                    while self.cur < end {
                        let (m, score) = select(&mut self.moves, &mut self.scores, self.cur, end);
                        self.cur += 1;
                        if m == self.tt_move {
                            continue;
                        }
                        if see_ge(pos, m, 0) {
                            return Some((m, GOOD_CAPTURE + score));
                        }
                        // Kept for the last stage, in the same order.
                        self.moves[self.bad_end] = m;
                        self.scores[self.bad_end] = score;
                        self.bad_end += 1;
                    }
                    self.stage = if self.captures_only {
                        self.cur = 0;
                        Stage::BadCaptures
                    } else {
                        Stage::Refutations
                    };
                }
                Stage::Refutations => {
                    while self.refutation < self.refutations.len() {
                        let i = self.refutation;
                        self.refutation += 1;
                        if self.refutation_ok(pos, i) {
                            return Some((self.refutations[i], KILLER_SCORE - i as i32));
                        }
                    }
                    self.stage = Stage::GenQuiets;
                }
                Stage::GenQuiets => {
                    let start = self.moves.len();
                    let legality = self
                        .legality
                        .unwrap_or_else(|| pos.legality_info_given(false));
                    pos.generate_with(&legality, GenType::Quiets, &mut self.moves);
                    for i in start..self.moves.len() {
                        let m = self.moves[i];
                        self.scores[i] = h.quiet_score(pos.piece_at(m.from()), m, self.quiet);
                    }
                    sort_descending(&mut self.moves, &mut self.scores, start);
                    self.cur = start;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    let end = self.moves.len();
                    while self.cur < end {
                        let (m, score) = (self.moves[self.cur], self.scores[self.cur]);
                        self.cur += 1;
                        if m != self.tt_move && !self.refutations.contains(&m) {
                            return Some((m, score));
                        }
                    }
                    self.cur = 0;
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.cur < self.bad_end {
                        let i = self.cur;
                        self.cur += 1;
                        return Some((self.moves[i], BAD_CAPTURE + self.scores[i]));
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    pos.generate_with(
                        &pos.legality_info_given(true),
                        GenType::All,
                        &mut self.moves,
                    );
                    for (i, &m) in self.moves.iter().enumerate() {
                        self.scores[i] = if pos.is_capture(m) {
                            if see_ge(pos, m, 0) {
                                GOOD_CAPTURE + mvv_lva(pos, m)
                            } else {
                                BAD_CAPTURE + mvv_lva(pos, m)
                            }
                        } else if m == self.refutations[0] {
                            KILLER_SCORE
                        } else if m == self.refutations[1] {
                            KILLER_SCORE - 1
                        } else if m == self.refutations[2] {
                            KILLER_SCORE - 2
                        } else {
                            h.quiet_score(pos.piece_at(m.from()), m, self.quiet)
                        };
                    }
                    self.cur = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    let end = self.moves.len();
                    while self.cur < end {
                        let (m, score) = select(&mut self.moves, &mut self.scores, self.cur, end);
                        self.cur += 1;
                        if m != self.tt_move {
                            return Some((m, score));
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::NO_CONTINUATION;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use xiangqi::types::{Color, Piece, PieceKind, Square, SQUARES};

    /// Positions from seeded random playouts from the start position.
    fn positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..max_plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                out.push(pos.clone());
                pos.make_move(moves[rng.random_range(0..moves.len())]);
            }
        }
        out
    }

    fn random_square(rng: &mut StdRng) -> Square {
        Square::from_index(rng.random_range(0..SQUARES)).expect("an index below 90")
    }

    /// Candidates for the hash move, killers and counter-move: legal quiet
    /// moves, legal captures, moves of the other side, random (mostly
    /// illegal) moves, and the null move.
    fn candidates(pos: &Position, rng: &mut StdRng) -> Vec<Move> {
        let legal = pos.legal_moves();
        let mut out = vec![Move::NULL];
        if let Some(&q) = legal.iter().find(|&&m| !pos.is_capture(m)) {
            out.push(q);
        }
        let quiets: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| !pos.is_capture(m))
            .collect();
        if !quiets.is_empty() {
            out.push(quiets[rng.random_range(0..quiets.len())]);
        }
        if let Some(&c) = legal.iter().find(|&&m| pos.is_capture(m)) {
            out.push(c);
        }
        let mut other = pos.clone();
        other.make_null_move();
        let theirs = other.legal_moves();
        if !theirs.is_empty() {
            out.push(theirs[rng.random_range(0..theirs.len())]);
        }
        loop {
            let (a, b) = (random_square(rng), random_square(rng));
            if a != b {
                out.push(Move::new(a, b));
                break;
            }
        }
        out
    }

    fn sorted(mut v: Vec<Move>) -> Vec<u16> {
        let mut raw: Vec<u16> = v.drain(..).map(|m| m.raw()).collect();
        raw.sort_unstable();
        raw
    }

    /// Runs a picker to the end.
    fn drain(mut p: MovePicker, pos: &Position, h: &Heuristics) -> Vec<(Move, i32)> {
        let mut out = Vec::new();
        while let Some(x) = p.next(pos, h) {
            out.push(x);
            assert!(out.len() <= MAX_MOVES, "the picker does not end");
        }
        // Once out, it stays out.
        assert_eq!(p.next(pos, h), None);
        out
    }

    /// The stage a returned move belongs to, by its score.
    fn stage_of(score: i32) -> u8 {
        match score {
            TT_MOVE_SCORE => 0,
            s if s >= GOOD_CAPTURE => 1,
            s if (LOWEST_REFUTATION..=KILLER_SCORE).contains(&s) => 2,
            s if s > BAD_CAPTURE / 2 => 3,
            _ => 4,
        }
    }

    /// A history table with random scores: every move of either side
    /// (the history is by side and squares, whatever the piece).
    fn random_history(rng: &mut StdRng) -> Heuristics {
        let mut h = Heuristics::new();
        for color in Color::ALL {
            let piece = Piece::new(color, PieceKind::Rook);
            for from in Square::all() {
                for to in Square::all() {
                    h.set_history(
                        piece,
                        Move::new(from, to),
                        rng.random_range(-16_000..16_000),
                    );
                }
            }
        }
        h
    }

    fn check_position(pos: &Position, rng: &mut StdRng, h: &Heuristics) {
        let legal = pos.legal_moves().to_vec();
        let in_check = pos.in_check();
        let cands = candidates(pos, rng);
        let legal_captures: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        for &tt in &cands {
            for &k0 in &cands {
                for &k1 in &cands {
                    let counter = cands[rng.random_range(0..cands.len())];
                    let picker = MovePicker::new(tt, [k0, k1], counter, in_check);
                    let got = drain(picker, pos, h);
                    let moves: Vec<Move> = got.iter().map(|&(m, _)| m).collect();
                    assert_eq!(
                        sorted(moves.clone()),
                        sorted(legal.clone()),
                        "{} tt {tt} killers {k0} {k1} counter {counter}",
                        pos.to_fen()
                    );
                    check_order(pos, &got, tt);
                }
            }
            // Quiescence: captures only (the hash move only if a capture),
            // or every evasion in check.
            let got = drain(MovePicker::quiescence(tt, in_check), pos, h);
            let moves: Vec<Move> = got.iter().map(|&(m, _)| m).collect();
            let want = if in_check {
                legal.clone()
            } else {
                legal_captures.clone()
            };
            assert_eq!(
                sorted(moves),
                sorted(want),
                "{} qsearch tt {tt}",
                pos.to_fen()
            );
            check_order(pos, &got, tt);
        }
    }

    /// Stages come in order (evasions too): the hash move first when legal,
    /// good captures by MVV-LVA with a non-negative exchange, killers and
    /// counter-move, quiet moves by history, bad captures by MVV-LVA with a
    /// negative exchange.
    fn check_order(pos: &Position, got: &[(Move, i32)], tt: Move) {
        let fen = pos.to_fen();
        if pos.is_legal(tt) && !tt.is_null() {
            let tt_first = got.first().map(|&(m, _)| m) == Some(tt);
            assert!(
                tt_first || !got.iter().any(|&(m, _)| m == tt),
                "{fen}: hash move {tt}"
            );
        }
        for (i, &(m, s)) in got.iter().enumerate() {
            if s == TT_MOVE_SCORE {
                assert_eq!(i, 0, "{fen}: hash move not first");
                assert_eq!(m, tt, "{fen}");
            }
        }
        let rest = got.iter().skip_while(|&&(_, s)| s == TT_MOVE_SCORE);
        let mut last_stage = 0;
        let mut last_score = i32::MAX;
        for &(m, s) in rest {
            let stage = stage_of(s);
            assert!(
                stage >= last_stage,
                "{fen}: {m} ({s}) after stage {last_stage}"
            );
            if stage == last_stage && stage != 2 {
                assert!(s <= last_score, "{fen}: {m} ({s}) after {last_score}");
            }
            match stage {
                1 => {
                    assert!(pos.is_capture(m) && see_ge(pos, m, 0), "{fen}: {m}");
                    assert_eq!(s, GOOD_CAPTURE + mvv_lva(pos, m), "{fen}: {m}");
                }
                2 | 3 => assert!(!pos.is_capture(m), "{fen}: {m} is not quiet"),
                _ => {
                    assert!(pos.is_capture(m) && !see_ge(pos, m, 0), "{fen}: {m}");
                    assert_eq!(s, BAD_CAPTURE + mvv_lva(pos, m), "{fen}: {m}");
                }
            }
            last_stage = stage;
            last_score = s;
        }
    }

    #[test]
    fn picker_yields_every_legal_move_once_in_stage_order() {
        let mut rng = StdRng::seed_from_u64(0x5eed);
        let h = random_history(&mut rng);
        // Debug builds are slower: fewer playouts there.
        let games = if cfg!(debug_assertions) { 4 } else { 12 };
        let positions = positions(7, games, 120);
        assert!(positions.len() > 40 * games);
        let checks = positions.iter().filter(|p| p.in_check()).count();
        assert!(checks > games, "too few positions in check: {checks}");
        for pos in &positions {
            check_position(pos, &mut rng, &h);
        }
    }

    #[test]
    fn killers_come_after_good_captures_and_before_quiets() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/1n7/9/9/1R2K4 w - - 0 1").expect("test FEN");
        let h = Heuristics::new();
        let capture = pos.parse_move("b0b3").expect("test move");
        let killer = pos.parse_move("b0b1").expect("test move");
        let tt = pos.parse_move("e0f0").expect("test move");
        let got = drain(
            MovePicker::new(tt, [killer, Move::NULL], Move::NULL, false),
            &pos,
            &h,
        );
        let moves: Vec<Move> = got.iter().map(|&(m, _)| m).collect();
        assert_eq!(&moves[..3], &[tt, capture, killer]);
        assert_eq!(moves.len(), pos.legal_moves().len());
    }
    #[test]
    fn continuation_history_orders_quiet_moves() {
        let pos = Position::startpos();
        let mut h = Heuristics::new();
        let rook = pos.parse_move("a0a1").expect("test move");
        let earlier = pos.parse_move("h2e2").expect("test move");
        let row = h.set_continuation(
            pos.piece_at(earlier.from()),
            earlier,
            pos.piece_at(rook.from()),
            rook,
            500,
        );
        let first_quiet = |cont| {
            let picker = MovePicker::new(Move::NULL, [Move::NULL; 2], Move::NULL, false);
            let quiet = QuietContext {
                cont,
                ..QuietContext::NONE
            };
            let got = drain(picker.with_context(quiet), &pos, &h);
            got.into_iter()
                .find(|&(m, _)| !pos.is_capture(m))
                .expect("a quiet move")
        };
        assert_eq!(first_quiet([row, NO_CONTINUATION]), (rook, 500));
        assert_eq!(first_quiet([NO_CONTINUATION, row]), (rook, 500));
        let (m, score) = first_quiet([NO_CONTINUATION; 2]);
        assert_eq!(score, 0, "{m}");
    }
}
