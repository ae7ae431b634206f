//! The network evaluation: the net file format (round trip, every kind of
//! corruption refused with a reason, never a panic), and accumulators kept
//! incrementally over random playouts always equal to a fresh computation.

mod common;

use chariot::eval::nnue::{
    self, file_len, output_bucket, Accumulator, NetError, Network, View, FILE_LEN, HIDDEN, INPUTS,
    KING_BUCKETS, OUTPUT_BUCKETS,
};
use common::random_position;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi::{Color, Position, Square};

/// A random network of one output, with weights of a trained net's size.
fn random_net(seed: u64) -> Network {
    random_shaped_net(seed, 1, 1)
}

/// A random network with `buckets` outputs.
fn random_bucketed_net(seed: u64, buckets: usize) -> Network {
    random_shaped_net(seed, 1, buckets)
}

/// A random network with `king_buckets` sets of inputs and `buckets`
/// outputs.
fn random_shaped_net(seed: u64, king_buckets: usize, buckets: usize) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    Network {
        hidden_weights: (0..king_buckets * INPUTS * HIDDEN)
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

/// Every shape a net may have: (king buckets, output buckets).
const SHAPES: [(usize, usize); 4] = [
    (1, 1),
    (1, OUTPUT_BUCKETS),
    (KING_BUCKETS, 1),
    (KING_BUCKETS, OUTPUT_BUCKETS),
];

#[test]
fn net_files_round_trip() {
    for (king_buckets, buckets) in SHAPES {
        let net = random_shaped_net(1, king_buckets, buckets);
        assert_eq!((net.king_buckets(), net.buckets()), (king_buckets, buckets));
        let bytes = net.to_bytes();
        let len = file_len(king_buckets, buckets);
        assert_eq!(bytes.len(), len);
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert_eq!(
            u64::from_le_bytes(bytes[len - 8..].try_into().unwrap()),
            net.hash()
        );
        // A plain net is format version 1 with the bucket field 0, as
        // before buckets; buckets of either kind make it version 2, with
        // the inputs and the output bucket count in their fields.
        let field = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let want = if (king_buckets, buckets) == (1, 1) {
            (1, 0)
        } else {
            (2, buckets as u16)
        };
        assert_eq!((field(4), field(18)), want);
        assert_eq!(usize::from(field(8)), king_buckets * INPUTS);
    }
    // Version 1 knows no king buckets.
    let mut old = random_shaped_net(1, KING_BUCKETS, 1).to_bytes();
    old[4..6].copy_from_slice(&1u16.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&old),
        Err(NetError::Shape { inputs, .. }) if usize::from(inputs) == KING_BUCKETS * INPUTS
    ));
    assert_eq!(FILE_LEN, file_len(1, 1));
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
    let nets = SHAPES.map(|(k, b)| random_shaped_net(5, k, b));
    let mut rng = StdRng::seed_from_u64(6);
    let playouts = if cfg!(debug_assertions) { 12 } else { 120 };
    // King moves from one bucket into another (each recomputes its side).
    let mut rebucketed = 0;
    for i in 0..playouts {
        let net = &nets[i % SHAPES.len()];
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
            let m = moves[rng.random_range(0..moves.len())];
            let mover = pos.piece_at(m.from()).color();
            pos.make_move(m);
            if View::of_king(mover, m.from()) != View::of_king(mover, pos.king_square(mover)) {
                rebucketed += 1;
            }
            net.update(&mut acc, &pos.last_change().expect("a move"), &pos);
        }
    }
    assert!(rebucketed >= 20, "{rebucketed} king moves changed bucket");
}

#[test]
fn king_buckets_are_the_palace_by_rank_and_centre_with_the_side_files_mirrored() {
    let sq = |s: &str| Square::parse(s).expect("a square");
    let mut views = std::collections::BTreeSet::new();
    for (red, black) in [("d0", "d9"), ("e1", "e8"), ("f2", "f7"), ("e0", "e9")] {
        // Each side sees its own palace alike.
        let v = View::of_king(Color::Red, sq(red));
        assert_eq!(v, View::of_king(Color::Black, sq(black)), "{red} {black}");
    }
    for file in ["d", "e", "f"] {
        for rank in 0..3 {
            let v = View::of_king(Color::Red, sq(&format!("{file}{rank}")));
            assert_eq!(v.mirror, file == "f");
            assert_eq!(v.offset % INPUTS, 0);
            assert!(v.offset < KING_BUCKETS * INPUTS);
            views.insert(v.offset);
        }
        let (d, f) = (sq(&format!("d{}", 1)), sq(&format!("f{}", 1)));
        assert_eq!(
            View::of_king(Color::Red, d).offset,
            View::of_king(Color::Red, f).offset
        );
    }
    assert_eq!(views.len(), KING_BUCKETS);
}

#[test]
fn a_king_bucketed_net_reads_its_kings_bucket_mirrored_on_the_side_files() {
    // The plain net's weights in every king bucket: it evaluates like the
    // plain net, on the mirrored board when both kings stand right of the
    // centre.
    let plain = random_bucketed_net(15, OUTPUT_BUCKETS);
    let copied = Network {
        hidden_weights: plain.hidden_weights.repeat(KING_BUCKETS),
        ..plain.clone()
    };
    assert_eq!(copied.king_buckets(), KING_BUCKETS);
    let mut rng = StdRng::seed_from_u64(16);
    let (mut left, mut right) = (0, 0);
    for _ in 0..1200 {
        let pos = random_position(&mut rng);
        let files = Color::ALL.map(|c| pos.king_square(c).file());
        if files.iter().all(|&f| f <= 4) {
            assert_eq!(
                copied.evaluate_fresh(&pos),
                plain.evaluate_fresh(&pos),
                "{}",
                pos.to_fen()
            );
            left += 1;
        } else if files.iter().all(|&f| f > 4) {
            let mirrored = pos.file_mirrored();
            assert_eq!(
                copied.evaluate_fresh(&pos),
                plain.evaluate_fresh(&mirrored),
                "{}",
                pos.to_fen()
            );
            right += 1;
        }
    }
    assert!(left > 20 && right > 20, "{left} {right}");
}

#[test]
fn the_evaluation_is_symmetric_under_colour_flip() {
    let nets = SHAPES.map(|(k, b)| random_shaped_net(7, k, b));
    let mut rng = StdRng::seed_from_u64(8);
    for i in 0..200 {
        let net = &nets[i % SHAPES.len()];
        let pos = random_position(&mut rng);
        let flipped = pos.color_flipped();
        assert_eq!(
            net.evaluate_fresh(&pos),
            net.evaluate_fresh(&flipped),
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
        assert_eq!(name, chariot::eval::nets::committed_name(&net), "{name}");
        names.push(name);
    }
    assert!(
        names.contains(&chariot::eval::nets::BUILTIN_NET_FILE.to_string()),
        "{names:?}"
    );
    let builtin = chariot::eval::nets::builtin_net().expect("the built-in net reads");
    let file = std::fs::read(dir.join(chariot::eval::nets::BUILTIN_NET_FILE)).expect("readable");
    assert_eq!(builtin.to_bytes(), file);
    // It knows the game: a rook up is a won position for the side with it,
    // and the start is level (within a pawn).
    let start = Position::startpos();
    let level = builtin.evaluate_fresh(&start);
    assert!(level.abs() < 100, "{level}");
    let rook_up =
        Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
            .expect("a legal position");
    let up = builtin.evaluate_fresh(&rook_up);
    assert!(up > 300, "{up}");
}
