//! What the runner reports: per-engine standings and the final table, the
//! line for each finished game, the live progress bar on stderr, and the
//! logger that keeps diagnostics from tearing the bar.

use super::game::{Fault, GameRecord};
use super::stats::{EloEstimate, Model, Penta, Wdl};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use xiangqi::types::Color;

/// One engine's results over all its games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub wdl: Wdl,
    /// Its complete game pairs (same opening, colours swapped), from its
    /// side, against whichever engine it met.
    pub penta: Penta,
    pub crashes: u32,
    pub time_forfeits: u32,
    pub illegal: u32,
    pub hangs: u32,
}

impl Standing {
    /// Adds a game this engine played as `side`.
    pub fn add(&mut self, game: &GameRecord, side: Color) {
        self.wdl.add(game.points(side));
        if let Some((who, fault)) = game.fault {
            if who == side {
                match fault {
                    Fault::Crash => self.crashes += 1,
                    Fault::TimeForfeit => self.time_forfeits += 1,
                    Fault::Illegal => self.illegal += 1,
                    Fault::Hang => self.hangs += 1,
                }
            }
        }
    }

    /// Adds a complete game pair from this engine's points in its two games.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        self.penta.add(first, second);
    }

    /// Games not (yet) part of a complete pair.
    pub fn unpaired_games(&self) -> u32 {
        self.wdl.games().saturating_sub(2 * self.penta.pairs())
    }

    /// Elo ± 95% interval from its pairs or from its single games.
    pub fn elo(&self, model: Model) -> EloEstimate {
        match model {
            Model::Pentanomial => self.penta.elo(),
            Model::Trinomial => self.wdl.elo(),
        }
    }
}

/// The estimate behind the Elo column: one for the whole table, so that
/// rows compare, and named in a line under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloBasis {
    /// Pentanomial: from complete game pairs, the samples that are
    /// independent when the two games of an opening are not (fastchess's
    /// figure). Unpaired games (an odd `--games`, a stopped match) are left
    /// out of it.
    Pairs,
    /// Trinomial, because it was asked for (`--sprt … model=tri`).
    GamesAsAsked,
    /// Trinomial, because some engine that played has no complete pair yet.
    GamesForWantOfPairs,
}

impl EloBasis {
    /// Pairs when every engine that played has a complete pair, unless
    /// single games are asked for.
    pub fn choose(standings: &[Standing], pairs_wanted: bool) -> EloBasis {
        let played: Vec<&Standing> = standings.iter().filter(|s| s.wdl.games() > 0).collect();
        if !pairs_wanted {
            EloBasis::GamesAsAsked
        } else if !played.is_empty() && played.iter().all(|s| s.penta.pairs() > 0) {
            EloBasis::Pairs
        } else {
            EloBasis::GamesForWantOfPairs
        }
    }

    pub fn model(self) -> Model {
        match self {
            EloBasis::Pairs => Model::Pentanomial,
            _ => Model::Trinomial,
        }
    }

    /// The line under the table that says which estimate it shows.
    /// `unpaired` counts the games left out of the pairs, `pairs` the
    /// complete pairs of all engines.
    fn note(self, unpaired: u32, pairs: u32) -> String {
        match self {
            EloBasis::Pairs if unpaired == 0 => {
                "Elo ± 95%: pentanomial, from game pairs with colours swapped".to_string()
            }
            EloBasis::Pairs => format!(
                "Elo ± 95%: pentanomial, from game pairs with colours swapped ({unpaired} unpaired game{} left out)",
                if unpaired == 1 { "" } else { "s" }
            ),
            EloBasis::GamesAsAsked => {
                "Elo ± 95%: trinomial, from single games (as the SPRT's model=tri)".to_string()
            }
            EloBasis::GamesForWantOfPairs if pairs == 0 => {
                "Elo ± 95%: trinomial, from single games (no complete game pairs yet)".to_string()
            }
            EloBasis::GamesForWantOfPairs => {
                "Elo ± 95%: trinomial, from single games (not every engine has a complete game pair)"
                    .to_string()
            }
        }
    }
}

/// `1 game`, `2 games`.
pub fn count(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

fn percent(x: f64) -> String {
    if x.is_nan() {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * x)
    }
}

/// The final table, best score first: games, W/D/L, score, Elo ± 95%
/// interval (from `basis`) and LOS against the engines each one met, and its
/// failures; then a line naming the Elo estimate.
pub fn table(names: &[String], standings: &[Standing], basis: EloBasis) -> String {
    let mut order: Vec<usize> = (0..names.len().min(standings.len())).collect();
    let key = |i: &usize| {
        let s = standings[*i].wdl.score();
        if s.is_nan() {
            -1.0
        } else {
            s
        }
    };
    order.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.cmp(b)));
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let elos: Vec<String> = standings
        .iter()
        .map(|s| s.elo(basis.model()).to_string())
        .collect();
    // Wide enough for the words of an estimate without an interval.
    let elo_width = elos
        .iter()
        .map(|e| e.chars().count())
        .max()
        .unwrap_or(0)
        .max(16);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>5} {:>5} {:>5} {:>5}  {:>6}  {:>elo_width$}  {:>6}  {:>5} {:>5} {:>7} {:>5}\n",
        "Rank", "Name", "Games", "W", "D", "L", "Score", "Elo ± 95%", "LOS", "Crash", "Time", "Illegal", "Hang"
    );
    for (rank, &i) in order.iter().enumerate() {
        let s = &standings[i];
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>5} {:>5} {:>5} {:>5}  {:>6}  {:>elo_width$}  {:>6}  {:>5} {:>5} {:>7} {:>5}\n",
            rank + 1,
            names[i],
            s.wdl.games(),
            s.wdl.wins,
            s.wdl.draws,
            s.wdl.losses,
            percent(s.wdl.score()),
            elos[i],
            percent(s.wdl.los()),
            s.crashes,
            s.time_forfeits,
            s.illegal,
            s.hangs
        ));
    }
    // Each unpaired game is unpaired for both its engines.
    let unpaired = standings.iter().map(Standing::unpaired_games).sum::<u32>() / 2;
    let pairs = standings.iter().map(|s| s.penta.pairs()).sum();
    out.push_str(&basis.note(unpaired, pairs));
    out.push('\n');
    out
}

/// The line of a two-engine match under the table: the first engine's pair
/// counts, and the Elo they give, which is the table's own figure when the
/// table is from pairs, and labelled as the pentanomial one otherwise.
pub fn pairs_line(first: &str, second: &str, standing: &Standing, basis: EloBasis) -> String {
    let p = standing.penta;
    let mut line = format!(
        "{first} vs {second}: pentanomial [LL LD DD+WL WD WW] = [{} {} {} {} {}] over {} pair{}",
        p.0[0],
        p.0[1],
        p.0[2],
        p.0[3],
        p.0[4],
        p.pairs(),
        if p.pairs() == 1 { "" } else { "s" }
    );
    let estimate = p.elo().to_string();
    // "Elo +143.1 ± 51.8", "Elo > +140 (no losses)", but "no losses yet".
    let elo = if estimate.starts_with(char::is_alphabetic) {
        estimate
    } else {
        format!("Elo {estimate}")
    };
    if basis == EloBasis::Pairs {
        line.push_str(&format!(": {elo}, as in the table"));
    } else if p.pairs() > 0 {
        line.push_str(&format!(": pentanomial {elo}; the table's is trinomial"));
    } else {
        line.push_str(": no Elo from pairs yet; the table's is from single games");
    }
    line
}

/// The progress bar, when stderr is a terminal; the logger and `say` print
/// around it.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

fn bar() -> Option<ProgressBar> {
    BAR.lock().ok().and_then(|b| b.clone())
}

/// Runs `f` with the progress bar (if any) cleared from the screen.
fn around_bar(f: impl FnOnce()) {
    match bar() {
        Some(b) => b.suspend(f),
        None => f(),
    }
}

/// Prints a line of the report on stdout.
pub fn say(line: &str) {
    around_bar(|| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    });
}

/// The live progress display: games done, and the first engine's W/D/L and
/// Elo (plus the SPRT's LLR when one runs). Hidden unless stderr is a
/// terminal.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total as u64), target);
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {pos}/{len}  {msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        if let Ok(mut b) = BAR.lock() {
            *b = Some(bar.clone());
        }
        Progress { bar }
    }

    pub fn update(&self, done: usize, message: String) {
        self.bar.set_position(done as u64);
        self.bar.set_message(message);
    }

    pub fn finish(self) {
        self.bar.finish_and_clear();
        if let Ok(mut b) = BAR.lock() {
            *b = None;
        }
    }
}

/// Log output that clears the progress bar while it writes.
struct LogSink;

impl Write for LogSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut result = Ok(());
        around_bar(|| result = std::io::stderr().lock().write_all(buf));
        result.map(|()| buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// Diagnostics to stderr as `chariot-match: warning: …` lines, at `info`
/// and above unless `RUST_LOG` says otherwise.
pub fn init_logging() {
    let mut builder = env_logger::Builder::new();
    builder
        .target(env_logger::Target::Pipe(Box::new(LogSink)))
        .format(|buf, record| {
            let level = match record.level() {
                log::Level::Error => "error: ",
                log::Level::Warn => "warning: ",
                log::Level::Info => "",
                log::Level::Debug => "debug: ",
                log::Level::Trace => "trace: ",
            };
            writeln!(buf, "chariot-match: {level}{}", record.args())
        });
    match std::env::var("RUST_LOG") {
        Ok(filter) => builder.parse_filters(&filter),
        Err(_) => builder.filter_level(log::LevelFilter::Info),
    };
    let _ = builder.try_init();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::EndKind;

    fn game(winner: Option<Color>, fault: Option<(Color, Fault)>) -> GameRecord {
        GameRecord {
            start_fen: String::new(),
            opening_name: None,
            moves: Vec::new(),
            winner,
            end: EndKind::Normal,
            reason: String::new(),
            fault,
        }
    }

    #[test]
    fn standings_and_table() {
        let mut a = Standing::default();
        let mut b = Standing::default();
        let games = [
            game(Some(Color::Red), None),
            game(Some(Color::Black), Some((Color::Red, Fault::TimeForfeit))),
            game(None, None),
            game(Some(Color::Red), Some((Color::Black, Fault::Illegal))),
            game(Some(Color::Black), Some((Color::Red, Fault::Crash))),
        ];
        // a is Red in every game.
        for g in &games {
            a.add(g, Color::Red);
            b.add(g, Color::Black);
        }
        assert_eq!(
            (
                a.wdl.wins,
                a.wdl.draws,
                a.wdl.losses,
                a.time_forfeits,
                a.crashes,
                a.illegal
            ),
            (2, 1, 2, 1, 1, 0)
        );
        assert_eq!(
            (b.wdl.wins, b.wdl.losses, b.illegal, b.crashes),
            (2, 2, 1, 0)
        );
        let basis = EloBasis::choose(&[a, b], true);
        assert_eq!(basis, EloBasis::GamesForWantOfPairs);
        let t = table(
            &["alpha".to_string(), "beta-engine".to_string()],
            &[a, b],
            basis,
        );
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].contains("Rank") && lines[0].contains("Illegal"));
        // Equal scores keep the given order.
        assert!(
            lines[1].contains("alpha") && lines[1].contains("50.0%"),
            "{t}"
        );
        assert!(lines[1].contains("+0.0 ±"), "{t}");
        assert!(lines[2].contains("beta-engine"));
        assert_eq!(
            lines[3],
            "Elo ± 95%: trinomial, from single games (no complete game pairs yet)"
        );
    }

    #[test]
    fn table_sorts_by_score() {
        let mut a = Standing::default();
        let mut b = Standing::default();
        for _ in 0..3 {
            a.wdl.add(0.0);
            b.wdl.add(1.0);
        }
        let t = table(&["a".into(), "b".into()], &[a, b], EloBasis::GamesAsAsked);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[1].trim_start().starts_with("1  b"), "{t}");
        assert!(lines[1].contains("  no losses yet  "), "{t}");
        assert!(lines[2].contains("  no wins yet  "), "{t}");
        assert!(!t.contains("inf") && !t.contains("NaN"), "{t}");
        assert!(lines[3].contains("trinomial, from single games (as the SPRT's model=tri)"));
    }

    /// Two engines that played `pairs` (each the first engine's points in
    /// its two games) and then `extra` single games.
    fn two(pairs: &[(f64, f64)], extra: &[f64]) -> [Standing; 2] {
        let mut s = [Standing::default(); 2];
        for &(x, y) in pairs {
            for r in [x, y] {
                s[0].wdl.add(r);
                s[1].wdl.add(1.0 - r);
            }
            s[0].add_pair(x, y);
            s[1].add_pair(1.0 - x, 1.0 - y);
        }
        for &r in extra {
            s[0].wdl.add(r);
            s[1].wdl.add(1.0 - r);
        }
        s
    }

    /// The table and the pairs line under it, as printed.
    fn report(s: &[Standing; 2], pairs_wanted: bool) -> (String, String) {
        let basis = EloBasis::choose(s, pairs_wanted);
        let names = ["new".to_string(), "old".to_string()];
        (
            table(&names, s, basis),
            pairs_line(&names[0], &names[1], &s[0], basis),
        )
    }

    /// The Elo text in the row of `name`.
    fn row_elo<'a>(t: &'a str, name: &str) -> &'a str {
        let row = t
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap();
        // After rank, name, games, W, D, L and score, the column up to two
        // spaces (words within the Elo text are one apart).
        let mut rest = row;
        for _ in 0..7 {
            rest = rest.trim_start();
            rest = &rest[rest.find(' ').unwrap()..];
        }
        rest.split("  ")
            .map(str::trim)
            .find(|c| !c.is_empty())
            .unwrap()
    }

    /// Game pairs (the first engine's points in each game), games outside
    /// any pair, and the Elo text expected.
    type Case = (Vec<(f64, f64)>, Vec<f64>, &'static str);

    /// With pairs, the table's Elo is the pentanomial one and the line under
    /// it prints the very same text.
    #[test]
    fn table_and_pairs_line_agree() {
        let wl = (1.0, 0.0);
        let ww = (1.0, 1.0);
        let wd = (1.0, 0.5);
        let dd = (0.5, 0.5);
        let ld = (0.0, 0.5);
        let ll = (0.0, 0.0);
        let cases: Vec<Case> = vec![
            // Normal: 57 WW, 30 WD, 10 DD, 2 LD, 1 LL.
            (
                [
                    vec![ww; 57],
                    vec![wd; 30],
                    vec![dd; 10],
                    vec![ld; 2],
                    vec![ll],
                ]
                .concat(),
                vec![],
                "+301.3 ± 56.2",
            ),
            // The four games: "± 798.1" from games, "± 0.0" from pairs.
            (vec![wl, wl], vec![], "+0.0 (all pairs DD+WL)"),
            (vec![ww; 100], vec![], "> +570 (no losses)"),
            (vec![ll; 3], vec![], "no wins yet"),
            (vec![dd; 20], vec![], "+0.0 (all pairs DD+WL)"),
            (vec![wd], vec![], "+190.8 (too few pairs)"),
            (vec![ww], vec![0.0], "no losses yet"),
            // Lopsided: 20 WW, 2 WD, 1 DD.
            (
                [vec![ww; 20], vec![wd; 2], vec![dd]].concat(),
                vec![],
                "+537.0 (too few pairs)",
            ),
        ];
        for (pairs, extra, want) in cases {
            let s = two(&pairs, &extra);
            let (t, line) = report(&s, true);
            assert_eq!(row_elo(&t, "new"), want, "{t}");
            let elo = if want.starts_with(char::is_alphabetic) {
                want.to_string()
            } else {
                format!("Elo {want}")
            };
            assert!(
                line.ends_with(&format!(": {elo}, as in the table")),
                "{line}"
            );
            assert!(
                !t.contains("inf") && !t.contains("NaN") && !line.contains("inf"),
                "{t}"
            );
            let note = t.lines().last().unwrap();
            assert!(
                note.starts_with("Elo ± 95%: pentanomial, from game pairs"),
                "{t}"
            );
            assert_eq!(
                note.contains("(1 unpaired game left out)"),
                !extra.is_empty(),
                "{t}"
            );
        }
        let s = two(&[wl, wl], &[]);
        let (t, _) = report(&s, true);
        assert!(t.contains("   1  new"), "{t}");
        // The other side's row mirrors it.
        let s = two(&[ww; 100], &[]);
        let (t, _) = report(&s, true);
        assert_eq!(row_elo(&t, "old"), "< -570 (no wins)", "{t}");
    }

    /// Without complete pairs, or with trinomial asked for, the table is
    /// from single games and the line says so in words or with a label.
    #[test]
    fn pairs_line_without_pairs_or_with_trinomial_table() {
        // No games at all.
        let s = [Standing::default(); 2];
        let (t, line) = report(&s, true);
        assert_eq!(row_elo(&t, "new"), "no games", "{t}");
        assert!(
            t.contains("trinomial, from single games (no complete game pairs yet)"),
            "{t}"
        );
        assert_eq!(
            line,
            "new vs old: pentanomial [LL LD DD+WL WD WW] = [0 0 0 0 0] over 0 pairs: no Elo from pairs yet; the table's is from single games"
        );
        // One game.
        let s = two(&[], &[1.0]);
        let (t, line) = report(&s, true);
        assert_eq!(row_elo(&t, "new"), "no losses yet", "{t}");
        assert_eq!(row_elo(&t, "old"), "no wins yet", "{t}");
        assert!(
            line.contains("over 0 pairs: no Elo from pairs yet;"),
            "{line}"
        );
        // Trinomial asked for: both figures, each labelled.
        let s = two(&[(1.0, 0.0), (1.0, 0.0)], &[]);
        let (t, line) = report(&s, false);
        assert_eq!(row_elo(&t, "new"), "+0.0 ± 798.1", "{t}");
        assert!(t.contains("Elo ± 95%: trinomial, from single games (as the SPRT's model=tri)"));
        assert!(
            line.ends_with(
                "over 2 pairs: pentanomial Elo +0.0 (all pairs DD+WL); the table's is trinomial"
            ),
            "{line}"
        );
        // One pair.
        let s = two(&[(1.0, 0.5)], &[]);
        let (t, line) = report(&s, true);
        assert!(
            line.ends_with("[0 0 0 1 0] over 1 pair: Elo +190.8 (too few pairs), as in the table"),
            "{line}"
        );
        assert_eq!(row_elo(&t, "new"), "+190.8 (too few pairs)", "{t}");
    }

    #[test]
    fn basis_needs_a_pair_from_every_engine_that_played() {
        let [a, b] = two(&[(1.0, 0.0)], &[]);
        let idle = Standing::default();
        assert_eq!(EloBasis::choose(&[a, b, idle], true), EloBasis::Pairs);
        let [c, _] = two(&[], &[0.5]);
        assert_eq!(
            EloBasis::choose(&[a, b, c], true),
            EloBasis::GamesForWantOfPairs
        );
        assert_eq!(EloBasis::choose(&[a, b], false), EloBasis::GamesAsAsked);
        assert_eq!(EloBasis::choose(&[], true), EloBasis::GamesForWantOfPairs);
        assert_eq!(EloBasis::Pairs.model(), Model::Pentanomial);
        // Three games of a round robin left unpaired, each counted once:
        // a beats c, b draws c, c draws a.
        let mut s = [a, b, Standing::default()];
        for (x, y, r) in [(0, 2, 1.0), (1, 2, 0.5), (2, 0, 0.5)] {
            s[x].wdl.add(r);
            s[y].wdl.add(1.0 - r);
        }
        let t = table(&["a".into(), "b".into(), "c".into()], &s, EloBasis::Pairs);
        assert!(t.ends_with("(3 unpaired games left out)\n"), "{t}");
    }
}
