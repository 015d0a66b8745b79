//! The temporary files written beside their targets, and their removal when
//! the run is stopped by SIGINT, SIGTERM or SIGHUP: a file renamed into
//! place is whole, and one not renamed yet (tens of megabytes, at times)
//! must not be left behind as `.partkit-*.tmp`.
//!
//! Every temporary file is listed from the moment it is made until it is
//! renamed or removed. The command line asks for the removal
//! ([`remove_on_signals`]); from the first temporary file on, a thread waits
//! for those signals, removes the files listed, and ends the process by the
//! same signal, as it would have ended without partkit's handler (a shell
//! sees 130 or 143). A library caller's signals are left alone, and so is a
//! signal the run was started with ignored (`nohup`, a background job).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

/// The temporary files that exist now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Whether a signal removes them (the command line, not a library caller).
static ENABLED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// Makes SIGINT, SIGTERM and SIGHUP remove the temporary files before they
/// end the process (from the first temporary file made on).
pub fn remove_on_signals() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// The list, even after a panic elsewhere while it was held: it is only
/// ever pushed to and taken from, never left half-changed.
fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn forget(live: &mut Vec<PathBuf>, path: &Path) {
    if let Some(at) = live.iter().position(|p| p == path) {
        live.swap_remove(at);
    }
}

/// A temporary file beside a target, listed while it exists; dropped, it is
/// removed.
pub struct Temp {
    file: Option<tempfile::NamedTempFile>,
}

impl Temp {
    /// A new temporary file in `dir` (see [`crate::io::temp_file_in`]).
    pub fn new_in(dir: &Path) -> io::Result<Temp> {
        if ENABLED.load(Ordering::Relaxed) {
            INSTALL.call_once(install);
        }
        // Made and listed under the lock: a signal finds it listed as soon
        // as it exists.
        let mut live = live();
        let file = crate::io::temp_file_in(dir)?;
        live.push(file.path().to_path_buf());
        Ok(Temp { file: Some(file) })
    }

    fn inner(&self) -> &tempfile::NamedTempFile {
        self.file.as_ref().expect("present until consumed")
    }

    /// The open file.
    pub fn file(&self) -> &File {
        self.inner().as_file()
    }

    /// The open file, to write.
    pub fn file_mut(&mut self) -> &mut File {
        self.file
            .as_mut()
            .expect("present until consumed")
            .as_file_mut()
    }

    /// Renames it over `target` (see [`tempfile::NamedTempFile::persist`]).
    pub fn persist(self, target: &Path) -> io::Result<()> {
        self.rename(|file| file.persist(target).map(drop))
    }

    /// Renames it to `target`, which must not exist.
    pub fn persist_noclobber(self, target: &Path) -> io::Result<()> {
        self.rename(|file| file.persist_noclobber(target).map(drop))
    }

    /// Renames it under the lock: a signal meanwhile waits, then finds it
    /// gone from the list (in place) or removes it (the rename failed).
    fn rename(
        mut self,
        rename: impl FnOnce(tempfile::NamedTempFile) -> Result<(), tempfile::PersistError>,
    ) -> io::Result<()> {
        let file = self.file.take().expect("present until consumed");
        let path = file.path().to_path_buf();
        let mut live = live();
        // A failed rename hands the file back, and dropping it removes it.
        let outcome = rename(file).map_err(|e| e.error);
        forget(&mut live, &path);
        outcome
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let path = file.path().to_path_buf();
            let mut live = live();
            drop(file);
            forget(&mut live, &path);
        }
    }
}

/// The signals that end a run, by number.
const ENDING: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Starts the thread that removes the temporary files on a signal.
fn install() {
    let ignored = ignored_signals();
    let wanted: Vec<i32> = ENDING
        .into_iter()
        .filter(|signal| !ignored.contains(signal))
        .collect();
    // Without a handler the run still ends on a signal, only without
    // removing its temporary files: nothing else depends on it.
    let Ok(mut signals) = signal_hook::iterator::Signals::new(&wanted) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("partkit-signals".to_string())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process ends: no file is made or renamed
                // after the removal.
                let live = live();
                for path in live.iter() {
                    let _ = std::fs::remove_file(path);
                }
                // Ended by the signal itself, as without the handler.
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
}

/// The signals this process was started with ignored (`SigIgn` in
/// `/proc/self/status`; none known elsewhere). A handler must not undo
/// that: `nohup` and a shell's background jobs rely on it.
fn ignored_signals() -> Vec<i32> {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return Vec::new();
    };
    let mask = status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .unwrap_or(0);
    (1..=64)
        .filter(|signal| mask & (1u64 << (signal - 1)) != 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(path: &Path) -> bool {
        live().iter().any(|p| p == path)
    }

    /// Listed while it exists; not once renamed or dropped.
    #[test]
    fn temporary_files_are_listed_while_they_exist() {
        let dir = tempfile::tempdir().unwrap();
        let temp = Temp::new_in(dir.path()).unwrap();
        let path = temp.inner().path().to_path_buf();
        assert!(listed(&path) && path.exists());
        temp.persist(&dir.path().join("done")).unwrap();
        assert!(!listed(&path) && !path.exists());
        assert!(dir.path().join("done").exists());

        let temp = Temp::new_in(dir.path()).unwrap();
        let path = temp.inner().path().to_path_buf();
        drop(temp);
        assert!(!listed(&path) && !path.exists());

        // A failed rename removes it too.
        let temp = Temp::new_in(dir.path()).unwrap();
        let path = temp.inner().path().to_path_buf();
        assert!(temp.persist_noclobber(&dir.path().join("done")).is_err());
        assert!(!listed(&path) && !path.exists());
    }

    #[test]
    fn ignored_signals_are_read_from_the_process_status() {
        // This test process ignores SIGPIPE (Rust's runtime does).
        if std::fs::metadata("/proc/self/status").is_ok() {
            assert!(ignored_signals().contains(&signal_hook::consts::SIGPIPE));
        }
    }
}
