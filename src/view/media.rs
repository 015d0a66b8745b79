//! One media item on the page: an image as a thumbnail made by partkit's own
//! resize code (its facts and token estimates beside it), audio as a
//! playable chip, a document as a labelled chip, a URL as text that is never
//! fetched. Every `data:` URL on the page is built by partkit from bytes it
//! decoded and sniffed itself, never copied from the recording.

use super::html::Html;
use crate::resize::{FormatChoice, Limits, ResizeOptions};
use crate::size::group_digits;

/// The longest side of a thumbnail, in pixels.
const THUMB_SIDE: u32 = 200;
/// The most bytes of a thumbnail.
const THUMB_BYTES: u64 = 48_000;
/// The most bytes of audio made playable on the page.
const MAX_AUDIO: usize = 16 << 20;

/// What the page draws for media.
#[derive(Debug, Clone, Copy, Default)]
pub struct MediaStyle {
    /// Embed each image's original bytes too (shown on a click).
    pub full_images: bool,
}

/// Counts for the document's heading and the index.
#[derive(Debug, Default, Clone, Copy)]
pub struct MediaCount {
    pub images: usize,
    pub other: usize,
}

/// A media item: its kind (`image`, `file`, `audio`), declared type, name,
/// and where its bytes are.
pub struct Media<'a> {
    pub kind: &'a str,
    pub declared: Option<&'a str>,
    pub name: Option<&'a str>,
    pub source: Source<'a>,
}

pub enum Source<'a> {
    /// Base64 text.
    Base64(&'a str),
    Url(&'a str),
    Missing,
}

/// Draws one media item.
pub fn draw(media: &Media, style: MediaStyle, html: &mut Html, count: &mut MediaCount) {
    if media.kind == "image" {
        count.images += 1;
    } else {
        count.other += 1;
    }
    let payload = match media.source {
        Source::Url(url) => {
            html.raw("<div class=\"chip url\"><span class=\"tag\">")
                .text(media.kind)
                .raw("</span> URL, not fetched: <code>")
                .text_cut(url, 300)
                .raw("</code>");
            label(media, html);
            html.raw("</div>");
            return;
        }
        Source::Missing => {
            html.raw("<div class=\"chip bad\"><span class=\"tag\">")
                .text(media.kind)
                .raw("</span> no data and no URL</div>");
            return;
        }
        Source::Base64(payload) => payload,
    };
    let bytes = match crate::b64::decode_lenient(payload) {
        Ok((bytes, _)) => bytes,
        Err(error) => {
            html.raw("<div class=\"chip bad\"><span class=\"tag\">")
                .text(media.kind)
                .raw("</span> not base64: ")
                .text(&error.to_string())
                .raw(" <code>")
                .text(&crate::b64::preview(payload))
                .raw("</code></div>");
            return;
        }
    };
    let sniffed = crate::media::sniff(&bytes);
    let shown_type = sniffed
        .as_deref()
        .or(media.declared)
        .unwrap_or("unknown type");
    if sniffed.as_deref().is_some_and(|t| t.starts_with("image/")) {
        if image(&bytes, shown_type, media, style, html) {
            return;
        }
    } else if sniffed.as_deref().is_some_and(|t| t.starts_with("audio/"))
        && bytes.len() <= MAX_AUDIO
    {
        html.raw("<div class=\"chip audio\"><span class=\"tag\">audio</span> ");
        facts_line(shown_type, bytes.len(), None, media, html);
        html.raw("<audio controls preload=\"none\" src=\"data:")
            .text(shown_type)
            .raw(";base64,")
            .raw(&crate::b64::encode(&bytes))
            .raw("\"></audio></div>");
        return;
    }
    html.raw("<div class=\"chip file\"><span class=\"tag\">")
        .text(media.kind)
        .raw("</span> ");
    facts_line(shown_type, bytes.len(), None, media, html);
    html.raw("</div>");
}

/// An image: a thumbnail and its facts; `false` when it cannot be decoded.
fn image(
    bytes: &[u8],
    media_type: &str,
    media: &Media,
    style: MediaStyle,
    html: &mut Html,
) -> bool {
    let options = ResizeOptions {
        limits: Limits {
            max_dim: Some(THUMB_SIDE),
            max_bytes: Some(THUMB_BYTES),
            ..Limits::default()
        },
        format: FormatChoice::Keep,
        ..ResizeOptions::default()
    };
    let resized = match crate::resize::resize_image(bytes, &options) {
        Ok(resized) => resized,
        Err(error) => {
            html.raw("<div class=\"chip bad\"><span class=\"tag\">image</span> ");
            facts_line(media_type, bytes.len(), None, media, html);
            html.raw(" — cannot be drawn: ")
                .text(&error.to_string())
                .raw("</div>");
            return true;
        }
    };
    let (width, height) = (resized.before.width, resized.before.height);
    let thumb = resized.bytes.as_deref().unwrap_or(bytes);
    let thumb_type = resized.after.format.media_type();
    html.raw("<figure class=\"image\">");
    if style.full_images {
        html.raw("<details><summary>");
    }
    html.raw("<img class=\"thumb\" alt=\"\" src=\"data:")
        .raw(thumb_type)
        .raw(";base64,")
        .raw(&crate::b64::encode(thumb))
        .raw("\">");
    if style.full_images {
        html.raw("</summary><img class=\"full\" alt=\"\" src=\"data:")
            .text(media_type)
            .raw(";base64,")
            .raw(&crate::b64::encode(bytes))
            .raw("\"></details>");
    }
    html.raw("<figcaption>");
    facts_line(media_type, bytes.len(), Some((width, height)), media, html);
    let tokens = crate::tokens::estimate(width, height);
    html.raw("<br><span class=\"tokens\">tokens ≈ OpenAI ")
        .raw(&group_digits(tokens.openai_high))
        .raw(" high / ")
        .raw(&group_digits(tokens.openai_low))
        .raw(" low · Anthropic ")
        .raw(&group_digits(tokens.anthropic))
        .raw(" · Gemini ")
        .raw(&group_digits(tokens.gemini))
        .raw("</span></figcaption></figure>");
    true
}

/// `image/png · 4x3 px · 91 bytes · name (declared image/jpeg)`.
fn facts_line(
    media_type: &str,
    bytes: usize,
    size: Option<(u32, u32)>,
    media: &Media,
    html: &mut Html,
) {
    html.raw("<span class=\"facts\">").text(media_type);
    if let Some((w, h)) = size {
        html.raw(" · ").raw(&format!("{w}×{h} px"));
    }
    html.raw(" · ")
        .count(bytes)
        .raw(if bytes == 1 { " byte" } else { " bytes" });
    html.raw("</span>");
    label(media, html);
    if let Some(declared) = media.declared {
        let declared = crate::media::normalize(declared).unwrap_or_else(|| declared.to_string());
        if declared != media_type && media_type != "unknown type" {
            html.raw(" <span class=\"mismatch\">declared ")
                .text(&declared)
                .raw("</span>");
        }
    }
}

fn label(media: &Media, html: &mut Html) {
    if let Some(name) = media.name {
        html.raw(" <span class=\"name\">")
            .text_cut(name, 120)
            .raw("</span>");
    }
}
