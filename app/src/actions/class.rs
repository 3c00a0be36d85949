//! The class: students following the teacher's board in their browsers.

/// What the user asks of the class, and what its server reports.
#[derive(Clone, Debug, PartialEq)]
pub enum ClassAction {
    /// Open a class (and show its window).
    Start,
    /// End the class and every student's connection.
    Stop,
    /// Show or hide the class window.
    ToggleWindow,
    /// The port the next class opens on.
    SetPort(u16),
    /// The join code the next class uses (four digits).
    SetCode(String),
    /// How many students follow the board now.
    Students(usize),
    /// The address the next class binds to (unspecified: all local interfaces).
    SetBind(std::net::IpAddr),
}
