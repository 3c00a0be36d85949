//! The sounds of play: a wooden tap for a move, a heavier knock for a capture, a bright
//! tone for a check and a short chord for the end of a game.
//!
//! They are synthesised (a few kilobytes of samples made at first use, no audio files to
//! ship) and played by rodio on a thread of their own, so the UI never waits for the
//! sound device. A machine without one (a server, a CI runner) simply stays silent.

pub use crate::state::study::Sound;
use std::num::NonZero;
use std::sync::mpsc::{Sender, channel};

/// Samples per second of the synthesised sounds.
const RATE: u32 = 44_100;

/// Plays sounds without blocking; the device is opened on the first sound.
#[derive(Default)]
pub struct SoundPlayer {
    queue: Option<Sender<Sound>>,
}

impl SoundPlayer {
    /// Plays `sound` (or nothing, when there is no sound device).
    pub fn play(&mut self, sound: Sound) {
        let queue = self.queue.get_or_insert_with(|| {
            let (tx, rx) = channel::<Sound>();
            // If the thread cannot start, sends fail and the app is silent.
            let _ = std::thread::Builder::new()
                .name("chuhe sound".into())
                .spawn(move || {
                    let Ok(mut sink) = rodio::DeviceSinkBuilder::open_default_sink() else {
                        return;
                    };
                    sink.log_on_drop(false);
                    let rate = NonZero::new(RATE).expect("a positive rate");
                    let mono = NonZero::new(1).expect("one channel");
                    for sound in rx {
                        let samples = synthesise(sound);
                        sink.mixer()
                            .add(rodio::buffer::SamplesBuffer::new(mono, rate, samples));
                    }
                });
            tx
        });
        let _ = queue.send(sound);
    }
}

/// The samples of `sound`, mono at [`RATE`], within −1…1.
pub fn synthesise(sound: Sound) -> Vec<f32> {
    match sound {
        // A piece set down on a wooden board: a short, fast-decaying knock.
        Sound::Move => knock(0.07, 520.0, 0.55),
        // Heavier and lower, with a second knock as the taken piece is lifted away.
        Sound::Capture => {
            let mut samples = knock(0.16, 380.0, 0.75);
            mix_at(&mut samples, &knock(0.08, 300.0, 0.45), 0.06);
            samples
        }
        // A knock and a clear tone: a warning, like the call of 将.
        Sound::Check => {
            let mut samples = tone(0.22, &[880.0, 1320.0], 0.35, 14.0);
            mix_at(&mut samples, &knock(0.07, 520.0, 0.5), 0.0);
            samples
        }
        // A soft major chord that rings a little longer.
        Sound::GameEnd => tone(0.6, &[523.25, 659.25, 783.99], 0.25, 5.0),
    }
}

/// A knock: a low sine with a little bright noise, both dying away quickly.
fn knock(seconds: f32, pitch: f32, loudness: f32) -> Vec<f32> {
    let n = (seconds * RATE as f32) as usize;
    // A fixed linear-congruential noise source: the same sound every time.
    let mut seed: u32 = 0x1234_5678;
    (0..n)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let noise = (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0;
            let body = (std::f32::consts::TAU * pitch * t).sin() * (-t * 45.0).exp();
            let click = noise * (-t * 300.0).exp() * 0.5;
            (body + click) * loudness
        })
        .collect()
}

/// Sines at `pitches`, with a quick attack and an exponential decay at `decay` per second.
fn tone(seconds: f32, pitches: &[f32], loudness: f32, decay: f32) -> Vec<f32> {
    let n = (seconds * RATE as f32) as usize;
    let each = loudness / pitches.len() as f32;
    (0..n)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let envelope = (t * 400.0).min(1.0) * (-t * decay).exp();
            pitches
                .iter()
                .map(|p| (std::f32::consts::TAU * p * t).sin())
                .sum::<f32>()
                * each
                * envelope
        })
        .collect()
}

/// Adds `other` into `samples` from `seconds` on, growing `samples` if needed.
fn mix_at(samples: &mut Vec<f32>, other: &[f32], seconds: f32) {
    let start = (seconds * RATE as f32) as usize;
    if samples.len() < start + other.len() {
        samples.resize(start + other.len(), 0.0);
    }
    for (s, o) in samples[start..].iter_mut().zip(other) {
        *s = (*s + o).clamp(-1.0, 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_is_short_audible_and_never_clips() {
        for sound in [Sound::Move, Sound::Capture, Sound::Check, Sound::GameEnd] {
            let samples = synthesise(sound);
            let seconds = samples.len() as f32 / RATE as f32;
            assert!((0.05..=1.0).contains(&seconds), "{sound:?}: {seconds} s");
            let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
            assert!(peak > 0.1 && peak <= 1.0, "{sound:?}: peak {peak}");
            // It fades out instead of ending with a click.
            let tail = samples[samples.len() - 100..]
                .iter()
                .fold(0.0f32, |m, s| m.max(s.abs()));
            assert!(tail < peak / 10.0, "{sound:?}: tail {tail}");
        }
        assert_ne!(synthesise(Sound::Move), synthesise(Sound::Capture));
    }
}
