//! Why a RON file (a puzzle, a club) could not be read: where, and what was wrong there, as
//! a small closed set of kinds that an interface can put into its own words. The reader's
//! own messages are English prose; only the names it quotes (a field, a variant) are kept.

use std::fmt;

/// Where a RON text stops making sense, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RonError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong there.
    pub kind: RonErrorKind,
}

/// What is wrong in a RON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RonErrorKind {
    /// The text ends before the value does.
    UnexpectedEnd,
    /// A character that cannot stand there.
    UnexpectedChar(char),
    /// A field the value must have is missing.
    MissingField(String),
    /// A field the value does not have.
    UnknownField(String),
    /// A field given twice.
    DuplicateField(String),
    /// A name that is not one of the allowed choices.
    UnknownVariant(String),
    /// A value of the wrong type (text where a number belongs, a list of the wrong length …).
    WrongValue,
    /// A comment or string that is never closed.
    Unclosed,
    /// Text after the value.
    TrailingText,
    /// Anything else the reader refused.
    Malformed,
}

impl From<&ron::error::SpannedError> for RonError {
    fn from(e: &ron::error::SpannedError) -> RonError {
        use ron::Error as E;
        let kind = match &e.code {
            E::Eof => RonErrorKind::UnexpectedEnd,
            E::UnexpectedChar(c) => RonErrorKind::UnexpectedChar(*c),
            E::MissingStructField { field, .. } => RonErrorKind::MissingField((*field).into()),
            E::NoSuchStructField { found, .. } => RonErrorKind::UnknownField(found.clone()),
            E::DuplicateStructField { field, .. } => RonErrorKind::DuplicateField((*field).into()),
            E::NoSuchEnumVariant { found, .. } => RonErrorKind::UnknownVariant(found.clone()),
            E::InvalidValueForType { .. }
            | E::ExpectedDifferentLength { .. }
            | E::IntegerOutOfBounds
            | E::ExpectedArray
            | E::ExpectedBoolean
            | E::ExpectedFloat
            | E::ExpectedInteger
            | E::ExpectedOption
            | E::ExpectedMap
            | E::ExpectedString
            | E::ExpectedUnit
            | E::ExpectedStructLike
            | E::ExpectedNamedStructLike(_) => RonErrorKind::WrongValue,
            E::ExpectedStringEnd | E::UnclosedBlockComment | E::UnclosedLineComment => {
                RonErrorKind::Unclosed
            }
            E::TrailingCharacters => RonErrorKind::TrailingText,
            _ => RonErrorKind::Malformed,
        };
        RonError {
            line: e.span.start.line,
            column: e.span.start.col,
            kind,
        }
    }
}

impl fmt::Display for RonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        self.kind.fmt(f)
    }
}

impl fmt::Display for RonErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RonErrorKind::UnexpectedEnd => f.write_str("the text ends too early"),
            RonErrorKind::UnexpectedChar(c) => write!(f, "unexpected character {c:?}"),
            RonErrorKind::MissingField(name) => write!(f, "missing field `{name}`"),
            RonErrorKind::UnknownField(name) => write!(f, "unknown field `{name}`"),
            RonErrorKind::DuplicateField(name) => write!(f, "field `{name}` given twice"),
            RonErrorKind::UnknownVariant(name) => write!(f, "unknown choice `{name}`"),
            RonErrorKind::WrongValue => f.write_str("a value of the wrong type"),
            RonErrorKind::Unclosed => f.write_str("a string or comment is never closed"),
            RonErrorKind::TrailingText => f.write_str("text after the end"),
            RonErrorKind::Malformed => f.write_str("not valid RON"),
        }
    }
}

impl std::error::Error for RonError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Sample {
        id: String,
        count: u32,
    }

    fn read(text: &str) -> RonError {
        RonError::from(&ron::from_str::<Sample>(text).unwrap_err())
    }

    #[test]
    fn a_ron_error_keeps_its_line_column_and_kind() {
        let missing = read("(\n  id: \"a\",\n)");
        assert_eq!(missing.kind, RonErrorKind::MissingField("count".into()));
        assert_eq!(missing.line, 3);
        let unknown = read("(\n  id: \"a\",\n  count: 1,\n  colour: 2,\n)");
        assert_eq!(unknown.kind, RonErrorKind::UnknownField("colour".into()));
        assert_eq!((unknown.line, unknown.column), (4, 3));
        assert_eq!(
            read("(id: \"a\", count: \"x\")").kind,
            RonErrorKind::WrongValue
        );
        assert_eq!(
            read("(id: \"a\", count: ").kind,
            RonErrorKind::UnexpectedEnd
        );
        assert_eq!(read("(id: \"a).").kind, RonErrorKind::Unclosed);
    }
}
