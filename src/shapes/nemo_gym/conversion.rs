//! What the conversion engine needs to know of NeMo Gym tool replies.

use crate::contract::ConvertFacts;

/// A single tool reply that carries its images as they are: nothing is
/// required, refused or fetched.
pub const FACTS: ConvertFacts = ConvertFacts::CARRIER;
