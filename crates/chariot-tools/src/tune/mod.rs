//! Tuning the classical evaluation on Chariot's own games
//! (`chariot-tools tune fit`): the weights fitted by logistic regression
//! (`fit`) to the quiet positions of self-play games (`chariot-tools
//! datagen`) or of a text file of FENs with results.

pub mod cli;
pub mod fit;
