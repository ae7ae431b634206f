//! What a run has found: a table of every parameter (start, now, range,
//! change) and the lines to paste into the `tunables!` of
//! src/search/params.rs, each value rounded, as `name = value, min, max,
//! c_end;`. Both are printed and written next to the state file, as
//! `STATE.table.txt` and `STATE.rs`.

use super::state::{sibling, State};
use anyhow::{Context, Result};
use std::path::Path;

/// The table, headed by how far the run has got.
pub fn table(state: &State) -> String {
    let t = &state.tuner;
    let mut text = format!(
        "SPSA: {} of {} pairs (seed {}); θ+ scored W {} D {} L {}\n",
        t.finished(),
        t.schedule.pairs,
        t.seed,
        t.wdl.wins,
        t.wdl.draws,
        t.wdl.losses
    );
    let width = t
        .params
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max(4);
    text.push_str(&format!(
        "{:width$}  {:>9}  {:>9}  {:>6}  {:>6}  {:>8}\n",
        "name", "start", "now", "min", "max", "change"
    ));
    for (p, &now) in t.params.iter().zip(&t.theta) {
        text.push_str(&format!(
            "{:width$}  {:>9}  {:>9.2}  {:>6}  {:>6}  {:>+8.2}\n",
            p.name,
            p.start,
            now,
            p.min,
            p.max,
            now - p.start
        ));
    }
    text
}

/// The lines for `tunables!`, with a comment saying where they come from.
pub fn rust_lines(state: &State, source: &str) -> String {
    let t = &state.tuner;
    let mut text = format!(
        "    // chariot-tools spsa ({source}): {} of {} pairs\n",
        t.finished(),
        t.schedule.pairs
    );
    for (p, &now) in t.params.iter().zip(&t.theta) {
        let value = (now.round() as i32).clamp(p.min, p.max);
        text.push_str(&format!(
            "    {} = {value}, {}, {}, {:?};\n",
            p.name, p.min, p.max, p.c_end
        ));
    }
    text
}

/// Prints the table and the lines and writes them next to the state file at
/// `path`.
pub fn report(state: &State, path: &Path) -> Result<()> {
    let table = table(state);
    let lines = rust_lines(state, &path.display().to_string());
    println!("{table}\nFor src/search/params.rs (tunables!):\n{lines}");
    for (suffix, text) in [(".table.txt", &table), (".rs", &lines)] {
        let out = sibling(path, suffix);
        std::fs::write(&out, text).with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tuner::{tests::params, Tuner};
    use super::*;

    #[test]
    fn table_and_lines() {
        let mut ps = params(&[(200.0, 0, 600, 20.0), (16384.0, 4096, 65536, 1500.0)]);
        ps[0].name = "razor_base".into();
        ps[1].name = "lmr_history_div".into();
        let mut tuner = Tuner::new(ps, 100, 3, 64);
        tuner.theta = vec![187.4, 16900.5];
        tuner.done_through = 40;
        tuner.wdl.wins = 30;
        tuner.wdl.draws = 22;
        tuner.wdl.losses = 28;
        let state = State {
            settings: Vec::new(),
            tuner,
        };
        assert_eq!(
            table(&state),
            "SPSA: 40 of 100 pairs (seed 3); θ+ scored W 30 D 22 L 28\n\
             name                 start        now     min     max    change\n\
             razor_base             200     187.40       0     600    -12.60\n\
             lmr_history_div      16384   16900.50    4096   65536   +516.50\n"
        );
        assert_eq!(
            rust_lines(&state, "run.state"),
            "    // chariot-tools spsa (run.state): 40 of 100 pairs\n    \
             razor_base = 187, 0, 600, 20.0;\n    \
             lmr_history_div = 16901, 4096, 65536, 1500.0;\n"
        );
    }
}
