//! The rules that end a game other than by having no move: repetition (with
//! perpetual check and perpetual chase), the natural move limit and
//! insufficient material; and `adjudicate`, the verdict on a game position.
//!
//! Both the search and the match runner use this module, so there is one
//! reading of the rules in the program. See docs/RULES.md.

use crate::bitboard::Bitboard;
use crate::movegen::NoMoves;
use crate::position::Position;
use crate::types::{Color, Move, PieceKind, EXCHANGE_VALUES};
use std::fmt;

/// Plies without a capture after which the game is drawn (60 moves, the
/// modern computer rule; ElephantEye and UCCILEAG use 100 plies).
pub const MOVE_LIMIT_PLIES: u32 = 120;

/// Occurrences of a position that end a game played out (the third
/// occurrence: the cycle has been played twice).
pub const GAME_REPETITIONS: usize = 3;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move is in check and has no legal move; it loses.
    Checkmate,
    /// The side to move has no legal move but is not in check; in xiangqi
    /// it loses all the same.
    Stalemate,
    /// A position repeated while one side alone gave check with every move
    /// of the cycle; that side loses.
    PerpetualCheck,
    /// A position repeated while one side alone chased a piece with every
    /// move of the cycle (see [`chases`]); that side loses.
    PerpetualChase,
    /// A position occurred [`GAME_REPETITIONS`] times with no side alone
    /// checking or chasing throughout: a draw.
    Repetition,
    /// The half-move clock reached the limit given to [`adjudicate`]
    /// (normally [`MOVE_LIMIT_PLIES`]): a draw.
    MoveLimit,
    /// Neither side has the material to mate (see
    /// [`insufficient_material`]): a draw.
    InsufficientMaterial,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::PerpetualCheck => "perpetual check",
            Termination::PerpetualChase => "perpetual chase",
            Termination::Repetition => "repetition",
            Termination::MoveLimit => "move limit",
            Termination::InsufficientMaterial => "insufficient material",
        })
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Color>,
    /// How the game ended.
    pub reason: Termination,
}

/// How a repetition cycle is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleVerdict {
    /// No side alone checked, or chased, throughout the cycle.
    Draw,
    /// This side checked (or chased) throughout the cycle and loses.
    Loses(Color, Termination),
}

/// Neither side can mate: no rook, horse or pawn on the board, and either no
/// cannon, or one cannon with nothing it could use as a screen (only the
/// kings besides it).
pub fn insufficient_material(pos: &Position) -> bool {
    let mut attackers = Bitboard::EMPTY;
    let mut cannons = Bitboard::EMPTY;
    for c in Color::ALL {
        attackers |= pos.pieces(c, PieceKind::Rook)
            | pos.pieces(c, PieceKind::Horse)
            | pos.pieces(c, PieceKind::Pawn);
        cannons |= pos.pieces(c, PieceKind::Cannon);
    }
    attackers.is_empty() && (cannons.is_empty() || pos.occupied().count() == 3)
}

/// The verdict on a game position reached by `make_move` from the game's
/// start (its history holds the moves and keys), or `None` while play goes
/// on. A position repeating for the `GAME_REPETITIONS`th time is judged over
/// the moves since its first occurrence.
pub fn adjudicate(pos: &Position, move_limit_plies: u32) -> Option<Verdict> {
    if let Some(kind) = pos.no_moves() {
        let reason = match kind {
            NoMoves::Checkmate => Termination::Checkmate,
            NoMoves::Stalemate => Termination::Stalemate,
        };
        return Some(Verdict {
            winner: Some(pos.side_to_move().flip()),
            reason,
        });
    }
    let occurrences: Vec<usize> = earlier_occurrences(pos).collect();
    if occurrences.len() + 1 >= GAME_REPETITIONS {
        let start = occurrences[GAME_REPETITIONS - 2];
        return Some(match judge_cycle(pos, start) {
            CycleVerdict::Loses(loser, reason) => Verdict {
                winner: Some(loser.flip()),
                reason,
            },
            CycleVerdict::Draw => Verdict {
                winner: None,
                reason: Termination::Repetition,
            },
        });
    }
    if pos.halfmove_clock() >= move_limit_plies {
        return Some(Verdict {
            winner: None,
            reason: Termination::MoveLimit,
        });
    }
    if insufficient_material(pos) {
        return Some(Verdict {
            winner: None,
            reason: Termination::InsufficientMaterial,
        });
    }
    None
}

/// History indices of the earlier occurrences of the current position (same
/// pieces, same side to move), most recent first. Captures are irreversible,
/// so only the plies since the last one are searched; a null move ends the
/// search too.
pub fn earlier_occurrences(pos: &Position) -> impl Iterator<Item = usize> + '_ {
    let history = pos.history();
    let n = history.len();
    let reach = (pos.halfmove_clock() as usize).min(n);
    let key = pos.key();
    (1..=reach / 2)
        .map(move |k| n - 2 * k)
        .take_while(move |&i| !history[i].mv.is_null() && !history[i + 1].mv.is_null())
        .filter(move |&i| history[i].key == key)
}

/// Judges the cycle of moves from history index `start` (where the current
/// position stood before) to now: a side that checked with every one of its
/// moves loses unless the other did too; failing that, a side that chased
/// the same piece with every move loses unless the other did too; anything
/// else is a draw.
pub fn judge_cycle(pos: &Position, start: usize) -> CycleVerdict {
    let mut p = pos.clone();
    let moves: Vec<Move> = pos.history()[start..].iter().map(|u| u.mv).collect();
    for _ in &moves {
        p.unmake_move();
    }
    let mut checks_all = [true; 2];
    // Pieces of the other side chased throughout, followed as they move.
    let mut chased = [Bitboard::FULL; 2];
    for &m in &moves {
        let mover = p.side_to_move();
        let new_chases = chases(&mut p, m);
        p.make_move(m);
        checks_all[mover.index()] &= p.in_check();
        let me = mover.index();
        chased[me] &= new_chases;
        // The moved piece, if chased by the other side, is followed.
        let other = &mut chased[1 - me];
        if other.has(m.from()) {
            other.clear(m.from());
            other.set(m.to());
        }
    }
    let [red_checks, black_checks] = checks_all;
    if red_checks != black_checks {
        let loser = if red_checks { Color::Red } else { Color::Black };
        return CycleVerdict::Loses(loser, Termination::PerpetualCheck);
    }
    if red_checks {
        return CycleVerdict::Draw;
    }
    let [red_chases, black_chases] = chased.map(|b| b.any());
    if red_chases != black_chases {
        let loser = if red_chases { Color::Red } else { Color::Black };
        return CycleVerdict::Loses(loser, Termination::PerpetualChase);
    }
    CycleVerdict::Draw
}

/// Plays `m` (legal) and returns the enemy pieces that the move newly chases:
/// pieces it newly threatens to capture with a legal capture, by a piece
/// other than a king or pawn (those chase freely), where the target is not a
/// king or an uncrossed pawn, the threat is not an offer to exchange like for
/// like, and the target is either worth more than the attacker or not truly
/// protected (no legal recapture).
pub fn chases(pos: &mut Position, m: Move) -> Bitboard {
    let mover = pos.side_to_move();
    let them = mover.flip();
    // Attackers of each enemy piece before the move.
    let before_occ = pos.occupied();
    let mut before = Vec::new();
    for t in pos.pieces_of(them) {
        before.push((t, pos.attackers_to(t, mover, before_occ)));
    }
    pos.make_move(m);
    let mut chased = Bitboard::EMPTY;
    let occ = pos.occupied();
    for (t, old) in before {
        let target = pos.piece_at(t);
        if target.is_none() || target.color() != them {
            continue; // captured by the move
        }
        let kind = target.kind();
        if kind == PieceKind::King
            || (kind == PieceKind::Pawn && crate::attacks::on_own_side(them, t))
        {
            continue;
        }
        let free_chasers = pos.pieces(mover, PieceKind::King) | pos.pieces(mover, PieceKind::Pawn);
        let attackers = pos.attackers_to(t, mover, occ) & !free_chasers;
        for a in attackers {
            let origin = if a == m.to() { m.from() } else { a };
            if old.has(origin) {
                continue; // not a new threat
            }
            let attacker = pos.piece_at(a).kind();
            if attacker == kind && pos.attackers_to(a, them, occ).has(t) {
                continue; // an offer to exchange like for like
            }
            if is_chase(
                pos,
                Move::new(a, t),
                EXCHANGE_VALUES[kind.index()] > EXCHANGE_VALUES[attacker.index()],
            ) {
                chased.set(t);
                break;
            }
        }
    }
    pos.unmake_move();
    chased
}

/// Whether the capture `cap` by the side that just moved (not to move in
/// `pos`) is a real threat: legal, and either `outranks` (the target is worth
/// more) or not answered by a legal recapture.
fn is_chase(pos: &mut Position, cap: Move, outranks: bool) -> bool {
    pos.make_null_move();
    let threat = pos.is_legal(cap) && {
        if outranks {
            true
        } else {
            pos.make_move(cap);
            let recapture = pos.legal_moves().iter().any(|r| r.to() == cap.to());
            pos.unmake_move();
            !recapture
        }
    };
    pos.unmake_move();
    threat
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).expect("test FEN");
        for text in moves.split_whitespace() {
            let m = pos.parse_move(text).expect("test move");
            pos.make_move(m);
        }
        pos
    }

    /// Repeats `cycle` (four moves) until the game ends; returns the verdict.
    fn repeat(fen: &str, cycle: &str) -> Verdict {
        let mut pos = play(fen, "");
        for _ in 0..10 {
            for text in cycle.split_whitespace() {
                let m = pos.parse_move(text).expect("cycle move");
                pos.make_move(m);
                if let Some(v) = adjudicate(&pos, MOVE_LIMIT_PLIES) {
                    return v;
                }
            }
        }
        panic!("no verdict after ten cycles of {cycle}");
    }

    #[test]
    fn plain_repetition_is_a_draw_at_the_third_occurrence() {
        let pos = play(crate::START_FEN, "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9");
        assert_eq!(earlier_occurrences(&pos).collect::<Vec<_>>(), vec![4, 0]);
        let v = adjudicate(&pos, MOVE_LIMIT_PLIES);
        assert_eq!(
            v,
            Some(Verdict {
                winner: None,
                reason: Termination::Repetition
            })
        );
        let before = play(crate::START_FEN, "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0");
        assert_eq!(adjudicate(&before, MOVE_LIMIT_PLIES), None);
    }

    #[test]
    fn perpetual_check_loses() {
        // Red's rook checks on the d and e files by turns while the black
        // king steps between d9 and e9.
        let v = repeat("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1", "e1d1 d9e9 d1e1 e9d9");
        assert_eq!(
            v,
            Verdict {
                winner: Some(Color::Black),
                reason: Termination::PerpetualCheck
            }
        );
    }

    #[test]
    fn perpetual_chase_of_an_unprotected_piece_loses() {
        // Red's rook attacks Black's lone horse on every move (from b0 the
        // horse on b3, from c0 the horse on c5); the horse attacks nothing.
        let v = repeat(
            "3k5/9/9/9/9/9/1n7/9/9/2R1K4 w - - 0 1",
            "c0b0 b3c5 b0c0 c5b3",
        );
        assert_eq!(
            v,
            Verdict {
                winner: Some(Color::Black),
                reason: Termination::PerpetualChase
            },
        );
    }

    #[test]
    fn what_is_not_a_chase() {
        let chased = |fen: &str, mv: &str| {
            let mut pos = play(fen, "");
            let m = pos.parse_move(mv).expect("test move");
            chases(&mut pos, m)
        };
        let sq = |s: &str| crate::Square::parse(s).expect("square");
        // The same attack on an unprotected horse is a chase...
        assert_eq!(
            chased("3k5/9/9/9/9/9/1n7/9/9/2R1K4 w - - 0 1", "c0b0"),
            Bitboard::from_square(sq("b3"))
        );
        // ...but not when a rook guards it (a rook is worth more than a horse).
        assert!(chased("1r1k5/9/9/9/9/9/1n7/9/9/2R1K4 w - - 0 1", "c0b0").is_empty());
        // A rook attacked by a horse is chased even when guarded.
        assert_eq!(
            chased("1r1k5/9/9/9/9/9/1r7/9/5N3/4K4 w - - 0 1", "f1d2"),
            Bitboard::from_square(sq("b3"))
        );
        // Offering to exchange rooks is no chase.
        assert!(chased("3k5/9/9/9/9/9/1r7/9/9/2R1K4 w - - 0 1", "c0b0").is_empty());
        // An uncrossed pawn cannot be chased; a crossed one can.
        assert!(chased("3k5/9/9/2p6/9/9/9/9/9/R3K4 w - - 0 1", "a0a6").is_empty());
        assert_eq!(
            chased("3k5/9/9/9/9/9/9/1p7/9/2R1K4 w - - 0 1", "c0c2"),
            Bitboard::from_square(sq("b2"))
        );
        // Kings and pawns chase freely.
        assert!(chased("3k5/9/9/2n6/9/2P6/9/9/9/4K4 w - - 0 1", "c4c5").is_empty());
    }

    #[test]
    fn repetition_inside_a_window_of_reversible_moves() {
        // A capture in between makes earlier positions unreachable.
        let pos = play(crate::START_FEN, "b0c2 b9c7 c2b0 c7b9");
        assert_eq!(earlier_occurrences(&pos).collect::<Vec<_>>(), vec![0]);
        let mut reset = pos.clone();
        reset.clear_history();
        assert_eq!(earlier_occurrences(&reset).count(), 0);
    }

    #[test]
    fn insufficient_material_cases() {
        let draw = [
            "3a1k3/9/9/9/9/9/9/9/9/3AKA3 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/9/4KC3 w - - 0 1",
        ];
        for fen in draw {
            assert!(insufficient_material(&play(fen, "")), "{fen}");
        }
        let play_on = [
            "3a1k3/9/9/9/9/9/9/9/9/4KC3 w - - 0 1",
            "3a1k3/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1",
            crate::START_FEN,
        ];
        for fen in play_on {
            assert!(!insufficient_material(&play(fen, "")), "{fen}");
        }
    }

    #[test]
    fn move_limit() {
        let fen = |halfmove: u32| format!("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - {halfmove} 80");
        let at = |h| adjudicate(&play(&fen(h), ""), MOVE_LIMIT_PLIES).map(|v| v.reason);
        assert_eq!(at(119), None);
        assert_eq!(at(120), Some(Termination::MoveLimit));
    }
}
