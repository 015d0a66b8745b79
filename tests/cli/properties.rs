//! Property tests (docs/development.md): `split` then re-assembly is the input; `resize`
//! is idempotent and within every cap; `--fix` then `validate` is clean and
//! nothing but the fixed values changed. (Round trips between shapes are in
//! `roundtrip.rs`.)

use std::io::Cursor;

use partkit::resize::{resize_image, Limits, ResizeOptions};
use partkit::split::{split_document, SplitOptions, SplitOutput};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

use crate::support::media::{b64, bytes};
use crate::{path_arg, run, temp_file};

/// The committed images a reply may carry, with their media types.
const IMAGES: [(&str, &str); 4] = [
    ("tiny.png", "image/png"),
    ("tiny.jpg", "image/jpeg"),
    ("tiny.gif", "image/gif"),
    ("tiny.webp", "image/webp"),
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ,.]{0,16}",
        Just("quotes \" \\ and \u{e9}\u{2615}".to_string()),
        Just("line\nbreak".to_string()),
    ]
}

prop_compose! {
    /// A tool reply: other keys of any JSON kind, and 0–4 images with or
    /// without a label.
    fn reply()(
        other in proptest::collection::vec(("[a-z]{1,6}", prop_oneof![
            text().prop_map(Value::from),
            any::<i32>().prop_map(Value::from),
            Just(json!({"nested": [1, "two", null]})),
        ]), 0..4),
        images in proptest::collection::vec((0usize..4, proptest::option::of(text())), 0..5),
        images_first in any::<bool>(),
    ) -> Value {
        let entries: Vec<Value> = images
            .into_iter()
            .map(|(which, label)| {
                let (name, media_type) = IMAGES[which];
                let mut entry = json!({"image_url": format!("data:{media_type};base64,{}", b64(name))});
                if let Some(label) = label {
                    entry["label"] = json!(label);
                }
                entry
            })
            .collect();
        let mut map = Map::new();
        if images_first {
            map.insert("tool_output_images".into(), json!(entries));
        }
        for (key, value) in other {
            if key != "tool_output_images" {
                map.insert(key, value);
            }
        }
        if !images_first {
            map.insert("tool_output_images".into(), json!(entries));
        }
        Value::Object(map)
    }
}

/// Puts a split reply back together: the rest (the first part's text) with
/// `tool_output_images` made from the images split out.
fn reassemble(parts: &[Value], images: &[partkit::split::ExtractedImage]) -> Value {
    let rest = parts[0]["text"].as_str().expect("the rest comes first");
    let mut reply: Value = serde_json::from_str(rest).expect("the rest is JSON");
    let entries: Vec<Value> = images
        .iter()
        .map(|image| {
            let data = crate::support::media::b64_of(image.bytes.as_ref().unwrap());
            let mut entry =
                json!({"image_url": format!("data:{};base64,{data}", image.media_type)});
            if let Some(label) = &image.label {
                entry["label"] = json!(label);
            }
            entry
        })
        .collect();
    reply["tool_output_images"] = json!(entries);
    reply
}

/// How a sequence of images is ordered in the parts: each label (when not
/// empty), then the image.
fn expected_kinds(images: &[partkit::split::ExtractedImage]) -> Vec<&'static str> {
    let mut kinds = vec!["text"];
    for image in images {
        if image.label.as_deref().is_some_and(|l| !l.is_empty()) {
            kinds.push("text");
        }
        kinds.push("image");
    }
    kinds
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn split_then_reassembly_is_the_input(reply in reply()) {
        let text = serde_json::to_vec(&reply).unwrap();
        let options = SplitOptions {
            output: SplitOutput::Parts,
            keep_bytes: true,
            pretty: false,
            at: Default::default(),
        };
        let split = split_document(&text, &options).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let parts: Vec<Value> = serde_json::from_slice(&split.output).unwrap();
        let kinds: Vec<&str> = parts.iter().map(|p| p["type"].as_str().unwrap()).collect();
        prop_assert_eq!(kinds, expected_kinds(&split.images));
        prop_assert_eq!(reassemble(&parts, &split.images), reply);
    }
}

/// A PNG of `width`×`height` pixels of noise (so that it does not compress
/// away), seeded.
fn noise_png(width: u32, height: u32, seed: u32) -> Vec<u8> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let image = image::RgbImage::from_fn(width, height, |_, _| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        image::Rgb([state as u8, (state >> 8) as u8, (state >> 16) as u8])
    });
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn resize_is_within_every_cap_and_idempotent(
        width in 8u32..160,
        height in 8u32..160,
        seed in any::<u32>(),
        max_dim in proptest::option::of(4u32..120),
        max_bytes in proptest::option::of(2_000u64..40_000),
        jpeg in any::<bool>(),
    ) {
        let input = if jpeg {
            let mut out = Cursor::new(Vec::new());
            image::load_from_memory(&noise_png(width, height, seed)).unwrap()
                .write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
            out.into_inner()
        } else {
            noise_png(width, height, seed)
        };
        let options = ResizeOptions {
            limits: Limits { max_dim, max_bytes, ..Limits::default() },
            ..ResizeOptions::default()
        };
        let once = resize_image(&input, &options).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let after = &once.after;
        if let Some(max_dim) = max_dim {
            prop_assert!(after.width.max(after.height) <= max_dim, "{}", after.describe());
        }
        if let Some(max_bytes) = max_bytes {
            prop_assert!(after.bytes <= max_bytes, "{}", after.describe());
        }
        let resized = once.bytes.clone().unwrap_or(input);
        prop_assert_eq!(after.bytes, resized.len() as u64);
        let twice = resize_image(&resized, &options).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(!twice.changed(), "a second pass changes nothing: {:?}", twice.reasons);
    }
}

/// One value `--fix` repairs: as written, and as it must be written.
fn fixable() -> impl Strategy<Value = (String, String)> {
    let png = b64("tiny.png");
    let wrapped: String = png
        .as_bytes()
        .chunks(20)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join("\\n");
    prop_oneof![
        // The declared type is another than the bytes'.
        Just((
            format!("data:image/jpeg;base64,{png}"),
            format!("data:image/png;base64,{png}")
        )),
        // Not the exact type NeMo Gym takes.
        Just((
            format!("data:image/PNG;base64,{png}"),
            format!("data:image/png;base64,{png}")
        )),
        // Line breaks in the base64.
        Just((
            format!("data:image/png;base64,{wrapped}"),
            format!("data:image/png;base64,{png}")
        )),
        // Already right.
        Just((
            format!("data:image/png;base64,{png}"),
            format!("data:image/png;base64,{png}")
        )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// The file `--fix` writes is the input with exactly the fixed values
    /// replaced (every other byte as it was, spacing and key order
    /// included), and `validate` finds nothing in it.
    #[test]
    fn fix_then_validate_is_clean_and_changes_nothing_else(
        values in proptest::collection::vec(fixable(), 1..4),
        filler in "[ a-z]{0,12}",
        spaced in any::<bool>(),
    ) {
        let gap = if spaced { " \n  " } else { "" };
        let render = |pick: fn(&(String, String)) -> &String| {
            let entries: Vec<String> = values
                .iter()
                .map(|value| format!("{{{gap}\"image_url\":{gap}\"{}\"}}", pick(value)))
                .collect();
            format!(
                "{{\"zeta\":{gap}\"{filler}\",{gap}\"tool_output_images\":[{}],\"n\":1.50}}\n",
                entries.join(&format!(",{gap}"))
            )
        };
        let input = render(|v| &v.0);
        let expected = render(|v| &v.1);
        let (_dir, file) = temp_file("reply.json", input.as_bytes());
        let fixed = run(&["validate", "--fix", path_arg(&file)]);
        prop_assert_eq!(fixed.code, 0, "{}{}", fixed.stdout, fixed.stderr);
        prop_assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
        let again = run(&["validate", path_arg(&file)]);
        prop_assert_eq!((again.code, again.stdout.as_str()), (0, ""));
    }
}

#[test]
fn the_images_are_real() {
    // The generators above draw on these fixtures: each decodes.
    for (name, _) in IMAGES {
        image::load_from_memory(&bytes(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
