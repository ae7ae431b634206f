//! Where each term's weights start in `params::WEIGHTS`.

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

/// A readable name for weight `i` (for the tuner's output).
pub fn name(i: usize) -> String {
    const KINDS: [&str; 7] = [
        "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
    ];
    const ATTACKERS: [&str; 3] = ["rook", "horse", "cannon"];
    let singles = [
        (EMPTY_CANNON, "empty-headed cannon"),
        (CANNON_TWO_SCREENS, "cannon two screens from the king"),
        (ROOK_CANNON_BATTERY, "rook-cannon battery"),
        (HORSE_CANNON, "horse-cannon attack"),
        (FACING_KINGS, "piece between facing kings"),
        (PINNED, "pinned piece"),
        (HORSE_BLOCKED, "blocked horse leg"),
        (CANNON_NO_TARGET, "cannon with nothing to capture"),
        (ROOK_OPEN_FILE, "rook on an open file"),
        (ROOK_HALF_OPEN_FILE, "rook on a half-open file"),
        (CONNECTED_ADVISORS, "connected advisors"),
        (CONNECTED_ELEPHANTS, "connected elephants"),
        (PAWNS_SIDE_BY_SIDE, "crossed pawns side by side"),
        (DEFENDERS_VS_ATTACKERS, "defenders times enemy attackers"),
        (TEMPO, "tempo"),
    ];
    if let Some((_, n)) = singles.iter().find(|(at, _)| *at == i) {
        return n.to_string();
    }
    match i {
        _ if i < PST => format!("material {}", KINDS[i - MATERIAL]),
        _ if i < MOBILITY => {
            let (k, sq) = ((i - PST) / PST_SQUARES, (i - PST) % PST_SQUARES);
            format!("pst {} rank {} file {}", KINDS[k], sq / 5, sq % 5)
        }
        _ if i < PALACE_ATTACK => format!("mobility {}", KINDS[i - MOBILITY]),
        _ if i < MISSING_ADVISOR => format!("palace attack by {}", KINDS[i - PALACE_ATTACK]),
        _ if i < MISSING_ELEPHANT => {
            format!("missing advisor vs {}", ATTACKERS[i - MISSING_ADVISOR])
        }
        _ if i < EMPTY_CANNON => format!("missing elephant vs {}", ATTACKERS[i - MISSING_ELEPHANT]),
        _ => format!("weight {i}"),
    }
}
