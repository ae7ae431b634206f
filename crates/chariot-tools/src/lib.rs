//! Chariot's data and training tools: self-play data generation and the
//! game-data format, and opening-book curation.

#![forbid(unsafe_code)]

pub mod book;
pub mod datagen;
pub mod dataset;
pub mod gamefile;
pub mod train;
pub mod tune;
