//! The network evaluation: the net file format (round trip, every kind of
//! corruption refused with a reason, never a panic), and accumulators kept
//! incrementally over random playouts always equal to a fresh computation.

mod common;

use chariot::nnue::{
    self, file_len, output_bucket, Accumulator, NetError, Network, FILE_LEN, HIDDEN, INPUTS,
    OUTPUT_BUCKETS,
};
use common::random_position;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi::Position;

/// A random network of one output, with weights of a trained net's size.
fn random_net(seed: u64) -> Network {
    random_bucketed_net(seed, 1)
}

/// A random network with `buckets` outputs.
fn random_bucketed_net(seed: u64, buckets: usize) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    Network {
        hidden_weights: (0..INPUTS * HIDDEN)
            .map(|_| rng.random_range(-120..=120))
            .collect(),
        hidden_bias: (0..HIDDEN).map(|_| rng.random_range(-200..=200)).collect(),
        output_weights: (0..buckets * 2 * HIDDEN)
            .map(|_| rng.random_range(-nnue::MAX_OUTPUT_WEIGHT..=nnue::MAX_OUTPUT_WEIGHT))
            .collect(),
        output_bias: (0..buckets)
            .map(|_| rng.random_range(-50_000..=50_000))
            .collect(),
    }
}

#[test]
fn net_files_round_trip() {
    for buckets in [1, OUTPUT_BUCKETS] {
        let net = random_bucketed_net(1, buckets);
        let bytes = net.to_bytes();
        let len = file_len(buckets);
        assert_eq!(bytes.len(), len);
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert_eq!(
            u64::from_le_bytes(bytes[len - 8..].try_into().unwrap()),
            net.hash()
        );
        // One output is format version 1 with the bucket field 0, as before
        // buckets; buckets are version 2, their count in that field.
        let field = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let want = if buckets == 1 {
            (1, 0)
        } else {
            (2, buckets as u16)
        };
        assert_eq!((field(4), field(18)), want);
    }
    assert_eq!(FILE_LEN, file_len(1));
}

#[test]
fn bucket_counts_other_than_one_and_the_builds_are_refused() {
    let bucketed = random_bucketed_net(11, OUTPUT_BUCKETS).to_bytes();
    for bad in [
        0u16,
        1,
        2,
        OUTPUT_BUCKETS as u16 - 1,
        OUTPUT_BUCKETS as u16 + 1,
        999,
    ] {
        let mut other = bucketed.clone();
        other[18..20].copy_from_slice(&bad.to_le_bytes());
        let refusal = Network::from_bytes(&other);
        assert_eq!(refusal, Err(NetError::Buckets(bad)), "{bad} buckets");
        let message = refusal.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains(&format!("{bad} output buckets")),
            "{message}"
        );
    }
    // A version-1 file's field is reserved: ignored, one output.
    let mut single = random_net(12).to_bytes();
    single[18] = 5;
    assert!(matches!(
        Network::from_bytes(&single),
        Err(NetError::Hash { .. })
    ));
}

#[test]
fn output_buckets_go_by_the_rooks_horses_and_cannons_left() {
    let start = Position::startpos();
    assert_eq!(output_bucket(&start), OUTPUT_BUCKETS - 1);
    let kings = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").expect("legal");
    assert_eq!(output_bucket(&kings), 0);
    // Pawns, advisors and elephants do not count.
    let minor = Position::from_fen("3akab2/9/4b4/p1p1p1p1p/9/9/P1P1P1P1P/4B4/9/2BAKA3 w - - 0 1")
        .expect("legal");
    assert_eq!(output_bucket(&minor), 0);
    // From 0 to 12 majors, every bucket in order, none skipped.
    let buckets: Vec<usize> = (0..=12).map(nnue::bucket_of_majors).collect();
    assert_eq!(buckets.first(), Some(&0));
    assert_eq!(buckets.last(), Some(&(OUTPUT_BUCKETS - 1)));
    assert!(
        buckets.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1),
        "{buckets:?}"
    );
    assert_eq!(nnue::bucket_of_majors(40), OUTPUT_BUCKETS - 1);
}

#[test]
fn a_bucketed_net_evaluates_with_the_bucket_of_the_position() {
    let net = random_bucketed_net(13, OUTPUT_BUCKETS);
    // Bucket b alone, as a net of one output.
    let single = |b: usize| Network {
        output_weights: net.output_weights[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN].to_vec(),
        output_bias: vec![net.output_bias[b]],
        ..net.clone()
    };
    let singles: Vec<Network> = (0..OUTPUT_BUCKETS).map(single).collect();
    let mut rng = StdRng::seed_from_u64(14);
    let mut seen = [false; OUTPUT_BUCKETS];
    for _ in 0..300 {
        let pos = random_position(&mut rng);
        let b = output_bucket(&pos);
        seen[b] = true;
        let acc = net.refresh(&pos);
        assert_eq!(
            net.evaluate(&acc, &pos),
            singles[b].evaluate(&acc, &pos),
            "{}",
            pos.to_fen()
        );
    }
    assert!(seen.iter().filter(|&&s| s).count() >= 6, "{seen:?}");
}

#[test]
fn corrupt_net_files_are_refused_with_a_reason() {
    let bytes = random_net(2).to_bytes();
    // A flipped byte anywhere is caught.
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..200 {
        let mut bad = bytes.clone();
        let at = rng.random_range(0..bad.len());
        bad[at] ^= 1 << rng.random_range(0..8);
        assert!(Network::from_bytes(&bad).is_err(), "flip at {at} accepted");
    }
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Magic));
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 1]),
        Err(NetError::Size { .. })
    ));
    // A well-formed file of another shape.
    let mut other = bytes.clone();
    let wider = 2 * HIDDEN as u16;
    other[10..12].copy_from_slice(&wider.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&other),
        Err(NetError::Shape { hidden, .. }) if hidden == wider
    ));
    // A net of another width has another size too: it is named by its shape.
    other.resize(other.len() + 2 * (INPUTS + 3) * HIDDEN, 0);
    let refusal = Network::from_bytes(&other);
    assert!(matches!(refusal, Err(NetError::Shape { hidden, .. }) if hidden == wider));
    let message = refusal.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains(&format!("{wider} hidden")), "{message}");
    if wider == 512 {
        assert!(message.contains("--features hidden-512"), "{message}");
    }
    // Too short for its header (20 bytes).
    assert!(matches!(
        Network::from_bytes(&bytes[..12]),
        Err(NetError::Size { .. })
    ));
    // Output weights out of range, with a valid hash.
    let mut wild = random_net(4);
    for w in [1000, -128, i16::MIN] {
        wild.output_weights[7] = w;
        assert_eq!(Network::from_bytes(&wild.to_bytes()), Err(NetError::Range));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, rng_seed: proptest::test_runner::RngSeed::Fixed(9), ..ProptestConfig::default() })]
    #[test]
    fn random_bytes_are_refused_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        prop_assert!(Network::from_bytes(&bytes).is_err());
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_over_random_playouts() {
    let net = random_net(5);
    let mut rng = StdRng::seed_from_u64(6);
    let playouts = if cfg!(debug_assertions) { 10 } else { 100 };
    for i in 0..playouts {
        let mut pos = if i % 2 == 0 {
            Position::startpos()
        } else {
            random_position(&mut rng)
        };
        let mut acc: Accumulator = net.refresh(&pos);
        for _ in 0..150 {
            assert_eq!(acc, net.refresh(&pos), "{}", pos.to_fen());
            // The evaluation is a function of the accumulators.
            let _ = net.evaluate(&acc, &pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
            net.update(&mut acc, &pos.last_change().expect("a move"));
        }
    }
}

#[test]
fn the_evaluation_is_symmetric_under_colour_flip() {
    let nets = [random_net(7), random_bucketed_net(7, OUTPUT_BUCKETS)];
    let mut rng = StdRng::seed_from_u64(8);
    for i in 0..100 {
        let net = &nets[i % 2];
        let pos = random_position(&mut rng);
        let flipped = pos.color_flipped();
        assert_eq!(
            net.evaluate(&net.refresh(&pos), &pos),
            net.evaluate(&net.refresh(&flipped), &flipped),
            "{}",
            pos.to_fen()
        );
    }
}

#[test]
fn the_vector_kernels_equal_the_portable_ones() {
    use nnue::kernels;
    let has_avx2 = cfg!(target_arch = "x86_64") && std::arch::is_x86_feature_detected!("avx2");
    eprintln!(
        "kernels: AVX2 {}",
        if has_avx2 {
            "in use"
        } else {
            "absent: portable only"
        }
    );
    let mut rng = StdRng::seed_from_u64(10);
    let mut arr =
        |lo: i16, hi: i16| -> [i16; HIDDEN] { std::array::from_fn(|_| rng.random_range(lo..=hi)) };
    for round in 0..200 {
        // Extremes included: sums past both ends of the clip, the largest weights.
        let (lo, hi) = if round % 4 == 0 {
            (i16::MIN, i16::MAX)
        } else {
            (-600, 600)
        };
        let sums = arr(lo, hi);
        let w = nnue::MAX_OUTPUT_WEIGHT;
        let weights = arr(-w, w);
        let sums = if round % 8 == 0 {
            [i16::MAX; HIDDEN]
        } else {
            sums
        };
        let weights = if round % 8 == 0 { [w; HIDDEN] } else { weights };
        // Both builds come from one source, so check them against plain
        // i64 arithmetic too: the blocked i32 sums must not wrap.
        let exact: i64 = sums
            .iter()
            .zip(&weights)
            .map(|(&s, &w)| i64::from(s.clamp(0, nnue::QA as i16)).pow(2) * i64::from(w))
            .sum();
        assert_eq!(kernels::screlu_dot_portable(&sums, &weights), exact);
        assert_eq!(kernels::screlu_dot(&sums, &weights), exact);
        let (a, b, c) = (arr(lo, hi), arr(lo, hi), arr(lo, hi));
        let (mut x, mut y) = (sums, sums);
        kernels::sub_add(&mut x, &a, &b);
        kernels::sub_add_portable(&mut y, &a, &b);
        assert_eq!(x, y);
        kernels::sub_add_sub(&mut x, &a, &b, &c);
        kernels::sub_add_sub_portable(&mut y, &a, &b, &c);
        assert_eq!(x, y);
    }
}

// The committed nets are 256 wide: builds of another width cannot read them.
#[cfg(not(any(feature = "hidden-128", feature = "hidden-512")))]
#[test]
fn the_built_in_net_reads_and_every_committed_net_is_named_by_its_hash() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("nets/ holds the built-in net") {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .to_string();
        let bytes = std::fs::read(&path).expect("readable");
        let net = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(name, chariot::nets::committed_name(&net), "{name}");
        names.push(name);
    }
    assert!(
        names.contains(&chariot::nets::BUILTIN_NET_FILE.to_string()),
        "{names:?}"
    );
    let builtin = chariot::nets::builtin_net().expect("the built-in net reads");
    let file = std::fs::read(dir.join(chariot::nets::BUILTIN_NET_FILE)).expect("readable");
    assert_eq!(builtin.to_bytes(), file);
    // It knows the game: a rook up is a won position for the side with it,
    // and the start is level (within a pawn).
    let start = Position::startpos();
    let level = builtin.evaluate(&builtin.refresh(&start), &start);
    assert!(level.abs() < 100, "{level}");
    let rook_up =
        Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
            .expect("a legal position");
    let up = builtin.evaluate(&builtin.refresh(&rook_up), &rook_up);
    assert!(up > 300, "{up}");
}
