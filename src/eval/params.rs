//! Evaluation weights as (middlegame, endgame) pairs in centipawns (100 is
//! about a horse), in the order of `layout`. Written by `chariot tune fit`:
//! 1051095 positions of combined.txt, 400 epochs at rate 1; K = 1.0816, error 0.100399 -> 0.094030
//! (second round, from the first round's weights: combined.txt is the first
//! round's 3,000 games followed by 6,000 games of commit 0d9656b, `tune gen
//! --games 6000 --nodes 4000 --seed 2`; see docs/history/classical.md,
//! "The tuned evaluation's two rounds")

use super::layout;
use super::Score;

const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

/// Every weight, in the order of `layout`.
#[rustfmt::skip]
pub const WEIGHTS: [Score; layout::COUNT] = [
    s(0, 0), // material king
    s(173, 6), // material advisor
    s(61, 12), // material elephant
    s(62, -1), // material horse
    s(356, 404), // material rook
    s(66, 104), // material cannon
    s(51, 32), // material pawn
    s(0, 0), // pst king rank 0 file 0
    s(0, 0), // pst king rank 0 file 1
    s(0, 0), // pst king rank 0 file 2
    s(31, -5), // pst king rank 0 file 3
    s(54, -4), // pst king rank 0 file 4
    s(0, 0), // pst king rank 1 file 0
    s(0, 0), // pst king rank 1 file 1
    s(0, 0), // pst king rank 1 file 2
    s(-66, 20), // pst king rank 1 file 3
    s(-10, 16), // pst king rank 1 file 4
    s(0, 0), // pst king rank 2 file 0
    s(0, 0), // pst king rank 2 file 1
    s(0, 0), // pst king rank 2 file 2
    s(-166, 19), // pst king rank 2 file 3
    s(-62, 10), // pst king rank 2 file 4
    s(0, 0), // pst king rank 3 file 0
    s(0, 0), // pst king rank 3 file 1
    s(0, 0), // pst king rank 3 file 2
    s(0, 0), // pst king rank 3 file 3
    s(0, 0), // pst king rank 3 file 4
    s(0, 0), // pst king rank 4 file 0
    s(0, 0), // pst king rank 4 file 1
    s(0, 0), // pst king rank 4 file 2
    s(0, 0), // pst king rank 4 file 3
    s(0, 0), // pst king rank 4 file 4
    s(0, 0), // pst king rank 5 file 0
    s(0, 0), // pst king rank 5 file 1
    s(0, 0), // pst king rank 5 file 2
    s(0, 0), // pst king rank 5 file 3
    s(0, 0), // pst king rank 5 file 4
    s(0, 0), // pst king rank 6 file 0
    s(0, 0), // pst king rank 6 file 1
    s(0, 0), // pst king rank 6 file 2
    s(0, 0), // pst king rank 6 file 3
    s(0, 0), // pst king rank 6 file 4
    s(0, 0), // pst king rank 7 file 0
    s(0, 0), // pst king rank 7 file 1
    s(0, 0), // pst king rank 7 file 2
    s(0, 0), // pst king rank 7 file 3
    s(0, 0), // pst king rank 7 file 4
    s(0, 0), // pst king rank 8 file 0
    s(0, 0), // pst king rank 8 file 1
    s(0, 0), // pst king rank 8 file 2
    s(0, 0), // pst king rank 8 file 3
    s(0, 0), // pst king rank 8 file 4
    s(0, 0), // pst king rank 9 file 0
    s(0, 0), // pst king rank 9 file 1
    s(0, 0), // pst king rank 9 file 2
    s(0, 0), // pst king rank 9 file 3
    s(0, 0), // pst king rank 9 file 4
    s(0, 0), // pst advisor rank 0 file 0
    s(0, 0), // pst advisor rank 0 file 1
    s(0, 0), // pst advisor rank 0 file 2
    s(42, -7), // pst advisor rank 0 file 3
    s(0, 0), // pst advisor rank 0 file 4
    s(0, 0), // pst advisor rank 1 file 0
    s(0, 0), // pst advisor rank 1 file 1
    s(0, 0), // pst advisor rank 1 file 2
    s(0, 0), // pst advisor rank 1 file 3
    s(104, -23), // pst advisor rank 1 file 4
    s(0, 0), // pst advisor rank 2 file 0
    s(0, 0), // pst advisor rank 2 file 1
    s(0, 0), // pst advisor rank 2 file 2
    s(62, -22), // pst advisor rank 2 file 3
    s(0, 0), // pst advisor rank 2 file 4
    s(0, 0), // pst advisor rank 3 file 0
    s(0, 0), // pst advisor rank 3 file 1
    s(0, 0), // pst advisor rank 3 file 2
    s(0, 0), // pst advisor rank 3 file 3
    s(0, 0), // pst advisor rank 3 file 4
    s(0, 0), // pst advisor rank 4 file 0
    s(0, 0), // pst advisor rank 4 file 1
    s(0, 0), // pst advisor rank 4 file 2
    s(0, 0), // pst advisor rank 4 file 3
    s(0, 0), // pst advisor rank 4 file 4
    s(0, 0), // pst advisor rank 5 file 0
    s(0, 0), // pst advisor rank 5 file 1
    s(0, 0), // pst advisor rank 5 file 2
    s(0, 0), // pst advisor rank 5 file 3
    s(0, 0), // pst advisor rank 5 file 4
    s(0, 0), // pst advisor rank 6 file 0
    s(0, 0), // pst advisor rank 6 file 1
    s(0, 0), // pst advisor rank 6 file 2
    s(0, 0), // pst advisor rank 6 file 3
    s(0, 0), // pst advisor rank 6 file 4
    s(0, 0), // pst advisor rank 7 file 0
    s(0, 0), // pst advisor rank 7 file 1
    s(0, 0), // pst advisor rank 7 file 2
    s(0, 0), // pst advisor rank 7 file 3
    s(0, 0), // pst advisor rank 7 file 4
    s(0, 0), // pst advisor rank 8 file 0
    s(0, 0), // pst advisor rank 8 file 1
    s(0, 0), // pst advisor rank 8 file 2
    s(0, 0), // pst advisor rank 8 file 3
    s(0, 0), // pst advisor rank 8 file 4
    s(0, 0), // pst advisor rank 9 file 0
    s(0, 0), // pst advisor rank 9 file 1
    s(0, 0), // pst advisor rank 9 file 2
    s(0, 0), // pst advisor rank 9 file 3
    s(0, 0), // pst advisor rank 9 file 4
    s(0, 0), // pst elephant rank 0 file 0
    s(0, 0), // pst elephant rank 0 file 1
    s(24, -27), // pst elephant rank 0 file 2
    s(0, 0), // pst elephant rank 0 file 3
    s(0, 0), // pst elephant rank 0 file 4
    s(0, 0), // pst elephant rank 1 file 0
    s(0, 0), // pst elephant rank 1 file 1
    s(0, 0), // pst elephant rank 1 file 2
    s(0, 0), // pst elephant rank 1 file 3
    s(0, 0), // pst elephant rank 1 file 4
    s(-3, -18), // pst elephant rank 2 file 0
    s(0, 0), // pst elephant rank 2 file 1
    s(0, 0), // pst elephant rank 2 file 2
    s(0, 0), // pst elephant rank 2 file 3
    s(30, -18), // pst elephant rank 2 file 4
    s(0, 0), // pst elephant rank 3 file 0
    s(0, 0), // pst elephant rank 3 file 1
    s(0, 0), // pst elephant rank 3 file 2
    s(0, 0), // pst elephant rank 3 file 3
    s(0, 0), // pst elephant rank 3 file 4
    s(0, 0), // pst elephant rank 4 file 0
    s(0, 0), // pst elephant rank 4 file 1
    s(-17, -12), // pst elephant rank 4 file 2
    s(0, 0), // pst elephant rank 4 file 3
    s(0, 0), // pst elephant rank 4 file 4
    s(0, 0), // pst elephant rank 5 file 0
    s(0, 0), // pst elephant rank 5 file 1
    s(0, 0), // pst elephant rank 5 file 2
    s(0, 0), // pst elephant rank 5 file 3
    s(0, 0), // pst elephant rank 5 file 4
    s(0, 0), // pst elephant rank 6 file 0
    s(0, 0), // pst elephant rank 6 file 1
    s(0, 0), // pst elephant rank 6 file 2
    s(0, 0), // pst elephant rank 6 file 3
    s(0, 0), // pst elephant rank 6 file 4
    s(0, 0), // pst elephant rank 7 file 0
    s(0, 0), // pst elephant rank 7 file 1
    s(0, 0), // pst elephant rank 7 file 2
    s(0, 0), // pst elephant rank 7 file 3
    s(0, 0), // pst elephant rank 7 file 4
    s(0, 0), // pst elephant rank 8 file 0
    s(0, 0), // pst elephant rank 8 file 1
    s(0, 0), // pst elephant rank 8 file 2
    s(0, 0), // pst elephant rank 8 file 3
    s(0, 0), // pst elephant rank 8 file 4
    s(0, 0), // pst elephant rank 9 file 0
    s(0, 0), // pst elephant rank 9 file 1
    s(0, 0), // pst elephant rank 9 file 2
    s(0, 0), // pst elephant rank 9 file 3
    s(0, 0), // pst elephant rank 9 file 4
    s(-108, 94), // pst horse rank 0 file 0
    s(-86, 118), // pst horse rank 0 file 1
    s(-36, 114), // pst horse rank 0 file 2
    s(-88, 130), // pst horse rank 0 file 3
    s(-40, 91), // pst horse rank 0 file 4
    s(-77, 108), // pst horse rank 1 file 0
    s(-42, 42), // pst horse rank 1 file 1
    s(-87, 104), // pst horse rank 1 file 2
    s(-53, 121), // pst horse rank 1 file 3
    s(-115, 111), // pst horse rank 1 file 4
    s(-55, 115), // pst horse rank 2 file 0
    s(-72, 129), // pst horse rank 2 file 1
    s(-41, 108), // pst horse rank 2 file 2
    s(-19, 87), // pst horse rank 2 file 3
    s(-9, 78), // pst horse rank 2 file 4
    s(-43, 92), // pst horse rank 3 file 0
    s(-27, 85), // pst horse rank 3 file 1
    s(-22, 102), // pst horse rank 3 file 2
    s(-13, 63), // pst horse rank 3 file 3
    s(-35, 148), // pst horse rank 3 file 4
    s(-66, 147), // pst horse rank 4 file 0
    s(-35, 116), // pst horse rank 4 file 1
    s(-31, 119), // pst horse rank 4 file 2
    s(3, 97), // pst horse rank 4 file 3
    s(5, 96), // pst horse rank 4 file 4
    s(118, 62), // pst horse rank 5 file 0
    s(19, 94), // pst horse rank 5 file 1
    s(24, 95), // pst horse rank 5 file 2
    s(9, 88), // pst horse rank 5 file 3
    s(28, 101), // pst horse rank 5 file 4
    s(-2, 99), // pst horse rank 6 file 0
    s(19, 92), // pst horse rank 6 file 1
    s(-29, 104), // pst horse rank 6 file 2
    s(71, 93), // pst horse rank 6 file 3
    s(-20, 109), // pst horse rank 6 file 4
    s(24, 88), // pst horse rank 7 file 0
    s(49, 70), // pst horse rank 7 file 1
    s(-3, 113), // pst horse rank 7 file 2
    s(51, 95), // pst horse rank 7 file 3
    s(28, 111), // pst horse rank 7 file 4
    s(-97, 89), // pst horse rank 8 file 0
    s(-151, 164), // pst horse rank 8 file 1
    s(86, 61), // pst horse rank 8 file 2
    s(-55, 95), // pst horse rank 8 file 3
    s(-53, 130), // pst horse rank 8 file 4
    s(60, 52), // pst horse rank 9 file 0
    s(-66, 117), // pst horse rank 9 file 1
    s(35, 100), // pst horse rank 9 file 2
    s(-153, 170), // pst horse rank 9 file 3
    s(68, 3), // pst horse rank 9 file 4
    s(7, 17), // pst rook rank 0 file 0
    s(20, 59), // pst rook rank 0 file 1
    s(2, 54), // pst rook rank 0 file 2
    s(-6, 60), // pst rook rank 0 file 3
    s(-159, 120), // pst rook rank 0 file 4
    s(11, 78), // pst rook rank 1 file 0
    s(29, 60), // pst rook rank 1 file 1
    s(49, 41), // pst rook rank 1 file 2
    s(23, 94), // pst rook rank 1 file 3
    s(-48, 83), // pst rook rank 1 file 4
    s(21, 70), // pst rook rank 2 file 0
    s(26, 89), // pst rook rank 2 file 1
    s(20, 80), // pst rook rank 2 file 2
    s(43, 77), // pst rook rank 2 file 3
    s(34, 73), // pst rook rank 2 file 4
    s(25, 80), // pst rook rank 3 file 0
    s(38, 88), // pst rook rank 3 file 1
    s(66, 64), // pst rook rank 3 file 2
    s(76, 57), // pst rook rank 3 file 3
    s(77, 71), // pst rook rank 3 file 4
    s(43, 89), // pst rook rank 4 file 0
    s(23, 94), // pst rook rank 4 file 1
    s(52, 93), // pst rook rank 4 file 2
    s(63, 86), // pst rook rank 4 file 3
    s(62, 93), // pst rook rank 4 file 4
    s(44, 102), // pst rook rank 5 file 0
    s(32, 102), // pst rook rank 5 file 1
    s(66, 82), // pst rook rank 5 file 2
    s(53, 94), // pst rook rank 5 file 3
    s(86, 87), // pst rook rank 5 file 4
    s(23, 90), // pst rook rank 6 file 0
    s(44, 92), // pst rook rank 6 file 1
    s(76, 81), // pst rook rank 6 file 2
    s(77, 78), // pst rook rank 6 file 3
    s(87, 94), // pst rook rank 6 file 4
    s(30, 86), // pst rook rank 7 file 0
    s(24, 100), // pst rook rank 7 file 1
    s(43, 90), // pst rook rank 7 file 2
    s(57, 108), // pst rook rank 7 file 3
    s(157, 49), // pst rook rank 7 file 4
    s(39, 87), // pst rook rank 8 file 0
    s(44, 90), // pst rook rank 8 file 1
    s(69, 48), // pst rook rank 8 file 2
    s(65, 70), // pst rook rank 8 file 3
    s(255, 9), // pst rook rank 8 file 4
    s(18, 88), // pst rook rank 9 file 0
    s(40, 72), // pst rook rank 9 file 1
    s(67, 60), // pst rook rank 9 file 2
    s(115, 48), // pst rook rank 9 file 3
    s(88, 70), // pst rook rank 9 file 4
    s(-62, 38), // pst cannon rank 0 file 0
    s(-20, 12), // pst cannon rank 0 file 1
    s(-6, 7), // pst cannon rank 0 file 2
    s(34, 4), // pst cannon rank 0 file 3
    s(24, 11), // pst cannon rank 0 file 4
    s(-31, 31), // pst cannon rank 1 file 0
    s(-13, 23), // pst cannon rank 1 file 1
    s(-8, 16), // pst cannon rank 1 file 2
    s(8, 25), // pst cannon rank 1 file 3
    s(-48, 27), // pst cannon rank 1 file 4
    s(12, -2), // pst cannon rank 2 file 0
    s(-15, 41), // pst cannon rank 2 file 1
    s(8, 17), // pst cannon rank 2 file 2
    s(5, -1), // pst cannon rank 2 file 3
    s(46, 9), // pst cannon rank 2 file 4
    s(28, -6), // pst cannon rank 3 file 0
    s(-28, 26), // pst cannon rank 3 file 1
    s(11, -10), // pst cannon rank 3 file 2
    s(-1, 0), // pst cannon rank 3 file 3
    s(48, -13), // pst cannon rank 3 file 4
    s(-6, -7), // pst cannon rank 4 file 0
    s(-19, 55), // pst cannon rank 4 file 1
    s(0, 16), // pst cannon rank 4 file 2
    s(-4, -5), // pst cannon rank 4 file 3
    s(55, 13), // pst cannon rank 4 file 4
    s(-17, 23), // pst cannon rank 5 file 0
    s(-45, 36), // pst cannon rank 5 file 1
    s(-1, 34), // pst cannon rank 5 file 2
    s(-51, 34), // pst cannon rank 5 file 3
    s(63, -2), // pst cannon rank 5 file 4
    s(-4, 24), // pst cannon rank 6 file 0
    s(-17, 11), // pst cannon rank 6 file 1
    s(-15, 26), // pst cannon rank 6 file 2
    s(-35, 46), // pst cannon rank 6 file 3
    s(-8, 41), // pst cannon rank 6 file 4
    s(-40, 42), // pst cannon rank 7 file 0
    s(-5, 54), // pst cannon rank 7 file 1
    s(-25, 19), // pst cannon rank 7 file 2
    s(-40, 25), // pst cannon rank 7 file 3
    s(-106, 82), // pst cannon rank 7 file 4
    s(13, 13), // pst cannon rank 8 file 0
    s(-52, 49), // pst cannon rank 8 file 1
    s(-8, -1), // pst cannon rank 8 file 2
    s(-74, 65), // pst cannon rank 8 file 3
    s(-105, 69), // pst cannon rank 8 file 4
    s(18, -3), // pst cannon rank 9 file 0
    s(-29, 20), // pst cannon rank 9 file 1
    s(-77, 21), // pst cannon rank 9 file 2
    s(-85, 48), // pst cannon rank 9 file 3
    s(-74, 18), // pst cannon rank 9 file 4
    s(0, 0), // pst pawn rank 0 file 0
    s(0, 0), // pst pawn rank 0 file 1
    s(0, 0), // pst pawn rank 0 file 2
    s(0, 0), // pst pawn rank 0 file 3
    s(0, 0), // pst pawn rank 0 file 4
    s(0, 0), // pst pawn rank 1 file 0
    s(0, 0), // pst pawn rank 1 file 1
    s(0, 0), // pst pawn rank 1 file 2
    s(0, 0), // pst pawn rank 1 file 3
    s(0, 0), // pst pawn rank 1 file 4
    s(0, 0), // pst pawn rank 2 file 0
    s(0, 0), // pst pawn rank 2 file 1
    s(0, 0), // pst pawn rank 2 file 2
    s(0, 0), // pst pawn rank 2 file 3
    s(0, 0), // pst pawn rank 2 file 4
    s(-23, 15), // pst pawn rank 3 file 0
    s(0, 0), // pst pawn rank 3 file 1
    s(-46, 43), // pst pawn rank 3 file 2
    s(0, 0), // pst pawn rank 3 file 3
    s(-4, 16), // pst pawn rank 3 file 4
    s(-26, 26), // pst pawn rank 4 file 0
    s(0, 0), // pst pawn rank 4 file 1
    s(-19, 39), // pst pawn rank 4 file 2
    s(0, 0), // pst pawn rank 4 file 3
    s(-5, 32), // pst pawn rank 4 file 4
    s(1, 38), // pst pawn rank 5 file 0
    s(-7, 43), // pst pawn rank 5 file 1
    s(9, 55), // pst pawn rank 5 file 2
    s(32, 68), // pst pawn rank 5 file 3
    s(39, 50), // pst pawn rank 5 file 4
    s(34, 14), // pst pawn rank 6 file 0
    s(29, 48), // pst pawn rank 6 file 1
    s(42, 55), // pst pawn rank 6 file 2
    s(70, 68), // pst pawn rank 6 file 3
    s(76, 62), // pst pawn rank 6 file 4
    s(-16, 46), // pst pawn rank 7 file 0
    s(99, 20), // pst pawn rank 7 file 1
    s(111, 63), // pst pawn rank 7 file 2
    s(89, 153), // pst pawn rank 7 file 3
    s(165, 135), // pst pawn rank 7 file 4
    s(79, 18), // pst pawn rank 8 file 0
    s(187, -14), // pst pawn rank 8 file 1
    s(180, 39), // pst pawn rank 8 file 2
    s(297, 71), // pst pawn rank 8 file 3
    s(337, 155), // pst pawn rank 8 file 4
    s(-32, -24), // pst pawn rank 9 file 0
    s(86, -25), // pst pawn rank 9 file 1
    s(26, 30), // pst pawn rank 9 file 2
    s(-61, 33), // pst pawn rank 9 file 3
    s(-220, 73), // pst pawn rank 9 file 4
    s(-10, 2), // mobility king
    s(-12, 3), // mobility advisor
    s(7, -2), // mobility elephant
    s(1, 6), // mobility horse
    s(2, 0), // mobility rook
    s(2, -2), // mobility cannon
    s(-1, -3), // mobility pawn
    s(0, 0), // palace attack by king
    s(0, 0), // palace attack by advisor
    s(0, 0), // palace attack by elephant
    s(14, -9), // palace attack by horse
    s(-3, 3), // palace attack by rook
    s(-6, 7), // palace attack by cannon
    s(6, -30), // palace attack by pawn
    s(-46, 17), // missing advisor vs rook
    s(-35, 0), // missing advisor vs horse
    s(31, 0), // missing advisor vs cannon
    s(-27, -23), // missing elephant vs rook
    s(-62, -3), // missing elephant vs horse
    s(-62, -12), // missing elephant vs cannon
    s(-99, 41), // empty-headed cannon
    s(-52, -13), // cannon two screens from the king
    s(40, -102), // rook-cannon battery
    s(19, -90), // horse-cannon attack
    s(-40, 13), // piece between facing kings
    s(29, -17), // pinned piece
    s(-11, -1), // blocked horse leg
    s(-2, -13), // cannon with nothing to capture
    s(10, 5), // rook on an open file
    s(2, 15), // rook on a half-open file
    s(-22, 16), // connected advisors
    s(17, 2), // connected elephants
    s(18, 5), // crossed pawns side by side
    s(-43, -9), // defenders times enemy attackers
    s(7, -2), // tempo
];
