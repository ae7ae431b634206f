//! The NNUE trainer (`chariot-tools train`): the engine's network in f32,
//! trained by Adam on mini-batches over all cores, then quantised into the
//! engine's net file.
//!
//! With output buckets (`--output-buckets 8`), the output neuron is one of
//! eight chosen by the material left (`nnue::output_bucket`), each trained
//! on its own positions. With king buckets (`--king-buckets`), each
//! perspective's inputs are one of six sets chosen by its own king's square
//! (`nnue::View`), the board mirrored when that king stands right of centre.
//!
//! The loss of a position is (σ(out) − target)², where out is the network's
//! output (a logit; centipawns / `nnue::SCALE`) and the target blends the
//! search's score with the game's result:
//! `target = λ·σ(score / SCALE) + (1 − λ)·result`.
//!
//! The sparse first layer is nearly the whole cost, so each position only
//! touches the weight columns of its pieces. A batch is cut into a fixed
//! number of parts whose gradients are summed in a fixed order, so training
//! is deterministic for a seed whatever the number of threads.

use crate::dataset::{black_feature, mirror_feature, Dataset, Sample};
use anyhow::{bail, Context, Result};
use chariot::eval::nnue::{
    self, Network, View, INPUTS, KING_BUCKETS, MAX_OUTPUT_WEIGHT, OUTPUT_BUCKETS, QA, QB, SCALE,
};
use chariot::xiangqi::{Color, PieceKind, Position, Square};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Parts a batch is cut into (the unit of work of a thread).
const PARTS: usize = 16;
/// Weights are kept within ±CLIP so that they quantise into i16 (and the
/// output weights into ±127).
const CLIP: f32 = 1.98;

/// A network's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Sets of inputs by king square: 1, or `nnue::KING_BUCKETS`.
    pub king_buckets: usize,
    /// Output neurons: 1, or `nnue::OUTPUT_BUCKETS`.
    pub buckets: usize,
}

impl Shape {
    /// `hidden` neurons, no buckets of either kind.
    pub fn plain(hidden: usize) -> Shape {
        Shape {
            hidden,
            king_buckets: 1,
            buckets: 1,
        }
    }

    /// Whether a net can have this shape (a width other than the engine's
    /// is trained for measuring, not quantised), and if not, why.
    pub fn check(self) -> Result<()> {
        if !(1..=4096).contains(&self.hidden) {
            bail!("hidden neurons must be 1..4096, not {}", self.hidden);
        }
        if ![1, KING_BUCKETS].contains(&self.king_buckets) {
            bail!(
                "king buckets must be 1 or {KING_BUCKETS}, not {}",
                self.king_buckets
            );
        }
        if ![1, OUTPUT_BUCKETS].contains(&self.buckets) {
            bail!(
                "output buckets must be 1 or {OUTPUT_BUCKETS}, not {}",
                self.buckets
            );
        }
        Ok(())
    }

    /// The parameters: w1, b1, w2, b2.
    fn len(self) -> usize {
        let h = self.hidden;
        self.king_buckets * INPUTS * h + h + self.buckets * (2 * h + 1)
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub shape: Shape,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Weight of the search score in the target (1 − this for the result).
    pub lambda: f32,
    pub seed: u64,
    pub threads: usize,
    /// Where checkpoints and nets go.
    pub out: PathBuf,
    /// Ties each input's weights to those of its mirror image (the same
    /// piece on the file mirrored left to right), so that a position and its
    /// mirror image evaluate alike: half the first layer's free weights.
    pub symmetric: bool,
}

/// Where a training run starts.
#[derive(Clone, Copy, Debug)]
pub enum Start<'a> {
    /// Small random weights from the run's seed.
    Random,
    /// A checkpoint of the same shape (`checkpoint-NNN.ck`), its optimiser
    /// state and epoch count included.
    Resume(&'a Path),
    /// A net's weights (a quantised net's, or a checkpoint's), widened to
    /// the run's shape (see [`FloatNet::widened`]), with a fresh optimiser:
    /// a new generation trained on from the last one's knowledge.
    Init(&'a FloatNet),
}

/// The range of a random first-layer weight (±): about 32 inputs are on in
/// a position, so that a hidden sum starts within the activation's range.
fn input_weight_scale() -> f32 {
    (1.0 / 32.0f32).sqrt()
}

/// The network in f32.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub shape: Shape,
    /// All parameters in one vector: w1 (king buckets × INPUTS × hidden,
    /// column per input), b1 (hidden), w2 (buckets × 2 × hidden), b2
    /// (buckets).
    pub params: Vec<f32>,
}

impl FloatNet {
    /// Small random weights, seeded.
    pub fn random(shape: Shape, seed: u64) -> FloatNet {
        let Shape {
            hidden, buckets, ..
        } = shape;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut params = vec![0.0; shape.len()];
        let scale2 = (1.0 / hidden as f32).sqrt();
        let w1_end = shape.king_buckets * INPUTS * hidden;
        let b1_end = w1_end + hidden;
        for (i, p) in params.iter_mut().enumerate() {
            let u: f32 = rng.random_range(-1.0..1.0);
            *p = if i < w1_end {
                u * input_weight_scale()
            } else if i < b1_end {
                0.0
            } else if i < b1_end + buckets * 2 * hidden {
                u * scale2
            } else {
                0.0
            };
        }
        FloatNet { shape, params }
    }

    /// The float net a quantised one stands for (each weight over its
    /// quantisation scale), in the net's own shape.
    pub fn from_network(net: &Network) -> FloatNet {
        let shape = Shape {
            hidden: nnue::HIDDEN,
            king_buckets: net.king_buckets(),
            buckets: net.buckets(),
        };
        let (qa, qb) = (QA as f32, QB as f32);
        fn scaled(v: &[i16], scale: f32) -> impl Iterator<Item = f32> + '_ {
            v.iter().map(move |&w| f32::from(w) / scale)
        }
        let params: Vec<f32> = scaled(&net.hidden_weights, qa)
            .chain(scaled(&net.hidden_bias, qa))
            .chain(scaled(&net.output_weights, qb))
            .chain(net.output_bias.iter().map(|&b| b as f32 / (qa * qb)))
            .collect();
        debug_assert_eq!(params.len(), shape.len());
        FloatNet { shape, params }
    }

    /// The weights of a training checkpoint (`checkpoint-NNN.ck`), without
    /// its optimiser's state: a start for a run of another shape.
    pub fn from_checkpoint_file(path: &Path) -> Result<FloatNet> {
        Ok(FloatNet::read_checkpoint(path)?.0)
    }

    /// A checkpoint file: the net, its optimiser and the epochs done.
    fn read_checkpoint(path: &Path) -> Result<(FloatNet, Adam, usize)> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        FloatNet::from_checkpoint(&bytes).with_context(|| format!("{}", path.display()))
    }

    /// This net in a larger `shape`, evaluating as it does:
    /// - a net with one output or one set of inputs has it copied into
    ///   every bucket the shape asks for (king buckets: the same evaluation
    ///   while no king stands right of centre, where the board is read
    ///   mirrored);
    /// - more hidden neurons than the net has are added with small random
    ///   input weights (seeded) and output weights of zero, so that they
    ///   start out silent and learn from there.
    pub fn widened(&self, shape: Shape, seed: u64) -> Result<FloatNet> {
        shape.check()?;
        let from = self.shape;
        for (have, want, what) in [
            (from.king_buckets, shape.king_buckets, "king buckets"),
            (from.buckets, shape.buckets, "output buckets"),
        ] {
            if have != want && have != 1 {
                bail!("the net has {have} {what}, the run asks for {want}");
            }
        }
        if from.hidden > shape.hidden {
            bail!(
                "the net has {} hidden neurons, the run asks for {} (a net is widened, never narrowed)",
                from.hidden,
                shape.hidden
            );
        }
        let (h0, h) = (from.hidden, shape.hidden);
        let (w1, rest) = self.params.split_at(from.king_buckets * INPUTS * h0);
        let (b1, rest) = rest.split_at(h0);
        let (w2, b2) = rest.split_at(from.buckets * 2 * h0);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut params = Vec::with_capacity(shape.len());
        for k in 0..shape.king_buckets {
            let bucket = &w1[k % from.king_buckets * INPUTS * h0..][..INPUTS * h0];
            for column in bucket.chunks_exact(h0) {
                params.extend_from_slice(column);
                params
                    .extend((h0..h).map(|_| rng.random_range(-1.0f32..1.0) * input_weight_scale()));
            }
        }
        params.extend_from_slice(b1);
        params.resize(params.len() + h - h0, 0.0);
        for o in 0..shape.buckets {
            for side in w2[o % from.buckets * 2 * h0..][..2 * h0].chunks_exact(h0) {
                params.extend_from_slice(side);
                params.resize(params.len() + h - h0, 0.0);
            }
        }
        for o in 0..shape.buckets {
            params.push(b2[o % from.buckets]);
        }
        debug_assert_eq!(params.len(), shape.len());
        Ok(FloatNet { shape, params })
    }

    /// The output bucket of a sample (as `nnue::output_bucket` gives it for
    /// the position).
    fn bucket(&self, s: &Sample) -> usize {
        if self.shape.buckets == 1 {
            return 0;
        }
        let majors = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon].map(|k| k.index());
        let count = s
            .red
            .iter()
            .filter(|&&f| majors.contains(&(f as usize / 90 % 7)))
            .count();
        nnue::bucket_of_majors(count)
    }

    /// The inputs of a sample's two perspectives, the side to move's first,
    /// as the net numbers them (in its king's bucket for a king-bucketed
    /// net, as `nnue::View` lays them out).
    fn inputs(&self, s: &Sample) -> [Vec<u16>; 2] {
        let red: Vec<u16> = s.red.to_vec();
        let black: Vec<u16> = s.red.iter().map(|&f| black_feature(f)).collect();
        let [us, them] = match s.stm {
            Color::Red => [red, black],
            Color::Black => [black, red],
        };
        if self.shape.king_buckets == 1 {
            return [us, them];
        }
        [us, them].map(|features| {
            // Its own king: kind 0, own side, so an input below 90 (its
            // square). The inputs are in the perspective's own frame, which
            // for Red is the board's.
            let king = features
                .iter()
                .find(|&&f| f < 90)
                .and_then(|&f| Square::from_index(usize::from(f)))
                .unwrap_or(Square::new(4, 0));
            let view = View::of_king(Color::Red, king);
            let offset = view.offset as u16;
            features
                .into_iter()
                .map(|f| offset + if view.mirror { mirror_feature(f) } else { f })
                .collect()
        })
    }

    /// Copies the weights of each input on files a–e onto its mirror image
    /// on files i–e (a symmetric net's weights stay tied this way).
    fn tie_mirrors(&mut self) {
        let h = self.shape.hidden;
        for f in 0..INPUTS as u16 {
            let g = canonical(f);
            if g != f {
                let (f, g) = (f as usize * h, g as usize * h);
                self.params.copy_within(g..g + h, f);
            }
        }
    }

    /// Where b1, w2 and b2 start in `params`.
    fn offsets(&self) -> (usize, usize, usize) {
        let Shape {
            hidden: h,
            king_buckets,
            buckets,
        } = self.shape;
        let w1_end = king_buckets * INPUTS * h;
        (w1_end, w1_end + h, w1_end + h + buckets * 2 * h)
    }

    /// The hidden sums of one perspective (before activation).
    fn hidden_sums(&self, features: &[u16], out: &mut [f32]) {
        let h = self.shape.hidden;
        let (w1_end, b1_end, _) = self.offsets();
        out.copy_from_slice(&self.params[w1_end..b1_end]);
        for &f in features {
            let col = &self.params[f as usize * h..(f as usize + 1) * h];
            for (o, w) in out.iter_mut().zip(col) {
                *o += w;
            }
        }
    }

    /// The output (a logit) for a position from its `inputs` (side to move
    /// first) and output `bucket`, and the hidden sums of both perspectives
    /// for the backward pass.
    fn forward(
        &self,
        inputs: &[Vec<u16>; 2],
        bucket: usize,
        us: &mut [f32],
        them: &mut [f32],
    ) -> f32 {
        self.hidden_sums(&inputs[0], us);
        self.hidden_sums(&inputs[1], them);
        let h = self.shape.hidden;
        let (_, b1_end, w2_end) = self.offsets();
        let w2 = b1_end + bucket * 2 * h;
        let (w_us, w_them) = self.params[w2..w2 + 2 * h].split_at(h);
        let mut out = self.params[w2_end + bucket];
        for (x, w) in us.iter().zip(w_us).chain(them.iter().zip(w_them)) {
            let a = x.clamp(0.0, 1.0);
            out += a * a * w;
        }
        out
    }

    /// The evaluation of a position for the side to move, in centipawns
    /// (for checks against the quantised net).
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let red: Vec<u16> = nnue::active_features(pos, Color::Red)
            .into_iter()
            .map(|f| f as u16)
            .collect();
        let s = Sample {
            red: &red,
            stm: pos.side_to_move(),
            score: 0,
            result: 0.5,
        };
        let mut us = vec![0.0; self.shape.hidden];
        let mut them = vec![0.0; self.shape.hidden];
        self.forward(&self.inputs(&s), self.bucket(&s), &mut us, &mut them) * SCALE as f32
    }

    /// The quantised net of the engine (`hidden` must be the engine's).
    pub fn quantise(&self) -> Result<Network> {
        if self.shape.hidden != nnue::HIDDEN {
            bail!(
                "a net of {} hidden neurons cannot be quantised for this engine ({})",
                self.shape.hidden,
                nnue::HIDDEN
            );
        }
        let (w1_end, b1_end, w2_end) = self.offsets();
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        Ok(Network {
            hidden_weights: self.params[..w1_end].iter().map(|&w| q(w, QA)).collect(),
            hidden_bias: self.params[w1_end..b1_end]
                .iter()
                .map(|&w| q(w, QA))
                .collect(),
            output_weights: self.params[b1_end..w2_end]
                .iter()
                .map(|&w| q(w, QB).clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT))
                .collect(),
            output_bias: self.params[w2_end..]
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        })
    }

    /// Checkpoint bytes: magic, hidden, king buckets, output buckets, epoch
    /// done, Adam's step, then the parameters and Adam's two moment vectors.
    /// (A checkpoint from before buckets has the magic `CXCK`, no buckets,
    /// and no bucket fields.)
    fn checkpoint_bytes(&self, adam: &Adam, epoch: usize) -> Vec<u8> {
        let mut b = b"CXC2".to_vec();
        for v in [
            self.shape.hidden,
            self.shape.king_buckets,
            self.shape.buckets,
        ] {
            b.extend_from_slice(&(v as u32).to_le_bytes());
        }
        b.extend_from_slice(&(epoch as u32).to_le_bytes());
        b.extend_from_slice(&adam.t.to_le_bytes());
        for v in self.params.iter().chain(&adam.m).chain(&adam.v) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    fn from_checkpoint(bytes: &[u8]) -> Result<(FloatNet, Adam, usize)> {
        let bucket_field = match bytes.get(..4) {
            Some(b"CXCK") => false,
            Some(b"CXC2") => true,
            _ => bail!("not a Chariot training checkpoint"),
        };
        let header = if bucket_field { 28 } else { 20 };
        if bytes.len() < header {
            bail!("checkpoint is truncated");
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let (shape, at) = if bucket_field {
            let shape = Shape {
                hidden: u32_at(4) as usize,
                king_buckets: u32_at(8) as usize,
                buckets: u32_at(12) as usize,
            };
            (shape, 16)
        } else {
            (Shape::plain(u32_at(4) as usize), 8)
        };
        let epoch = u32_at(at) as usize;
        let t = u64::from_le_bytes(
            bytes[at + 4..at + 12]
                .try_into()
                .context("checkpoint header")?,
        );
        shape.check().context("checkpoint is of another shape")?;
        let n = shape.len();
        if bytes.len() != header + 12 * n {
            bail!("checkpoint is truncated or of another shape");
        }
        let floats: Vec<f32> = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let net = FloatNet {
            shape,
            params: floats[..n].to_vec(),
        };
        let adam = Adam {
            m: floats[n..2 * n].to_vec(),
            v: floats[2 * n..].to_vec(),
            t,
        };
        Ok((net, adam, epoch))
    }
}

/// The input whose weights `f`'s are tied to in a symmetric net: itself on
/// files a–e, its mirror image on files f–i.
fn canonical(f: u16) -> u16 {
    if f % 90 % 9 > 4 {
        mirror_feature(f)
    } else {
        f
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn target(s: &Sample, lambda: f32) -> f32 {
    lambda * sigmoid(s.score as f32 / SCALE as f32) + (1.0 - lambda) * s.result
}

/// Adam's state.
#[derive(Clone, Debug)]
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: u64,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t.min(1 << 20) as i32);
        let c2 = 1.0 - B2.powi(self.t.min(1 << 20) as i32);
        for i in 0..params.len() {
            let g = grad[i];
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            let step = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + EPS);
            params[i] = (params[i] - step).clamp(-CLIP, CLIP);
        }
    }
}

/// Adds the gradient of `samples`' summed loss to `grad`; returns the
/// summed loss.
fn accumulate(
    net: &FloatNet,
    data: &Dataset,
    samples: &[usize],
    cfg: &Config,
    grad: &mut [f32],
) -> f64 {
    let lambda = cfg.lambda;
    let h = net.shape.hidden;
    let (w1_end, b1_end, w2_end) = net.offsets();
    let mut us = vec![0.0f32; h];
    let mut them = vec![0.0f32; h];
    let mut d_us = vec![0.0f32; h];
    let mut d_them = vec![0.0f32; h];
    let mut loss = 0.0f64;
    for &i in samples {
        let s = data.get(i);
        let bucket = net.bucket(&s);
        let inputs = net.inputs(&s);
        let out = net.forward(&inputs, bucket, &mut us, &mut them);
        let p = sigmoid(out);
        let err = p - target(&s, lambda);
        loss += (err * err) as f64;
        let g = 2.0 * err * p * (1.0 - p);
        grad[w2_end + bucket] += g;
        let w2 = b1_end + bucket * 2 * h;
        let (w_us, w_them) = net.params[w2..w2 + 2 * h].split_at(h);
        for k in 0..h {
            let (x, y) = (us[k], them[k]);
            let (a, b) = (x.clamp(0.0, 1.0), y.clamp(0.0, 1.0));
            grad[w2 + k] += g * a * a;
            grad[w2 + h + k] += g * b * b;
            d_us[k] = if x > 0.0 && x < 1.0 {
                g * w_us[k] * 2.0 * x
            } else {
                0.0
            };
            d_them[k] = if y > 0.0 && y < 1.0 {
                g * w_them[k] * 2.0 * y
            } else {
                0.0
            };
            grad[w1_end + k] += d_us[k] + d_them[k];
        }
        for (feats, d) in [(&inputs[0], &d_us), (&inputs[1], &d_them)] {
            for &f in feats {
                // A tied weight learns from both of its inputs.
                let f = if cfg.symmetric { canonical(f) } else { f };
                let col = &mut grad[f as usize * h..(f as usize + 1) * h];
                for (c, dv) in col.iter_mut().zip(d.iter()) {
                    *c += dv;
                }
            }
        }
    }
    loss
}

/// The mean loss over a dataset (validation), on all threads.
pub fn mean_loss(net: &FloatNet, data: &Dataset, lambda: f32, threads: usize) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let idx: Vec<usize> = (0..data.len()).collect();
    let per = idx.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = idx
            .chunks(per)
            .map(|part| {
                scope.spawn(move || {
                    let mut us = vec![0.0; net.shape.hidden];
                    let mut them = vec![0.0; net.shape.hidden];
                    part.iter()
                        .map(|&i| {
                            let s = data.get(i);
                            let inputs = net.inputs(&s);
                            let out = net.forward(&inputs, net.bucket(&s), &mut us, &mut them);
                            let e = sigmoid(out) - target(&s, lambda);
                            (e * e) as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    total / data.len() as f64
}

/// The learning rate of an epoch (0-based): `lr`, cut to 30% at 60% of the
/// epochs and to 9% at 85%.
fn epoch_lr(cfg: &Config, epoch: usize) -> f32 {
    let at = (epoch as f32 + 0.5) / cfg.epochs as f32;
    cfg.lr
        * if at > 0.85 {
            0.09
        } else if at > 0.6 {
            0.3
        } else {
            1.0
        }
}

/// Trains from random weights, a checkpoint or a net (`start`), writing a checkpoint and the
/// quantised net after every epoch. Returns the trained net.
pub fn train(cfg: &Config, data: &Dataset, valid: &Dataset, start: Start) -> Result<FloatNet> {
    if data.is_empty() {
        bail!("no training positions");
    }
    cfg.shape.check()?;
    if cfg.symmetric && cfg.shape.king_buckets > 1 {
        bail!("a king-bucketed net cannot be symmetric: its buckets mirror the board already");
    }
    std::fs::create_dir_all(&cfg.out)
        .with_context(|| format!("cannot create {}", cfg.out.display()))?;
    // A new run: a symmetric net's weights tied from the start, a fresh
    // optimiser, no epoch done.
    let fresh = |mut net: FloatNet| {
        if cfg.symmetric {
            net.tie_mirrors();
        }
        let n = net.params.len();
        (net, Adam::new(n), 0)
    };
    let (mut net, mut adam, first_epoch) = match start {
        Start::Resume(path) => {
            let (net, adam, epoch) = FloatNet::read_checkpoint(path)?;
            if net.shape != cfg.shape {
                bail!(
                    "checkpoint is of shape {:?}, the command asks for {:?}",
                    net.shape,
                    cfg.shape
                );
            }
            eprintln!(
                "train: resuming after epoch {epoch} from {}",
                path.display()
            );
            (net, adam, epoch)
        }
        Start::Random => fresh(FloatNet::random(cfg.shape, cfg.seed)),
        Start::Init(from) => fresh(from.widened(cfg.shape, cfg.seed)?),
    };
    let n = net.params.len();
    let mut parts_grad: Vec<Vec<f32>> = vec![vec![0.0; n]; PARTS];
    let mut grad = vec![0.0f32; n];
    // The epoch of the lowest validation loss so far in this run: with few
    // games the net overfits, and that epoch's net is the one to play.
    // With it, its file (and the name a quantised net takes when built in).
    let mut best: Option<(f64, usize, String)> = None;
    // Only a net of the engine's width is written as epoch-NNN.nnue.
    let quantisable = net.shape.hidden == nnue::HIDDEN;
    for epoch in first_epoch..cfg.epochs {
        let lr = epoch_lr(cfg, epoch);
        let mut order: Vec<usize> = (0..data.len()).collect();
        order.shuffle(&mut StdRng::seed_from_u64(
            cfg.seed ^ (epoch as u64 + 1).wrapping_mul(0x9e37_79b9),
        ));
        let bar = ProgressBar::new(data.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "epoch {}/{} [{{bar:30}}] {{pos}}/{{len}} {{per_sec}} eta {{eta}} {{msg}}",
                epoch + 1,
                cfg.epochs
            ))
            .context("progress bar template")?
            .progress_chars("=> "),
        );
        let started = Instant::now();
        let mut epoch_loss = 0.0f64;
        for batch in order.chunks(cfg.batch) {
            let per = batch.len().div_ceil(PARTS);
            let per_thread = PARTS.div_ceil(cfg.threads.max(1));
            let net_ref = &net;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = parts_grad
                    .chunks_mut(per_thread)
                    .enumerate()
                    .map(|(t, grads)| {
                        scope.spawn(move || {
                            grads
                                .iter_mut()
                                .enumerate()
                                .map(|(k, g)| {
                                    g.iter_mut().for_each(|x| *x = 0.0);
                                    let part = t * per_thread + k;
                                    let lo = (part * per).min(batch.len());
                                    let hi = ((part + 1) * per).min(batch.len());
                                    accumulate(net_ref, data, &batch[lo..hi], cfg, g)
                                })
                                .collect::<Vec<f64>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap_or_default())
                    .collect()
            });
            epoch_loss += losses.iter().sum::<f64>();
            let scale = 1.0 / batch.len() as f32;
            for (i, g) in grad.iter_mut().enumerate() {
                *g = parts_grad.iter().map(|p| p[i]).sum::<f32>() * scale;
            }
            adam.step(&mut net.params, &grad, lr);
            if cfg.symmetric {
                net.tie_mirrors();
            }
            bar.inc(batch.len() as u64);
        }
        bar.finish_and_clear();
        let secs = started.elapsed().as_secs_f64();
        let train_loss = epoch_loss / data.len() as f64;
        let valid_loss = mean_loss(&net, valid, cfg.lambda, cfg.threads);
        eprintln!(
            "train: epoch {}/{}: lr {lr:.5}, train loss {train_loss:.6}, validation loss {valid_loss:.6}, {:.0} positions/s",
            epoch + 1,
            cfg.epochs,
            data.len() as f64 / secs
        );
        let ck_name = format!("checkpoint-{:03}.ck", epoch + 1);
        let ck = cfg.out.join(&ck_name);
        std::fs::write(&ck, net.checkpoint_bytes(&adam, epoch + 1))
            .with_context(|| format!("cannot write {}", ck.display()))?;
        let kept = if quantisable {
            let q = net.quantise()?;
            let name = format!("epoch-{:03}.nnue", epoch + 1);
            let path = cfg.out.join(&name);
            std::fs::write(&path, q.to_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            format!(
                "{name}; built in, it is nets/{}",
                chariot::eval::nets::committed_name(&q)
            )
        } else {
            ck_name
        };
        if valid_loss.is_finite() && best.as_ref().is_none_or(|(loss, ..)| valid_loss < *loss) {
            best = Some((valid_loss, epoch + 1, kept));
        }
    }
    if let Some((loss, epoch, kept)) = best {
        eprintln!("train: lowest validation loss {loss:.6}, after epoch {epoch} ({kept})");
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_old_ones_read_as_one_bucket() {
        for (king_buckets, buckets) in [(1, 1), (1, OUTPUT_BUCKETS), (KING_BUCKETS, 1)] {
            let shape = Shape {
                hidden: 8,
                king_buckets,
                buckets,
            };
            let net = FloatNet::random(shape, 3);
            let mut adam = Adam::new(net.params.len());
            adam.t = 77;
            adam.m[5] = 0.25;
            let bytes = net.checkpoint_bytes(&adam, 4);
            let (back, adam_back, epoch) = FloatNet::from_checkpoint(&bytes).expect("reads");
            assert_eq!((back, epoch, adam_back.t), (net.clone(), 4, 77));
            assert_eq!(adam_back.m, adam.m);
            // Cut short, or with a bucket count the engine does not take.
            assert!(FloatNet::from_checkpoint(&bytes[..bytes.len() - 1]).is_err());
            for at in [8, 12] {
                let mut odd = bytes.clone();
                odd[at..at + 4].copy_from_slice(&3u32.to_le_bytes());
                assert!(FloatNet::from_checkpoint(&odd).is_err());
            }
            if shape == Shape::plain(8) {
                // The format before buckets: magic CXCK, no bucket fields.
                let mut old = b"CXCK".to_vec();
                old.extend_from_slice(&bytes[4..8]);
                old.extend_from_slice(&bytes[16..]);
                let (back, _, epoch) = FloatNet::from_checkpoint(&old).expect("reads");
                assert_eq!((back, epoch), (net, 4));
            }
        }
        assert!(FloatNet::from_checkpoint(b"CXC2").is_err());
        assert!(FloatNet::from_checkpoint(b"nonsense").is_err());
    }

    #[test]
    fn king_bucketed_inputs_are_those_the_engine_reads() {
        let shape = Shape {
            king_buckets: KING_BUCKETS,
            ..Shape::plain(8)
        };
        let net = FloatNet::random(shape, 1);
        let mut rng = StdRng::seed_from_u64(2);
        let mut pos = Position::startpos();
        let mut views = std::collections::BTreeSet::new();
        for i in 1..3000 {
            let moves = pos.legal_moves();
            if moves.is_empty() || i % 150 == 0 {
                pos = Position::startpos();
                continue;
            }
            let red: Vec<u16> = nnue::active_features(&pos, Color::Red)
                .into_iter()
                .map(|f| f as u16)
                .collect();
            let stm = pos.side_to_move();
            let sample = Sample {
                red: &red,
                stm,
                score: 0,
                result: 0.5,
            };
            let inputs = net.inputs(&sample);
            for (got, c) in inputs.into_iter().zip([stm, stm.flip()]) {
                let view = View::of_king(c, pos.king_square(c));
                views.insert((c.index(), view.offset, view.mirror));
                let mut want: Vec<u16> = pos
                    .occupied()
                    .into_iter()
                    .map(|sq| view.feature(c, pos.piece_at(sq), sq) as u16)
                    .collect();
                let mut got = got;
                want.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, want, "{}", pos.to_fen());
            }
            // Kings' moves half the time, to walk them round their palaces.
            let kings: Vec<_> = moves
                .iter()
                .filter(|m| pos.piece_at(m.from()).kind() == PieceKind::King)
                .collect();
            let m = if !kings.is_empty() && rng.random_bool(0.5) {
                *kings[rng.random_range(0..kings.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.make_move(m);
        }
        // Both sides' kings on most of the palace's nine squares.
        assert!(views.len() >= 14, "{views:?}");
    }

    #[test]
    fn a_run_can_start_from_a_net_widened_into_buckets_and_neurons() {
        // A plain net with weights over the quantised ranges (a random
        // float net's are too small to show a wrong scale).
        let mut rng = StdRng::seed_from_u64(4);
        let mut draw = |n: usize, max: i16| -> Vec<i16> {
            (0..n).map(|_| rng.random_range(-max..=max)).collect()
        };
        let plain = Network {
            hidden_weights: draw(INPUTS * nnue::HIDDEN, 120),
            hidden_bias: draw(nnue::HIDDEN, 120),
            output_weights: draw(2 * nnue::HIDDEN, MAX_OUTPUT_WEIGHT),
            output_bias: vec![-123_456],
        };
        // Read back as it is: the same net again.
        let float = FloatNet::from_network(&plain);
        assert_eq!(float.shape, Shape::plain(nnue::HIDDEN));
        assert_eq!(float.quantise().expect("quantises"), plain);
        let o8 = Shape {
            buckets: OUTPUT_BUCKETS,
            ..Shape::plain(nnue::HIDDEN)
        };
        let k6 = Shape {
            king_buckets: KING_BUCKETS,
            ..Shape::plain(nnue::HIDDEN)
        };
        let widened = [o8, k6].map(|shape| {
            let net = float.widened(shape, 1).expect("widens");
            assert_eq!(net.shape, shape);
            net.quantise().expect("quantises")
        });
        // Widened, it evaluates as before: in every output bucket, and in
        // every king bucket not read mirrored.
        let mut rng = StdRng::seed_from_u64(6);
        let mut pos = Position::startpos();
        let (mut checked, mut buckets) = (0, std::collections::BTreeSet::new());
        for i in 1..4000 {
            let moves = pos.legal_moves();
            if moves.is_empty() || i % 200 == 0 {
                pos = Position::startpos();
                continue;
            }
            let want = plain.evaluate_fresh(&pos);
            assert_eq!(widened[0].evaluate_fresh(&pos), want, "{}", pos.to_fen());
            buckets.insert(nnue::output_bucket(&pos));
            let mirrored =
                [Color::Red, Color::Black].map(|c| View::of_king(c, pos.king_square(c)).mirror);
            if mirrored == [false, false] {
                assert_eq!(widened[1].evaluate_fresh(&pos), want, "{}", pos.to_fen());
                checked += 1;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
        }
        assert!(
            checked > 1000 && buckets.len() >= 4,
            "{checked} {buckets:?}"
        );
        // More hidden neurons start out silent: the float net evaluates as
        // before (the new neurons' outputs are exact zeros).
        let wide = float
            .widened(Shape::plain(2 * nnue::HIDDEN), 1)
            .expect("widens");
        assert_eq!(wide.params.len(), Shape::plain(2 * nnue::HIDDEN).len());
        let mut pos = Position::startpos();
        for i in 1..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() || i % 100 == 0 {
                pos = Position::startpos();
                continue;
            }
            assert_eq!(
                wide.evaluate(&pos),
                float.evaluate(&pos),
                "{}",
                pos.to_fen()
            );
            pos.make_move(moves[rng.random_range(0..moves.len())]);
        }
        // Its new input weights are not all alike, and seeded.
        let h = 2 * nnue::HIDDEN;
        let new_weights = &wide.params[nnue::HIDDEN..h];
        assert!(new_weights.iter().any(|&w| w != new_weights[0]));
        assert_eq!(float.widened(Shape::plain(h), 1).expect("widens"), wide);
        // Narrowing is refused, with the reason.
        let o8_float = FloatNet::from_network(&widened[0]);
        let err = o8_float.widened(Shape::plain(nnue::HIDDEN), 1).unwrap_err();
        assert!(err.to_string().contains("output buckets"), "{err}");
        let err = FloatNet::from_network(&widened[1])
            .widened(o8, 1)
            .unwrap_err();
        assert!(err.to_string().contains("king buckets"), "{err}");
        let err = float.widened(Shape::plain(8), 1).unwrap_err();
        assert!(err.to_string().contains("never narrowed"), "{err}");
    }
}
