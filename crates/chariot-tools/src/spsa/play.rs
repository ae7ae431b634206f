//! Pairs of real games: two processes of one engine binary (a `tune`
//! build) that differ only in the tuned options, played by chariot-match's
//! game loop with its clocks, rules and adjudication.

use super::params::Param;
use super::tuner::Pair;
use super::PairPlayer;
use chariot::xiangqi::Color;
use chariot_match::engine::{validate_options, Engine, EngineSpec, OptionKind, SetOption};
use chariot_match::game::{self, GameConfig, Player};
use chariot_match::openings::Opening;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What every pair is played with.
pub struct Setup {
    pub game: GameConfig,
    pub spec: EngineSpec,
    /// The user's options, as checked against the engine.
    pub options: Vec<SetOption>,
    /// The tuned options' names as the engine spells them, in the order of
    /// the parameters.
    pub tuned: Vec<String>,
    pub openings: Vec<Opening>,
}

impl Setup {
    /// Starts the engine once to check it: it must start, take the user's
    /// options, and have each parameter as a spin option whose range holds
    /// the parameter's.
    pub fn probe(
        game: GameConfig,
        spec: &EngineSpec,
        params: &[Param],
        openings: Vec<Opening>,
    ) -> Result<Setup, String> {
        let label = spec.name.clone().unwrap_or_else(|| spec.fallback_name());
        let engine = Engine::start(spec, &label, &[], game.ready_timeout)
            .map_err(|e| format!("the engine cannot play: {e}"))?;
        let label = spec
            .name
            .clone()
            .or(engine.id_name.clone())
            .unwrap_or(label);
        let (options, problems) = validate_options(&spec.options, &engine.advertised);
        if let Some(p) = problems.first() {
            return Err(format!(
                "engine {label} {}",
                p.trim_end_matches("; not set")
            ));
        }
        let mut tuned = Vec::new();
        for p in params {
            let Some(adv) = engine.option(&p.name) else {
                return Err(format!(
                    "engine {label} has no option {}: is it a tuning build \
                     (cargo build --release --features tune)?",
                    p.name
                ));
            };
            let OptionKind::Spin { min, max } = adv.kind else {
                return Err(format!(
                    "engine {label}: option {} is not a spin option",
                    adv.name
                ));
            };
            if min.is_some_and(|m| m > i64::from(p.min))
                || max.is_some_and(|m| m < i64::from(p.max))
            {
                return Err(format!(
                    "engine {label}: option {} takes {}..{}, less than the parameter's {}..{}",
                    adv.name,
                    min.map_or(String::new(), |m| m.to_string()),
                    max.map_or(String::new(), |m| m.to_string()),
                    p.min,
                    p.max
                ));
            }
            tuned.push(adv.name.clone());
        }
        let mut spec = spec.clone();
        // Later starts use the move notation found now.
        spec.ranks = Some(engine.dialect.ranks);
        engine.quit(Duration::from_millis(500));
        Ok(Setup {
            game,
            spec,
            options,
            tuned,
            openings,
        })
    }

    /// The player with the tuned options at `values`.
    fn player(&self, name: &str, values: &[i32]) -> Player {
        let mut options = self.options.clone();
        options.extend(self.tuned.iter().zip(values).map(|(n, v)| SetOption {
            name: n.clone(),
            value: Some(v.to_string()),
        }));
        Player {
            name: name.to_string(),
            spec: self.spec.clone(),
            options,
        }
    }
}

/// A worker's two engine processes, θ+'s and θ−'s, kept from pair to pair
/// (dropping them kills them).
pub struct Engines<'a> {
    setup: &'a Setup,
    slots: [Option<Engine>; 2],
}

impl<'a> Engines<'a> {
    pub fn new(setup: &'a Setup) -> Engines<'a> {
        Engines {
            setup,
            slots: [None, None],
        }
    }
}

impl PairPlayer for Engines<'_> {
    fn play(&mut self, pair: &Pair, stop: &AtomicBool) -> Option<[f64; 2]> {
        let setup = self.setup;
        // Running engines are given this pair's values now; the game's
        // `isready` waits until they have taken them. One that has died
        // fails its new game and is started again with the player's options,
        // which hold the same values.
        for (slot, values) in self.slots.iter_mut().zip([&pair.plus, &pair.minus]) {
            if let Some(engine) = slot {
                for (name, v) in setup.tuned.iter().zip(values.iter()) {
                    let line = engine.dialect.setoption(name, Some(&v.to_string()));
                    if engine.send(&line).is_err() {
                        break;
                    }
                }
            }
        }
        let plus = setup.player("theta+", &pair.plus);
        let minus = setup.player("theta-", &pair.minus);
        let opening = &setup.openings[pair.opening];
        let [p, m] = &mut self.slots;
        let first = game::play(&setup.game, [&plus, &minus], [p, m], opening, stop)?;
        let second = game::play(&setup.game, [&minus, &plus], [m, p], opening, stop)?;
        Some([first.points(Color::Red), second.points(Color::Black)])
    }
}
