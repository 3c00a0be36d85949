//! Move text as the parsers see it: full-width forms folded to ASCII, spaces and invisible
//! characters dropped, dashes and middle dots unified, and every character kept with its
//! byte offset in the original text so errors point into what the user wrote.

use super::{Expected, NotationError, NotationErrorKind, Reader};

/// A cursor over the normalised characters of a move text.
pub(super) struct Input {
    chars: Vec<(usize, char)>,
    next: usize,
    len: usize,
}

impl Input {
    /// The move text `reader` holds, or an error if it is nothing but spaces.
    pub(super) fn open(reader: Reader<'_>) -> Result<Input, NotationError> {
        let inp = Input::new(reader.text);
        if inp.chars.is_empty() {
            return Err(reader.error(0, NotationErrorKind::Empty));
        }
        Ok(inp)
    }

    pub(super) fn new(text: &str) -> Input {
        Input {
            chars: text
                .char_indices()
                .filter_map(|(i, c)| normalize(c).map(|c| (i, c)))
                .collect(),
            next: 0,
            len: text.len(),
        }
    }

    /// Every normalised character, from the start.
    pub(super) fn chars(&self) -> impl Iterator<Item = char> + '_ {
        self.chars.iter().map(|&(_, c)| c)
    }

    /// The next character, not consumed.
    pub(super) fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    /// The character `k` places after the next one.
    pub(super) fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.next + k).map(|&(_, c)| c)
    }

    /// How many characters are left.
    pub(super) fn remaining(&self) -> usize {
        self.chars.len() - self.next
    }

    /// The byte offset of the next character, or the text's length at the end.
    pub(super) fn offset(&self) -> usize {
        self.chars.get(self.next).map_or(self.len, |&(i, _)| i)
    }

    /// Consumes and returns the next character.
    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.next += 1;
        Some(c)
    }
}

impl Input {
    /// Consumes the next character and converts it with `read`; an error says `expected`
    /// belongs there when `read` refuses it or the text has ended.
    pub(super) fn expect<T>(
        &mut self,
        reader: Reader<'_>,
        expected: Expected,
        read: impl FnOnce(char) -> Option<T>,
    ) -> Result<T, NotationError> {
        let at = self.offset();
        match self.bump() {
            Some(c) => read(c).ok_or_else(|| reader.unexpected(at, c, expected)),
            None => Err(reader.end(at, expected)),
        }
    }

    /// Fails unless the text is used up.
    pub(super) fn expect_end(&self, reader: Reader<'_>) -> Result<(), NotationError> {
        match self.peek() {
            Some(c) => Err(reader.unexpected(self.offset(), c, Expected::End)),
            None => Ok(()),
        }
    }
}

/// The character a parser sees for `c`, or `None` for one it skips.
fn normalize(c: char) -> Option<char> {
    match c {
        // Full-width ASCII (Ｃ２．５, １…９) as used by Chinese input methods and PGN files.
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        '\u{FEFF}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' => None,
        c if c.is_whitespace() => None,
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' => Some('-'),
        '\u{00B7}' | '\u{30FB}' | '\u{FF65}' => Some('.'),
        c => Some(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_point_into_the_original_text() {
        let mut inp = Input::new(" Ｃ２ ＝５");
        assert_eq!(inp.chars().collect::<String>(), "C2=5");
        assert_eq!(inp.offset(), 1);
        assert_eq!(inp.bump(), Some('C'));
        assert_eq!(inp.offset(), 4);
        inp.bump();
        assert_eq!(inp.offset(), 8);
        inp.bump();
        inp.bump();
        assert_eq!(inp.offset(), " Ｃ２ ＝５".len());
        assert_eq!(inp.bump(), None);
    }
}
