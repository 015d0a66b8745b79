//! The one integration-test binary: it runs the real `partkit` binary on real
//! files and asserts exit code, stdout and stderr together (and calls the
//! library in-process for the table tests and the shape cases of
//! `tests/shapes/`). One module per area; what they share is in `support/`.

mod support;

mod accepted_conversions;
mod accepted_gemini_bedrock;
mod accepted_media;
mod accepted_openai;
mod cassettes;
mod config;
mod convert_anchors;
mod convert_chat;
mod convert_gemini;
mod convert_matrix;
mod convert_recordings;
mod convert_table;
mod detection;
mod encode;
mod fetch;
mod files;
mod generated;
mod hostile;
mod image_generation;
mod inspect;
mod inspect_recordings;
mod mapped_lines;
mod payloads;
mod pipelines;
mod properties;
mod recordings;
mod resize;
mod rollouts;
mod roundtrip;
mod shape_cases;
mod split;
mod streams;
mod validate;
mod validate_arguments;
mod validate_clean;
mod validate_content;
mod validate_formats;
mod validate_ids;
mod validate_media;
mod validate_options;
mod validate_pairing;
mod validate_recordings;
mod validate_shape;
mod validate_table;
mod validate_tools;
mod view;
mod view_recordings;
mod view_rollouts;

pub use support::{
    fixture, fixture_b64, is_summary, path_arg, run, run_with_stdin, temp_file, Run,
    TRANSCRIPT_SHAPES,
};
