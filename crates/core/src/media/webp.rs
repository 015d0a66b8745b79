//! The part of a WebP's header the `image` crate reads only when it decodes:
//! the size of the image's one frame. Its dimensions come from the `VP8X`
//! canvas when there is one, and a still image whose frame is another size
//! (a 0×0 frame on a 1×1 canvas, say) passed the header check and `resize`'s
//! caps, then failed to decode anywhere.

/// Checks that a still WebP's frame (`VP8 ` or `VP8L`) has pixels and the
/// canvas's size. An animation (its frames in `ANMF` chunks) and a header
/// cut short are left to the decoder.
pub fn frame_fits_canvas(bytes: &[u8], canvas: (u32, u32)) -> Result<(), String> {
    if bytes.len() < 12 || &bytes[..4] != b"RIFF" || &bytes[8..12] != b"WEBP" {
        return Ok(());
    }
    let mut at = 12;
    while let Some(header) = bytes.get(at..at + 8) {
        let kind = &header[..4];
        let len = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
        let body = &bytes[at + 8..(at + 8).saturating_add(len).min(bytes.len())];
        let frame = match kind {
            b"VP8 " => vp8_size(body),
            b"VP8L" => vp8l_size(body),
            b"ANMF" => return Ok(()),
            _ => None,
        };
        if let Some((width, height)) = frame {
            if width == 0 || height == 0 {
                return Err(format!("its frame is {width}x{height}: it has no pixels"));
            }
            if (width, height) != canvas {
                return Err(format!(
                    "its frame is {width}x{height}, its canvas {}x{}",
                    canvas.0, canvas.1
                ));
            }
            return Ok(());
        }
        // Chunks are padded to an even length.
        at = at
            .saturating_add(8)
            .saturating_add(len)
            .saturating_add(len & 1);
    }
    Ok(())
}

/// A lossy key frame's size: a 3-byte frame tag, the start code, then
/// 14-bit width and height (their top two bits are scaling).
fn vp8_size(body: &[u8]) -> Option<(u32, u32)> {
    let header = body.get(..10)?;
    if header[3..6] != [0x9d, 0x01, 0x2a] {
        return None;
    }
    let width = u16::from_le_bytes([header[6], header[7]]) & 0x3fff;
    let height = u16::from_le_bytes([header[8], header[9]]) & 0x3fff;
    Some((u32::from(width), u32::from(height)))
}

/// A lossless image's size: the signature byte, then width − 1 and
/// height − 1 in 14 bits each.
fn vp8l_size(body: &[u8]) -> Option<(u32, u32)> {
    let header = body.get(..5)?;
    if header[0] != 0x2f {
        return None;
    }
    let bits = u32::from_le_bytes([header[1], header[2], header[3], header[4]]);
    Some(((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn riff(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
        let mut body = b"WEBP".to_vec();
        for (kind, data) in chunks {
            body.extend_from_slice(*kind);
            body.extend_from_slice(&(data.len() as u32).to_le_bytes());
            body.extend_from_slice(data);
            if data.len() % 2 == 1 {
                body.push(0);
            }
        }
        let mut out = b"RIFF".to_vec();
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend(body);
        out
    }

    fn vp8(width: u16, height: u16) -> Vec<u8> {
        let mut data = vec![0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a];
        data.extend_from_slice(&width.to_le_bytes());
        data.extend_from_slice(&height.to_le_bytes());
        data.extend_from_slice(&[0; 8]);
        data
    }

    #[test]
    fn frames_must_have_the_canvas_size() {
        let vp8x = vec![0u8; 10];
        let zero = riff(&[(b"VP8X", vp8x.clone()), (b"VP8 ", vp8(0, 0))]);
        assert!(frame_fits_canvas(&zero, (1, 1))
            .unwrap_err()
            .contains("0x0"));
        let other = riff(&[(b"VP8X", vp8x), (b"VP8 ", vp8(4, 3))]);
        assert!(frame_fits_canvas(&other, (1, 1))
            .unwrap_err()
            .contains("4x3"));
        assert!(frame_fits_canvas(&riff(&[(b"VP8 ", vp8(4, 3))]), (4, 3)).is_ok());
        // The real fixture.
        let tiny = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/tiny.webp"
        ))
        .unwrap();
        let size =
            image::ImageReader::with_format(std::io::Cursor::new(&tiny), image::ImageFormat::WebP)
                .into_dimensions()
                .unwrap();
        assert!(frame_fits_canvas(&tiny, size).is_ok());
        assert!(frame_fits_canvas(&tiny, (size.0 + 1, size.1)).is_err());
        // Not a WebP, or cut short: left to the decoder.
        assert!(frame_fits_canvas(b"RIFF", (1, 1)).is_ok());
        assert!(frame_fits_canvas(&zero[..20], (1, 1)).is_ok());
    }
}
