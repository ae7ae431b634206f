//! The network evaluation (NNUE): an efficiently updatable network.
//!
//! Architecture: per perspective (Red's and Black's), 1,260 sparse inputs
//! (piece kind × own/enemy × square, the board seen from that side) feed a
//! hidden layer of `HIDDEN` neurons whose sums (the accumulator) are kept
//! incrementally: a move subtracts and adds a few weight columns instead of
//! recomputing. A king-bucketed net has `KING_BUCKETS` sets of those inputs,
//! the perspective's chosen by where its own king stands ([`View`]); a king
//! move into another bucket recomputes that perspective. The two
//! accumulators, the side to move's first, go through a squared clipped ReLU
//! into one output neuron, or into one of `OUTPUT_BUCKETS` chosen by the
//! material left ([`output_bucket`]).
//!
//! Numbers are quantised: the hidden layer's weights and sums are i16 scaled
//! by `QA`, the output weights by `QB`; the output times `SCALE` is in
//! centipawns.
//!
//! The net file format (all little-endian):
//!
//! ```text
//! 4   magic "CXNN"
//! 2   version (1: plain; 2: king buckets, output buckets or both)
//! 2   flags (0)
//! 2   inputs (1260, or 7560 with king buckets)
//! 2   hidden      2  QA      2  QB      2  SCALE
//! 2   output buckets B (version 1: reserved, 0, and B = 1)
//! 2 × inputs × hidden    hidden weights, one column of `hidden` per input
//! 2 × hidden             hidden biases
//! 2 × B × 2 × hidden     output weights, by bucket (side to move's half first)
//! 4 × B                  output biases (i32), by bucket
//! 8                      FNV-1a 64 hash of everything before it
//! ```
//!
//! A net of 1,260 inputs and one output is written as version 1, so its
//! bytes (and hash) are those it had before buckets.
//!
//! The committed net's file name carries the first 12 hex digits of its hash.

use std::fmt;
use xiangqi::{Color, MoveChange, Piece, PieceKind, Position, Square};

/// Inputs per perspective and king bucket: 2 sides × 7 kinds × 90 squares.
pub const INPUTS: usize = 2 * 7 * 90;
/// King buckets of a king-bucketed net: the palace's three ranks, each
/// with the centre file apart from the two side files (which mirror
/// each other).
pub const KING_BUCKETS: usize = 6;
/// Hidden neurons per perspective: 256, or 128 or 512 in the builds that
/// measure the width (features `hidden-128`, `hidden-512`).
pub const HIDDEN: usize = if cfg!(feature = "hidden-128") {
    128
} else if cfg!(feature = "hidden-512") {
    512
} else {
    256
};
/// The build that takes a net of `hidden` neurons, for refusals: the
/// widths of `HIDDEN` above, with the features that select them.
fn build_taking(hidden: u16) -> Option<&'static str> {
    match hidden {
        256 => Some("a default build"),
        128 => Some("a build with --features hidden-128"),
        512 => Some("a build with --features hidden-512"),
        _ => None,
    }
}
#[cfg(all(feature = "hidden-128", feature = "hidden-512"))]
compile_error!("choose one of the features hidden-128 and hidden-512");
/// Quantisation of the hidden layer (its activation clips at `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the output: the output is a logit of the side to
/// move's expected score, and 160 is the scale of Chariot's centipawns (the
/// tuned evaluation's fit: 1 / (1 + 10^(-K·e/400)) with K = 1.082), so the
/// search's margins keep their meaning.
pub const SCALE: i32 = 160;
/// Largest output weight: keeps every product in the output sum in range.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// Output buckets of a bucketed net (a net has one output or this many).
pub const OUTPUT_BUCKETS: usize = 8;

const MAGIC: [u8; 4] = *b"CXNN";
/// The format of a net of one output.
const VERSION: u16 = 1;
/// The format of a net with buckets of either kind.
const VERSION_BUCKETS: u16 = 2;
const HEADER_LEN: usize = 20;

/// The bytes of a net file for this build's width with `king_buckets` sets
/// of inputs and `buckets` outputs.
pub const fn file_len(king_buckets: usize, buckets: usize) -> usize {
    HEADER_LEN
        + 2 * (king_buckets * INPUTS * HIDDEN + HIDDEN + buckets * 2 * HIDDEN)
        + 4 * buckets
        + 8
}

/// The bytes of a net file of 1,260 inputs and one output for this build's
/// width.
pub const FILE_LEN: usize = file_len(1, 1);
/// The largest net file this build reads.
pub const MAX_FILE_LEN: usize = file_len(KING_BUCKETS, OUTPUT_BUCKETS);

/// How one perspective's inputs are laid out for the place of its own king:
/// the first input of its bucket, and whether the board is mirrored left to
/// right (a king on a file right of the centre, as the perspective sees it,
/// reads the board as if it stood on the mirror file). A net without king
/// buckets has one view, `View::PLAIN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub offset: usize,
    pub mirror: bool,
}

impl View {
    pub const PLAIN: View = View {
        offset: 0,
        mirror: false,
    };

    /// The view of `perspective` with its king on `king` in a king-bucketed
    /// net.
    #[inline]
    pub fn of_king(perspective: Color, king: Square) -> View {
        let own = match perspective {
            Color::Red => king,
            Color::Black => king.flip_rank(),
        };
        // In its palace: ranks 0-2, files 3-5 (a king is never elsewhere;
        // `min` keeps a nonsense square inside the table all the same).
        let rank = own.rank().min(2);
        let centre = own.file() == 4;
        View {
            offset: (rank * 2 + usize::from(centre)) * INPUTS,
            mirror: own.file() > 4,
        }
    }

    /// The input of `piece` on `sq`, seen from `perspective` in this view.
    #[inline(always)]
    pub fn feature(self, perspective: Color, piece: Piece, sq: Square) -> usize {
        let sq = if self.mirror { sq.flip_file() } else { sq };
        self.offset + feature(perspective, piece, sq)
    }
}

/// The output bucket of a position in a bucketed net: by the rooks, horses
/// and cannons left on the board (both sides' together, 0 to 12), from 0
/// (none or one) to `OUTPUT_BUCKETS - 1` (all twelve).
#[inline]
pub fn output_bucket(pos: &Position) -> usize {
    let majors = pos.majors(Color::Red) | pos.majors(Color::Black);
    bucket_of_majors(majors.count() as usize)
}

/// The output bucket for `majors` rooks, horses and cannons on the board.
#[inline]
pub fn bucket_of_majors(majors: usize) -> usize {
    majors.min(12) * OUTPUT_BUCKETS / 13
}

/// The input index of `piece` on `sq`, seen from `perspective`: Black sees
/// the board turned around (ranks flipped) and its own pieces as "own".
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let (sq, own) = match perspective {
        Color::Red => (sq, piece.color() == Color::Red),
        Color::Black => (sq.flip_rank(), piece.color() == Color::Black),
    };
    ((usize::from(!own) * 7 + piece.kind().index()) * 90) + sq.index()
}

/// The active inputs of a position from one perspective, as a net without
/// king buckets numbers them (and as the training data keeps them).
pub fn active_features(pos: &Position, perspective: Color) -> Vec<usize> {
    pos.occupied()
        .into_iter()
        .map(|sq| feature(perspective, pos.piece_at(sq), sq))
        .collect()
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    Size {
        got: usize,
        want: usize,
    },
    Magic,
    Version(u16),
    Shape {
        inputs: u16,
        hidden: u16,
    },
    /// An output bucket count other than 1 and `OUTPUT_BUCKETS`, or a
    /// version-2 file without buckets of either kind.
    Buckets(u16),
    Quantisation,
    /// An output weight beyond ±`MAX_OUTPUT_WEIGHT`.
    Range,
    Hash {
        stored: u64,
        computed: u64,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Size { got, want } => {
                write!(f, "net file has {got} bytes; this build's net has {want}")
            }
            NetError::Magic => f.write_str("not a Chariot net file (bad magic)"),
            NetError::Version(v) => write!(f, "net file format version {v} is not supported"),
            NetError::Shape { inputs, hidden } => {
                write!(
                    f,
                    "net is {inputs} inputs × {hidden} hidden; this build takes {INPUTS} or {} × {HIDDEN}",
                    KING_BUCKETS * INPUTS
                )?;
                let inputs = usize::from(*inputs);
                match build_taking(*hidden) {
                    Some(build) if inputs == INPUTS || inputs == KING_BUCKETS * INPUTS => {
                        write!(f, " ({build} takes it)")
                    }
                    _ => Ok(()),
                }
            }
            NetError::Buckets(b) => write!(
                f,
                "net has {b} output buckets; this build takes 1 or {OUTPUT_BUCKETS}"
            ),
            NetError::Quantisation => {
                f.write_str("net file's quantisation differs from this build's")
            }
            NetError::Range => write!(f, "net file has output weights beyond ±{MAX_OUTPUT_WEIGHT}"),
            NetError::Hash { stored, computed } => write!(
                f,
                "net file is corrupt: hash {computed:016x}, file says {stored:016x}"
            ),
        }
    }
}

/// FNV-1a, 64 bits: the net file's checksum.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `INPUTS` columns of `HIDDEN` weights per king bucket.
    pub hidden_weights: Vec<i16>,
    pub hidden_bias: Vec<i16>,
    /// By output bucket: the side to move's `HIDDEN` weights, then the
    /// other side's.
    pub output_weights: Vec<i16>,
    /// By output bucket.
    pub output_bias: Vec<i32>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({}x{HIDDEN}x{}, hash {:016x})",
            self.king_buckets() * INPUTS,
            self.buckets(),
            self.hash()
        )
    }
}

impl Network {
    /// Reads a net file, checking its magic, size, shape and hash.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() >= 4 && bytes[..4] != MAGIC {
            return Err(NetError::Magic);
        }
        if bytes.len() < HEADER_LEN {
            return Err(NetError::Size {
                got: bytes.len(),
                want: FILE_LEN,
            });
        }
        // The header first, so that a net of another width or version is
        // named as such rather than as a file of the wrong size.
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(4);
        let buckets = match version {
            VERSION => 1,
            VERSION_BUCKETS => u16_at(18),
            _ => return Err(NetError::Version(version)),
        };
        let (inputs, hidden) = (u16_at(8), u16_at(10));
        let king_buckets = match inputs as usize {
            INPUTS => 1,
            n if n == KING_BUCKETS * INPUTS && version == VERSION_BUCKETS => KING_BUCKETS,
            _ => return Err(NetError::Shape { inputs, hidden }),
        };
        if hidden as usize != HIDDEN {
            return Err(NetError::Shape { inputs, hidden });
        }
        if (u16_at(12), u16_at(14), u16_at(16)) != (QA as u16, QB as u16, SCALE as u16) {
            return Err(NetError::Quantisation);
        }
        // Version 2 is for buckets only: a plain net is version 1.
        let known = buckets == 1 || usize::from(buckets) == OUTPUT_BUCKETS;
        let plain = king_buckets == 1 && buckets == 1;
        if !known || (plain && version == VERSION_BUCKETS) {
            return Err(NetError::Buckets(buckets));
        }
        let buckets = usize::from(buckets);
        let want = file_len(king_buckets, buckets);
        if bytes.len() != want {
            return Err(NetError::Size {
                got: bytes.len(),
                want,
            });
        }
        let body = want - 8;
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[body..]);
        let stored = u64::from_le_bytes(stored);
        let computed = fnv1a(&bytes[..body]);
        if stored != computed {
            return Err(NetError::Hash { stored, computed });
        }
        let mut at = HEADER_LEN;
        let mut take = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let hidden_weights = take(king_buckets * INPUTS * HIDDEN);
        let hidden_bias = take(HIDDEN);
        let output_weights = take(buckets * 2 * HIDDEN);
        let output_bias = bytes[at..body]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if output_weights
            .iter()
            .any(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(NetError::Range);
        }
        Ok(Network {
            hidden_weights,
            hidden_bias,
            output_weights,
            output_bias,
        })
    }

    /// Its output buckets (1: one output).
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// Its sets of inputs by king square (1: none).
    pub fn king_buckets(&self) -> usize {
        self.hidden_weights.len() / (INPUTS * HIDDEN)
    }

    /// The net file's bytes, hash included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (king_buckets, buckets) = (self.king_buckets(), self.buckets());
        let mut b = Vec::with_capacity(file_len(king_buckets, buckets));
        b.extend_from_slice(&MAGIC);
        let (version, field) = if (king_buckets, buckets) == (1, 1) {
            (VERSION, 0)
        } else {
            (VERSION_BUCKETS, buckets as u16)
        };
        for v in [
            version,
            0,
            (king_buckets * INPUTS) as u16,
            HIDDEN as u16,
            QA as u16,
            QB as u16,
            SCALE as u16,
            field,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for w in self
            .hidden_weights
            .iter()
            .chain(&self.hidden_bias)
            .chain(&self.output_weights)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for bias in &self.output_bias {
            b.extend_from_slice(&bias.to_le_bytes());
        }
        let hash = fnv1a(&b);
        b.extend_from_slice(&hash.to_le_bytes());
        b
    }

    /// The net's hash (the file's last 8 bytes).
    pub fn hash(&self) -> u64 {
        let bytes = self.to_bytes();
        fnv1a(&bytes[..bytes.len() - 8])
    }

    /// The first 12 hex digits of the hash, as file names show it
    /// (`nets/chariot-<short hash>.nnue`).
    pub fn short_hash(&self) -> String {
        format!("{:016x}", self.hash())[..12].to_string()
    }

    #[inline(always)]
    fn column(&self, f: usize) -> &[i16; HIDDEN] {
        self.hidden_weights[f * HIDDEN..(f + 1) * HIDDEN]
            .try_into()
            .unwrap_or_else(|_| unreachable!("columns are HIDDEN long"))
    }

    /// The accumulators of `pos`, computed afresh.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            sums: [[0; HIDDEN]; 2],
        };
        for c in Color::ALL {
            self.refresh_perspective(&mut acc, pos, c);
        }
        acc
    }

    /// Recomputes one perspective's sums.
    fn refresh_perspective(&self, acc: &mut Accumulator, pos: &Position, perspective: Color) {
        let view = if self.king_buckets() == 1 {
            View::PLAIN
        } else {
            View::of_king(perspective, pos.king_square(perspective))
        };
        let sums = &mut acc.sums[perspective.index()];
        sums.copy_from_slice(&self.hidden_bias);
        for sq in pos.occupied() {
            add(
                sums,
                self.column(view.feature(perspective, pos.piece_at(sq), sq)),
            );
        }
    }

    /// Updates accumulators with what a move changed; `pos` is the position
    /// after it. A king that moved into another bucket recomputes its side.
    #[inline]
    pub fn update(&self, acc: &mut Accumulator, change: &MoveChange, pos: &Position) {
        if self.king_buckets() == 1 {
            for c in Color::ALL {
                self.apply(&mut acc.sums[c.index()], View::PLAIN, c, change);
            }
            return;
        }
        for c in Color::ALL {
            let view = View::of_king(c, pos.king_square(c));
            let piece = change.piece;
            if piece.kind() == PieceKind::King
                && piece.color() == c
                && view != View::of_king(c, change.from)
            {
                self.refresh_perspective(acc, pos, c);
            } else {
                self.apply(&mut acc.sums[c.index()], view, c, change);
            }
        }
    }

    /// Applies a move's change to one perspective's sums in `view`.
    #[inline(always)]
    fn apply(&self, sums: &mut [i16; HIDDEN], view: View, c: Color, change: &MoveChange) {
        let from = self.column(view.feature(c, change.piece, change.from));
        let to = self.column(view.feature(c, change.piece, change.to));
        if change.captured.is_some() {
            let gone = self.column(view.feature(c, change.captured, change.to));
            kernels::sub_add_sub(sums, from, to, gone);
        } else {
            kernels::sub_add(sums, from, to);
        }
    }

    /// The evaluation of `pos` for the side to move, from fresh
    /// accumulators (outside a search, which keeps them incrementally).
    pub fn evaluate_fresh(&self, pos: &Position) -> i32 {
        self.evaluate(&self.refresh(pos), pos)
    }

    /// The evaluation of `pos` for the side to move, in centipawns, from
    /// its accumulators `acc`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let side = pos.side_to_move();
        let bucket = if self.buckets() == 1 {
            0
        } else {
            output_bucket(pos)
        };
        let (us, them) = (&acc.sums[side.index()], &acc.sums[side.flip().index()]);
        let w = &self.output_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let (w_us, w_them) = w.split_at(HIDDEN);
        let sum = kernels::screlu_dot(us, half(w_us)) + kernels::screlu_dot(them, half(w_them));
        let bias = i64::from(self.output_bias[bucket]);
        ((sum / QA as i64 + bias) * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

/// One perspective's half of a bucket's output weights.
#[inline(always)]
fn half(w: &[i16]) -> &[i16; HIDDEN] {
    w.try_into()
        .unwrap_or_else(|_| unreachable!("a bucket's output weights are 2 × HIDDEN"))
}

/// The hidden layer's sums from both perspectives (Red's, Black's).
#[derive(Clone, PartialEq, Eq)]
pub struct Accumulator {
    pub sums: [[i16; HIDDEN]; 2],
}

impl fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Accumulator({:?}…)", &self.sums[0][..4])
    }
}

#[inline(always)]
fn add(sums: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(w) {
        *s = s.wrapping_add(*w);
    }
}

/// The hot loops, written once over fixed-size arrays so that the compiler
/// vectorises them: for the default x86-64 target (SSE2), and again for
/// AVX2, chosen at run time when the CPU has it. Both give the same numbers
/// (the arithmetic is integer); a test checks it.
pub mod kernels {
    use super::{HIDDEN, QA};

    macro_rules! dispatch {
        ($name:ident, $portable:ident, $avx2:ident, ($($arg:ident: $ty:ty),*) -> $ret:ty) => {
            /// Runs the AVX2 build of the kernel when the CPU has AVX2.
            #[inline(always)]
            pub fn $name($($arg: $ty),*) -> $ret {
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the AVX2 build of the kernel only runs on a CPU
                    // that has just been found to support AVX2.
                    #[allow(unsafe_code)]
                    return unsafe { $avx2($($arg),*) };
                }
                $portable($($arg),*)
            }

            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2")]
            fn $avx2($($arg: $ty),*) -> $ret {
                $portable($($arg),*)
            }
        };
    }

    dispatch!(sub_add, sub_add_portable, sub_add_avx2,
        (sums: &mut [i16; HIDDEN], sub: &[i16; HIDDEN], add: &[i16; HIDDEN]) -> ());
    dispatch!(sub_add_sub, sub_add_sub_portable, sub_add_sub_avx2,
        (sums: &mut [i16; HIDDEN], a: &[i16; HIDDEN], b: &[i16; HIDDEN], c: &[i16; HIDDEN]) -> ());
    dispatch!(screlu_dot, screlu_dot_portable, screlu_dot_avx2,
        (sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64);

    /// sums += add − sub, element by element.
    #[inline(always)]
    pub fn sub_add_portable(sums: &mut [i16; HIDDEN], sub: &[i16; HIDDEN], add: &[i16; HIDDEN]) {
        for i in 0..HIDDEN {
            sums[i] = sums[i].wrapping_sub(sub[i]).wrapping_add(add[i]);
        }
    }

    /// sums += b − a − c, element by element (a capture).
    #[inline(always)]
    pub fn sub_add_sub_portable(
        sums: &mut [i16; HIDDEN],
        a: &[i16; HIDDEN],
        b: &[i16; HIDDEN],
        c: &[i16; HIDDEN],
    ) {
        for i in 0..HIDDEN {
            sums[i] = sums[i]
                .wrapping_sub(a[i])
                .wrapping_add(b[i])
                .wrapping_sub(c[i]);
        }
    }

    /// Neurons summed in i32 before the sum is widened to i64.
    const BLOCK: usize = if HIDDEN < 256 { HIDDEN } else { 256 };

    /// Σ screlu(sum) × weight over one perspective, where screlu(x) =
    /// clamp(x, 0, QA)², in units of QA² × QB. Written the way vector units
    /// like it: c·w in i16 (at most 255 × 127, so it fits), then times c
    /// into i32 (a multiply-add). An i32 sum cannot overflow over `BLOCK`
    /// terms of at most 255² × 127, which stay below 2³¹ (checked below at
    /// compile time); wider layers add their blocks' sums in i64.
    #[inline(always)]
    pub fn screlu_dot_portable(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
        let mut total = 0i64;
        for (sums, weights) in sums.chunks_exact(BLOCK).zip(weights.chunks_exact(BLOCK)) {
            let mut sum = 0i32;
            for i in 0..BLOCK {
                let c = sums[i].clamp(0, QA as i16);
                let t = c.wrapping_mul(weights[i]);
                sum = sum.wrapping_add(i32::from(t) * i32::from(c));
            }
            total += i64::from(sum);
        }
        total
    }

    const _: () = assert!(
        (BLOCK as i64) * (QA as i64) * (QA as i64) * (super::MAX_OUTPUT_WEIGHT as i64)
            < i32::MAX as i64
    );
    const _: () = assert!(HIDDEN.is_multiple_of(BLOCK) && BLOCK.is_multiple_of(16));
}
