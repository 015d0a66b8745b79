//! A streamed response body assembled into the final response it stands for
//! (docs/streams.md): [`assemble`] cuts the body into events
//! ([`parse`] tells the framing from the bytes), finds the
//! shape whose stream they are from the events themselves (or takes the
//! shape it is told), and has that shape's assembler
//! ([`crate::contract::StreamAssembler`]) build the response, which the
//! shape's reader then reads like any response.

use serde_json::Value;

use crate::shapes::{Registered, Shape};
use crate::stream;
// The framing's types, which an assembly's callers name.
pub use crate::stream::{frames, parse, Event, Events, Frame, Framing, HeaderValue, StreamProblem};

/// A stream assembled.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembled {
    /// The shape whose stream it was.
    pub shape: Shape,
    /// How its events were laid out.
    pub framing: Framing,
    /// How many events it held.
    pub events: usize,
    /// The final response, a document of `shape`.
    pub response: Value,
    /// What was left out on the way.
    pub notes: Vec<String>,
}

/// Assembles `body`, a streamed response, into its final response. `shape`,
/// when given, is the shape the stream is taken to be; otherwise the first
/// shape whose assembler claims the events.
pub fn assemble(body: &[u8], shape: Option<Shape>) -> Result<Assembled, StreamProblem> {
    let events = stream::parse(body)?;
    let claimed = |shape: &Shape| {
        shape
            .dialect()
            .stream()
            .is_some_and(|assembler| assembler.claims(&events))
    };
    let shape = match shape {
        Some(shape) => shape,
        None => Shape::ALL.into_iter().find(claimed).ok_or_else(|| {
            StreamProblem::Unrecognized(format!(
                "{} of {}, but no shape's stream",
                crate::size::count_of(events.events.len(), "event"),
                events.framing.name()
            ))
        })?,
    };
    let assembler = shape
        .dialect()
        .stream()
        .ok_or_else(|| StreamProblem::Unrecognized(format!("{shape} has no streamed responses")))?;
    let assembly = assembler.assemble(&events)?;
    Ok(Assembled {
        shape,
        framing: events.framing,
        events: events.events.len(),
        response: assembly.response,
        notes: assembly.notes,
    })
}
