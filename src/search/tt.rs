//! The transposition table: what earlier searches learnt about positions,
//! shared by every search thread without locks.
//!
//! Each entry is two atomic words: the data, and the key XOR the data. A
//! reader accepts an entry only when the two agree with its key, so an entry
//! torn by two threads writing at once reads as a miss rather than as wrong
//! data (the "lockless hashing" of Hyatt and Mann). Entries sit in buckets of
//! four that fill one 64-byte cache line (the table starts at the first
//! cache-line boundary of its memory, so that a probe touches one line); a
//! new entry replaces the one of the same position, or else the shallowest
//! and oldest.

use super::{MATE_BOUND, MAX_PLY};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use xiangqi::types::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least this (the search failed high).
    Lower = 1,
    /// At most this (failed low).
    Upper = 2,
    Exact = 3,
}

/// One entry as read from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refuting move; `Move::NULL` if none. Not checked for legality.
    pub mv: Move,
    /// Score relative to the probing node (mate scores rebased by ply).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    pub depth: u32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
/// Words per bucket: two per entry.
const BUCKET_WORDS: usize = 2 * ENTRIES_PER_BUCKET;
/// Bytes per bucket (a cache line); checked at compile time below.
pub const BUCKET_BYTES: usize = BUCKET_WORDS * std::mem::size_of::<AtomicU64>();
const _: () = assert!(BUCKET_BYTES == 64);

/// Generations wrap within six bits.
const GENERATION_MASK: u8 = 0x3f;

pub struct TranspositionTable {
    /// The buckets from `words[base]`, with up to a bucket's worth of
    /// words to spare so that `base` can fall on a cache-line boundary.
    words: Vec<AtomicU64>,
    base: usize,
    buckets: usize,
    generation: AtomicU8,
}

/// Packs an entry's data into a non-zero word: move (16 bits), score (16),
/// eval (16), depth (8), bound (2), generation (6).
fn pack(mv: Move, score: i32, eval: i32, depth: u32, bound: Bound, generation: u8) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.min(255) as u64;
    (mv.raw() as u64)
        | score << 16
        | eval << 32
        | depth << 48
        | (bound as u64) << 56
        | ((generation & GENERATION_MASK) as u64) << 58
}

fn unpack(data: u64) -> Option<(Entry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let entry = Entry {
        mv: Move::from_raw(data as u16).unwrap_or(Move::NULL),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as u32,
        bound,
    };
    Some((entry, (data >> 58) as u8 & GENERATION_MASK))
}

/// A score as stored: mate scores count plies from this node, not the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score as seen from a node `ply` plies from the root.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    debug_assert!(ply <= MAX_PLY);
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// `n` zeroed atomic words, or `None` if the memory cannot be had.
///
/// The memory comes from `alloc_zeroed`, which the system provides as
/// untouched zero pages: a table of gigabytes is ready at once and its pages
/// are only mapped as they are used. Writing the zeros one by one instead
/// took 1.9 s for 2 GB in a release build here, and more than 20 s for 5.7 GB
/// in a debug build, long enough for a GUI to give up on `isready`.
#[allow(unsafe_code)]
fn zeroed_words(n: usize) -> Option<Vec<AtomicU64>> {
    let layout = std::alloc::Layout::array::<AtomicU64>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: `layout` has a non-zero size. `alloc_zeroed` returns null or a
    // block of `layout`'s size and alignment, which is exactly an array of
    // `n` `AtomicU64`s. All-zero bytes are a valid `AtomicU64` (it has the
    // size, alignment and bit validity of `u64`), so all `n` elements are
    // initialised. The block comes from the global allocator with the layout
    // `Vec<AtomicU64>` uses for capacity `n`, so the `Vec` may own and free it.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        if ptr.is_null() {
            return None;
        }
        Some(Vec::from_raw_parts(ptr, n, n))
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket); halved until
    /// the memory can be had.
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.saturating_mul(1 << 20);
        let mut buckets = (bytes / BUCKET_BYTES).max(1);
        let words = loop {
            match zeroed_words(buckets * BUCKET_WORDS + BUCKET_WORDS - 1) {
                Some(words) => break words,
                None if buckets > 1 => {
                    log::warn!(
                        "cannot allocate {} MB of hash; halving",
                        (buckets * BUCKET_BYTES) >> 20
                    );
                    buckets /= 2;
                }
                None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u64; 8]>()),
            }
        };
        // Words are 8-byte aligned: skip 0 to 7 of them to reach a boundary.
        let misalignment = words.as_ptr() as usize % BUCKET_BYTES;
        let base = (BUCKET_BYTES - misalignment) % BUCKET_BYTES / std::mem::size_of::<AtomicU64>();
        TranspositionTable {
            words,
            base,
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in megabytes (rounded down).
    pub fn megabytes(&self) -> usize {
        (self.buckets * BUCKET_BYTES) >> 20
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for w in &self.words {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        self.base + (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET_WORDS
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that
    /// the probe at the node after a move finds it there instead of waiting
    /// on memory. A hint only: it changes no result.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // No bounds check on the hot path: the address is only a hint.
            let bucket = self.words.as_ptr().wrapping_add(self.bucket(key));
            // SAFETY: SSE, the feature `_mm_prefetch` is marked with, is part
            // of the x86-64 baseline, so every processor this runs on has it;
            // and a prefetch reads nothing the program sees and cannot fault,
            // whatever the address. Here it is inside the table anyway.
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>())
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for i in 0..ENTRIES_PER_BUCKET {
            let check = self.words[b + 2 * i].load(Ordering::Relaxed);
            let data = self.words[b + 2 * i + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores what a search found (score relative to the node; rebase mates
    /// with `score_to_tt` first). Keeps the old move when none is given.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: u32, bound: Bound) {
        let b = self.bucket(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..ENTRIES_PER_BUCKET {
            let check = self.words[b + 2 * i].load(Ordering::Relaxed);
            let data = self.words[b + 2 * i + 1].load(Ordering::Relaxed);
            let Some((old, old_gen)) = unpack(data) else {
                victim = i;
                victim_worth = i32::MIN;
                continue;
            };
            if check ^ data == key {
                // The same position: keep a deeper result of this search.
                if bound != Bound::Exact && depth + 3 < old.depth && old_gen == generation {
                    return;
                }
                let mv = if mv.is_null() { old.mv } else { mv };
                self.write(
                    b + 2 * i,
                    key,
                    pack(mv, score, eval, depth, bound, generation),
                );
                return;
            }
            let age = (generation.wrapping_sub(old_gen) & GENERATION_MASK) as i32;
            let worth = old.depth as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        self.write(
            b + 2 * victim,
            key,
            pack(mv, score, eval, depth, bound, generation),
        );
    }

    #[inline(always)]
    fn write(&self, at: usize, key: u64, data: u64) {
        self.words[at].store(key ^ data, Ordering::Relaxed);
        self.words[at + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.min(250);
        let mut used = 0;
        for bucket in 0..sample {
            for i in 0..ENTRIES_PER_BUCKET {
                let at = self.base + bucket * BUCKET_WORDS + 2 * i + 1;
                let data = self.words[at].load(Ordering::Relaxed);
                if unpack(data).is_some_and(|(_, g)| g == generation) {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;
    use xiangqi::types::Square;

    fn mv(a: &str, b: &str) -> Move {
        Move::new(
            Square::parse(a).expect("square"),
            Square::parse(b).expect("square"),
        )
    }

    #[test]
    fn a_large_table_starts_empty_and_works_everywhere() {
        // Exercises the zeroed allocation: every bucket reads empty, and
        // entries stored at both ends of the table read back.
        let tt = TranspositionTable::new(64);
        assert_eq!(tt.megabytes(), 64);
        assert!(tt
            .words
            .iter()
            .step_by(4099)
            .all(|w| w.load(Ordering::Relaxed) == 0));
        assert_eq!(tt.hashfull(), 0);
        let m = mv("a0", "a1");
        for key in [1u64, u64::MAX, 0x8000_0000_0000_0000] {
            assert_eq!(tt.probe(key), None);
            tt.store(key, m, 7, 3, 5, Bound::Exact);
            assert_eq!(tt.probe(key).map(|e| e.score), Some(7));
        }
        assert!(zeroed_words(0).is_some_and(|v| v.is_empty()));
    }

    #[test]
    fn buckets_fill_whole_cache_lines() {
        for mb in [0, 1, 16] {
            let tt = TranspositionTable::new(mb);
            for key in [0u64, 1 << 63, u64::MAX] {
                let first = &tt.words[tt.bucket(key)] as *const AtomicU64 as usize;
                assert_eq!(first % BUCKET_BYTES, 0, "{mb} MB, key {key:#x}");
                assert!(tt.bucket(key) + BUCKET_WORDS <= tt.words.len());
            }
        }
    }

    #[test]
    fn prefetch_reaches_every_end_of_the_table_and_changes_nothing() {
        // Exercises the prefetch's unsafe call at the first and last buckets
        // of tables of one bucket and more.
        let m = mv("h0", "g2");
        for mb in [0, 1, 16] {
            let tt = TranspositionTable::new(mb);
            for key in [0u64, 1, 1 << 63, u64::MAX] {
                tt.prefetch(key);
                assert_eq!(tt.probe(key), None, "{mb} MB, key {key:#x}");
                tt.store(key, m, 9, 4, 3, Bound::Lower);
                tt.prefetch(key);
                assert_eq!(tt.probe(key).map(|e| e.score), Some(9));
            }
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = mv("h2", "e2");
        for (score, eval) in [(0, 0), (-32_000, 31_000), (MATE - 3, -5), (-(MATE - 7), 7)] {
            let key = 0x1234_5678_9abc_def0 ^ score as u64;
            tt.store(key, m, score, eval, 12, Bound::Lower);
            let e = tt.probe(key).expect("stored");
            assert_eq!(
                (e.mv, e.score, e.eval, e.depth, e.bound),
                (m, score, eval, 12, Bound::Lower)
            );
        }
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn mate_scores_are_rebased_by_ply() {
        // Mate in 5 plies from a node at ply 3 is mate in 8 from the root; the
        // same position reached at ply 7 is mate in 12 from there.
        let stored = score_to_tt(MATE - 8, 3);
        assert_eq!(stored, MATE - 5);
        assert_eq!(score_from_tt(stored, 7), MATE - 12);
        let stored = score_to_tt(-(MATE - 8), 3);
        assert_eq!(score_from_tt(stored, 7), -(MATE - 12));
        assert_eq!(score_from_tt(score_to_tt(123, 9), 2), 123);
    }

    #[test]
    fn replacement_keeps_the_same_position_and_prefers_old_shallow_victims() {
        let tt = TranspositionTable::new(0); // one bucket: every key collides
        let m = mv("b0", "c2");
        for k in 1..=4u64 {
            tt.store(k, m, k as i32, 0, 10 + k as u32, Bound::Exact);
        }
        // A fifth position evicts the shallowest (depth 11, key 1).
        tt.store(5, m, 5, 0, 20, Bound::Exact);
        assert_eq!(tt.probe(1), None);
        assert!(tt.probe(2).is_some());
        // A new move-less result of the same position keeps the old move.
        tt.store(2, Move::NULL, -1, 0, 30, Bound::Upper);
        let e = tt.probe(2).expect("kept");
        assert_eq!((e.mv, e.score, e.bound), (m, -1, Bound::Upper));
        // After a few searches, old deep entries give way.
        for _ in 0..4 {
            tt.new_search();
        }
        tt.store(6, m, 6, 0, 1, Bound::Exact);
        assert!(tt.probe(6).is_some());
        tt.clear();
        assert_eq!(tt.probe(6), None);
        assert_eq!(tt.hashfull(), 0);
    }
}
