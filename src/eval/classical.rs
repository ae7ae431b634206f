//! The classical evaluation: static, tapered between middlegame and endgame
//! by the material left, from a linear sum of weighted features (so
//! `chariot tune` can fit the weights by logistic regression):
//!
//! - material and piece-square tables for every kind, kept incrementally in
//!   an `EvalState` on the search stack (updated from what each move
//!   changed), checked against a fresh sum in debug builds;
//! - mobility per kind;
//! - king safety: attacks on the palace, missing advisors and elephants
//!   against the enemy's rooks, horses and cannons, the empty-headed and the
//!   two-screen cannon on the king's lines, rook-cannon and horse-cannon
//!   batteries, pieces pinned between the two kings, pinned pieces;
//! - trapped pieces: blocked horse legs, cannons with nothing to capture;
//! - structure: rooks on open and half-open files, advisors and elephants
//!   guarding each other, crossed pawns side by side, defenders counted
//!   against attackers.
//!
//! Every feature is measured for each side from its own point of view with
//! files folded left to right, so the score is symmetric under swapping the
//! colours and under mirroring the board (a property test checks both).
//! Scores are from the side to move's point of view; 100 is about a horse.

use super::layout as at;
use super::params::WEIGHTS;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use xiangqi::attacks::{
    blocked_mask, line_attacks, on_own_side, ADVISOR_STEPS, DIAG_NEIGHBOURS, ELEPHANT_TARGETS,
    HORSE_TARGETS, KING_STEPS, ORTHO_NEIGHBOURS, PAWN_STEPS,
};
use xiangqi::bitboard::Bitboard;
use xiangqi::position::{MoveChange, Position};
use xiangqi::types::{Color, Piece, PieceKind, Square, FILES, RANKS, SQUARES};

/// A middlegame and an endgame value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

impl Score {
    pub const ZERO: Score = Score { mg: 0, eg: 0 };

    const fn plus(self, o: Score) -> Score {
        Score {
            mg: self.mg + o.mg,
            eg: self.eg + o.eg,
        }
    }

    fn times(self, n: i32) -> Score {
        Score {
            mg: self.mg * n,
            eg: self.eg * n,
        }
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        self.plus(o)
    }
}

impl Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        self + -o
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score {
            mg: -self.mg,
            eg: -self.eg,
        }
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        *self = *self + o;
    }
}

impl SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        *self = *self - o;
    }
}

/// Phase weight of rooks, horses and cannons; the full phase is all of them.
const PHASE_ROOK: i32 = 6;
const PHASE_MINOR: i32 = 3;
pub const PHASE_MAX: i32 = 2 * (2 * PHASE_ROOK + 4 * PHASE_MINOR);

/// Index of a square in a piece-square table: rank from the owner's side,
/// file folded onto a–e.
pub const fn pst_index(color: Color, sq: Square) -> usize {
    let rank = match color {
        Color::Red => sq.rank(),
        Color::Black => RANKS - 1 - sq.rank(),
    };
    let file = sq.file();
    let folded = if file < FILES / 2 {
        file
    } else {
        FILES - 1 - file
    };
    rank * 5 + folded
}

const fn build_psq() -> [[Score; SQUARES]; 16] {
    let mut t = [[Score::ZERO; SQUARES]; 16];
    let colors = [Color::Red, Color::Black];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let piece = Piece::new(colors[c], PieceKind::ALL[k]);
            let mut i = 0;
            while i < SQUARES {
                let sq = Square::new(i % FILES, i / FILES);
                let pst = WEIGHTS[at::PST + k * at::PST_SQUARES + pst_index(colors[c], sq)];
                t[piece.index()][i] = WEIGHTS[at::MATERIAL + k].plus(pst);
                i += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// Material plus piece-square value of each piece on each square, for its owner.
static PSQ: [[Score; SQUARES]; 16] = build_psq();

/// The material and piece-square value of `piece` on `sq` (for its owner).
#[inline(always)]
pub fn psq(piece: Piece, sq: Square) -> Score {
    PSQ[piece.index()][sq.index()]
}

/// Where the features of a position go: summed with the weights (`Sum`) for
/// play, or recorded as coefficients (`Trace`) for tuning.
pub trait Sink {
    /// Feature `param` counted `n` times for `color`.
    fn add(&mut self, param: usize, color: Color, n: i32);
}

/// Sums weights per colour.
#[derive(Default)]
struct Sum {
    score: [Score; 2],
}

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, param: usize, color: Color, n: i32) {
        self.score[color.index()] += WEIGHTS[param].times(n);
    }
}

/// The net coefficient (Red minus Black) of every weight in a position, and
/// its phase: the evaluation is `taper(Σ weight × coefficient)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    pub coefficients: Vec<(u16, i16)>,
    pub phase: i32,
}

impl Sink for Trace {
    fn add(&mut self, param: usize, color: Color, n: i32) {
        let n = if color == Color::Red { n } else { -n };
        match self
            .coefficients
            .iter_mut()
            .find(|(p, _)| *p as usize == param)
        {
            Some((_, c)) => *c += n as i16,
            None => self.coefficients.push((param as u16, n as i16)),
        }
    }
}

/// Blends middlegame and endgame by phase.
pub fn taper(s: Score, phase: i32) -> i32 {
    (s.mg * phase + s.eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The game phase: `PHASE_MAX` with every rook, horse and cannon on the
/// board, 0 with none.
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for c in Color::ALL {
        p += PHASE_ROOK * pos.pieces(c, PieceKind::Rook).count() as i32;
        p += PHASE_MINOR
            * (pos.pieces(c, PieceKind::Horse) | pos.pieces(c, PieceKind::Cannon)).count() as i32;
    }
    p.min(PHASE_MAX)
}

/// The evaluator's incremental state for one position: the material and
/// piece-square sum of each side. A search keeps one per ply: a child's is
/// its parent's, updated with what the move changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalState {
    psq: [Score; 2],
}

impl EvalState {
    /// The state of `pos`, computed afresh.
    pub fn new(pos: &Position) -> EvalState {
        EvalState {
            psq: [
                psq_from_scratch(pos, Color::Red),
                psq_from_scratch(pos, Color::Black),
            ],
        }
    }

    /// Updates the state with what a move changed (`Position::last_change`).
    #[inline(always)]
    pub fn apply(&mut self, c: &MoveChange) {
        let side = &mut self.psq[c.piece.color().index()];
        *side += psq(c.piece, c.to) - psq(c.piece, c.from);
        if c.captured.is_some() {
            self.psq[c.captured.color().index()] -= psq(c.captured, c.to);
        }
    }

    /// Material and piece-square sum of one side.
    pub fn psq(&self, color: Color) -> Score {
        self.psq[color.index()]
    }
}

/// Evaluation for the side to move, from scratch (outside a search).
pub fn evaluate_fresh(pos: &Position) -> i32 {
    evaluate(pos, &EvalState::new(pos))
}

/// How much the evaluation knows (UCCI's `knowledge` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Knowledge {
    /// Material alone (and the tempo).
    Material,
    /// Material and piece-square tables: where each piece stands, not how
    /// the pieces work together.
    PieceSquare,
    /// Everything: the network when one is loaded, else every feature.
    #[default]
    Full,
}

/// Evaluation for the side to move, given the position's incremental state.
pub fn evaluate(pos: &Position, state: &EvalState) -> i32 {
    let mut sum = Sum::default();
    features(pos, &mut sum);
    debug_assert_eq!(*state, EvalState::new(pos), "stale evaluation state");
    let red = state.psq(Color::Red) + sum.score[0];
    let black = state.psq(Color::Black) + sum.score[1];
    relative_tapered(pos, red, black)
}

/// Evaluation for the side to move that knows only as much as `knowledge`
/// (the classical evaluation whatever network is loaded, for `Full`).
pub fn evaluate_knowing(pos: &Position, state: &EvalState, knowledge: Knowledge) -> i32 {
    match knowledge {
        Knowledge::Full => evaluate(pos, state),
        Knowledge::PieceSquare => {
            relative_tapered(pos, state.psq(Color::Red), state.psq(Color::Black))
        }
        Knowledge::Material => {
            let material = |c: Color| {
                PieceKind::ALL.iter().fold(Score::ZERO, |s, &k| {
                    s + WEIGHTS[at::MATERIAL + k.index()].times(pos.pieces(c, k).count() as i32)
                })
            };
            relative_tapered(pos, material(Color::Red), material(Color::Black))
        }
    }
}

/// Red's and Black's sums as a tapered score for the side to move, with
/// the tempo.
fn relative_tapered(pos: &Position, red: Score, black: Score) -> i32 {
    let relative = if pos.side_to_move() == Color::Red {
        red - black
    } else {
        black - red
    };
    taper(relative + WEIGHTS[at::TEMPO], phase(pos))
}

/// The features of a position, material and piece-square terms included,
/// for tuning (tempo is counted for the side to move).
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace {
        coefficients: Vec::with_capacity(64),
        phase: phase(pos),
    };
    for sq in Square::all() {
        let p = pos.piece_at(sq);
        if p.is_some() {
            let k = p.kind().index();
            t.add(at::MATERIAL + k, p.color(), 1);
            t.add(
                at::PST + k * at::PST_SQUARES + pst_index(p.color(), sq),
                p.color(),
                1,
            );
        }
    }
    features(pos, &mut t);
    t.add(at::TEMPO, pos.side_to_move(), 1);
    t.coefficients.retain(|&(_, c)| c != 0);
    t
}

/// Material and piece-square sum of one side, computed afresh.
pub fn psq_from_scratch(pos: &Position, color: Color) -> Score {
    let mut s = Score::ZERO;
    for sq in pos.pieces_of(color) {
        s += psq(pos.piece_at(sq), sq);
    }
    s
}

const fn palace(color: Color) -> Bitboard {
    let mut b = 0u128;
    let mut i = 0;
    while i < SQUARES {
        if xiangqi::attacks::in_own_palace(color, Square::new(i % FILES, i / FILES)) {
            b |= 1 << i;
        }
        i += 1;
    }
    Bitboard(b)
}

/// Squares of each side's palace.
const PALACES: [Bitboard; 2] = [palace(Color::Red), palace(Color::Black)];

/// The two pieces of a pair, if exactly two are left.
fn pair(b: Bitboard) -> Option<(Square, Square)> {
    let mut it = b;
    match (it.next(), it.next(), it.next()) {
        (Some(a), Some(b), None) => Some((a, b)),
        _ => None,
    }
}

/// Bits strictly between positions `lo` and `hi` of a line.
const fn strictly_between(lo: usize, hi: usize) -> usize {
    ((1 << hi) - 1) & !((1 << (lo + 1)) - 1)
}

/// Pieces strictly between two squares on one file or rank.
fn between_count(pos: &Position, a: Square, b: Square) -> Option<u32> {
    let (line, lo, hi) = if a.file() == b.file() {
        (
            pos.file_occupancy(a.file()),
            a.rank().min(b.rank()),
            a.rank().max(b.rank()),
        )
    } else if a.rank() == b.rank() {
        (
            pos.occupied().rank_bits(a.rank()),
            a.file().min(b.file()),
            a.file().max(b.file()),
        )
    } else {
        return None;
    };
    Some((line & strictly_between(lo, hi)).count_ones())
}

/// Every feature except material and piece-square values, for both sides.
fn features(pos: &Position, sink: &mut impl Sink) {
    let occ = pos.occupied();
    let palaces = PALACES;
    let pawns_all =
        pos.pieces(Color::Red, PieceKind::Pawn) | pos.pieces(Color::Black, PieceKind::Pawn);
    for us in Color::ALL {
        let them = us.flip();
        let own = pos.pieces_of(us);
        let enemy_palace = palaces[them.index()];
        let count = |c: Color, k: PieceKind| pos.pieces(c, k).count() as i32;

        // Mobility and attacks on the enemy palace, piece by piece.
        for kind in PieceKind::ALL {
            for sq in pos.pieces(us, kind) {
                let i = sq.index();
                let targets = match kind {
                    PieceKind::King => Bitboard(KING_STEPS[i]),
                    PieceKind::Advisor => Bitboard(ADVISOR_STEPS[i]),
                    PieceKind::Elephant => {
                        Bitboard(ELEPHANT_TARGETS[i][blocked_mask(&DIAG_NEIGHBOURS, sq, occ)])
                    }
                    PieceKind::Horse => {
                        let legs = blocked_mask(&ORTHO_NEIGHBOURS, sq, occ);
                        sink.add(at::HORSE_BLOCKED, us, legs.count_ones() as i32);
                        Bitboard(HORSE_TARGETS[i][legs])
                    }
                    PieceKind::Rook => {
                        let (reach, _) = line_attacks(
                            sq,
                            occ.rank_bits(sq.rank()),
                            pos.file_occupancy(sq.file()),
                        );
                        let file_pawns = pawns_all & xiangqi::attacks::file_mask(sq.file());
                        if file_pawns.is_empty() {
                            sink.add(at::ROOK_OPEN_FILE, us, 1);
                        } else if (file_pawns & own).is_empty() {
                            sink.add(at::ROOK_HALF_OPEN_FILE, us, 1);
                        }
                        reach
                    }
                    PieceKind::Cannon => {
                        let (reach, caps) = line_attacks(
                            sq,
                            occ.rank_bits(sq.rank()),
                            pos.file_occupancy(sq.file()),
                        );
                        if caps.is_empty() {
                            sink.add(at::CANNON_NO_TARGET, us, 1);
                        }
                        (reach & !occ) | caps
                    }
                    PieceKind::Pawn => Bitboard(PAWN_STEPS[us.index()][i]),
                };
                let targets = targets & !own;
                sink.add(at::MOBILITY + kind.index(), us, targets.count() as i32);
                sink.add(
                    at::PALACE_ATTACK + kind.index(),
                    us,
                    (targets & enemy_palace).count() as i32,
                );
            }
        }

        // King safety: our king against their pieces.
        let attackers = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon];
        let advisors = count(us, PieceKind::Advisor);
        let elephants = count(us, PieceKind::Elephant);
        for (j, &k) in attackers.iter().enumerate() {
            let n = count(them, k);
            sink.add(at::MISSING_ADVISOR + j, us, (2 - advisors).max(0) * n);
            sink.add(at::MISSING_ELEPHANT + j, us, (2 - elephants).max(0) * n);
        }
        let enemy_big = attackers.iter().map(|&k| count(them, k)).sum::<i32>();
        sink.add(
            at::DEFENDERS_VS_ATTACKERS,
            us,
            (advisors + elephants) * enemy_big,
        );

        let ksq = pos.king_square(us);
        let horse_in_palace = Iterator::any(&mut pos.pieces(them, PieceKind::Horse), |h| {
            let legs = blocked_mask(&ORTHO_NEIGHBOURS, h, occ);
            (Bitboard(HORSE_TARGETS[h.index()][legs]) & palaces[us.index()]).any()
        });
        let mut cannon_aimed = false;
        for c in pos.pieces(them, PieceKind::Cannon) {
            match between_count(pos, c, ksq) {
                Some(0) => sink.add(at::EMPTY_CANNON, us, 1),
                Some(2) => sink.add(at::CANNON_TWO_SCREENS, us, 1),
                _ => {}
            }
            if c.file() == ksq.file() || c.rank() == ksq.rank() {
                cannon_aimed = true;
                // A rook behind the cannon, on the same line, further from the king.
                if c.file() == ksq.file() {
                    let behind = Iterator::any(&mut pos.pieces(them, PieceKind::Rook), |r| {
                        r.file() == c.file()
                            && (r.rank() > c.rank()) == (c.rank() > ksq.rank())
                            && between_count(pos, r, c) == Some(0)
                    });
                    if behind {
                        sink.add(at::ROOK_CANNON_BATTERY, us, 1);
                    }
                }
            }
        }
        if cannon_aimed && horse_in_palace {
            sink.add(at::HORSE_CANNON, us, 1);
        }
        let their_king = pos.king_square(them);
        if their_king.file() == ksq.file() && between_count(pos, ksq, their_king) == Some(1) {
            // The lone piece between the kings: pinned if it is ours.
            let (lo, hi) = (
                ksq.rank().min(their_king.rank()),
                ksq.rank().max(their_king.rank()),
            );
            let ours = (own.file_bits(ksq.file()) & strictly_between(lo, hi)).count_ones();
            sink.add(at::FACING_KINGS, us, ours as i32);
        }
        sink.add(at::PINNED, us, pos.pinned(us).count() as i32);

        // Structure.
        if let Some((a, b)) = pair(pos.pieces(us, PieceKind::Advisor)) {
            if Bitboard(ADVISOR_STEPS[a.index()]).has(b) {
                sink.add(at::CONNECTED_ADVISORS, us, 1);
            }
        }
        if let Some((a, b)) = pair(pos.pieces(us, PieceKind::Elephant)) {
            let eyes = blocked_mask(&DIAG_NEIGHBOURS, a, occ);
            if Bitboard(ELEPHANT_TARGETS[a.index()][eyes]).has(b) {
                sink.add(at::CONNECTED_ELEPHANTS, us, 1);
            }
        }
        let crossed: Bitboard = pos
            .pieces(us, PieceKind::Pawn)
            .filter(|&p| !on_own_side(us, p))
            .fold(Bitboard::EMPTY, |b, p| b | Bitboard::from_square(p));
        let pairs = crossed
            .filter(|&p| p.file() + 1 < FILES && crossed.has(Square::new(p.file() + 1, p.rank())))
            .count() as i32;
        sink.add(at::PAWNS_SIDE_BY_SIDE, us, pairs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_but_for_the_tempo() {
        let pos = Position::startpos();
        let tempo = taper(WEIGHTS[at::TEMPO], phase(&pos));
        assert_eq!(evaluate_fresh(&pos), tempo);
        assert_eq!(phase(&pos), PHASE_MAX);
    }

    #[test]
    fn lighter_knowledge_sees_material_then_placement() {
        let eval = |fen: &str, k: Knowledge| {
            let pos = Position::from_fen(fen).expect("test FEN");
            evaluate_knowing(&pos, &EvalState::new(&pos), k)
        };
        let start = Position::startpos();
        let tempo = taper(WEIGHTS[at::TEMPO], phase(&start));
        for k in [Knowledge::Material, Knowledge::PieceSquare, Knowledge::Full] {
            assert_eq!(eval(xiangqi::START_FEN, k), tempo, "{k:?}");
        }
        // Red without a rook, Black to move: material alone is that rook.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 b - - 0 1";
        let pos = Position::from_fen(fen).expect("test FEN");
        let rook = WEIGHTS[at::MATERIAL + PieceKind::Rook.index()];
        let expected = taper(rook + WEIGHTS[at::TEMPO], phase(&pos));
        assert_eq!(eval(fen, Knowledge::Material), expected);
        // Both horses developed: the same material, a different placement,
        // and the features on top.
        let fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let (material, psq, full) = (
            eval(fen, Knowledge::Material),
            eval(fen, Knowledge::PieceSquare),
            eval(fen, Knowledge::Full),
        );
        assert_eq!(material, tempo);
        assert_ne!(psq, material);
        assert_ne!(full, psq);
        assert_eq!(
            full,
            evaluate_fresh(&Position::from_fen(fen).expect("test FEN"))
        );
    }

    #[test]
    fn trace_reproduces_the_evaluation() {
        for fen in crate::bench::POSITIONS {
            let pos = Position::from_fen(fen).expect("bench FEN");
            let t = trace(&pos);
            let mut s = Score::ZERO;
            for &(p, c) in &t.coefficients {
                s += WEIGHTS[p as usize].times(c as i32);
            }
            let red = taper(s, t.phase);
            let stm = if pos.side_to_move() == Color::Red {
                red
            } else {
                -red
            };
            // Taper rounds once per side in `evaluate` and once here.
            assert!(
                (stm - evaluate_fresh(&pos)).abs() <= 1,
                "{fen}: {stm} vs {}",
                evaluate_fresh(&pos)
            );
        }
    }

    #[test]
    fn more_material_scores_higher() {
        let with_rook = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").expect("fen");
        let without = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").expect("fen");
        assert!(evaluate_fresh(&with_rook) > evaluate_fresh(&without) + 150);
    }
}
