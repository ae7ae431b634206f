//! Evaluation weights as (middlegame, endgame) pairs in centipawns (100 is
//! about a horse), in the order of `layout`. Written by `chariot tune fit`:
//! 321678 positions of /work/data/selfplay-3000.txt, 400 epochs at rate 1; K = 1.4078, error 0.118380 -> 0.104590

use super::layout;
use super::Score;

const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

/// Every weight, in the order of `layout`.
#[rustfmt::skip]
pub const WEIGHTS: [Score; layout::COUNT] = [
    s(0, 0), // material king
    s(113, 28), // material advisor
    s(64, 15), // material elephant
    s(10, 69), // material horse
    s(297, 324), // material rook
    s(66, 21), // material cannon
    s(41, 57), // material pawn
    s(0, 0), // pst king rank 0 file 0
    s(0, 0), // pst king rank 0 file 1
    s(0, 0), // pst king rank 0 file 2
    s(23, -9), // pst king rank 0 file 3
    s(38, -7), // pst king rank 0 file 4
    s(0, 0), // pst king rank 1 file 0
    s(0, 0), // pst king rank 1 file 1
    s(0, 0), // pst king rank 1 file 2
    s(-54, 21), // pst king rank 1 file 3
    s(19, 3), // pst king rank 1 file 4
    s(0, 0), // pst king rank 2 file 0
    s(0, 0), // pst king rank 2 file 1
    s(0, 0), // pst king rank 2 file 2
    s(-165, 25), // pst king rank 2 file 3
    s(-85, 35), // pst king rank 2 file 4
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
    s(38, -5), // pst advisor rank 0 file 3
    s(0, 0), // pst advisor rank 0 file 4
    s(0, 0), // pst advisor rank 1 file 0
    s(0, 0), // pst advisor rank 1 file 1
    s(0, 0), // pst advisor rank 1 file 2
    s(0, 0), // pst advisor rank 1 file 3
    s(59, -5), // pst advisor rank 1 file 4
    s(0, 0), // pst advisor rank 2 file 0
    s(0, 0), // pst advisor rank 2 file 1
    s(0, 0), // pst advisor rank 2 file 2
    s(30, -8), // pst advisor rank 2 file 3
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
    s(18, -21), // pst elephant rank 0 file 2
    s(0, 0), // pst elephant rank 0 file 3
    s(0, 0), // pst elephant rank 0 file 4
    s(0, 0), // pst elephant rank 1 file 0
    s(0, 0), // pst elephant rank 1 file 1
    s(0, 0), // pst elephant rank 1 file 2
    s(0, 0), // pst elephant rank 1 file 3
    s(0, 0), // pst elephant rank 1 file 4
    s(-3, -10), // pst elephant rank 2 file 0
    s(0, 0), // pst elephant rank 2 file 1
    s(0, 0), // pst elephant rank 2 file 2
    s(0, 0), // pst elephant rank 2 file 3
    s(27, -17), // pst elephant rank 2 file 4
    s(0, 0), // pst elephant rank 3 file 0
    s(0, 0), // pst elephant rank 3 file 1
    s(0, 0), // pst elephant rank 3 file 2
    s(0, 0), // pst elephant rank 3 file 3
    s(0, 0), // pst elephant rank 3 file 4
    s(0, 0), // pst elephant rank 4 file 0
    s(0, 0), // pst elephant rank 4 file 1
    s(2, -15), // pst elephant rank 4 file 2
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
    s(-50, -61), // pst horse rank 0 file 0
    s(-47, -24), // pst horse rank 0 file 1
    s(26, -78), // pst horse rank 0 file 2
    s(-22, -14), // pst horse rank 0 file 3
    s(-2, 1), // pst horse rank 0 file 4
    s(-30, -64), // pst horse rank 1 file 0
    s(42, -77), // pst horse rank 1 file 1
    s(-65, 20), // pst horse rank 1 file 2
    s(-34, 12), // pst horse rank 1 file 3
    s(-63, 4), // pst horse rank 1 file 4
    s(-20, 7), // pst horse rank 2 file 0
    s(-42, -3), // pst horse rank 2 file 1
    s(-19, -3), // pst horse rank 2 file 2
    s(-1, 14), // pst horse rank 2 file 3
    s(68, -70), // pst horse rank 2 file 4
    s(-52, -19), // pst horse rank 3 file 0
    s(8, -1), // pst horse rank 3 file 1
    s(19, -11), // pst horse rank 3 file 2
    s(10, -32), // pst horse rank 3 file 3
    s(-28, 36), // pst horse rank 3 file 4
    s(3, -21), // pst horse rank 4 file 0
    s(-13, 30), // pst horse rank 4 file 1
    s(-37, 28), // pst horse rank 4 file 2
    s(12, 0), // pst horse rank 4 file 3
    s(79, 28), // pst horse rank 4 file 4
    s(112, -78), // pst horse rank 5 file 0
    s(68, -36), // pst horse rank 5 file 1
    s(36, 16), // pst horse rank 5 file 2
    s(62, -22), // pst horse rank 5 file 3
    s(64, -4), // pst horse rank 5 file 4
    s(62, -48), // pst horse rank 6 file 0
    s(57, 18), // pst horse rank 6 file 1
    s(9, 0), // pst horse rank 6 file 2
    s(112, -1), // pst horse rank 6 file 3
    s(-34, 16), // pst horse rank 6 file 4
    s(131, -25), // pst horse rank 7 file 0
    s(-32, 19), // pst horse rank 7 file 1
    s(64, -14), // pst horse rank 7 file 2
    s(25, 14), // pst horse rank 7 file 3
    s(129, 2), // pst horse rank 7 file 4
    s(-216, 59), // pst horse rank 8 file 0
    s(-105, 31), // pst horse rank 8 file 1
    s(150, -12), // pst horse rank 8 file 2
    s(-50, -6), // pst horse rank 8 file 3
    s(-205, 62), // pst horse rank 8 file 4
    s(-72, 174), // pst horse rank 9 file 0
    s(74, -95), // pst horse rank 9 file 1
    s(37, 86), // pst horse rank 9 file 2
    s(-162, 68), // pst horse rank 9 file 3
    s(-82, -189), // pst horse rank 9 file 4
    s(8, 9), // pst rook rank 0 file 0
    s(24, 47), // pst rook rank 0 file 1
    s(-12, 68), // pst rook rank 0 file 2
    s(14, 31), // pst rook rank 0 file 3
    s(-137, 71), // pst rook rank 0 file 4
    s(31, 36), // pst rook rank 1 file 0
    s(39, 64), // pst rook rank 1 file 1
    s(29, 70), // pst rook rank 1 file 2
    s(28, 99), // pst rook rank 1 file 3
    s(-27, 39), // pst rook rank 1 file 4
    s(19, 48), // pst rook rank 2 file 0
    s(23, 88), // pst rook rank 2 file 1
    s(10, 72), // pst rook rank 2 file 2
    s(46, 64), // pst rook rank 2 file 3
    s(17, 82), // pst rook rank 2 file 4
    s(17, 73), // pst rook rank 3 file 0
    s(46, 51), // pst rook rank 3 file 1
    s(46, 39), // pst rook rank 3 file 2
    s(78, 47), // pst rook rank 3 file 3
    s(106, 42), // pst rook rank 3 file 4
    s(14, 91), // pst rook rank 4 file 0
    s(29, 71), // pst rook rank 4 file 1
    s(37, 72), // pst rook rank 4 file 2
    s(54, 86), // pst rook rank 4 file 3
    s(18, 134), // pst rook rank 4 file 4
    s(13, 108), // pst rook rank 5 file 0
    s(49, 91), // pst rook rank 5 file 1
    s(63, 56), // pst rook rank 5 file 2
    s(44, 69), // pst rook rank 5 file 3
    s(45, 95), // pst rook rank 5 file 4
    s(17, 70), // pst rook rank 6 file 0
    s(47, 78), // pst rook rank 6 file 1
    s(46, 68), // pst rook rank 6 file 2
    s(56, 72), // pst rook rank 6 file 3
    s(94, 83), // pst rook rank 6 file 4
    s(63, 46), // pst rook rank 7 file 0
    s(41, 69), // pst rook rank 7 file 1
    s(30, 105), // pst rook rank 7 file 2
    s(51, 85), // pst rook rank 7 file 3
    s(97, 74), // pst rook rank 7 file 4
    s(73, 40), // pst rook rank 8 file 0
    s(63, 58), // pst rook rank 8 file 1
    s(66, 41), // pst rook rank 8 file 2
    s(48, 72), // pst rook rank 8 file 3
    s(93, 108), // pst rook rank 8 file 4
    s(19, 68), // pst rook rank 9 file 0
    s(32, 67), // pst rook rank 9 file 1
    s(24, 75), // pst rook rank 9 file 2
    s(72, 47), // pst rook rank 9 file 3
    s(-42, 110), // pst rook rank 9 file 4
    s(-40, 25), // pst cannon rank 0 file 0
    s(-12, -72), // pst cannon rank 0 file 1
    s(-73, -41), // pst cannon rank 0 file 2
    s(59, -54), // pst cannon rank 0 file 3
    s(86, -84), // pst cannon rank 0 file 4
    s(-38, -18), // pst cannon rank 1 file 0
    s(-7, 0), // pst cannon rank 1 file 1
    s(-2, -34), // pst cannon rank 1 file 2
    s(12, -32), // pst cannon rank 1 file 3
    s(-34, -45), // pst cannon rank 1 file 4
    s(1, -24), // pst cannon rank 2 file 0
    s(-12, 5), // pst cannon rank 2 file 1
    s(-7, 33), // pst cannon rank 2 file 2
    s(-1, -35), // pst cannon rank 2 file 3
    s(42, -30), // pst cannon rank 2 file 4
    s(-72, 47), // pst cannon rank 3 file 0
    s(-31, 12), // pst cannon rank 3 file 1
    s(-15, -5), // pst cannon rank 3 file 2
    s(0, -26), // pst cannon rank 3 file 3
    s(57, -25), // pst cannon rank 3 file 4
    s(-12, -70), // pst cannon rank 4 file 0
    s(-8, 2), // pst cannon rank 4 file 1
    s(-20, 30), // pst cannon rank 4 file 2
    s(11, -65), // pst cannon rank 4 file 3
    s(39, -20), // pst cannon rank 4 file 4
    s(-18, -39), // pst cannon rank 5 file 0
    s(-29, -11), // pst cannon rank 5 file 1
    s(23, -52), // pst cannon rank 5 file 2
    s(-37, -33), // pst cannon rank 5 file 3
    s(65, -62), // pst cannon rank 5 file 4
    s(11, -19), // pst cannon rank 6 file 0
    s(-6, -26), // pst cannon rank 6 file 1
    s(-24, -15), // pst cannon rank 6 file 2
    s(-28, 3), // pst cannon rank 6 file 3
    s(0, -16), // pst cannon rank 6 file 4
    s(-35, -7), // pst cannon rank 7 file 0
    s(-18, 15), // pst cannon rank 7 file 1
    s(-52, 8), // pst cannon rank 7 file 2
    s(-23, 0), // pst cannon rank 7 file 3
    s(-88, 34), // pst cannon rank 7 file 4
    s(-2, -28), // pst cannon rank 8 file 0
    s(-42, -2), // pst cannon rank 8 file 1
    s(14, -70), // pst cannon rank 8 file 2
    s(-35, -37), // pst cannon rank 8 file 3
    s(-54, -27), // pst cannon rank 8 file 4
    s(5, -27), // pst cannon rank 9 file 0
    s(-11, -24), // pst cannon rank 9 file 1
    s(-3, -39), // pst cannon rank 9 file 2
    s(-74, 12), // pst cannon rank 9 file 3
    s(-39, 1), // pst cannon rank 9 file 4
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
    s(-31, 4), // pst pawn rank 3 file 0
    s(0, 0), // pst pawn rank 3 file 1
    s(-30, 20), // pst pawn rank 3 file 2
    s(0, 0), // pst pawn rank 3 file 3
    s(-8, -5), // pst pawn rank 3 file 4
    s(-38, 20), // pst pawn rank 4 file 0
    s(0, 0), // pst pawn rank 4 file 1
    s(-9, 35), // pst pawn rank 4 file 2
    s(0, 0), // pst pawn rank 4 file 3
    s(-9, -7), // pst pawn rank 4 file 4
    s(19, 30), // pst pawn rank 5 file 0
    s(15, 39), // pst pawn rank 5 file 1
    s(16, 66), // pst pawn rank 5 file 2
    s(51, 64), // pst pawn rank 5 file 3
    s(25, 70), // pst pawn rank 5 file 4
    s(-12, 73), // pst pawn rank 6 file 0
    s(70, 51), // pst pawn rank 6 file 1
    s(40, 62), // pst pawn rank 6 file 2
    s(27, 68), // pst pawn rank 6 file 3
    s(11, 43), // pst pawn rank 6 file 4
    s(-37, 23), // pst pawn rank 7 file 0
    s(163, 15), // pst pawn rank 7 file 1
    s(112, 24), // pst pawn rank 7 file 2
    s(60, 77), // pst pawn rank 7 file 3
    s(-7, 75), // pst pawn rank 7 file 4
    s(-48, 41), // pst pawn rank 8 file 0
    s(178, 62), // pst pawn rank 8 file 1
    s(199, 32), // pst pawn rank 8 file 2
    s(207, 29), // pst pawn rank 8 file 3
    s(175, 45), // pst pawn rank 8 file 4
    s(-130, 15), // pst pawn rank 9 file 0
    s(152, -8), // pst pawn rank 9 file 1
    s(144, -23), // pst pawn rank 9 file 2
    s(24, -31), // pst pawn rank 9 file 3
    s(-145, -21), // pst pawn rank 9 file 4
    s(-13, -2), // mobility king
    s(2, -5), // mobility advisor
    s(7, 1), // mobility elephant
    s(4, -6), // mobility horse
    s(1, 2), // mobility rook
    s(0, -1), // mobility cannon
    s(-8, -13), // mobility pawn
    s(0, 0), // palace attack by king
    s(0, 0), // palace attack by advisor
    s(0, 0), // palace attack by elephant
    s(6, -3), // palace attack by horse
    s(-1, 2), // palace attack by rook
    s(0, 6), // palace attack by cannon
    s(35, -3), // palace attack by pawn
    s(-30, 1), // missing advisor vs rook
    s(-17, -25), // missing advisor vs horse
    s(20, -22), // missing advisor vs cannon
    s(-28, -36), // missing elephant vs rook
    s(-31, -40), // missing elephant vs horse
    s(3, -44), // missing elephant vs cannon
    s(-44, 26), // empty-headed cannon
    s(-31, -37), // cannon two screens from the king
    s(-3, 1), // rook-cannon battery
    s(31, -89), // horse-cannon attack
    s(-10, -15), // piece between facing kings
    s(19, -2), // pinned piece
    s(-3, -22), // blocked horse leg
    s(-1, -8), // cannon with nothing to capture
    s(2, -11), // rook on an open file
    s(12, -10), // rook on a half-open file
    s(-11, 22), // connected advisors
    s(15, 3), // connected elephants
    s(-20, -31), // crossed pawns side by side
    s(-24, -38), // defenders times enemy attackers
    s(5, -1), // tempo
];
