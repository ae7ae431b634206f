//! Chariot's data and training tools: self-play data generation and the
//! game-data format.

#![forbid(unsafe_code)]

pub mod datagen;
pub mod dataset;
pub mod gamefile;
pub mod train;
pub mod tune;
