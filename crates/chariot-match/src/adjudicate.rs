//! Ending games other than by the rules (which `xiangqi::rules` judges): score
//! based resignation and draws as cutechess and fastchess adjudicate them, and
//! the draw-offer policy.

use super::dialect::Score;
use xiangqi::types::Color;

/// Resign adjudication: a side whose own score has been at or below `-score`
/// centipawns for `movecount` of its consecutive moves loses. With
/// `twosided`, its opponent must also have scored at least `+score` on each of
/// its moves in between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// Draw adjudication: once `movenumber` full moves have been played, a game
/// in which both engines' scores have stayed within `score` centipawns of
/// zero for `movecount` consecutive moves each is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// As `--resign` takes it: `movecount=N score=S twosided=B`.
impl std::fmt::Display for ResignRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "movecount={} score={} twosided={}",
            self.movecount, self.score, self.twosided
        )
    }
}

/// As `--draw` takes it: `movenumber=N movecount=M score=S`.
impl std::fmt::Display for DrawRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "movenumber={} movecount={} score={}",
            self.movenumber, self.movecount, self.score
        )
    }
}

/// The verdict of score adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreVerdict {
    /// This side is adjudicated lost.
    Loses(Color),
    Draw,
}

/// Watches the scores engines report with their moves.
#[derive(Clone, Debug, Default)]
pub struct ScoreAdjudicator {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    /// Consecutive moves of each side with a losing score.
    losing: [u32; 2],
    /// Consecutive moves of each side with a winning score.
    winning: [u32; 2],
    /// Consecutive plies with a drawish score.
    drawish: u32,
}

impl ScoreAdjudicator {
    pub fn new(resign: Option<ResignRule>, draw: Option<DrawRule>) -> ScoreAdjudicator {
        ScoreAdjudicator {
            resign,
            draw,
            ..ScoreAdjudicator::default()
        }
    }

    /// Records the score `mover` reported with its move (`None` if it
    /// reported none: every count restarts) and says whether the game is now
    /// adjudicated. `fullmove` is the number of the move just played.
    pub fn record(
        &mut self,
        mover: Color,
        score: Option<Score>,
        fullmove: u32,
    ) -> Option<ScoreVerdict> {
        let i = mover.index();
        let Some(score) = score else {
            self.losing[i] = 0;
            self.winning[i] = 0;
            self.drawish = 0;
            return None;
        };
        let v = score.value();
        if let Some(r) = self.resign {
            let threshold = i64::from(r.score.abs());
            self.losing[i] = if v <= -threshold {
                self.losing[i] + 1
            } else {
                0
            };
            self.winning[i] = if v >= threshold {
                self.winning[i] + 1
            } else {
                0
            };
            let opponent_agrees = !r.twosided || self.winning[mover.flip().index()] >= r.movecount;
            if self.losing[i] >= r.movecount && opponent_agrees {
                return Some(ScoreVerdict::Loses(mover));
            }
        }
        if let Some(d) = self.draw {
            self.drawish = if v.abs() <= i64::from(d.score.abs()) {
                self.drawish + 1
            } else {
                0
            };
            if fullmove >= d.movenumber && self.drawish >= 2 * d.movecount {
                return Some(ScoreVerdict::Draw);
            }
        }
        None
    }
}

/// Draws by agreement (UCCI `bestmove … draw`): a `draw` after a move is an
/// offer; the opponent, told with `go draw`, accepts by also answering with
/// `draw`, and the game is drawn after its move (unless that move ends the
/// game by the rules). An offer not answered that way lapses. This is the
/// UCCI league runner's rule: both engines say `draw` on consecutive moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawOffers {
    /// The side whose last move came with a draw offer.
    pending: Option<Color>,
}

impl DrawOffers {
    /// Whether `side` is to be told that its opponent offers a draw.
    pub fn offered_to(&self, side: Color) -> bool {
        self.pending == Some(side.flip())
    }

    /// Records `mover`'s move and whether it said `draw`; true when that
    /// concludes an agreement.
    pub fn record(&mut self, mover: Color, said_draw: bool) -> bool {
        let agreed = said_draw && self.offered_to(mover);
        self.pending = (said_draw && !agreed).then_some(mover);
        agreed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, Red};

    fn cp(v: i32) -> Option<Score> {
        Some(Score::Cp(v))
    }

    #[test]
    fn resign_one_sided() {
        let rule = ResignRule {
            movecount: 3,
            score: 600,
            twosided: false,
        };
        let mut a = ScoreAdjudicator::new(Some(rule), None);
        assert_eq!(a.record(Red, cp(-700), 10), None);
        assert_eq!(a.record(Black, cp(700), 10), None);
        assert_eq!(a.record(Red, cp(-600), 11), None);
        // A missing score restarts the count.
        assert_eq!(a.record(Red, None, 12), None);
        assert_eq!(a.record(Red, cp(-650), 13), None);
        assert_eq!(a.record(Red, cp(-650), 14), None);
        assert_eq!(
            a.record(Red, Some(Score::Mate(-4)), 15),
            Some(ScoreVerdict::Loses(Red))
        );
    }

    #[test]
    fn resign_two_sided_needs_the_opponent() {
        let rule = ResignRule {
            movecount: 2,
            score: 500,
            twosided: true,
        };
        let mut a = ScoreAdjudicator::new(Some(rule), None);
        assert_eq!(a.record(Red, cp(-900), 20), None);
        assert_eq!(a.record(Black, cp(100), 20), None);
        assert_eq!(a.record(Red, cp(-900), 21), None); // Black does not agree yet
        assert_eq!(a.record(Black, cp(800), 21), None);
        assert_eq!(a.record(Red, cp(-900), 22), None);
        assert_eq!(a.record(Black, cp(800), 22), None);
        assert_eq!(a.record(Red, cp(-900), 23), Some(ScoreVerdict::Loses(Red)));
    }

    #[test]
    fn draw_adjudication() {
        let rule = DrawRule {
            movenumber: 30,
            movecount: 2,
            score: 10,
        };
        let mut a = ScoreAdjudicator::new(None, Some(rule));
        // Drawish for long enough, but too early.
        for (side, n) in [(Red, 27), (Black, 27), (Red, 28), (Black, 28)] {
            assert_eq!(a.record(side, cp(5), n), None);
        }
        assert_eq!(a.record(Red, cp(-30), 29), None);
        for (side, n) in [(Black, 29), (Red, 30), (Black, 30)] {
            assert_eq!(a.record(side, cp(0), n), None);
        }
        assert_eq!(a.record(Red, cp(-10), 31), Some(ScoreVerdict::Draw));
    }

    #[test]
    fn draw_offers_need_consecutive_agreement() {
        let mut d = DrawOffers::default();
        assert!(!d.record(Red, true)); // Red offers
        assert!(d.offered_to(Black));
        assert!(!d.offered_to(Red));
        assert!(!d.record(Black, false)); // declined: the offer lapses
        assert!(!d.offered_to(Red) && !d.offered_to(Black));
        assert!(!d.record(Red, false));
        assert!(!d.record(Black, true)); // Black offers
        assert!(d.offered_to(Red));
        assert!(d.record(Red, true)); // Red accepts
    }
}
