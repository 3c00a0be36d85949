//! The app's font cut down to the characters a web page shows, as a TrueType file any
//! browser takes: the class's student page draws its board and words in it with nothing
//! fetched from the internet and without sending the whole 4.8 MB font to every phone.
//!
//! The glyphs are cut by `subsetter`, the subsetter the worksheets' PDF writer (krilla)
//! embeds the font with. A PDF maps characters to glyphs itself, so that subset has no
//! character map (and no OS/2 table); a browser needs both, so they are put back here: a
//! format 4 `cmap` for the characters kept and the whole font's `OS/2`.

use super::FONT;
use skrifa::{FontRef, MetadataProvider, Tag};
use subsetter::GlyphRemapper;

/// Why a web font could not be made.
#[derive(Clone, Debug, PartialEq)]
pub enum WebFontError {
    /// The app's font could not be read.
    Unreadable,
    /// The subsetter refused the font (its message).
    Subset(String),
    /// The subset's table directory could not be read back.
    Malformed,
}

impl std::fmt::Display for WebFontError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WebFontError::Unreadable => write!(f, "the app's font could not be read"),
            WebFontError::Subset(why) => write!(f, "the font could not be cut down: {why}"),
            WebFontError::Malformed => write!(f, "the cut-down font's tables could not be read"),
        }
    }
}

impl std::error::Error for WebFontError {}

/// The app's font with only the glyphs of the characters in `text` (those it has, in the
/// Basic Multilingual Plane, where all of Xiangqi's and the UI's characters are), as a
/// TrueType file.
pub fn web_font(text: &str) -> Result<Vec<u8>, WebFontError> {
    let font = FontRef::new(FONT).map_err(|_| WebFontError::Unreadable)?;
    let charmap = font.charmap();
    let mut chars: Vec<char> = text.chars().filter(|&c| u32::from(c) <= 0xFFFF).collect();
    chars.sort_unstable();
    chars.dedup();
    let mut remapper = GlyphRemapper::new();
    remapper.remap(0);
    let mut mapped = Vec::new();
    for c in chars {
        let Some(glyph) = charmap.map(c) else {
            continue;
        };
        let Ok(old) = u16::try_from(glyph.to_u32()) else {
            continue;
        };
        // Both fit: filtered to the BMP above, and a font has at most 65,535 glyphs.
        mapped.push((u32::from(c) as u16, remapper.remap(old)));
    }
    let subset =
        subsetter::subset(FONT, 0, &remapper).map_err(|e| WebFontError::Subset(e.to_string()))?;
    let mut tables = directory(&subset).ok_or(WebFontError::Malformed)?;
    tables.push((*b"cmap", cmap(&mapped)));
    if let Some(os2) = font.table_data(Tag::new(b"OS/2")) {
        tables.push((*b"OS/2", os2.as_bytes().to_vec()));
    }
    Ok(sfnt(tables))
}

/// Whether the app's font has a glyph for `c` that [`web_font`] can keep (a character of
/// the Basic Multilingual Plane the font maps).
pub fn has_glyph(c: char) -> bool {
    u32::from(c) <= 0xFFFF
        && FontRef::new(FONT)
            .is_ok_and(|font| font.charmap().map(c).is_some_and(|g| g.to_u32() != 0))
}

/// The characters a font's character map maps to a glyph: what a web font made here
/// covers.
pub fn characters(font: &[u8]) -> Result<Vec<char>, WebFontError> {
    let font = FontRef::new(font).map_err(|_| WebFontError::Unreadable)?;
    Ok(font
        .charmap()
        .mappings()
        .filter(|(_, glyph)| glyph.to_u32() != 0)
        .filter_map(|(c, _)| char::from_u32(c))
        .collect())
}

/// A TrueType file's tables, by tag.
fn directory(font: &[u8]) -> Option<Vec<([u8; 4], Vec<u8>)>> {
    let count = usize::from(u16::from_be_bytes(font.get(4..6)?.try_into().ok()?));
    let mut tables = Vec::with_capacity(count + 2);
    for n in 0..count {
        let record = font.get(12 + 16 * n..28 + 16 * n)?;
        let word = |at: usize| {
            u32::from_be_bytes([record[at], record[at + 1], record[at + 2], record[at + 3]])
                as usize
        };
        let (offset, length) = (word(8), word(12));
        let data = font.get(offset..offset.checked_add(length)?)?;
        tables.push((record[..4].try_into().ok()?, data.to_vec()));
    }
    Some(tables)
}

/// A `cmap` table with one format 4 subtable (for both the Unicode and the Windows
/// Unicode BMP encodings) mapping each character to its glyph, `mapped` sorted by
/// character.
fn cmap(mapped: &[(u16, u16)]) -> Vec<u8> {
    // Runs of characters whose glyphs follow each other share a segment.
    let mut segments: Vec<(u16, u16, u16)> = Vec::new();
    for &(c, glyph) in mapped {
        match segments.last_mut() {
            Some((start, end, first))
                if u32::from(*end) + 1 == u32::from(c)
                    && u32::from(*first) + u32::from(c - *start) == u32::from(glyph) =>
            {
                *end = c;
            }
            _ => segments.push((c, c, glyph)),
        }
    }
    // The table must end with a segment for 0xFFFF.
    segments.push((0xFFFF, 0xFFFF, 0));
    let count = segments.len() as u16;
    let power = power_below(count);
    let search_range = 2 * power;
    let entry_selector = power.trailing_zeros() as u16;
    let mut sub = Vec::new();
    let mut put = |v: u16| sub.extend_from_slice(&v.to_be_bytes());
    let length = 16 + 8 * count;
    for v in [
        4,
        length,
        0,
        2 * count,
        search_range,
        entry_selector,
        2 * count - search_range,
    ] {
        put(v);
    }
    for &(_, end, _) in &segments {
        put(end);
    }
    put(0);
    for &(start, _, _) in &segments {
        put(start);
    }
    for &(start, _, first) in &segments {
        // Glyph = character + delta, modulo 65536.
        put(first.wrapping_sub(start));
    }
    for _ in &segments {
        put(0);
    }
    let mut table = Vec::new();
    for v in [0u16, 2, 0, 3] {
        table.extend_from_slice(&v.to_be_bytes());
    }
    table.extend_from_slice(&20u32.to_be_bytes());
    for v in [3u16, 1] {
        table.extend_from_slice(&v.to_be_bytes());
    }
    table.extend_from_slice(&20u32.to_be_bytes());
    table.extend(sub);
    table
}

/// The largest power of two not above `n` (at least 1), for the binary-search fields.
fn power_below(n: u16) -> u16 {
    1 << (15 - n.max(1).leading_zeros())
}

/// The sum of a table's big-endian 32-bit words, as the table directory records it.
fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, word| {
        let mut bytes = [0; 4];
        bytes[..word.len()].copy_from_slice(word);
        sum.wrapping_add(u32::from_be_bytes(bytes))
    })
}

/// A TrueType file of `tables`, in tag order, each on a 4-byte boundary, with the
/// checksums and the head table's whole-file adjustment filled in.
fn sfnt(mut tables: Vec<([u8; 4], Vec<u8>)>) -> Vec<u8> {
    tables.sort_by_key(|(tag, _)| *tag);
    tables.dedup_by_key(|(tag, _)| *tag);
    for (tag, data) in &mut tables {
        if tag == b"head" && data.len() >= 12 {
            data[8..12].fill(0);
        }
    }
    let count = tables.len() as u16;
    let power = power_below(count);
    let mut font = Vec::new();
    for v in [
        0x0001u16,
        0x0000,
        count,
        16 * power,
        power.trailing_zeros() as u16,
        16 * count - 16 * power,
    ] {
        font.extend_from_slice(&v.to_be_bytes());
    }
    let mut offset = 12 + 16 * tables.len();
    let mut head_at = None;
    for (tag, data) in &tables {
        font.extend_from_slice(tag);
        font.extend_from_slice(&checksum(data).to_be_bytes());
        font.extend_from_slice(&(offset as u32).to_be_bytes());
        font.extend_from_slice(&(data.len() as u32).to_be_bytes());
        if tag == b"head" {
            head_at = Some(offset);
        }
        offset += data.len().div_ceil(4) * 4;
    }
    for (_, data) in &tables {
        font.extend_from_slice(data);
        font.resize(font.len().div_ceil(4) * 4, 0);
    }
    if let Some(at) = head_at.filter(|at| at + 12 <= font.len()) {
        let adjustment = 0xB1B0_AFBAu32.wrapping_sub(checksum(&font));
        font[at + 8..at + 12].copy_from_slice(&adjustment.to_be_bytes());
    }
    font
}

#[cfg(test)]
mod tests {
    use super::*;
    use skrifa::instance::{LocationRef, Size};

    #[test]
    fn the_web_font_maps_the_characters_asked_for_to_the_same_shapes() {
        let text = "帥將楚河漢界炮二平五 Red to move１２";
        let web = web_font(text).unwrap();
        let small = FontRef::new(&web).unwrap();
        let whole = FontRef::new(FONT).unwrap();
        let (small_map, whole_map) = (small.charmap(), whole.charmap());
        let small_metrics = small.glyph_metrics(Size::unscaled(), LocationRef::default());
        let whole_metrics = whole.glyph_metrics(Size::unscaled(), LocationRef::default());
        for c in text.chars() {
            let kept = small_map.map(c).unwrap_or_else(|| panic!("{c} kept"));
            let original = whole_map.map(c).unwrap();
            assert_eq!(
                small_metrics.advance_width(kept),
                whole_metrics.advance_width(original),
                "{c}"
            );
            assert_eq!(
                small_metrics.bounds(kept),
                whole_metrics.bounds(original),
                "{c}"
            );
        }
        // Nothing else is in it, and it is a sliver of the whole.
        assert_eq!(small_map.map('車'), None);
        assert!(web.len() < 60_000, "{} bytes", web.len());
        for tag in [
            b"cmap", b"OS/2", b"glyf", b"head", b"hhea", b"hmtx", b"maxp", b"name", b"post",
        ] {
            assert!(small.table_data(Tag::new(tag)).is_some(), "{tag:?}");
        }
    }

    #[test]
    fn the_characters_of_a_web_font_are_those_asked_for_that_the_font_has() {
        // U+E000 is a private-use character no font of ours draws.
        assert!(has_glyph('鑫') && has_glyph('A') && !has_glyph('\u{E000}'));
        assert!(!has_glyph('😀'), "beyond the BMP");
        let web = web_font("鑫A\u{E000}😀").unwrap();
        assert_eq!(characters(&web).unwrap(), ['A', '鑫']);
        assert_eq!(characters(b"not a font"), Err(WebFontError::Unreadable));
    }

    #[test]
    fn the_web_font_checksums_add_up() {
        let web = web_font("楚河").unwrap();
        // The whole file sums to the magic number once the head's adjustment is in.
        assert_eq!(checksum(&web), 0xB1B0_AFBA);
        for (tag, data) in directory(&web).unwrap() {
            let count = usize::from(u16::from_be_bytes([web[4], web[5]]));
            let record = (0..count)
                .map(|n| &web[12 + 16 * n..28 + 16 * n])
                .find(|r| r[..4] == tag)
                .unwrap();
            let mut data = data;
            if &tag == b"head" {
                data[8..12].fill(0);
            }
            assert_eq!(record[4..8], checksum(&data).to_be_bytes(), "{tag:?}");
        }
    }

    #[test]
    fn a_long_run_of_characters_shares_segments() {
        let table = cmap(&[(0x41, 5), (0x42, 6), (0x43, 7), (0x50, 2)]);
        // Header (4) + two encoding records (16), then the subtable: three segments.
        let segments = u16::from_be_bytes([table[26], table[27]]) / 2;
        assert_eq!(segments, 3);
    }
}
