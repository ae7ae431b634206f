//! Chariot's data and training tools: self-play data generation, the
//! game-data format and the merging of its shards, the data set's manifest
//! and the remaking of its shards, match games read as game
//! data, ICCS PGN, wide opening suites for matches, opening-book curation,
//! SPSA tuning of the search, and the fit of the engine's win/draw/loss
//! model.

#![forbid(unsafe_code)]

pub mod book;
pub mod datagen;
pub mod dataset;
pub mod gamefile;
pub mod import;
pub mod manifest;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod spsa;
pub mod sync;
pub mod train;
pub mod tune;
pub mod wdl;
