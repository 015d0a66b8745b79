//! A config file's text, read with care. A found file is checked for what it
//! is before it is opened: a FIFO would hang the run, and a folder or a link
//! to nothing where a config file is looked for is a mistake to report, not
//! to pass over. Any file is read up to a cap: `/dev/zero`, or a stray
//! gigabyte file that happens to be called `partkit.toml`, is never held.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use crate::error::{Error, Result};

/// The most a config file may hold. A real one is a few hundred bytes (a
/// `pyproject.toml` a few kilobytes): a file over this is not a config file.
pub const MAX_BYTES: u64 = 1 << 20;

/// How the file came to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// Found by its name in the working folder or one above it: it must be a
    /// regular file (or a link to one).
    Found,
    /// Named by `--config`: anything that reads as a file does (a FIFO from
    /// `--config <(…)` too), up to the cap.
    Named,
}

/// Whether something (a link that leads nowhere included) is at `path`.
pub fn is_there(path: &Path) -> io::Result<bool> {
    match fs::symlink_metadata(path) {
        Ok(_) => Ok(true),
        Err(error)
            if matches!(
                error.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

/// The text of the config file at `path` (named `shown` in messages).
pub fn read(path: &Path, shown: &str, how: How) -> Result<String> {
    let fail = |what: String| Error::usage(format!("{shown}: {what}"));
    let metadata = match fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return Err(match fs::read_link(path) {
                Ok(target) => fail(format!(
                    "a link to {}, which does not exist",
                    target.display()
                )),
                Err(_) => cannot_read(shown, &error),
            })
        }
        Err(error) => return Err(cannot_read(shown, &error)),
    };
    if metadata.is_dir() {
        return Err(fail("a folder, not a config file".to_string()));
    }
    if how == How::Found && !metadata.is_file() {
        return Err(fail(format!(
            "{}, not a regular file: a config file must be one",
            crate::io::replace::file_kind(&metadata)
        )));
    }
    let file = File::open(path).map_err(|error| cannot_read(shown, &error))?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| cannot_read(shown, &error))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(fail(format!(
            "larger than {}, the most a config file may be (a config file is a few hundred bytes)",
            crate::io::limits::describe(MAX_BYTES)
        )));
    }
    String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        let line = error.as_bytes()[..at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        Error::usage(format!("{shown}:{line}: not UTF-8 text"))
    })
}

/// A file where a config is that cannot be read.
pub fn cannot_read(shown: &str, error: &io::Error) -> Error {
    Error::usage(format!("{shown}: cannot read config: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_up_to_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        fs::write(&path, vec![b'#'; MAX_BYTES as usize]).unwrap();
        assert_eq!(read(&path, "c.toml", How::Found).unwrap().len(), 1 << 20);
        fs::write(&path, vec![b'#'; MAX_BYTES as usize + 1]).unwrap();
        let error = read(&path, "c.toml", How::Found).unwrap_err().to_string();
        assert!(error.starts_with("c.toml: larger than 1 MiB"), "{error}");
        fs::write(&path, b"a = 1\n# \xff\n").unwrap();
        let error = read(&path, "c.toml", How::Named).unwrap_err().to_string();
        assert_eq!(error, "c.toml:2: not UTF-8 text");
    }

    #[test]
    fn absence_is_told_from_faults() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!is_there(&dir.path().join("none")).unwrap());
        fs::write(dir.path().join("file"), "").unwrap();
        assert!(!is_there(&dir.path().join("file/deeper")).unwrap());
        std::os::unix::fs::symlink("none", dir.path().join("link")).unwrap();
        assert!(is_there(&dir.path().join("link")).unwrap());
    }
}
