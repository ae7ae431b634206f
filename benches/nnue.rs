//! Micro-benchmarks of the network's hot loops: the AVX2 build (chosen at
//! run time) against the portable build, per node's work: an accumulator
//! update for both perspectives and the output of both.
//! `cargo bench --bench nnue`

use chariot::eval::nnue::{kernels, HIDDEN, MAX_OUTPUT_WEIGHT};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn data() -> ([i16; HIDDEN], [i16; HIDDEN], [i16; HIDDEN], Vec<i16>) {
    let mut x: u32 = 12345;
    let mut next = |m: i32| {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        ((x >> 8) as i32 % (2 * m + 1) - m) as i16
    };
    let sums = std::array::from_fn(|_| next(400));
    let a = std::array::from_fn(|_| next(300));
    let b = std::array::from_fn(|_| next(300));
    let w = (0..2 * HIDDEN)
        .map(|_| next(MAX_OUTPUT_WEIGHT as i32))
        .collect();
    (sums, a, b, w)
}

fn node(c: &mut Criterion) {
    let (sums, a, b, w) = data();
    let (w_us, w_them) = w.split_at(HIDDEN);
    let w_us: &[i16; HIDDEN] = w_us.try_into().expect("HIDDEN weights");
    let w_them: &[i16; HIDDEN] = w_them.try_into().expect("HIDDEN weights");
    c.bench_function("node: dispatched (AVX2 when present)", |bench| {
        bench.iter(|| {
            let (mut us, mut them) = (black_box(sums), black_box(sums));
            kernels::sub_add(&mut us, &a, &b);
            kernels::sub_add(&mut them, &b, &a);
            kernels::screlu_dot(&us, w_us) + kernels::screlu_dot(&them, w_them)
        })
    });
    c.bench_function("node: portable", |bench| {
        bench.iter(|| {
            let (mut us, mut them) = (black_box(sums), black_box(sums));
            kernels::sub_add_portable(&mut us, &a, &b);
            kernels::sub_add_portable(&mut them, &b, &a);
            kernels::screlu_dot_portable(&us, w_us) + kernels::screlu_dot_portable(&them, w_them)
        })
    });
}

criterion_group!(benches, node);
criterion_main!(benches);
