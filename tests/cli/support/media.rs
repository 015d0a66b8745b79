//! The media fixtures as bytes, base64 and data URLs, and images made to measure.

use std::fs;
use std::io::Cursor;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::fixture;

/// CRC-32 (IEEE), as PNG chunks and ZIP entries record it (readers that
/// check it find it right).
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A fixture's bytes.
pub fn bytes(name: &str) -> Vec<u8> {
    fs::read(fixture(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// Canonical (standard, padded) base64 of any bytes.
pub fn b64_of(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Canonical (standard, padded) base64 of a fixture.
pub fn b64(name: &str) -> String {
    STANDARD.encode(bytes(name))
}

/// A base64 data URL of a fixture, declared as `mime`.
pub fn data_url(mime: &str, name: &str) -> String {
    format!("data:{mime};base64,{}", b64(name))
}

/// A PNG encoded by the `image` crate: `width`×`height`, one colour.
pub fn png_of(width: u32, height: u32) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image::RgbImage::from_pixel(width, height, image::Rgb([30, 120, 200]))
        .write_to(&mut out, image::ImageFormat::Png)
        .expect("encode");
    out.into_inner()
}

/// PNG bytes padded with zeros to `len` bytes: sniffed as PNG, of an exact size.
pub fn png_of_len(len: usize) -> Vec<u8> {
    let mut png = bytes("tiny.png");
    assert!(len >= png.len());
    png.resize(len, 0);
    png
}
