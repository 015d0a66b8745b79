//! partkit's bottom layer (docs/architecture.md): the canonical model
//! ([`part`], [`transcript`], [`media`]), the contract every provider shape
//! implements ([`contract`]), and the plumbing both stand on (the borrowed
//! JSON tree and its writer, base64, `data:` URLs, inputs and errors).
//!
//! A crate of its own so that the compiler keeps the direction: nothing
//! here can name a shape, an engine or the command line. Everything is
//! reached through the `partkit` crate, which re-exports what its API names;
//! this crate's items are public for that crate's sake, not as an API.

#[cfg(feature = "alloc")]
pub mod alloc;
pub mod b64;
pub mod check;
pub mod contract;
pub mod dataurl;
pub mod document;
pub mod echo;
pub mod error;
pub mod io;
pub mod json;
pub mod mapped;
pub mod media;
pub mod part;
pub mod recording;
pub mod render;
pub mod shared;
pub mod size;
pub mod stream;
pub mod transcript;
