//! Hostile and careless input (docs/safety.md): every case ends with exit 0, 1 or
//! 2 and a one-line message, memory stays bounded, and nothing is
//! half-written. Long variants are `#[ignore]`d (`.ci/run` runs them).

mod bounded;
mod duplicates;
mod echo;
mod encoding;
mod files;
mod images;
mod inputs;
mod limits;
mod lines;
mod outputs;
mod settings;
mod writes;

pub use bounded::{run_bounded, Feed};
