//! Encoding one JPEG on every core: the image is cut into horizontal strips of
//! whole MCU rows, each strip is encoded on its own, and the strips' scan data
//! are joined with restart markers (a restart interval of one strip, declared
//! in a `DRI` segment). A restart resets the DC predictions, as a strip's own
//! encode starts from zero, so every decoder reads the joined file as one
//! image, pixel for pixel the one a single encode gives; it costs a few bytes
//! per strip. The cut does not depend on the number of threads, so the bytes
//! do not either. See docs/speed.md (resize).

use rayon::prelude::*;

/// Below this many pixels one encode is quick enough on one core.
const MIN_PIXELS: u64 = 1 << 20;
/// How many MCU rows a strip holds: enough strips that every core has work
/// to the end (a 12 MP photo is 12 strips), few enough that the restart
/// markers cost next to nothing. Fixed, not taken from the number of
/// threads, so that the same image gives the same bytes on every machine
/// and with any `-j`.
const STRIP_MCU_ROWS: u32 = 16;

/// How the rows are cut: `rows` pixel rows per strip (whole MCU rows), the
/// restart interval being `interval` MCUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub rows: u32,
    pub interval: u16,
}

/// How to cut a `width` x `height` image with MCUs `mcu` px high and wide;
/// `None` when it is small enough for one encode.
pub fn plan(width: u32, height: u32, mcu: u32) -> Option<Plan> {
    if u64::from(width) * u64::from(height) < MIN_PIXELS {
        return None;
    }
    let mcu_rows = height.div_ceil(mcu);
    let per_row = width.div_ceil(mcu);
    let most_rows = u32::from(u16::MAX) / per_row;
    let strip_rows = STRIP_MCU_ROWS.min(most_rows);
    if strip_rows == 0 || strip_rows >= mcu_rows {
        return None;
    }
    Some(Plan {
        rows: strip_rows * mcu,
        interval: u16::try_from(strip_rows * per_row).ok()?,
    })
}

/// Encodes `data` (rows of `row_bytes` bytes, `height` rows) strip by strip
/// with `encode_strip(pixels, rows, first)` (`first` is true for the strip
/// whose header the result keeps: only it needs the metadata), and joins them.
pub fn encode<F>(
    data: &[u8],
    row_bytes: usize,
    height: u32,
    plan: Plan,
    encode_strip: F,
) -> Result<Vec<u8>, String>
where
    F: Fn(&[u8], u32, bool) -> Result<Vec<u8>, String> + Sync,
{
    let strip_bytes = row_bytes * plan.rows as usize;
    let parts: Vec<Vec<u8>> = data
        .par_chunks(strip_bytes)
        .enumerate()
        .map(|(i, pixels)| encode_strip(pixels, (pixels.len() / row_bytes) as u32, i == 0))
        .collect::<Result<_, _>>()?;
    join(&parts, height, plan.interval)
}

/// Where a JPEG's parts are: (offset of the `SOF0` height, of the `SOS`
/// segment, of the scan data).
fn layout(bytes: &[u8]) -> Result<(Option<usize>, usize, usize), String> {
    let broken = || "a strip's JPEG has no scan".to_string();
    let mut at = 2;
    let mut height_at = None;
    loop {
        let head = bytes.get(at..at + 4).ok_or_else(broken)?;
        if head[0] != 0xFF {
            return Err(broken());
        }
        let length = usize::from(u16::from_be_bytes([head[2], head[3]]));
        match head[1] {
            0xC0 => height_at = Some(at + 5),
            0xDA => return Ok((height_at, at, at + 2 + length)),
            _ => {}
        }
        at += 2 + length;
    }
}

/// Where the scan data of a JPEG starts (the size of its headers).
pub fn scan_start(bytes: &[u8]) -> Option<usize> {
    layout(bytes).ok().map(|(_, _, data)| data)
}

/// The strips' files as one: the first one's headers (its height made the
/// whole image's, a restart interval added), then every strip's scan data,
/// a restart marker between each two.
fn join(parts: &[Vec<u8>], height: u32, interval: u16) -> Result<Vec<u8>, String> {
    let first = parts.first().ok_or("no strip to join")?;
    let (height_at, sos, _) = layout(first)?;
    let height_at = height_at.ok_or("a strip's JPEG is not baseline")?;
    let total: usize = parts.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(total + 8 * parts.len());
    out.extend_from_slice(&first[..sos]);
    let height = u16::try_from(height).map_err(|_| "taller than 65,535 px")?;
    out[height_at..height_at + 2].copy_from_slice(&height.to_be_bytes());
    out.extend_from_slice(&[0xFF, 0xDD, 0x00, 0x04]);
    out.extend_from_slice(&interval.to_be_bytes());
    for (i, part) in parts.iter().enumerate() {
        let (_, sos, data) = layout(part)?;
        if i == 0 {
            out.extend_from_slice(&part[sos..data]);
        } else {
            out.extend_from_slice(&[0xFF, 0xD0 + ((i - 1) % 8) as u8]);
        }
        let end = part.len().checked_sub(2).filter(|&end| end >= data);
        let end = end
            .filter(|&end| part[end..] == [0xFF, 0xD9])
            .ok_or("a strip's JPEG does not end with its end-of-image marker")?;
        out.extend_from_slice(&part[data..end]);
    }
    out.extend_from_slice(&[0xFF, 0xD9]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_are_whole_mcu_rows_within_the_restart_limit() {
        let photo = plan(4000, 3000, 16).unwrap();
        assert_eq!(photo.rows, 16 * 16);
        assert_eq!(photo.interval, 16 * 250);
        // 65,535 px wide: 4,096 MCUs a row, so 15 rows a strip at most.
        let wide = plan(65535, 2000, 16).unwrap();
        assert_eq!(wide.rows, 15 * 16);
        assert!(plan(500, 500, 16).is_none(), "small images stay whole");
        assert!(
            plan(2000, 250, 16).is_none(),
            "one strip's height stays whole"
        );
    }
}
