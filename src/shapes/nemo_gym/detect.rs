//! What tells a NeMo Gym tool reply apart (`convert --from auto`); the rank
//! keeps the order of checks `convert::detect` lists.

use crate::json::Object;

use crate::contract::detect::{Rank, Tier};

/// `tool_output_images` is NeMo Gym's alone: it is checked first of all.
pub fn document<O: Object>(map: &O) -> Option<Rank> {
    map.contains_key("tool_output_images")
        .then_some(Rank::new(Tier::ToolResult, 0))
}
