//! Helpers shared by the integration tests: a slow, obviously correct rules
//! reference written straight from docs/RULES.md (no tables, no bitboards),
//! and random positions. The engine's tests use them too.
#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::Rng;
use xiangqi::{Color, Move, Piece, PieceKind, Position, Square};

/// A plain 9×10 grid copied from a position.
#[derive(Clone)]
pub struct Grid {
    cells: [[Option<(Color, PieceKind)>; 10]; 9],
}

impl Grid {
    pub fn from_position(pos: &Position) -> Grid {
        let mut cells = [[None; 10]; 9];
        for sq in Square::all() {
            let p = pos.piece_at(sq);
            if p.is_some() {
                cells[sq.file()][sq.rank()] = Some((p.color(), p.kind()));
            }
        }
        Grid { cells }
    }

    fn at(&self, f: i32, r: i32) -> Option<(Color, PieceKind)> {
        self.cells[f as usize][r as usize]
    }

    fn in_palace(color: Color, f: i32, r: i32) -> bool {
        (3..=5).contains(&f)
            && match color {
                Color::Red => (0..=2).contains(&r),
                Color::Black => (7..=9).contains(&r),
            }
    }

    fn own_side(color: Color, r: i32) -> bool {
        match color {
            Color::Red => r <= 4,
            Color::Black => r >= 5,
        }
    }

    /// Pieces strictly between two squares on one line.
    fn between(&self, (f1, r1): (i32, i32), (f2, r2): (i32, i32)) -> usize {
        let (df, dr) = ((f2 - f1).signum(), (r2 - r1).signum());
        let (mut f, mut r) = (f1 + df, r1 + dr);
        let mut n = 0;
        while (f, r) != (f2, r2) {
            n += self.at(f, r).is_some() as usize;
            f += df;
            r += dr;
        }
        n
    }

    /// Whether the piece on `from` may move to `to` by its own rules,
    /// ignoring whether its king is then safe.
    pub fn can_move(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        let Some((color, kind)) = self.at(from.0, from.1) else {
            return false;
        };
        if from == to {
            return false;
        }
        let target = self.at(to.0, to.1);
        if matches!(target, Some((c, _)) if c == color) {
            return false;
        }
        let (df, dr) = (to.0 - from.0, to.1 - from.1);
        let (adf, adr) = (df.abs(), dr.abs());
        match kind {
            PieceKind::King => adf + adr == 1 && Grid::in_palace(color, to.0, to.1),
            PieceKind::Advisor => adf == 1 && adr == 1 && Grid::in_palace(color, to.0, to.1),
            PieceKind::Elephant => {
                adf == 2
                    && adr == 2
                    && self.at(from.0 + df / 2, from.1 + dr / 2).is_none()
                    && Grid::own_side(color, to.1)
            }
            PieceKind::Horse => {
                let leg = if adf == 2 && adr == 1 {
                    (from.0 + df / 2, from.1)
                } else if adf == 1 && adr == 2 {
                    (from.0, from.1 + dr / 2)
                } else {
                    return false;
                };
                self.at(leg.0, leg.1).is_none()
            }
            PieceKind::Rook => (df == 0 || dr == 0) && self.between(from, to) == 0,
            PieceKind::Cannon => {
                (df == 0 || dr == 0)
                    && self.between(from, to) == if target.is_some() { 1 } else { 0 }
            }
            PieceKind::Pawn => {
                let fwd = if color == Color::Red { 1 } else { -1 };
                let crossed = !Grid::own_side(color, from.1);
                (df == 0 && dr == fwd) || (crossed && dr == 0 && adf == 1)
            }
        }
    }

    fn king(&self, color: Color) -> (i32, i32) {
        for f in 0..9 {
            for r in 0..10 {
                if self.at(f, r) == Some((color, PieceKind::King)) {
                    return (f, r);
                }
            }
        }
        panic!("no {color:?} king");
    }

    /// Whether `color`'s king can be taken: some enemy piece can move onto it,
    /// or the two kings see each other along an open file.
    pub fn king_attacked(&self, color: Color) -> bool {
        let k = self.king(color);
        let ek = self.king(color.flip());
        if k.0 == ek.0 && self.between(k, ek) == 0 {
            return true;
        }
        for f in 0..9 {
            for r in 0..10 {
                if matches!(self.at(f, r), Some((c, _)) if c != color) && self.can_move((f, r), k) {
                    return true;
                }
            }
        }
        false
    }

    /// The grid after moving whatever stands on `from` to `to`.
    pub fn after(&self, from: (i32, i32), to: (i32, i32)) -> Grid {
        let mut g = self.clone();
        g.cells[to.0 as usize][to.1 as usize] = g.cells[from.0 as usize][from.1 as usize].take();
        g
    }

    /// Whether moving `from` → `to` is legal for `side` by the slow rules.
    pub fn is_legal(&self, side: Color, from: (i32, i32), to: (i32, i32)) -> bool {
        matches!(self.at(from.0, from.1), Some((c, _)) if c == side)
            && self.can_move(from, to)
            && !self.after(from, to).king_attacked(side)
    }
}

pub fn coords(sq: Square) -> (i32, i32) {
    (sq.file() as i32, sq.rank() as i32)
}

/// Every legal move by the slow reference rules, sorted.
pub fn slow_legal_moves(pos: &Position) -> Vec<Move> {
    let grid = Grid::from_position(pos);
    let side = pos.side_to_move();
    let mut moves = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            if grid.is_legal(side, coords(from), coords(to)) {
                moves.push(Move::new(from, to));
            }
        }
    }
    moves.sort_by_key(|m| m.raw());
    moves
}

/// Squares a piece may ever stand on (as FEN validation demands).
fn homes(color: Color, kind: PieceKind) -> Vec<Square> {
    let rel = |s: Square| match color {
        Color::Red => s,
        Color::Black => s.flip_rank(),
    };
    Square::all()
        .filter(|&s| {
            let r = rel(s);
            let (f, rk) = (r.file(), r.rank());
            match kind {
                PieceKind::King => (3..=5).contains(&f) && rk <= 2,
                PieceKind::Advisor => (3..=5).contains(&f) && rk <= 2 && (f + rk) % 2 == 1,
                PieceKind::Elephant => {
                    rk <= 4 && f % 2 == 0 && rk % 2 == 0 && (f / 2 + rk / 2) % 2 == 1
                }
                PieceKind::Pawn => rk >= 5 || (rk >= 3 && f % 2 == 0),
                _ => true,
            }
        })
        .collect()
}

/// A random valid position: both kings, a random subset of the other pieces
/// on squares they could reach, either side to move. Sparse boards are
/// favoured, since that is where checks, pins and facing kings abound.
pub fn random_position(rng: &mut StdRng) -> Position {
    loop {
        let mut board: Vec<Option<Piece>> = vec![None; 90];
        let density = rng.random_range(0.05..0.9);
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = kind.max_count();
                for _ in 0..count {
                    if kind != PieceKind::King && !rng.random_bool(density) {
                        continue;
                    }
                    let squares = homes(color, kind);
                    let sq = squares[rng.random_range(0..squares.len())];
                    if board[sq.index()].is_none() {
                        board[sq.index()] = Some(Piece::new(color, kind));
                    }
                }
            }
        }
        let mut fen = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match board[Square::new(file, rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if rng.random_bool(0.5) { " w" } else { " b" });
        if let Ok(pos) = Position::from_fen(&fen) {
            return pos;
        }
    }
}
