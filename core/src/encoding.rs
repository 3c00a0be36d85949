//! Text encodings of game files. Chinese game files come as UTF-8, GBK/GB18030 (mainland
//! software such as XQStudio and 象棋巫师) or Big5 (Taiwan and Hong Kong). Nothing in a
//! PGN says which, so [`decode`] guesses: a byte-order mark decides; valid UTF-8 is UTF-8,
//! also when the file's end cuts its last character short; otherwise the text is decoded
//! both as GB18030 and as Big5 and the reading that yields more of the characters every
//! game record is full of (piece names, 进/退/平, numerals) wins. Double-byte garbage
//! almost never lands on those characters, so one game's worth of moves is plenty to tell
//! the two apart.
//!
//! Chuhe writes new files in UTF-8, and a file it read back in that file's encoding
//! ([`encode`]).

use encoding_rs::{BIG5, Encoding, GB18030, UTF_8, UTF_16BE, UTF_16LE};
use std::borrow::Cow;
use std::fmt;

/// An encoding a game file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8, with or without a byte-order mark (plain ASCII counts as UTF-8).
    Utf8,
    /// GB18030, which includes GBK and GB2312 (simplified Chinese).
    Gb18030,
    /// Big5 (traditional Chinese).
    Big5,
    /// UTF-16, little-endian, recognised by its byte-order mark.
    Utf16Le,
    /// UTF-16, big-endian, recognised by its byte-order mark.
    Utf16Be,
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Gb18030 => "GB18030",
            TextEncoding::Big5 => "Big5",
            TextEncoding::Utf16Le => "UTF-16LE",
            TextEncoding::Utf16Be => "UTF-16BE",
        })
    }
}

/// Text decoded from a file, with the encoding it was read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text. Borrowed when the input was already UTF-8.
    pub text: Cow<'a, str>,
    /// The encoding detected.
    pub encoding: TextEncoding,
    /// Whether some bytes were invalid in that encoding and replaced by U+FFFD.
    pub had_errors: bool,
}

/// Encodes `text` in `encoding`, with a byte-order mark if `bom` (UTF-16 always has one).
/// Text that GB18030 or Big5 cannot hold (a character the user added) is written in
/// UTF-8 instead, which every reader tells apart, rather than lose the character.
///
/// ```
/// use chuhe_core::encoding::{decode, encode, TextEncoding};
/// let big5 = encode("馬８進７", TextEncoding::Big5, false);
/// assert_eq!(decode(&big5).encoding, TextEncoding::Big5);
/// assert_eq!(decode(&big5).text, "馬８進７");
/// assert_eq!(encode("😀", TextEncoding::Big5, false), "😀".as_bytes());
/// ```
pub fn encode(text: &str, encoding: TextEncoding, bom: bool) -> Vec<u8> {
    let double_byte = match encoding {
        TextEncoding::Gb18030 => Some(GB18030),
        TextEncoding::Big5 => Some(BIG5),
        _ => None,
    };
    if let Some(legacy) = double_byte {
        let (bytes, _, unmappable) = legacy.encode(text);
        if !unmappable {
            return bytes.into_owned();
        }
    }
    let units = |big_endian: bool| -> Vec<u8> {
        std::iter::once(0xfeff_u16)
            .chain(text.encode_utf16())
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    match encoding {
        TextEncoding::Utf16Le => units(false),
        TextEncoding::Utf16Be => units(true),
        _ => {
            let mut bytes = Vec::with_capacity(text.len() + 3);
            if bom && encoding == TextEncoding::Utf8 {
                bytes.extend_from_slice(b"\xef\xbb\xbf");
            }
            bytes.extend_from_slice(text.as_bytes());
            bytes
        }
    }
}

/// Characters that fill every Chinese game record, in both scripts: piece names, the
/// three move words, numerals, full-width digits, and the words of results.
const RECORD_CHARS: &str = "帅帥将將仕士相象马馬傌车車俥炮砲包兵卒进進退平前后後中\
    一二三四五六七八九１２３４５６７８９红紅黑胜勝负負和先局棋";

/// Whether `c` is one of [`RECORD_CHARS`]: one bit of a table over the Basic Multilingual
/// Plane, since every character of every file imported into a collection is asked twice.
fn is_record_char(c: char) -> bool {
    static TABLE: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut bits = vec![0u64; 0x10000 / 64];
        for c in RECORD_CHARS.chars().filter(|c| !c.is_whitespace()) {
            bits[c as usize / 64] |= 1 << (c as usize % 64);
        }
        bits
    });
    table
        .get(c as usize / 64)
        .is_some_and(|word| word & (1 << (c as usize % 64)) != 0)
}

/// Decodes a game file, detecting its encoding (see the module documentation).
///
/// ```
/// use chuhe_core::encoding::{decode, TextEncoding};
/// let gbk = [0xc5, 0xda, 0xb6, 0xfe, 0xc6, 0xbd, 0xce, 0xe5]; // 炮二平五 in GBK
/// let big5 = [0xac, 0xb6, 0xa4, 0x47, 0xa5, 0xad, 0xa4, 0xad]; // 炮二平五 in Big5
/// assert_eq!(decode(&gbk).text, "炮二平五");
/// assert_eq!(decode(&gbk).encoding, TextEncoding::Gb18030);
/// assert_eq!(decode(&big5).text, "炮二平五");
/// assert_eq!(decode(&big5).encoding, TextEncoding::Big5);
/// assert_eq!(decode("炮二平五".as_bytes()).encoding, TextEncoding::Utf8);
/// ```
pub fn decode(bytes: &[u8]) -> Decoded<'_> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let rest = bytes.get(bom_len..).unwrap_or_default();
        if encoding == UTF_8
            && let Some(text) = utf8_whole_or_cut(rest)
        {
            return Decoded {
                text: Cow::Borrowed(text),
                encoding: TextEncoding::Utf8,
                had_errors: false,
            };
        }
        let kind = if encoding == UTF_16LE {
            TextEncoding::Utf16Le
        } else if encoding == UTF_16BE {
            TextEncoding::Utf16Be
        } else {
            TextEncoding::Utf8
        };
        let (text, had_errors) = encoding.decode_without_bom_handling(rest);
        return Decoded {
            text,
            encoding: kind,
            had_errors,
        };
    }
    if let Some(text) = utf8_whole_or_cut(bytes) {
        return Decoded {
            text: Cow::Borrowed(text),
            encoding: TextEncoding::Utf8,
            had_errors: false,
        };
    }
    let (gb, gb_errors) = GB18030.decode_without_bom_handling(bytes);
    let (big5, big5_errors) = BIG5.decode_without_bom_handling(bytes);
    let score = |text: &str, errors: bool| {
        let hits = text.chars().filter(|&c| is_record_char(c)).count();
        let bad = if errors {
            text.chars().filter(|&c| c == '\u{fffd}').count()
        } else {
            0
        };
        // A replaced byte is strong evidence against an encoding; a record character is
        // modest evidence for it.
        hits as i64 - 8 * bad as i64
    };
    let big5_wins = score(&big5, big5_errors) > score(&gb, gb_errors);
    if big5_wins {
        Decoded {
            text: Cow::Owned(big5.into_owned()),
            encoding: TextEncoding::Big5,
            had_errors: big5_errors,
        }
    } else {
        Decoded {
            text: Cow::Owned(gb.into_owned()),
            encoding: TextEncoding::Gb18030,
            had_errors: gb_errors,
        }
    }
}

/// `bytes` as UTF-8 if they are valid, or valid up to a last character the end cuts short
/// (`error_len` is `None` only then), as a download or `head -c` leaves a UTF-8 file. That
/// incomplete character is left out: the text is the file cut at the character before, so
/// the reader reports the last game cut as it would there.
fn utf8_whole_or_cut(bytes: &[u8]) -> Option<&str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).ok(),
        Err(_) => None,
    }
}

/// Decodes GB18030 text (the encoding of every string in an XQF file), replacing invalid
/// bytes with U+FFFD.
pub fn decode_gb18030(bytes: &[u8]) -> String {
    GB18030.decode_without_bom_handling(bytes).0.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_decide() {
        let mut utf8 = vec![0xef, 0xbb, 0xbf];
        utf8.extend_from_slice("马８进７".as_bytes());
        let d = decode(&utf8);
        assert_eq!(
            (d.text.as_ref(), d.encoding),
            ("马８进７", TextEncoding::Utf8)
        );
        let utf16: Vec<u8> = [0xfeff_u16, 0x70ae, 0x4e8c]
            .iter()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        let d = decode(&utf16);
        assert_eq!(
            (d.text.as_ref(), d.encoding),
            ("炮二", TextEncoding::Utf16Le)
        );
    }

    #[test]
    fn gbk_and_big5_are_told_apart_by_record_characters() {
        let simplified = "[Event \"全国象棋个人赛\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８";
        let traditional = "[Event \"全國象棋個人賽\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８";
        let gbk = GB18030.encode(simplified).0;
        let big5 = BIG5.encode(traditional).0;
        let d = decode(&gbk);
        assert_eq!(
            (d.text.as_ref(), d.encoding),
            (simplified, TextEncoding::Gb18030)
        );
        assert!(!d.had_errors);
        let d = decode(&big5);
        assert_eq!(
            (d.text.as_ref(), d.encoding),
            (traditional, TextEncoding::Big5)
        );
        assert!(!d.had_errors);
    }

    #[test]
    fn undecodable_bytes_are_replaced_not_fatal() {
        let d = decode(&[0x80, 0xff, b'a']);
        assert!(d.had_errors);
        assert!(d.text.ends_with('a'));
        assert_eq!(decode_gb18030(&[0xc5, 0xda]), "炮");
    }

    #[test]
    fn utf8_cut_inside_its_last_character_is_still_utf8() {
        // 炮 is three bytes in UTF-8, 𠀀 (a CJK extension B character) four.
        let before = "[Event \"全国象棋个人赛\"]\n1. 炮二平五 马８进７ 2. ";
        for last in ["炮", "𠀀"] {
            let whole = format!("{before}{last}");
            for cut in 1..last.len() {
                let bytes = &whole.as_bytes()[..before.len() + cut];
                let d = decode(bytes);
                assert_eq!(
                    (d.text.as_ref(), d.encoding, d.had_errors),
                    (before, TextEncoding::Utf8, false),
                    "{last} cut after {cut} bytes"
                );
                let mut with_bom = b"\xef\xbb\xbf".to_vec();
                with_bom.extend_from_slice(bytes);
                let d = decode(&with_bom);
                assert_eq!((d.text.as_ref(), d.encoding), (before, TextEncoding::Utf8));
            }
            assert_eq!(decode(whole.as_bytes()).text, whole);
        }
    }

    #[test]
    fn only_a_cut_at_the_end_keeps_a_file_utf8() {
        let text = "[Event \"全国象棋个人赛\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８";
        // A character cut short in the middle, or a byte UTF-8 never has, is not UTF-8.
        let pao = "炮".as_bytes();
        let mut cut_inside = pao[..2].to_vec();
        cut_inside.extend_from_slice(text.as_bytes());
        let mut bad_byte = text.as_bytes().to_vec();
        bad_byte.insert(text.len() / 2, 0xff);
        for bytes in [cut_inside, bad_byte] {
            assert_ne!(decode(&bytes).encoding, TextEncoding::Utf8);
        }
        // GB18030, whole or cut inside its last character, is still GB18030.
        let gbk = GB18030.encode(text).0;
        for bytes in [&gbk[..], &gbk[..gbk.len() - 1]] {
            assert_eq!(decode(bytes).encoding, TextEncoding::Gb18030);
        }
        assert!(decode(&gbk).text == text && !decode(&gbk).had_errors);
    }
}
