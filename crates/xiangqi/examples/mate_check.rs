//! Exact mate check for the tactics suite (used by scripts/data/make_tactics.py).
//!
//! A plain AND/OR search over every legal move, with no pruning and no
//! evaluation, using only the move generator (proven equal to
//! fairy-stockfish's and pyffish's by perft): it finds, for a position and a
//! bound N, every root move that mates in at most N moves, and the shortest
//! mate. Positions are judged without history (no repetition), and having no
//! legal move loses, in check or not.
//!
//! Reads lines `<FEN> ; <N>` on stdin and answers each with one line:
//! `mate <K> ; <moves>` (the shortest mate K <= N and every root move that
//! mates in <= N), `none` (no mate in <= N), `unknown` (the node budget ran
//! out) or `error <message>`.
//!
//! Usage: cargo run --release --example mate_check [-- <node budget per line>]

use std::collections::HashMap;
use std::io::{BufRead, Write};
use xiangqi::{Move, Position};

/// Default node budget per line.
const DEFAULT_BUDGET: u64 = 200_000_000;
/// Longest mate asked for: the search recurses two plies per move, so an
/// absurd bound would overflow the stack before the budget runs out.
const MAX_BOUND: u32 = 20;

/// Out of budget.
struct Exhausted;

/// What is known about one position with the attacker to move: it mates
/// within `mates` moves (if any), and not within `fails` moves.
#[derive(Clone, Copy, Default)]
struct Known {
    mates: Option<u32>,
    fails: u32,
}

struct Solver {
    nodes: u64,
    budget: u64,
    table: HashMap<u64, Known>,
}

impl Solver {
    fn count(&mut self) -> Result<(), Exhausted> {
        self.nodes += 1;
        if self.nodes > self.budget {
            Err(Exhausted)
        } else {
            Ok(())
        }
    }

    /// The side to move mates within `n` moves.
    fn mates(&mut self, pos: &mut Position, n: u32) -> Result<bool, Exhausted> {
        if n == 0 {
            return Ok(false);
        }
        let known = self.table.get(&pos.key()).copied().unwrap_or_default();
        if known.mates.is_some_and(|k| k <= n) {
            return Ok(true);
        }
        if known.fails >= n {
            return Ok(false);
        }
        self.count()?;
        // Checks first: most mating moves are.
        let mut moves: Vec<(bool, Move)> = Vec::new();
        for &m in pos.legal_moves().iter() {
            pos.make_move(m);
            let check = pos.in_check();
            pos.unmake_move();
            moves.push((!check, m));
        }
        moves.sort_by_key(|&(quiet, _)| quiet);
        let mut found = false;
        for (_, m) in moves {
            pos.make_move(m);
            let mated = self.mated(pos, n);
            pos.unmake_move();
            if mated? {
                found = true;
                break;
            }
        }
        let entry = self.table.entry(pos.key()).or_default();
        if found {
            entry.mates = Some(entry.mates.map_or(n, |k| k.min(n)));
        } else {
            entry.fails = entry.fails.max(n);
        }
        Ok(found)
    }

    /// The side to move (having just received the attacker's move, with
    /// `n - 1` attacker moves left) is mated.
    fn mated(&mut self, pos: &mut Position, n: u32) -> Result<bool, Exhausted> {
        self.count()?;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(true);
        }
        if n <= 1 {
            return Ok(false);
        }
        for &m in moves.iter() {
            pos.make_move(m);
            let mates = self.mates(pos, n - 1);
            pos.unmake_move();
            if !mates? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether root move `m` mates within `n` moves.
    fn root_move_mates(&mut self, pos: &mut Position, m: Move, n: u32) -> Result<bool, Exhausted> {
        pos.make_move(m);
        let mated = self.mated(pos, n);
        pos.unmake_move();
        mated
    }
}

/// Answers one `<FEN> ; <N>` line.
fn answer(line: &str, budget: u64) -> String {
    let Some((fen, n)) = line.split_once(';') else {
        return "error expected `<FEN> ; <N>`".to_owned();
    };
    let n = match n.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_BOUND).contains(&n) => n,
        _ => return format!("error bound {:?} is not in 1..={MAX_BOUND}", n.trim()),
    };
    let mut pos = match Position::from_fen(fen.trim()) {
        Ok(pos) => pos,
        Err(e) => return format!("error {e}"),
    };
    let mut solver = Solver {
        nodes: 0,
        budget,
        table: HashMap::new(),
    };
    let roots: Vec<Move> = pos.legal_moves().to_vec();
    let run = |solver: &mut Solver, pos: &mut Position| -> Result<String, Exhausted> {
        // The shortest mate first (iterative deepening fills the table).
        let mut shortest = None;
        for k in 1..=n {
            if solver.mates(pos, k)? {
                shortest = Some(k);
                break;
            }
        }
        let Some(k) = shortest else {
            return Ok("none".to_owned());
        };
        let mut moves = Vec::new();
        for &m in &roots {
            if solver.root_move_mates(pos, m, n)? {
                moves.push(m.to_string());
            }
        }
        moves.sort();
        Ok(format!("mate {k} ; {}", moves.join(" ")))
    };
    match run(&mut solver, &mut pos) {
        Ok(text) => text,
        Err(Exhausted) => "unknown".to_owned(),
    }
}

fn main() {
    let budget = match std::env::args().nth(1) {
        None => DEFAULT_BUDGET,
        Some(arg) => match arg.parse() {
            Ok(budget) => budget,
            Err(_) => {
                eprintln!("mate_check: the node budget {arg:?} is not a number");
                std::process::exit(2);
            }
        },
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    // Lines as bytes: a line that is not UTF-8 gets an error answer, like any
    // other bad line, instead of ending the run.
    for line in stdin.lock().split(b'\n') {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let text = answer(line, budget);
        if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
