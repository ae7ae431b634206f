//! Evaluation weights, as (middlegame, endgame) pairs in centipawns (100 is
//! about a horse). The layout is in `layout`; `chariot tune` fits the values
//! to game results and rewrites the `WEIGHTS` table of this file.

use super::Score;

/// Where each term's weights start in `WEIGHTS`.
pub mod layout {
    /// Material by piece kind (king, advisor, elephant, horse, rook, cannon, pawn).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables: kind × (relative rank 0–9 × folded file 0–4).
    pub const PST: usize = MATERIAL + 7;
    pub const PST_SQUARES: usize = 50;
    /// Mobility per target square, by kind.
    pub const MOBILITY: usize = PST + 7 * PST_SQUARES;
    /// Enemy palace squares attacked, by attacking kind.
    pub const PALACE_ATTACK: usize = MOBILITY + 7;
    /// Missing advisors times enemy rooks, horses, cannons.
    pub const MISSING_ADVISOR: usize = PALACE_ATTACK + 7;
    /// Missing elephants times enemy rooks, horses, cannons.
    pub const MISSING_ELEPHANT: usize = MISSING_ADVISOR + 3;
    /// An enemy cannon on the king's file or rank with nothing between.
    pub const EMPTY_CANNON: usize = MISSING_ELEPHANT + 3;
    /// ... with two pieces between (a screen away from check).
    pub const CANNON_TWO_SCREENS: usize = EMPTY_CANNON + 1;
    /// Enemy rook behind an enemy cannon on the king's file.
    pub const ROOK_CANNON_BATTERY: usize = CANNON_TWO_SCREENS + 1;
    /// Enemy cannon aimed along the king's file or rank while an enemy horse
    /// reaches into the palace.
    pub const HORSE_CANNON: usize = ROOK_CANNON_BATTERY + 1;
    /// Own pieces between the two kings on one file (pinned by the flying general).
    pub const FACING_KINGS: usize = HORSE_CANNON + 1;
    /// Pinned pieces.
    pub const PINNED: usize = FACING_KINGS + 1;
    /// Blocked horse legs.
    pub const HORSE_BLOCKED: usize = PINNED + 1;
    /// A cannon with nothing to capture over a screen.
    pub const CANNON_NO_TARGET: usize = HORSE_BLOCKED + 1;
    /// Rook on a file with no pawns / with only enemy pawns.
    pub const ROOK_OPEN_FILE: usize = CANNON_NO_TARGET + 1;
    pub const ROOK_HALF_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    /// Both advisors guarding each other; both elephants guarding each other.
    pub const CONNECTED_ADVISORS: usize = ROOK_HALF_OPEN_FILE + 1;
    pub const CONNECTED_ELEPHANTS: usize = CONNECTED_ADVISORS + 1;
    /// Crossed pawns side by side.
    pub const PAWNS_SIDE_BY_SIDE: usize = CONNECTED_ELEPHANTS + 1;
    /// Own advisors and elephants times enemy rooks, horses and cannons.
    pub const DEFENDERS_VS_ATTACKERS: usize = PAWNS_SIDE_BY_SIDE + 1;
    /// The side to move.
    pub const TEMPO: usize = DEFENDERS_VS_ATTACKERS + 1;
    pub const COUNT: usize = TEMPO + 1;
}

const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

const Z: Score = s(0, 0);

/// Pawn squares: nothing before the river, more across it, most near the palace.
const PAWN_PST: [Score; 50] = [
    Z,
    Z,
    Z,
    Z,
    Z, // rank 0
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    s(0, 0),
    Z,
    s(-2, 0),
    Z,
    s(4, 0), // rank 3: starting squares
    s(0, 0),
    Z,
    s(2, 0),
    Z,
    s(8, 0),
    s(15, 20),
    s(20, 20),
    s(25, 25),
    s(30, 25),
    s(30, 25), // rank 5: across the river
    s(20, 25),
    s(30, 30),
    s(40, 35),
    s(45, 40),
    s(45, 40),
    s(20, 25),
    s(35, 35),
    s(45, 45),
    s(55, 50),
    s(60, 55),
    s(15, 20),
    s(30, 30),
    s(40, 40),
    s(50, 50),
    s(55, 50),
    s(0, 5),
    s(5, 10),
    s(10, 15),
    s(15, 20),
    s(15, 20),
];

const HORSE_PST: [Score; 50] = [
    s(-10, -10),
    s(-5, -5),
    s(-5, -5),
    s(-5, -5),
    s(-10, -10),
    s(-5, -5),
    s(0, 0),
    s(0, 0),
    s(-5, 0),
    s(-10, -5),
    s(-5, -5),
    s(0, 0),
    s(5, 5),
    s(5, 5),
    s(0, 5),
    s(-5, -5),
    s(5, 5),
    s(5, 5),
    s(5, 5),
    s(5, 5),
    s(-5, -5),
    s(5, 5),
    s(10, 10),
    s(10, 10),
    s(10, 10),
    s(-5, -5),
    s(10, 10),
    s(15, 15),
    s(15, 15),
    s(15, 15),
    s(-5, -5),
    s(10, 10),
    s(15, 15),
    s(20, 15),
    s(15, 15),
    s(0, 0),
    s(15, 10),
    s(20, 15),
    s(25, 15),
    s(20, 15),
    s(-5, 0),
    s(5, 5),
    s(15, 10),
    s(25, 15),
    s(10, 10),
    s(-10, -5),
    s(0, 0),
    s(5, 5),
    s(5, 5),
    s(0, 0),
];

const ROOK_PST: [Score; 50] = [
    s(-5, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(-5, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(-5, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(5, 0),
    s(10, 0),
    s(5, 0),
    s(0, 0),
    s(5, 0),
    s(5, 0),
    s(10, 0),
    s(5, 0),
    s(5, 0),
    s(10, 0),
    s(10, 0),
    s(15, 0),
    s(10, 0),
    s(5, 0),
    s(10, 0),
    s(10, 0),
    s(15, 0),
    s(10, 0),
    s(5, 0),
    s(10, 0),
    s(10, 0),
    s(15, 0),
    s(10, 0),
    s(0, 0),
    s(5, 0),
    s(5, 0),
    s(10, 0),
    s(5, 0),
];

const CANNON_PST: [Score; 50] = [
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(5, 0),
    s(5, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(5, 0),
    s(10, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(5, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(5, 0),
    s(5, 0),
    s(5, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
    s(10, 0),
    s(10, 0),
    s(0, 0),
    s(0, 0),
    s(0, 0),
];

const KING_PST: [Score; 50] = [
    Z,
    Z,
    Z,
    s(0, 0),
    s(5, 5),
    Z,
    Z,
    Z,
    s(-10, 0),
    s(-5, 5),
    Z,
    Z,
    Z,
    s(-20, -5),
    s(-15, 0),
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
];

const ADVISOR_PST: [Score; 50] = [
    Z,
    Z,
    Z,
    s(0, 0),
    Z,
    Z,
    Z,
    Z,
    Z,
    s(5, 0),
    Z,
    Z,
    Z,
    s(-5, 0),
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
];

const ELEPHANT_PST: [Score; 50] = [
    Z,
    Z,
    s(0, 0),
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    s(-5, 0),
    Z,
    Z,
    Z,
    s(5, 0),
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    s(-5, 0),
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
    Z,
];

const fn build() -> [Score; layout::COUNT] {
    use layout::*;
    let mut w = [Z; COUNT];
    // King, advisor, elephant, horse, rook, cannon, pawn.
    let material = [
        s(0, 0),
        s(40, 35),
        s(40, 35),
        s(90, 105),
        s(200, 210),
        s(105, 95),
        s(20, 30),
    ];
    let pst = [
        KING_PST,
        ADVISOR_PST,
        ELEPHANT_PST,
        HORSE_PST,
        ROOK_PST,
        CANNON_PST,
        PAWN_PST,
    ];
    let mobility = [
        s(0, 0),
        s(0, 0),
        s(1, 1),
        s(4, 4),
        s(2, 3),
        s(2, 2),
        s(0, 0),
    ];
    let palace = [
        s(0, 0),
        s(0, 0),
        s(0, 0),
        s(6, 4),
        s(6, 4),
        s(4, 2),
        s(3, 3),
    ];
    let mut k = 0;
    while k < 7 {
        w[MATERIAL + k] = material[k];
        w[MOBILITY + k] = mobility[k];
        w[PALACE_ATTACK + k] = palace[k];
        let mut i = 0;
        while i < PST_SQUARES {
            w[PST + k * PST_SQUARES + i] = pst[k][i];
            i += 1;
        }
        k += 1;
    }
    // Against rooks, horses, cannons.
    let missing_advisor = [s(-15, -10), s(-10, -5), s(-5, -5)];
    let missing_elephant = [s(-5, -5), s(-5, -5), s(-15, -10)];
    let mut i = 0;
    while i < 3 {
        w[MISSING_ADVISOR + i] = missing_advisor[i];
        w[MISSING_ELEPHANT + i] = missing_elephant[i];
        i += 1;
    }
    w[EMPTY_CANNON] = s(-40, -20);
    w[CANNON_TWO_SCREENS] = s(-10, -5);
    w[ROOK_CANNON_BATTERY] = s(-20, -10);
    w[HORSE_CANNON] = s(-20, -10);
    w[FACING_KINGS] = s(-5, -10);
    w[PINNED] = s(-10, -10);
    w[HORSE_BLOCKED] = s(-5, -5);
    w[CANNON_NO_TARGET] = s(-5, 0);
    w[ROOK_OPEN_FILE] = s(10, 5);
    w[ROOK_HALF_OPEN_FILE] = s(5, 0);
    w[CONNECTED_ADVISORS] = s(10, 5);
    w[CONNECTED_ELEPHANTS] = s(10, 5);
    w[PAWNS_SIDE_BY_SIDE] = s(5, 10);
    w[DEFENDERS_VS_ATTACKERS] = s(2, 1);
    w[TEMPO] = s(10, 5);
    w
}

/// Every weight, in the order of `layout`.
pub const WEIGHTS: [Score; layout::COUNT] = build();
