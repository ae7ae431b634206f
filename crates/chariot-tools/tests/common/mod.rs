//! What the tests that write chariot-match games share.

use chariot::xiangqi::Position;
use chariot_match::game::PlayedMove;
use chariot_match::openings::Opening;

/// The position after an opening's moves, and those moves as chariot-match
/// records them: book moves, unscored.
pub fn after_book(opening: &Opening) -> (Position, Vec<PlayedMove>) {
    let mut pos = opening.start();
    let mut moves = Vec::new();
    for &m in &opening.moves {
        pos.make_move(m);
        moves.push(PlayedMove {
            mv: m,
            book: true,
            score: None,
            depth: None,
            elapsed_ms: 0,
        });
    }
    (pos, moves)
}
