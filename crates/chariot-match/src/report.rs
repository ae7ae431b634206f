//! What the runner reports: per-engine standings and the final table, the
//! line for each finished game, the live progress bar on stderr, and the
//! logger that keeps diagnostics from tearing the bar.

use super::game::{Fault, GameRecord};
use super::stats::Wdl;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use xiangqi::types::Color;

/// One engine's results over all its games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub wdl: Wdl,
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
}

fn percent(x: f64) -> String {
    if x.is_nan() {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * x)
    }
}

/// The final table, best score first: games, W/D/L, score, Elo ± 95%
/// interval and LOS against the engines each one met, and its failures.
pub fn table(names: &[String], standings: &[Standing]) -> String {
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
    let mut out = format!(
        "{:>4}  {:<width$}  {:>5} {:>5} {:>5} {:>5}  {:>6}  {:>16}  {:>6}  {:>5} {:>5} {:>7} {:>5}\n",
        "Rank", "Name", "Games", "W", "D", "L", "Score", "Elo ± 95%", "LOS", "Crash", "Time", "Illegal", "Hang"
    );
    for (rank, &i) in order.iter().enumerate() {
        let s = &standings[i];
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>5} {:>5} {:>5} {:>5}  {:>6}  {:>16}  {:>6}  {:>5} {:>5} {:>7} {:>5}\n",
            rank + 1,
            names[i],
            s.wdl.games(),
            s.wdl.wins,
            s.wdl.draws,
            s.wdl.losses,
            percent(s.wdl.score()),
            s.wdl.elo().to_string(),
            percent(s.wdl.los()),
            s.crashes,
            s.time_forfeits,
            s.illegal,
            s.hangs
        ));
    }
    out
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

/// Diagnostics to stderr as `chariot match: warning: …` lines, at `info`
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
            writeln!(buf, "chariot match: {level}{}", record.args())
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
        let t = table(&["alpha".to_string(), "beta-engine".to_string()], &[a, b]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].contains("Rank") && lines[0].contains("Illegal"));
        // Equal scores keep the given order.
        assert!(
            lines[1].contains("alpha") && lines[1].contains("50.0%"),
            "{t}"
        );
        assert!(lines[1].contains("+0.0 ±"), "{t}");
        assert!(lines[2].contains("beta-engine"));
    }

    #[test]
    fn table_sorts_by_score() {
        let mut a = Standing::default();
        let mut b = Standing::default();
        for _ in 0..3 {
            a.wdl.add(0.0);
            b.wdl.add(1.0);
        }
        let t = table(&["a".into(), "b".into()], &[a, b]);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[1].trim_start().starts_with("1  b"), "{t}");
        assert!(lines[1].contains("+inf"), "{t}");
        assert!(lines[2].contains("-inf"), "{t}");
    }
}
