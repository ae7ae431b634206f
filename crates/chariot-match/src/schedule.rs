//! Which games a match plays: pairings (round robin or gauntlet), games per
//! pairing, and the opening of each game. The two games of a pair share an
//! opening with colours swapped; every pairing plays the same openings in the
//! same order, and pairings take turns so that a match stopped early has
//! played every pairing about equally.

/// How engines are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// 1-based, in schedule order (the PGN `Round`).
    pub number: usize,
    /// Index of the pairing, and of the game pair within it.
    pub pairing: usize,
    pub pair: usize,
    /// Engine indices.
    pub red: usize,
    pub black: usize,
    /// Index into the opening suite.
    pub opening: usize,
}

/// The pairings of `engines` engines: `(first, second)` index pairs.
pub fn pairings(format: Format, engines: usize) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// Every game of the match. `opening_order` lists the suite's indices in the
/// order to play them (cycled when there are more pairs than openings).
pub fn schedule(
    format: Format,
    engines: usize,
    games_per_pairing: u32,
    opening_order: &[usize],
) -> Vec<GameSpec> {
    let pairings = pairings(format, engines);
    let mut games = Vec::new();
    if opening_order.is_empty() {
        return games;
    }
    let per_pairing = games_per_pairing as usize;
    let pairs = per_pairing.div_ceil(2);
    for pair in 0..pairs {
        let opening = opening_order[pair % opening_order.len()];
        for (p, &(a, b)) in pairings.iter().enumerate() {
            for (k, (red, black)) in [(a, b), (b, a)].into_iter().enumerate() {
                if 2 * pair + k >= per_pairing {
                    break;
                }
                games.push(GameSpec {
                    number: games.len() + 1,
                    pairing: p,
                    pair,
                    red,
                    black,
                    opening,
                });
            }
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_by_format() {
        assert_eq!(
            pairings(Format::RoundRobin, 3),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(pairings(Format::Gauntlet, 4), vec![(0, 1), (0, 2), (0, 3)]);
        assert!(pairings(Format::RoundRobin, 1).is_empty());
    }

    #[test]
    fn openings_twice_with_colours_swapped() {
        let games = schedule(Format::RoundRobin, 3, 4, &[7, 3]);
        assert_eq!(games.len(), 12);
        // The first pair of every pairing uses opening 7, the second opening 3.
        for g in &games {
            assert_eq!(g.opening, if g.pair == 0 { 7 } else { 3 });
        }
        // Within a pair, the same two engines with colours swapped.
        for pair in games.chunks(2) {
            assert_eq!(pair[0].pairing, pair[1].pairing);
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!((pair[0].red, pair[0].black), (pair[1].black, pair[1].red));
        }
        // Every engine plays as many games as Red as Black.
        for e in 0..3 {
            let red = games.iter().filter(|g| g.red == e).count();
            let black = games.iter().filter(|g| g.black == e).count();
            assert_eq!((red, black), (4, 4));
        }
        let numbers: Vec<usize> = games.iter().map(|g| g.number).collect();
        assert_eq!(numbers, (1..=12).collect::<Vec<_>>());
        // Pairings take turns.
        assert_eq!(games[0].pairing, 0);
        assert_eq!(games[2].pairing, 1);
        assert_eq!(games[4].pairing, 2);
        assert_eq!(games[6].pairing, 0);
    }

    #[test]
    fn odd_game_counts_and_cycling() {
        let games = schedule(Format::Gauntlet, 2, 5, &[0, 1]);
        assert_eq!(games.len(), 5);
        assert_eq!(
            games.iter().map(|g| g.opening).collect::<Vec<_>>(),
            vec![0, 0, 1, 1, 0]
        );
        assert_eq!((games[4].red, games[4].black), (0, 1));
        assert!(schedule(Format::Gauntlet, 2, 4, &[]).is_empty());
    }
}
