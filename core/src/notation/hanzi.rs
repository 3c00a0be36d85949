//! The characters of the Chinese notations: which ones Chuhe reads (every common variant)
//! and which ones it writes.

use super::movement::Action;
use super::stacks::StackWord;
use crate::{Color, PieceKind};

/// The kind a piece character names, whichever side, script or variant it is written in.
pub(super) fn piece_kind(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::General,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        // 㐷 and 伡 are the simplified forms of 傌 and 俥 some sets print for Red.
        '马' | '馬' | '傌' | '㐷' => PieceKind::Horse,
        '车' | '車' | '俥' | '伡' => PieceKind::Rook,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Pawn,
        _ => return None,
    })
}

/// A number 1–9 written as a digit (ASCII or full-width, already folded) or a Chinese
/// numeral, which either side may use when reading.
pub(super) fn numeral(c: char) -> Option<u8> {
    Some(match c {
        '1'..='9' => c as u8 - b'0',
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

/// 进, 退 or 平, with their traditional forms and the colloquial 上/下.
pub(super) fn action(c: char) -> Option<Action> {
    Some(match c {
        '进' | '進' | '上' => Action::Forward,
        '退' | '下' => Action::Backward,
        '平' => Action::Sideways,
        _ => return None,
    })
}

/// 前, 中 or 后 (also 後). The ordinals 一…五 before a piece are read by the callers, since
/// the same characters are file numbers after it.
pub(super) fn stack_word(c: char) -> Option<StackWord> {
    Some(match c {
        '前' => StackWord::Front,
        '中' => StackWord::Middle,
        '后' | '後' => StackWord::Rear,
        _ => return None,
    })
}

/// Characters only the traditional script uses, to tell zh-TW text from zh-CN.
pub(super) fn is_traditional_only(c: char) -> bool {
    matches!(
        c,
        '進' | '後' | '帥' | '將' | '傌' | '俥' | '馬' | '車' | '砲'
    )
}

const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// A number 1–9 as `color` writes it in the Chinese record: 一…九 for Red, １…９ for Black.
pub(super) fn write_number(out: &mut String, n: u8, color: Color) {
    let table = match color {
        Color::Red => &CHINESE_NUMERALS,
        Color::Black => &FULL_WIDTH_DIGITS,
    };
    out.push(table[usize::from(n.clamp(1, 9) - 1)]);
}

/// A position word: 前 中 后 (後 in the traditional script) or the ordinals 一…五.
pub(super) fn write_stack_word(out: &mut String, word: StackWord, traditional: bool) {
    match word {
        StackWord::Front => out.push('前'),
        StackWord::Middle => out.push('中'),
        StackWord::Rear => out.push(if traditional { '後' } else { '后' }),
        StackWord::Nth(k) => out.push(CHINESE_NUMERALS[usize::from(k.clamp(1, 5) - 1)]),
    }
}

/// 进, 退 or 平 (進 in the traditional script).
pub(super) fn write_action(out: &mut String, action: Action, traditional: bool) {
    out.push(match action {
        Action::Forward if traditional => '進',
        Action::Forward => '进',
        Action::Backward => '退',
        Action::Sideways => '平',
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_written_character_is_read_back() {
        for color in Color::ALL {
            for n in 1..=9 {
                let mut s = String::new();
                write_number(&mut s, n, color);
                let folded = super::super::input::Input::new(&s).chars().next();
                assert_eq!(folded.and_then(numeral), Some(n));
            }
        }
        for (word, traditional) in [(StackWord::Rear, true), (StackWord::Rear, false)] {
            let mut s = String::new();
            write_stack_word(&mut s, word, traditional);
            assert_eq!(s.chars().next().and_then(stack_word), Some(word));
        }
        for action in [Action::Forward, Action::Backward, Action::Sideways] {
            for traditional in [false, true] {
                let mut s = String::new();
                write_action(&mut s, action, traditional);
                assert_eq!(s.chars().next().and_then(super::action), Some(action));
            }
        }
    }
}
