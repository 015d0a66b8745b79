//! A shape's side of `validate`, defined with the contract every shape
//! implements (`crate::contract::rules`); named here for the engine's own use.

pub use crate::contract::rules::*;
