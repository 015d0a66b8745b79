//! Hard images get the right verdict: a decode past the decoder's memory
//! limit is not a truncated image, and a WebP without pixels is not "within
//! every cap".

use std::io::Write;

use crate::support::media::b64_of;
use crate::{path_arg, run, run_with_stdin};

/// A 16-bit RGBA PNG of `side`×`side` black pixels, written a row at a time
/// (never held decoded): small on disk, `side² × 8` bytes decoded.
fn wide_png(side: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, side, side);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Sixteen);
    encoder.set_compression(png::Compression::Fastest);
    let mut writer = encoder.write_header().unwrap();
    let mut stream = writer.stream_writer().unwrap();
    let row = vec![0u8; side as usize * 8];
    for _ in 0..side {
        stream.write_all(&row).unwrap();
    }
    stream.finish().unwrap();
    writer.finish().unwrap();
    out
}

#[test]
fn a_decode_over_the_memory_limit_is_not_a_truncated_image() {
    // 8,200² × 8 bytes = 538 MB decoded, over the decoder's 512 MiB.
    let png = wide_png(8200);
    let doc = format!(
        r#"[{{"type":"image","mimeType":"image/png","data":"{}"}}]"#,
        b64_of(&png)
    );
    let deep = run_with_stdin(&["validate", "--deep", "-"], doc.as_bytes());
    assert_eq!(deep.code, 0, "{}{}", deep.stdout, deep.stderr);
    assert!(
        deep.stdout
            .contains("warning[image-not-decoded] /0/data: image not decoded in full"),
        "{}",
        deep.stdout
    );
    assert!(!deep.stdout.contains("image-truncated"), "{}", deep.stdout);
    let strict = run_with_stdin(
        &["validate", "--deep", "--deny-warnings", "-"],
        doc.as_bytes(),
    );
    assert_eq!(strict.code, 1);
    // Its header still counts: a cap on the side is checked.
    let capped = run_with_stdin(
        &["validate", "--deep", "--max-dim", "8000", "-"],
        doc.as_bytes(),
    );
    assert!(
        capped.stdout.contains("error[limit-dim]"),
        "{}",
        capped.stdout
    );
    let shallow = run_with_stdin(&["validate", "-"], doc.as_bytes());
    assert_eq!((shallow.code, shallow.stdout.as_str()), (0, ""));
}

/// A WebP whose canvas says 1×1 and whose frame is 0×0 (and one with no
/// canvas chunk): no pixels, so the header check fails and resize refuses it.
#[test]
fn a_webp_without_pixels_fails_its_header_check() {
    let vp8 = |w: u16, h: u16| {
        let mut data = vec![0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a];
        data.extend_from_slice(&w.to_le_bytes());
        data.extend_from_slice(&h.to_le_bytes());
        data.extend_from_slice(&[0; 20]);
        data
    };
    let riff = |chunks: &[(&[u8], Vec<u8>)]| {
        let mut body = b"WEBP".to_vec();
        for (kind, data) in chunks {
            body.extend_from_slice(kind);
            body.extend_from_slice(&(data.len() as u32).to_le_bytes());
            body.extend_from_slice(data);
        }
        let mut out = b"RIFF".to_vec();
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend(body);
        out
    };
    let canvas = riff(&[(b"VP8X", vec![0; 10]), (b"VP8 ", vp8(0, 0))]);
    let bare = riff(&[(b"VP8 ", vp8(0, 0))]);
    for (what, webp) in [("on a 1x1 canvas", canvas), ("alone", bare)] {
        let doc = format!(
            r#"[{{"type":"image","mimeType":"image/webp","data":"{}"}}]"#,
            b64_of(&webp)
        );
        let validate = run_with_stdin(&["validate", "-"], doc.as_bytes());
        assert_eq!(validate.code, 1, "{what}: {}", validate.stdout);
        assert!(
            validate.stdout.contains("error[image-header]"),
            "{what}: {}",
            validate.stdout
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("zero.webp");
        std::fs::write(&file, &webp).unwrap();
        let resize = run(&[
            "resize",
            "--max-dim",
            "8",
            path_arg(&file),
            "-o",
            "/dev/null",
        ]);
        assert_eq!(resize.code, 1, "{what}: {}", resize.stderr);
        assert!(
            !resize.stderr.contains("within every cap"),
            "{what}: {}",
            resize.stderr
        );
    }
}
