//! Acceptance facts (docs/acceptance.md), defined with the contract every
//! shape implements (`crate::contract::acceptance`): each shape keeps its own
//! list, `validate` reads the severity of a provider-dependent finding from it.

pub use crate::contract::acceptance::*;
