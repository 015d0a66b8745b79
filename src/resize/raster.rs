//! Decoded pixels (8 bits per channel: gray, gray+alpha, RGB, RGBA) and the SIMD
//! resampler (`fast_image_resize`, Lanczos3, alpha premultiplied).

use fast_image_resize as fir;
use image::DynamicImage;

/// An image's pixels, rows top to bottom, `channels` bytes per pixel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raster {
    pub width: u32,
    pub height: u32,
    /// 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
    pub channels: u8,
    pub data: Vec<u8>,
}

impl Raster {
    /// Takes the pixels of a decoded image, at 8 bits per channel.
    pub fn from_dynamic(image: DynamicImage) -> Raster {
        let (width, height) = (image.width(), image.height());
        let (channels, data) = match image {
            DynamicImage::ImageLuma8(img) => (1, img.into_raw()),
            DynamicImage::ImageLumaA8(img) => (2, img.into_raw()),
            DynamicImage::ImageRgb8(img) => (3, img.into_raw()),
            DynamicImage::ImageRgba8(img) => (4, img.into_raw()),
            other if !other.color().has_color() && other.color().has_alpha() => {
                (2, other.to_luma_alpha8().into_raw())
            }
            other if !other.color().has_color() => (1, other.to_luma8().into_raw()),
            other if other.color().has_alpha() => (4, other.to_rgba8().into_raw()),
            other => (3, other.to_rgb8().into_raw()),
        };
        Raster {
            width,
            height,
            channels,
            data,
        }
    }

    pub fn has_alpha(&self) -> bool {
        self.channels == 2 || self.channels == 4
    }

    /// Whether every pixel is fully opaque (true when there is no alpha).
    pub fn is_opaque(&self) -> bool {
        if !self.has_alpha() {
            return true;
        }
        let step = usize::from(self.channels);
        self.data
            .iter()
            .skip(step - 1)
            .step_by(step)
            .all(|&a| a == 255)
    }

    /// The same pixels without their alpha channel (composited on white, so that
    /// transparent areas do not turn black in formats without alpha).
    pub fn without_alpha(&self) -> Raster {
        if !self.has_alpha() {
            return self.clone();
        }
        let step = usize::from(self.channels);
        let colors = step - 1;
        let mut data = Vec::with_capacity(self.data.len() / step * colors);
        for pixel in self.data.chunks_exact(step) {
            let alpha = u32::from(pixel[colors]);
            for &c in &pixel[..colors] {
                let value = (u32::from(c) * alpha + 255 * (255 - alpha) + 127) / 255;
                data.push(value as u8);
            }
        }
        Raster {
            width: self.width,
            height: self.height,
            channels: self.channels - 1,
            data,
        }
    }

    /// The same pixels as RGB or RGBA (gray expanded).
    pub fn to_color(&self) -> Raster {
        if self.channels >= 3 {
            return self.clone();
        }
        let alpha = self.channels == 2;
        let step = usize::from(self.channels);
        let mut data = Vec::with_capacity(self.data.len() / step * if alpha { 4 } else { 3 });
        for pixel in self.data.chunks_exact(step) {
            data.extend_from_slice(&[pixel[0], pixel[0], pixel[0]]);
            if alpha {
                data.push(pixel[1]);
            }
        }
        Raster {
            width: self.width,
            height: self.height,
            channels: if alpha { 4 } else { 3 },
            data,
        }
    }

    fn pixel_type(&self) -> fir::PixelType {
        match self.channels {
            1 => fir::PixelType::U8,
            2 => fir::PixelType::U8x2,
            3 => fir::PixelType::U8x3,
            _ => fir::PixelType::U8x4,
        }
    }

    /// Resamples to `width` x `height` with Lanczos3 (alpha premultiplied, so
    /// transparent pixels do not bleed their colour).
    pub fn resized(&self, width: u32, height: u32) -> Raster {
        if (width, height) == (self.width, self.height) {
            return self.clone();
        }
        let pixel_type = self.pixel_type();
        let mut dst = fir::images::Image::new(width, height, pixel_type);
        let src = fir::images::ImageRef::new(self.width, self.height, &self.data, pixel_type);
        let options = fir::ResizeOptions::new()
            .resize_alg(fir::ResizeAlg::Convolution(fir::FilterType::Lanczos3));
        match src {
            Ok(src) if fir::Resizer::new().resize(&src, &mut dst, &options).is_ok() => {}
            // Both images are built from their own dimensions, so this does not
            // happen; fall back to the image crate's filter rather than panic.
            _ => return self.resized_slowly(width, height),
        }
        Raster {
            width,
            height,
            channels: self.channels,
            data: dst.into_vec(),
        }
    }

    fn resized_slowly(&self, width: u32, height: u32) -> Raster {
        let image = self.to_dynamic();
        Raster::from_dynamic(image.resize_exact(
            width,
            height,
            image::imageops::FilterType::Lanczos3,
        ))
    }

    /// The pixels as an `image` crate image.
    pub fn to_dynamic(&self) -> DynamicImage {
        let (w, h, data) = (self.width, self.height, self.data.clone());
        let image = match self.channels {
            1 => image::GrayImage::from_raw(w, h, data).map(DynamicImage::ImageLuma8),
            2 => image::GrayAlphaImage::from_raw(w, h, data).map(DynamicImage::ImageLumaA8),
            3 => image::RgbImage::from_raw(w, h, data).map(DynamicImage::ImageRgb8),
            _ => image::RgbaImage::from_raw(w, h, data).map(DynamicImage::ImageRgba8),
        };
        image.unwrap_or_else(|| DynamicImage::new_rgb8(w, h))
    }
}

/// The dimensions at `scale`, the aspect ratio kept to within a pixel, never
/// larger than the original and never below 1x1.
pub fn scaled_dims(width: u32, height: u32, scale: f64) -> (u32, u32) {
    if scale >= 1.0 {
        return (width, height);
    }
    let long = width.max(height);
    let new_long = ((f64::from(long) * scale).floor() as u32).clamp(1, long);
    let ratio = f64::from(new_long) / f64::from(long);
    let short = |side: u32| ((f64::from(side) * ratio).round() as u32).clamp(1, side);
    if width >= height {
        (new_long, short(height))
    } else {
        (short(width), new_long)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_keep_the_aspect_ratio() {
        assert_eq!(scaled_dims(6144, 3840, 0.5), (3072, 1920));
        assert_eq!(scaled_dims(4000, 3000, 1.0), (4000, 3000));
        assert_eq!(scaled_dims(4000, 3000, 2.0), (4000, 3000));
        assert_eq!(scaled_dims(3000, 4000, 0.25), (750, 1000));
        assert_eq!(scaled_dims(1000, 1, 0.1), (100, 1));
        assert_eq!(scaled_dims(10, 10, 0.0001), (1, 1));
    }

    #[test]
    fn resizes_every_channel_count() {
        for channels in 1..=4u8 {
            let raster = Raster {
                width: 40,
                height: 20,
                channels,
                data: vec![200; 40 * 20 * usize::from(channels)],
            };
            let small = raster.resized(10, 5);
            assert_eq!((small.width, small.height), (10, 5));
            assert_eq!(small.data.len(), 50 * usize::from(channels));
            assert!(small.data.iter().all(|&v| v == 200));
        }
    }

    #[test]
    fn alpha_is_composited_on_white() {
        let raster = Raster {
            width: 1,
            height: 1,
            channels: 4,
            data: vec![0, 0, 0, 0],
        };
        assert!(!raster.is_opaque());
        assert_eq!(raster.without_alpha().data, vec![255, 255, 255]);
    }
}
