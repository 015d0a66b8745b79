//! Reading and writing a shape's entries in the model's extensions: the
//! contract's helpers (`crate::contract::ext`), and what goes across between
//! shapes (`shapes::kit::foreign`), named here for the engine.

pub use crate::contract::ext::{add_hint, foreign_whole_tool, says_nothing, Mine, Own};
pub use crate::shapes::kit::foreign::{carry_shared, carry_shared_out, foreign_fields};
