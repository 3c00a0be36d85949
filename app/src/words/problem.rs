//! A problem to tell the user (a file that cannot be read or written, a game that breaks
//! off), kept as a message id and its arguments so that it is put into words in the
//! language shown when drawn, never in the words of the code that found it.

/// A message and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The message.
    pub id: &'static str,
    /// Its arguments, by name.
    pub args: Vec<(&'static str, ProblemArg)>,
}

/// One argument of a [`Problem`].
#[derive(Clone, Debug, PartialEq)]
pub enum ProblemArg {
    /// Text shown as it is: a number, a path, the offending text of a file.
    Text(String),
    /// A message of its own (the reason inside a larger message), put into words first.
    Problem(Problem),
}

impl Problem {
    /// The message `id` with no arguments.
    pub fn new(id: &'static str) -> Problem {
        Problem {
            id,
            args: Vec::new(),
        }
    }

    /// Adds a text argument.
    pub fn text(mut self, name: &'static str, value: impl ToString) -> Problem {
        self.args.push((name, ProblemArg::Text(value.to_string())));
        self
    }

    /// Adds an argument that is a message of its own.
    pub fn with(mut self, name: &'static str, inner: Problem) -> Problem {
        self.args.push((name, ProblemArg::Problem(inner)));
        self
    }
}
