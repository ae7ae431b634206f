//! The game-data format: whole self-play games (start position, moves, the
//! search score of each move, the result), stored compactly in checksummed
//! chunks.
//!
//! A file is a sequence of chunks and nothing else, so files (the shards of
//! one run, or several runs) merge by concatenation. Each chunk is
//!
//! ```text
//! offset size  field (little-endian)
//!  0      4    magic "CXGD"
//!  4      2    version (2)
//!  6      2    header length (52)
//!  8      8    seed of the run
//! 16      4    nodes per move
//! 20      2    shard index K (1-based)
//! 22      2    shard count N
//! 24      4    local index of the chunk's first game within its shard
//! 28      4    games in the chunk
//! 32      4    payload length in bytes
//! 36      4    CRC-32 of the payload
//! 40      8    the evaluation that played: its net's hash, 0 for the
//!              classical evaluation
//! 48      4    CRC-32 of bytes 0..48
//! 52      …    payload: the games, one after another
//! ```
//!
//! Version 1 chunks (classical self-play only) have no evaluation field: a
//! 44-byte header whose CRC-32 of bytes 0..40 is at 40. They are still read,
//! as made by the classical evaluation, so a version 1 file resumes with
//! version 2 chunks.
//!
//! and each game is
//!
//! ```text
//! 45 bytes  the start board: 90 squares (rank * 9 + file) as 4-bit pieces,
//!           low nibble first; 0 empty, else colour << 3 | (kind + 1)
//!  1 byte   side to move (0 Red, 1 Black)
//!  1 byte   result (0 Black won, 1 draw, 2 Red won)
//!  1 byte   how the game ended (`Ending`)
//!  2 bytes  number of moves
//!  4 bytes  per move: the move (from * 90 + to) and the search score of the
//!           position before it, from the mover's side, in centipawns
//!           (`UNSCORED` for the random opening moves)
//! ```
//!
//! A reader checks every header and payload checksum. A damaged chunk is
//! reported and skipped (the reader resynchronises on the next magic), and a
//! truncated tail is reported; every good chunk is kept.

use anyhow::{bail, Result};
use chariot::xiangqi::types::{Color, Move, Piece, PieceKind, Square, SQUARES};
use chariot::xiangqi::Position;
use std::fmt;

/// The first bytes of every chunk.
pub const MAGIC: [u8; 4] = *b"CXGD";
/// The format version this code writes (it reads 1 too).
pub const VERSION: u16 = 2;
/// Bytes in a chunk header of the version written.
pub const HEADER_LEN: usize = 52;
/// Bytes in a version 1 chunk header.
pub const V1_HEADER_LEN: usize = 44;
/// The score of a move that was not searched (a random opening move).
pub const UNSCORED: i16 = i16::MIN;
/// Bytes of a game before its moves.
const GAME_HEAD: usize = 45 + 1 + 1 + 1 + 2;
/// A chunk larger than this is taken for damage, not data.
const MAX_PAYLOAD: usize = 1 << 28;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Checkmate = 0,
    Stalemate = 1,
    PerpetualCheck = 2,
    PerpetualChase = 3,
    Repetition = 4,
    MoveLimit = 5,
    InsufficientMaterial = 6,
    /// Both sides' searches agreed on a decisive score for several moves.
    AdjudicatedWin = 7,
    /// Both sides' searches agreed on a level score late in a long game.
    AdjudicatedDraw = 8,
    /// The game reached the generator's ply cap and was called a draw.
    PlyCap = 9,
}

impl Ending {
    const ALL: [Ending; 10] = [
        Ending::Checkmate,
        Ending::Stalemate,
        Ending::PerpetualCheck,
        Ending::PerpetualChase,
        Ending::Repetition,
        Ending::MoveLimit,
        Ending::InsufficientMaterial,
        Ending::AdjudicatedWin,
        Ending::AdjudicatedDraw,
        Ending::PlyCap,
    ];

    fn from_byte(b: u8) -> Option<Ending> {
        Ending::ALL.get(b as usize).copied()
    }

    /// The ending for a verdict of the rules.
    pub fn from_rules(t: chariot::xiangqi::rules::Termination) -> Ending {
        use chariot::xiangqi::rules::Termination as T;
        match t {
            T::Checkmate => Ending::Checkmate,
            T::Stalemate => Ending::Stalemate,
            T::PerpetualCheck => Ending::PerpetualCheck,
            T::PerpetualChase => Ending::PerpetualChase,
            T::Repetition => Ending::Repetition,
            T::MoveLimit => Ending::MoveLimit,
            T::InsufficientMaterial => Ending::InsufficientMaterial,
        }
    }
}

/// The result of a game from Red's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWins = 0,
    Draw = 1,
    RedWins = 2,
}

impl Outcome {
    /// The result for a winner (`None`: a draw).
    pub fn from_winner(winner: Option<Color>) -> Outcome {
        match winner {
            Some(Color::Red) => Outcome::RedWins,
            Some(Color::Black) => Outcome::BlackWins,
            None => Outcome::Draw,
        }
    }

    /// Red's score: 1, ½ or 0.
    pub fn red_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    fn from_byte(b: u8) -> Option<Outcome> {
        [Outcome::BlackWins, Outcome::Draw, Outcome::RedWins]
            .get(b as usize)
            .copied()
    }
}

/// One game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The start position's board, square by square.
    pub board: [Piece; SQUARES],
    /// Who moves first.
    pub side: Color,
    pub outcome: Outcome,
    pub ending: Ending,
    /// Each move with the search score before it (mover's side), or
    /// `UNSCORED`.
    pub moves: Vec<(Move, i16)>,
}

impl GameRecord {
    /// A game starting from `pos` (its counters are not kept).
    pub fn new(pos: &Position, outcome: Outcome, ending: Ending, moves: Vec<(Move, i16)>) -> Self {
        let mut board = [Piece::NONE; SQUARES];
        for sq in Square::all() {
            board[sq.index()] = pos.piece_at(sq);
        }
        GameRecord {
            board,
            side: pos.side_to_move(),
            outcome,
            ending,
            moves,
        }
    }

    /// The start position, checked by the FEN reader like any position.
    pub fn start_position(&self) -> Result<Position> {
        let mut fen = String::with_capacity(100);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                let p = self.board[rank * 9 + file];
                if p.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    fen.push(char::from(b'0' + empty));
                    empty = 0;
                }
                fen.push(p.letter());
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(match self.side {
            Color::Red => " w - - 0 1",
            Color::Black => " b - - 0 1",
        });
        Ok(Position::from_fen(&fen)?)
    }

    /// Bytes this game takes in a payload.
    pub fn encoded_len(&self) -> usize {
        GAME_HEAD + 4 * self.moves.len()
    }

    /// Appends the game's bytes to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        for pair in self.board.chunks(2) {
            out.push(pair[0].index() as u8 | (pair[1].index() as u8) << 4);
        }
        out.push(self.side as u8);
        out.push(self.outcome as u8);
        out.push(self.ending as u8);
        let n = u16::try_from(self.moves.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&n.to_le_bytes());
        for &(m, score) in self.moves.iter().take(n as usize) {
            let code = (m.from().index() * SQUARES + m.to().index()) as u16;
            out.extend_from_slice(&code.to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
    }

    /// Reads one game from the front of `bytes`; returns it and its length.
    pub fn decode(bytes: &[u8]) -> Result<(GameRecord, usize)> {
        if bytes.len() < GAME_HEAD {
            bail!("a game is cut short");
        }
        let mut board = [Piece::NONE; SQUARES];
        for (i, &b) in bytes[..45].iter().enumerate() {
            board[2 * i] = piece_from_nibble(b & 15)?;
            board[2 * i + 1] = piece_from_nibble(b >> 4)?;
        }
        let side = match bytes[45] {
            0 => Color::Red,
            1 => Color::Black,
            b => bail!("side to move byte {b}"),
        };
        let outcome = Outcome::from_byte(bytes[46])
            .ok_or_else(|| anyhow::anyhow!("result byte {}", bytes[46]))?;
        let ending = Ending::from_byte(bytes[47])
            .ok_or_else(|| anyhow::anyhow!("ending byte {}", bytes[47]))?;
        let n = u16::from_le_bytes([bytes[48], bytes[49]]) as usize;
        let len = GAME_HEAD + 4 * n;
        if bytes.len() < len {
            bail!("a game of {n} moves is cut short");
        }
        let mut moves = Vec::with_capacity(n);
        for rec in bytes[GAME_HEAD..len].chunks_exact(4) {
            let code = u16::from_le_bytes([rec[0], rec[1]]) as usize;
            let (from, to) = (code / SQUARES, code % SQUARES);
            let (Some(from), Some(to)) = (Square::from_index(from), Square::from_index(to)) else {
                bail!("move code {code} is off the board");
            };
            moves.push((Move::new(from, to), i16::from_le_bytes([rec[2], rec[3]])));
        }
        let game = GameRecord {
            board,
            side,
            outcome,
            ending,
            moves,
        };
        Ok((game, len))
    }
}

fn piece_from_nibble(n: u8) -> Result<Piece> {
    if n == 0 {
        return Ok(Piece::NONE);
    }
    let kind = (n & 7) as usize;
    if kind == 0 {
        bail!("piece code {n}");
    }
    let color = if n & 8 == 0 { Color::Red } else { Color::Black };
    Ok(Piece::new(color, PieceKind::ALL[kind - 1]))
}

/// Who made a chunk: the run's parameters, so that a resumed run can refuse
/// a file made with other settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunId {
    pub seed: u64,
    pub nodes: u32,
    /// 1-based shard index and shard count.
    pub shard: (u16, u16),
    /// The evaluation that played: its net's hash, 0 for the classical one.
    pub eval: u64,
}

/// A chunk header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    pub run: RunId,
    /// Local index (within its shard) of the chunk's first game.
    pub first_game: u32,
    pub games: u32,
    pub payload_len: u32,
    pub payload_crc: u32,
}

impl ChunkHeader {
    fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..4].copy_from_slice(&MAGIC);
        h[4..6].copy_from_slice(&VERSION.to_le_bytes());
        h[6..8].copy_from_slice(&(HEADER_LEN as u16).to_le_bytes());
        h[8..16].copy_from_slice(&self.run.seed.to_le_bytes());
        h[16..20].copy_from_slice(&self.run.nodes.to_le_bytes());
        h[20..22].copy_from_slice(&self.run.shard.0.to_le_bytes());
        h[22..24].copy_from_slice(&self.run.shard.1.to_le_bytes());
        h[24..28].copy_from_slice(&self.first_game.to_le_bytes());
        h[28..32].copy_from_slice(&self.games.to_le_bytes());
        h[32..36].copy_from_slice(&self.payload_len.to_le_bytes());
        h[36..40].copy_from_slice(&self.payload_crc.to_le_bytes());
        h[40..48].copy_from_slice(&self.run.eval.to_le_bytes());
        let crc = crc32fast::hash(&h[..48]);
        h[48..52].copy_from_slice(&crc.to_le_bytes());
        h
    }

    /// Reads a header at the front of `bytes` (at least 8 bytes long);
    /// returns it and its length.
    fn decode(bytes: &[u8]) -> Result<(ChunkHeader, usize), Damage> {
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let u64_at = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[i..i + 8]);
            u64::from_le_bytes(b)
        };
        if bytes[0..4] != MAGIC {
            return Err(Damage::NoMagic);
        }
        let (version, len) = (u16_at(4), u16_at(6) as usize);
        let crc_at = match (version, len) {
            (1, V1_HEADER_LEN) => 40,
            (VERSION, HEADER_LEN) => 48,
            _ => return Err(Damage::Version(version)),
        };
        if bytes.len() < len {
            return Err(Damage::Truncated);
        }
        if crc32fast::hash(&bytes[..crc_at]) != u32_at(crc_at) {
            return Err(Damage::HeaderChecksum);
        }
        let header = ChunkHeader {
            run: RunId {
                seed: u64_at(8),
                nodes: u32_at(16),
                shard: (u16_at(20), u16_at(22)),
                eval: if version == 1 { 0 } else { u64_at(40) },
            },
            first_game: u32_at(24),
            games: u32_at(28),
            payload_len: u32_at(32),
            payload_crc: u32_at(36),
        };
        if header.payload_len as usize > MAX_PAYLOAD {
            return Err(Damage::HeaderChecksum);
        }
        Ok((header, len))
    }
}

/// Encodes `games` as one chunk.
pub fn encode_chunk(run: RunId, first_game: u32, games: &[GameRecord]) -> Vec<u8> {
    let mut payload = Vec::with_capacity(games.iter().map(GameRecord::encoded_len).sum());
    for g in games {
        g.encode(&mut payload);
    }
    let header = ChunkHeader {
        run,
        first_game,
        games: games.len() as u32,
        payload_len: payload.len() as u32,
        payload_crc: crc32fast::hash(&payload),
    };
    let mut out = header.encode().to_vec();
    out.extend_from_slice(&payload);
    out
}

/// What is wrong with the bytes at some offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// No chunk starts here.
    NoMagic,
    /// The header's checksum fails (or its sizes are absurd).
    HeaderChecksum,
    /// A chunk of a format version this code does not read.
    Version(u16),
    /// The payload's checksum fails, or its games do not parse.
    Payload,
    /// The file ends inside a chunk.
    Truncated,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::NoMagic => f.write_str("bytes that are not a chunk"),
            Damage::HeaderChecksum => f.write_str("a chunk header whose checksum fails"),
            Damage::Version(v) => write!(f, "a chunk of unknown format version {v}"),
            Damage::Payload => f.write_str("a chunk whose games fail their checksum"),
            Damage::Truncated => f.write_str("a chunk cut short by the end of the file"),
        }
    }
}

/// A damaged stretch of a file: where it starts, how long it is, and what
/// was found there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DamageReport {
    pub offset: usize,
    pub len: usize,
    pub damage: Damage,
}

impl fmt::Display for DamageReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {} ({} bytes skipped)",
            self.damage, self.offset, self.len
        )
    }
}

/// A good chunk: its header and games, and where it lies in the file.
#[derive(Clone, Debug)]
pub struct Chunk {
    pub header: ChunkHeader,
    pub games: Vec<GameRecord>,
    pub offset: usize,
    pub len: usize,
}

/// Everything readable in `bytes`: the good chunks in file order, and the
/// damaged stretches between and after them.
pub fn read_chunks(bytes: &[u8]) -> (Vec<Chunk>, Vec<DamageReport>) {
    let mut chunks = Vec::new();
    let mut damage: Vec<DamageReport> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match read_chunk(&bytes[at..]) {
            Ok((header, games, len)) => {
                chunks.push(Chunk {
                    header,
                    games,
                    offset: at,
                    len,
                });
                at += len;
            }
            Err(kind) => {
                // Skip to the next place a good chunk could start.
                let next = find_magic(bytes, at + 1).unwrap_or(bytes.len());
                match damage.last_mut() {
                    Some(d) if d.offset + d.len == at => d.len = next - d.offset,
                    _ => damage.push(DamageReport {
                        offset: at,
                        len: next - at,
                        damage: kind,
                    }),
                }
                at = next;
            }
        }
    }
    (chunks, damage)
}

fn find_magic(bytes: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(MAGIC.len())
        .position(|w| w == MAGIC)
        .map(|i| from + i)
}

fn read_chunk(bytes: &[u8]) -> Result<(ChunkHeader, Vec<GameRecord>, usize), Damage> {
    if bytes.len() < 8 {
        return Err(if bytes.len() >= 4 && bytes[..4] != MAGIC {
            Damage::NoMagic
        } else {
            Damage::Truncated
        });
    }
    let (header, header_len) = ChunkHeader::decode(bytes)?;
    let end = header_len + header.payload_len as usize;
    let Some(payload) = bytes.get(header_len..end) else {
        return Err(Damage::Truncated);
    };
    if crc32fast::hash(payload) != header.payload_crc {
        return Err(Damage::Payload);
    }
    let mut games = Vec::with_capacity(header.games as usize);
    let mut at = 0;
    for _ in 0..header.games {
        let (g, len) = GameRecord::decode(&payload[at..]).map_err(|_| Damage::Payload)?;
        games.push(g);
        at += len;
    }
    if at != payload.len() {
        return Err(Damage::Payload);
    }
    Ok((header, games, end))
}
