//! Correction history: what the search has learnt of the static
//! evaluation's errors, by the side to move and by parts of the position
//! (its pawns, its horses and cannons, and each side's pieces other than
//! pawns, king included), and by the moves that led to it (the last move,
//! the opponent's, after the side to move's own move before it, two plies
//! before the node, and the one before that, four), as the Stockfish
//! family keeps it. Where a node's search ends above its static
//! evaluation with a best move, or below it without one (unless the best
//! move is a capture), the tables of the parts and moves it shows learn
//! the difference, each by its own share, and the nodes that share a part
//! or a pair of moves start from an evaluation corrected by what those
//! entries say.
//!
//! Two earlier designs, judged at 40,000 nodes a move, lost
//! (docs/history/search.md): a table keyed by the pawns alone, which in
//! xiangqi barely move, so that one entry served a whole search as a bias;
//! and one by the pawns and by the defenders. Here most of the weight is
//! on each side's pieces other than pawns, whose keys change with almost
//! every move.

use super::history::{move_key, update_i16, MOVE_KEYS, NO_CONTINUATION};
use super::params::{corr_cont_weight, corr_minor_weight, corr_non_pawn_weight, corr_pawn_weight};
use xiangqi::position::{MoveChange, Position};
use xiangqi::types::{Color, Move, Piece, PieceKind, Square};
use xiangqi::zobrist::piece_key;

/// Entries of each table, for each side to move (a power of two).
const ENTRIES: usize = 1 << 14;

/// The tables: pawns, horses and cannons, Red's pieces other than pawns,
/// Black's.
const TABLES: usize = 4;

/// Entries stay within +-LIMIT.
const LIMIT: i32 = 1024;

/// The weighted sum of the entries is divided by this: a weight `w` gives
/// `w / 128` centipawns at a full entry (+-LIMIT).
const SCALE: i32 = 131_072;

/// Each table's share of a node's lesson, in 128ths, as Stockfish's: the
/// pawns', the horses' and cannons', each side's other pieces'.
const LEARN_SHARE: [i32; TABLES] = [128, 153, 165, 165];

/// The continuation tables' shares of a lesson, in 128ths: after the side
/// to move's move two plies before the node, four plies before.
const CONTINUATION_SHARE: [i32; 2] = [137, 64];

/// The keys of the parts of a position that the tables are indexed by,
/// from the pieces' Zobrist keys; kept along the search's line move by
/// move (`after`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionKeys {
    /// Both sides' pawns; both sides' horses and cannons; each side's
    /// pieces other than pawns (by `Color::index`).
    keys: [u64; TABLES],
}

impl CorrectionKeys {
    /// The keys of `pos`, from scratch.
    pub fn of(pos: &Position) -> CorrectionKeys {
        let mut k = CorrectionKeys::default();
        for color in Color::ALL {
            for sq in pos.pieces_of(color) {
                k.toggle(pos.piece_at(sq), sq);
            }
        }
        k
    }

    /// The keys after the move that `change` describes.
    pub fn after(mut self, change: &MoveChange) -> CorrectionKeys {
        self.toggle(change.piece, change.from);
        self.toggle(change.piece, change.to);
        if change.captured.is_some() {
            self.toggle(change.captured, change.to);
        }
        self
    }

    /// The key of both sides' pawns (the pawn history's too).
    pub fn pawns(&self) -> u64 {
        self.keys[0]
    }

    /// Adds `piece` on `sq` to the keys of the parts it belongs to, or
    /// takes it out of them.
    fn toggle(&mut self, piece: Piece, sq: Square) {
        let z = piece_key(piece, sq);
        match piece.kind() {
            PieceKind::Pawn => self.keys[0] ^= z,
            kind => {
                if matches!(kind, PieceKind::Horse | PieceKind::Cannon) {
                    self.keys[1] ^= z;
                }
                self.keys[2 + piece.color().index()] ^= z;
            }
        }
    }
}

/// The moves that led to a node, as its continuation correction is kept
/// by: the last move (the column), and the side to move's own moves two
/// and four plies before the node (the rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionLine {
    column: usize,
    rows: [usize; 2],
}

impl CorrectionLine {
    /// The line of the `last` move (and the piece that made it) after the
    /// moves two and four plies before the node, where there were any (the
    /// row of none, `NO_CONTINUATION`, never learns, so it adds nothing).
    pub fn new(
        last: (Piece, Move),
        two: Option<(Piece, Move)>,
        four: Option<(Piece, Move)>,
    ) -> CorrectionLine {
        let key = |(piece, m): (Piece, Move)| move_key(piece, m);
        let row = |m: Option<(Piece, Move)>| m.map_or(NO_CONTINUATION, key);
        CorrectionLine {
            column: key(last),
            rows: [row(two), row(four)],
        }
    }
}

/// The correction tables of one search thread, kept between the moves of
/// a game.
pub struct CorrectionHistory {
    /// By table, key and side to move (`index`): both sides' entries of a
    /// key share a cache line, as the parts' keys outlast a ply.
    entries: Vec<i16>,
    /// `MOVE_KEYS + 1` rows of `MOVE_KEYS`: an earlier move's row, then
    /// the last move's column (the pieces' colours tell the side to move).
    continuation: Vec<i16>,
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            entries: vec![0; 2 * TABLES * ENTRIES],
            continuation: vec![0; (MOVE_KEYS + 1) * MOVE_KEYS],
        }
    }

    /// The entries' places for `side` to move in a position of `keys`.
    fn index(side: Color, keys: &CorrectionKeys) -> [usize; TABLES] {
        std::array::from_fn(|t| {
            (t * ENTRIES + (keys.keys[t] as usize & (ENTRIES - 1))) * 2 + side.index()
        })
    }

    /// What the static evaluation of a position of `keys`, `side` to move,
    /// reached by `line` (`None`: at the root, or after a null move), is to
    /// be corrected by (centipawns, the side to move's view).
    pub fn correction(
        &self,
        side: Color,
        keys: &CorrectionKeys,
        line: Option<&CorrectionLine>,
    ) -> i32 {
        let [pawn, minor, red, black] = Self::index(side, keys).map(|i| i32::from(self.entries[i]));
        let moves = line.map_or(0, |line| {
            line.rows
                .iter()
                .map(|row| i32::from(self.continuation[row * MOVE_KEYS + line.column]))
                .sum()
        });
        (corr_pawn_weight() * pawn
            + corr_minor_weight() * minor
            + corr_non_pawn_weight() * (red + black)
            + corr_cont_weight() * moves)
            / SCALE
    }

    /// Teaches the entries of a position of `keys`, `side` to move, reached
    /// by `line`, that its evaluation erred by `bonus` (within +-LIMIT / 4;
    /// positive: the search found more than the evaluation said), each
    /// table its share.
    pub fn learn(
        &mut self,
        side: Color,
        keys: &CorrectionKeys,
        line: Option<&CorrectionLine>,
        bonus: i32,
    ) {
        let bonus = bonus.clamp(-LIMIT / 4, LIMIT / 4);
        for (i, share) in Self::index(side, keys).into_iter().zip(LEARN_SHARE) {
            update_i16(&mut self.entries[i], bonus * share / 128, LIMIT);
        }
        if let Some(line) = line {
            for (row, share) in line.rows.into_iter().zip(CONTINUATION_SHARE) {
                if row != NO_CONTINUATION {
                    let i = row * MOVE_KEYS + line.column;
                    update_i16(&mut self.continuation[i], bonus * share / 128, LIMIT);
                }
            }
        }
    }
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn keys_kept_move_by_move_equal_the_keys_from_scratch() {
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            let mut keys = CorrectionKeys::of(&pos);
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.random_range(0..moves.len())]);
                let change = pos.last_change().expect("a move, not a null move");
                keys = keys.after(&change);
                assert_eq!(keys, CorrectionKeys::of(&pos), "{}", pos.to_fen());
            }
        }
    }

    #[test]
    fn parts_have_their_own_keys() {
        // A pawn's step moves the pawn key alone; a horse's the minor
        // pieces' and its side's; a rook's its side's alone.
        let pos = Position::startpos();
        let before = CorrectionKeys::of(&pos);
        let changed = |uci: &str| {
            let mut p = pos.clone();
            p.make_move(p.parse_move(uci).expect("test move"));
            let after = CorrectionKeys::of(&p);
            std::array::from_fn::<bool, TABLES, _>(|t| after.keys[t] != before.keys[t])
        };
        assert_eq!(changed("c3c4"), [true, false, false, false]);
        assert_eq!(changed("b0c2"), [false, true, true, false]);
        assert_eq!(changed("a0a1"), [false, false, true, false]);
    }

    #[test]
    fn learnt_errors_correct_the_same_side_in_positions_sharing_a_part() {
        let mut c = CorrectionHistory::new();
        let pos = Position::startpos();
        let keys = CorrectionKeys::of(&pos);
        assert_eq!(c.correction(Color::Red, &keys, None), 0);
        for _ in 0..50 {
            c.learn(Color::Red, &keys, None, 10_000);
        }
        // Every entry near its limit; the bonus was clamped to LIMIT / 4.
        let full = c.correction(Color::Red, &keys, None);
        let most =
            (corr_pawn_weight() + corr_minor_weight() + 2 * corr_non_pawn_weight()) * LIMIT / SCALE;
        assert!(full > most * 9 / 10 && full <= most, "{full} of {most}");
        assert_eq!(c.correction(Color::Black, &keys, None), 0, "the other side");
        // A pawn moved: the other parts still correct.
        let mut p = pos.clone();
        p.make_move(p.parse_move("c3c4").expect("test move"));
        let part = c.correction(Color::Red, &CorrectionKeys::of(&p), None);
        assert!(part > 0 && part < full, "{part}");
        // Errors the other way bring it back.
        for _ in 0..50 {
            c.learn(Color::Red, &keys, None, -10_000);
        }
        assert!(c.correction(Color::Red, &keys, None) < 0);
    }

    #[test]
    fn learnt_errors_correct_positions_reached_by_the_same_moves() {
        // After 1. h2e2 h9g7 2. h0g2: Black to move, the last move Red's
        // horse to g2, Black's own horse to g7 two plies before the node.
        let mut c = CorrectionHistory::new();
        let mut pos = Position::startpos();
        let mut played = Vec::new();
        for uci in ["h2e2", "h9g7", "h0g2"] {
            let m = pos.parse_move(uci).expect("test move");
            played.push((pos.piece_at(m.from()), m));
            pos.make_move(m);
        }
        let line = CorrectionLine::new(played[2], Some(played[1]), None);
        let keys = CorrectionKeys::of(&pos);
        for _ in 0..50 {
            c.learn(Color::Black, &keys, Some(&line), -10_000);
        }
        let with_line = c.correction(Color::Black, &keys, Some(&line));
        let parts = c.correction(Color::Black, &keys, None);
        assert!(parts < 0 && with_line < parts, "{with_line} {parts}");
        // The same two moves, the parts' keys of another position (every
        // part differs): the moves' entry alone corrects.
        let mut elsewhere = Position::startpos();
        elsewhere.make_move(elsewhere.parse_move("c3c4").expect("test move"));
        let other = CorrectionKeys::of(&elsewhere);
        let moves_only = c.correction(Color::Black, &other, Some(&line));
        let most = corr_cont_weight() * LIMIT / SCALE;
        assert!(
            moves_only < -most / 2 && moves_only >= -most,
            "{moves_only} of {most}"
        );
        assert_eq!(c.correction(Color::Black, &other, None), 0);
        // Another last move: no entry of the line's.
        let (horse, _) = played[2];
        let another = CorrectionLine::new(
            (horse, Move::new(Square::new(7, 0), Square::new(0, 0))),
            Some(played[1]),
            None,
        );
        assert_eq!(c.correction(Color::Black, &other, Some(&another)), 0);
        // The row of no earlier move never learns.
        let alone = CorrectionLine::new(played[2], None, None);
        for _ in 0..50 {
            c.learn(Color::Black, &other, Some(&alone), 10_000);
        }
        assert!(c.continuation[NO_CONTINUATION * MOVE_KEYS..]
            .iter()
            .all(|&e| e == 0));
    }
}
