//! Static exchange evaluation: the material balance of the captures and
//! recaptures on one square, each side capturing with its least valuable
//! piece and free to stop. Attackers are recomputed after every capture, so
//! rooks behind rooks, cannons gaining or losing their screen and horses
//! whose leg clears are all seen. Pins are ignored.

use xiangqi::position::Position;
use xiangqi::types::EXCHANGE_VALUES;
use xiangqi::types::{Color, Move, Piece, PieceKind};

/// Exchange values by `Piece::index`: each piece's kind's, and 0 for an
/// empty square (whose `kind()` means nothing).
const PIECE_VALUES: [i32; 16] = {
    let mut values = [0; 16];
    let mut k = 0;
    while k < PieceKind::ALL.len() {
        let kind = PieceKind::ALL[k];
        values[Piece::new(Color::Red, kind).index()] = EXCHANGE_VALUES[kind.index()];
        values[Piece::new(Color::Black, kind).index()] = EXCHANGE_VALUES[kind.index()];
        k += 1;
    }
    values
};

/// The exchange value of `piece`, 0 for `Piece::NONE`: what taking it on
/// its square gains.
#[inline(always)]
pub fn exchange_value(piece: Piece) -> i32 {
    PIECE_VALUES[piece.index()]
}

/// Capture order, least valuable first.
const ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

/// Whether the exchange that `m` starts wins at least `threshold` for the
/// side to move.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let mut swap = exchange_value(pos.piece_at(to)) - threshold;
    if swap < 0 {
        return false;
    }
    let mover = pos.piece_at(from);
    if mover.kind() == PieceKind::King {
        // A legal king capture cannot be answered.
        return true;
    }
    swap = exchange_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    // The square `to` stays occupied (by whichever piece captured last).
    let mut occ = pos.occupied();
    occ.clear(from);
    occ.set(to);
    let mut stm = pos.side_to_move();
    let mut res = true;
    loop {
        stm = stm.flip();
        let attackers = pos.attackers_to(to, stm, occ);
        if attackers.is_empty() {
            break;
        }
        res = !res;
        let Some((kind, sq)) = ORDER
            .iter()
            .find_map(|&k| (attackers & pos.pieces(stm, k)).first().map(|sq| (k, sq)))
        else {
            break;
        };
        if kind == PieceKind::King {
            // The king may capture only if nothing can take it back.
            let mut after = occ;
            after.clear(sq);
            if pos.attackers_to(to, stm.flip(), after).any() {
                res = !res;
            }
            break;
        }
        swap = EXCHANGE_VALUES[kind.index()] - swap;
        if swap < res as i32 {
            break;
        }
        occ.clear(sq);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).expect("test FEN");
        let m = pos.parse_move(mv).expect("test move");
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn a_piece_is_worth_its_kind_and_an_empty_square_nothing() {
        assert_eq!(exchange_value(Piece::NONE), 0);
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                assert_eq!(
                    exchange_value(piece),
                    EXCHANGE_VALUES[kind.index()],
                    "{piece:?}"
                );
            }
        }
    }

    #[test]
    fn exchanges() {
        // Rook takes an unprotected horse: +100.
        let fen = "3k5/9/9/9/9/9/1n7/9/9/1R2K4 w - - 0 1";
        assert!(see(fen, "b0b3", 100));
        assert!(!see(fen, "b0b3", 101));
        // The horse guarded by a rook behind it: rook for horse loses 100.
        let fen = "1r1k5/9/9/9/9/9/1n7/9/9/1R2K4 w - - 0 1";
        assert!(see(fen, "b0b3", -100));
        assert!(!see(fen, "b0b3", -99));
        // A cannon recaptures only over a screen: with the screen gone it cannot.
        // No screen between the cannon on b8 and b3.
        let guarded = "3k5/1c7/9/9/9/9/1n7/9/9/1R2K4 w - - 0 1";
        assert!(see(guarded, "b0b3", 100));
        let screened = "3k5/1c7/9/9/1P7/9/1n7/9/9/1R2K4 w - - 0 1";
        assert!(!see(screened, "b0b3", 0));
        assert!(see(screened, "b0b3", -100));
        // A quiet move loses nothing when the square is safe, and loses the
        // piece when it is attacked.
        assert!(see("3k5/9/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "b0b5", 0));
        assert!(!see("3k5/9/9/9/9/9/2n6/9/9/1R2K4 w - - 0 1", "b0b5", 0));
        // It loses the rook's whole value, no more (an empty square gains nothing).
        assert!(see("3k5/9/9/9/9/9/2n6/9/9/1R2K4 w - - 0 1", "b0b5", -200));
        assert!(!see("3k5/9/9/9/9/9/2n6/9/9/1R2K4 w - - 0 1", "b0b5", -199));
    }
}
