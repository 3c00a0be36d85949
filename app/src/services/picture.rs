//! The picture reader's thread: a picture file (its size checked before a byte is read)
//! or pasted pixels go to the core's reader, and what it found comes back as
//! [`PictureAction::Read`], with the pixels to show beside the board. One picture is read
//! at a time; a new one cancels the one before, whose answer is then dropped.

use crate::actions::{Action, PictureAction};
use crate::services::jobs::Job;
use crate::state::picture::{Found, MAX_FILE_BYTES, Outcome, Picture, PictureError};
use chuhe_core::recognize;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The reading under way, if any, with the file it reads.
#[derive(Debug, Default)]
pub struct Reader {
    job: Option<(Option<PathBuf>, Job<Outcome>)>,
}

impl Reader {
    /// Reads the picture in `path`.
    pub fn read_file(&mut self, path: PathBuf) {
        let file = path.clone();
        self.start(Some(file), move || read_file(&path));
    }

    /// Reads pasted pixels.
    pub fn read_pasted(&mut self, picture: Picture) {
        self.start(None, move || read_pixels(&picture));
    }

    fn start(&mut self, file: Option<PathBuf>, work: impl FnOnce() -> Outcome + Send + 'static) {
        self.cancel();
        self.job = Some((file, Job::spawn("chuhe picture reader", move |_| work())));
    }

    /// Drops the reading under way: its answer will not come.
    pub fn cancel(&mut self) {
        if let Some((_, mut job)) = self.job.take() {
            job.cancel();
        }
    }

    /// The reader's answer once it has one (a reader that died answers that it failed),
    /// and whether it is still reading.
    pub fn poll(&mut self) -> (Option<Action>, bool) {
        let Some((file, job)) = &mut self.job else {
            return (None, false);
        };
        let outcome = match job.poll() {
            Some(outcome) => outcome,
            None if job.is_finished() => Err(PictureError::Failed),
            None => return (None, true),
        };
        let file = file.take();
        self.job = None;
        (
            Some(Action::Picture(PictureAction::Read(
                file,
                Box::new(outcome),
            ))),
            false,
        )
    }
}

/// The bytes of `path`, refused unread when the file is larger than [`MAX_FILE_BYTES`].
fn read_capped(path: &Path) -> Result<Vec<u8>, PictureError> {
    let file = std::fs::File::open(path).map_err(|e| PictureError::File(e.to_string()))?;
    let size = file
        .metadata()
        .map_err(|e| PictureError::File(e.to_string()))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(PictureError::FileTooLarge(size));
    }
    // The size may change under the reader: never more than the cap and one byte.
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| PictureError::File(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(PictureError::FileTooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads every board in the picture file `path`.
pub fn read_file(path: &Path) -> Outcome {
    let bytes = read_capped(path)?;
    let found = found(recognize::read_bytes(&bytes)?)?;
    // The reader took the picture, so its size is within what it accepts.
    let image =
        image::load_from_memory(&bytes).map_err(|e| PictureError::Unreadable(e.to_string()))?;
    Ok((shown(image.to_rgba8()), found))
}

/// Reads every board in pasted pixels (a transparent background is read as white, as it
/// shows on a page).
pub fn read_pixels(picture: &Picture) -> Outcome {
    // Refused before the pixels are copied twice over.
    recognize::check_size(picture.width, picture.height)?;
    let Some(rgba) =
        image::RgbaImage::from_raw(picture.width, picture.height, picture.rgba.as_ref().clone())
    else {
        return Err(PictureError::Unreadable(format!(
            "{}×{} pixels given {} bytes",
            picture.width,
            picture.height,
            picture.rgba.len()
        )));
    };
    let rgb = image::RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over_white = |c: u8| ((c as u32 * a as u32 + 255 * (255 - a as u32)) / 255) as u8;
        image::Rgb([over_white(r), over_white(g), over_white(b)])
    });
    let found = found(recognize::read(&rgb)?)?;
    Ok((shown(rgba), found))
}

/// The boards read, or why there are none.
fn found(readings: Vec<recognize::Reading>) -> Result<Vec<Found>, PictureError> {
    if readings.is_empty() {
        return Err(PictureError::NoBoard);
    }
    Ok(readings.into_iter().map(Found::from).collect())
}

/// The pixels to show: `image` itself, or scaled down to [`Picture::MAX_SHOWN`].
fn shown(image: image::RgbaImage) -> Picture {
    let (width, height) = image.dimensions();
    let longest = width.max(height);
    let image = if longest > Picture::MAX_SHOWN {
        let scale = Picture::MAX_SHOWN as f64 / longest as f64;
        let w = ((width as f64 * scale).round() as u32).max(1);
        let h = ((height as f64 * scale).round() as u32).max(1);
        image::imageops::resize(&image, w, h, image::imageops::FilterType::Triangle)
    } else {
        image
    };
    Picture {
        width,
        height,
        shown_width: image.width(),
        shown_height: image.height(),
        rgba: Arc::new(image.into_raw()),
    }
}

/// Writes `puzzles` (a title and an arrangement each) as a PGN file of puzzles named
/// `name`.pgn in a folder of the app's own under the temporary directory, for the puzzle
/// import to take as a set named `name`.
pub fn write_puzzle_file(
    name: &str,
    puzzles: &[(String, String, chuhe_core::Setup)],
) -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("chuhe-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut text = String::new();
    for (id, title, setup) in puzzles {
        let quoted = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        text.push_str(&format!(
            "[Event \"{}\"]\n[PuzzleId \"{}\"]\n[FEN \"{setup}\"]\n\n*\n\n",
            quoted(title),
            quoted(id)
        ));
    }
    // The name becomes a file's, and the set's folder's: nothing that leaves the folder.
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = match name.trim() {
        "" => "pictures",
        name => name,
    };
    let path = dir.join(format!("{name}.pgn"));
    crate::services::storage::write_text(&path, &text)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_the_cap_is_refused_unread_and_garbage_is_unreadable() {
        let dir =
            std::env::temp_dir().join(format!("chuhe-picture-service-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.png");
        let file = std::fs::File::create(&big).unwrap();
        // A sparse file: the size is there, no bytes are written.
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        assert_eq!(
            read_file(&big),
            Err(PictureError::FileTooLarge(MAX_FILE_BYTES + 1))
        );
        let garbage = dir.join("garbage.png");
        std::fs::write(&garbage, b"not a picture at all").unwrap();
        assert!(matches!(
            read_file(&garbage),
            Err(PictureError::Unreadable(_))
        ));
        assert!(matches!(
            read_file(&dir.join("missing.png")),
            Err(PictureError::File(_))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pixels_of_the_wrong_length_are_unreadable_not_a_panic() {
        let picture = Picture {
            width: 10,
            height: 10,
            shown_width: 10,
            shown_height: 10,
            rgba: Arc::new(vec![0; 7]),
        };
        assert!(matches!(
            read_pixels(&picture),
            Err(PictureError::Unreadable(_))
        ));
    }

    #[test]
    fn a_big_picture_is_shown_scaled_down_with_its_size_kept() {
        let picture = shown(image::RgbaImage::new(4096, 1024));
        assert_eq!((picture.width, picture.height), (4096, 1024));
        assert_eq!((picture.shown_width, picture.shown_height), (2048, 512));
        assert_eq!(picture.rgba.len(), 2048 * 512 * 4);
    }
}
