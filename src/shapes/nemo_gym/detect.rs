//! What tells a NeMo Gym tool reply apart (`convert --from auto`); the rank
//! keeps the order of checks `convert::detect` lists.

use serde_json::{Map, Value};

use crate::contract::detect::{Rank, Tier};

/// `tool_output_images` is NeMo Gym's alone: it is checked first of all.
pub fn document(map: &Map<String, Value>) -> Option<Rank> {
    map.contains_key("tool_output_images")
        .then_some(Rank::new(Tier::ToolResult, 0))
}
