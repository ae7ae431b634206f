//! Tuning the evaluation on Chariot's own games (`chariot tune`): generate
//! quiet positions with results by self-play (`datagen`), then fit the
//! weights by logistic regression (`fit`).

pub mod cli;
pub mod datagen;
pub mod fit;
