//! Chariot's data and training tools: self-play data generation, the
//! game-data format and the merging of its shards, and opening-book curation.

#![forbid(unsafe_code)]

pub mod book;
pub mod datagen;
pub mod dataset;
pub mod gamefile;
pub mod merge;
pub mod train;
pub mod tune;
