//! What the conversion engine needs to know of MCP `CallToolResult`s.

use crate::contract::ConvertFacts;

/// A single tool result that carries its blocks as they are (any URI a
/// resource names included): nothing is required, refused or fetched.
pub const FACTS: ConvertFacts = ConvertFacts::CARRIER;
