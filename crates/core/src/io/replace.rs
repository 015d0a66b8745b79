//! Writing files people keep (docs/safety.md): whole or not at all, with
//! the owner, group, mode and extended attributes (an ACL among them) of
//! the file replaced (`keep`), into a device or a FIFO and through a
//! symlink as the shell's `>` does, never over a change another process
//! made meanwhile, and never over a read-only file or one with other names
//! (hard links). A run stopped by a signal leaves no temporary file
//! (`temps`).
//!
//! Every file partkit writes goes through here: a new or replaced output
//! ([`write_atomic`], [`Replacement`]), an in-place rewrite of an input
//! ([`Replacement::in_place`], given what the input was when it was read),
//! and a new file that must not replace anything ([`write_new`]).

mod keep;
mod temps;

use std::fs::{self, File, Metadata};
use std::io::{self, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Error, Result};
use temps::Temp;

/// A warning about a file written.
type Warn = Box<dyn Fn(&str) + Send + Sync>;

/// Where warnings about files written go: the command line's stderr; a
/// library caller hears none.
static WARN: Mutex<Option<Warn>> = Mutex::new(None);

/// Set up by the command line: warnings about files written go to `warn`,
/// and SIGINT, SIGTERM and SIGHUP remove the temporary files of a run they
/// stop.
pub fn for_command_line(warn: impl Fn(&str) + Send + Sync + 'static) {
    *WARN.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(warn));
    temps::remove_on_signals();
}

fn warn(message: &str) {
    if let Some(warn) = &*WARN.lock().unwrap_or_else(|e| e.into_inner()) {
        warn(message);
    }
}

/// What a file was when partkit read it: the same file (device and inode)
/// with the same size, modification and change times. A file replaced or
/// written since differs in one of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Seen {
    pub fn of(metadata: &Metadata) -> Seen {
        Seen {
            dev: metadata.dev(),
            ino: metadata.ino(),
            len: metadata.len(),
            mtime: (metadata.mtime(), metadata.mtime_nsec()),
            ctime: (metadata.ctime(), metadata.ctime_nsec()),
        }
    }

    /// What the file at `path` is now (through a symlink).
    pub fn now(path: &Path) -> io::Result<Seen> {
        fs::metadata(path).map(|m| Seen::of(&m))
    }
}

/// An input to rewrite in place, checked before it is read: a regular file
/// (or a symlink to one, whose target is rewritten: the link stays a link).
/// A FIFO, a device or a folder is refused — writing back to it would make
/// a regular file of it. (Whether it may be replaced is asked once there is
/// something to write: a read-only file needing no change is no error.)
pub fn in_place_target(path: &Path) -> Result<(PathBuf, Seen)> {
    // A file that cannot be looked at cannot be read either.
    let unreadable = |source| Error::Read {
        path: path.to_path_buf(),
        source,
    };
    let target = if fs::symlink_metadata(path).map_err(unreadable)?.is_symlink() {
        fs::canonicalize(path).map_err(unreadable)?
    } else {
        path.to_path_buf()
    };
    let metadata = fs::metadata(&target).map_err(unreadable)?;
    if !metadata.is_file() {
        return Err(write_error(path)(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "is {}, not a regular file: it cannot be rewritten in place",
                file_kind(&metadata)
            ),
        )));
    }
    Ok((target, Seen::of(&metadata)))
}

/// `check_replaceable` of the file at `path` (through a link), for an
/// input removed once its content is written under another name.
pub fn check_removable(path: &Path) -> Result<()> {
    let metadata = fs::metadata(path).map_err(write_error(path))?;
    check_replaceable(path, path, &metadata)
}

/// Refuses to replace a regular file (`target`, named `path` in messages)
/// that the running user may not write — root too, when it has no write
/// bit at all: a tool does not defeat a read-only bit — or that has other
/// names (hard links): a new file renamed into place would leave them with
/// the old content, and writing over the file itself could leave it torn.
fn check_replaceable(path: &Path, target: &Path, metadata: &Metadata) -> Result<()> {
    if metadata.nlink() > 1 {
        return Err(write_error(path)(io::Error::other(format!(
            "it has {} hard links, and a new file in its place would leave the other names with the old content; copy it to a file of its own first",
            metadata.nlink()
        ))));
    }
    if !writable(target, metadata) {
        return Err(read_only(path));
    }
    Ok(())
}

/// The refusal of a file [`writable`] says no to.
fn read_only(path: &Path) -> Error {
    let why = if rustix::process::geteuid().is_root() {
        "it is read-only (no write permission bit is set)"
    } else {
        "it is read-only (this user has no write permission)"
    };
    write_error(path)(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("{why}; partkit does not write over a read-only file"),
    ))
}

/// Whether the running user may write the file: root when some write bit
/// is set (root may write any file; the bits say whether it was meant to
/// be), anyone else as the system says for their effective IDs.
fn writable(target: &Path, metadata: &Metadata) -> bool {
    if rustix::process::geteuid().is_root() {
        return metadata.mode() & 0o222 != 0;
    }
    match rustix::fs::accessat(
        rustix::fs::CWD,
        target,
        rustix::fs::Access::WRITE_OK,
        rustix::fs::AtFlags::EACCESS,
    ) {
        Ok(()) => true,
        Err(error) => ![
            rustix::io::Errno::ACCESS,
            rustix::io::Errno::PERM,
            rustix::io::Errno::ROFS,
        ]
        .contains(&error),
    }
}

/// What a file that is not a regular one is, for messages.
pub fn file_kind(metadata: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// A file being written: a temporary file beside its target, renamed over
/// it by [`Replacement::commit`] (dropped, it is removed and the target is
/// untouched). A target that is a FIFO or a device (`-o /dev/stdout`) is
/// written directly, as the shell's `>` does.
pub struct Replacement {
    target: PathBuf,
    /// What `path` names, for messages.
    path: PathBuf,
    sink: Sink,
    /// The file replaced, when there is one: its owner, group, mode and
    /// extended attributes carry over.
    existing: Option<Metadata>,
    /// For an in-place write: the input as it was read.
    expect: Option<Seen>,
}

enum Sink {
    Temp(Temp),
    Direct(File),
}

impl Replacement {
    /// Starts writing `path` (a symlink's target, if it is one); refused at
    /// once when that is a file not to replace (`check_replaceable`).
    pub fn new(path: &Path) -> Result<Replacement> {
        Replacement::open(path, true)
    }

    fn open(path: &Path, check: bool) -> Result<Replacement> {
        let error = write_error(path);
        let target = match fs::symlink_metadata(path) {
            Ok(m) if m.is_symlink() => match fs::canonicalize(path) {
                Ok(target) => target,
                // A dangling link: its target does not exist yet.
                Err(_) => dangling_target(path).map_err(&error)?,
            },
            _ => path.to_path_buf(),
        };
        let existing = fs::metadata(&target).ok();
        if let Some(existing) = existing.as_ref().filter(|m| m.is_file() && check) {
            check_replaceable(path, &target, existing)?;
        }
        if existing
            .as_ref()
            .is_some_and(|m| !m.is_file() && !m.is_dir())
        {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .map_err(&error)?;
            return Ok(Replacement {
                target,
                path: path.to_path_buf(),
                sink: Sink::Direct(file),
                existing: None,
                expect: None,
            });
        }
        let temp = Temp::new_in(folder_of(&target)).map_err(&error)?;
        Ok(Replacement {
            target,
            path: path.to_path_buf(),
            sink: Sink::Temp(temp),
            existing,
            expect: None,
        })
    }

    /// Starts writing a file in an output folder: a symlink there is
    /// replaced, not followed (nothing is written outside the folder), and
    /// so is a file with other names (the entry is replaced, the others
    /// keep theirs); a read-only file is not.
    pub fn in_folder(path: &Path) -> Result<Replacement> {
        let error = write_error(path);
        let existing = fs::symlink_metadata(path).ok().filter(Metadata::is_file);
        if existing.as_ref().is_some_and(|m| !writable(path, m)) {
            return Err(read_only(path));
        }
        Ok(Replacement {
            target: path.to_path_buf(),
            path: path.to_path_buf(),
            sink: Sink::Temp(Temp::new_in(folder_of(path)).map_err(error)?),
            existing,
            expect: None,
        })
    }

    /// Starts rewriting an input in place: `target` and `seen` from
    /// [`in_place_target`], taken before the input was read. Whether it may
    /// be replaced is asked by [`Replacement::commit`]: an input found
    /// unchanged is not written, and then no error.
    pub fn in_place(target: &Path, seen: Seen) -> Result<Replacement> {
        let mut replacement = Replacement::open(target, false)?;
        replacement.expect = Some(seen);
        Ok(replacement)
    }

    /// Where the bytes go.
    pub fn file(&mut self) -> &mut File {
        match &mut self.sink {
            Sink::Temp(temp) => temp.file_mut(),
            Sink::Direct(file) => file,
        }
    }

    /// The error of a failed write to it (or of the read of an input
    /// copied into it: see [`Error::write`]).
    pub fn error(&self, source: io::Error) -> Error {
        Error::write(&self.path, source)
    }

    /// Writes all of `bytes` and puts the file in place.
    pub fn write_whole(mut self, bytes: &[u8]) -> Result<()> {
        self.write_all(bytes).map_err(|e| self.error(e))?;
        self.commit()
    }

    /// Puts the new file in place: on disk in full (synced) first, with the
    /// old file's owner, group, mode and extended attributes, and only if an
    /// input rewritten in place is still what was read.
    pub fn commit(self) -> Result<()> {
        let error = write_error(&self.path);
        let temp = match self.sink {
            Sink::Direct(mut file) => return file.flush().map_err(error),
            Sink::Temp(temp) => temp,
        };
        if let (Some(existing), Some(_)) = (&self.existing, self.expect) {
            check_replaceable(&self.path, &self.target, existing)?;
        }
        let file = temp.file();
        file.sync_all().map_err(&error)?;
        if let Some(existing) = &self.existing {
            keep::carry_over(file, &self.target, existing, &self.path).map_err(&error)?;
        }
        if let Some(expect) = self.expect {
            if Seen::now(&self.target).ok() != Some(expect) {
                return Err(error(io::Error::other(
                    "it changed since partkit read it (another program wrote it); left as that program wrote it",
                )));
            }
        }
        temp.persist(&self.target).map_err(error)?;
        Ok(())
    }
}

impl Write for Replacement {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file().write(bytes)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

/// Where a dangling symlink points, made absolute.
fn dangling_target(path: &Path) -> io::Result<PathBuf> {
    let link = fs::read_link(path)?;
    Ok(match path.parent() {
        Some(dir) if link.is_relative() => dir.join(link),
        _ => link,
    })
}

/// The folder a file is in (`.` for a bare name): where its temporary file goes.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

fn write_error(path: &Path) -> impl Fn(io::Error) -> Error + '_ {
    move |source| Error::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes a file atomically (see [`Replacement`]): an interrupted run or a
/// full disk leaves the old file or the new one, never half of either.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    Replacement::new(path)?.write_whole(bytes)
}

/// Writes a file in an output folder (`--images-dir --force`, `--out-dir`):
/// atomically, as [`write_atomic`], but what is there is replaced as an
/// entry of the folder — a symlink is replaced, not followed, so that
/// nothing is written outside the folder.
pub fn write_in_folder(path: &Path, bytes: &[u8]) -> Result<()> {
    Replacement::in_folder(path)?.write_whole(bytes)
}

/// Writes a new file that must not replace one: all of it appears at once
/// (a full disk leaves nothing behind), or the call fails because `path`
/// exists.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    let error = write_error(path);
    let mut temp = Temp::new_in(folder_of(path)).map_err(&error)?;
    temp.file_mut().write_all(bytes).map_err(&error)?;
    temp.file().sync_all().map_err(&error)?;
    temp.persist_noclobber(path).map_err(error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file another program wrote between the read and the rename is left
    /// as that program wrote it, and the temporary file is gone.
    #[test]
    fn a_file_changed_since_it_was_read_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("doc.json");
        fs::write(&path, "old").unwrap();
        let (target, seen) = in_place_target(&path).unwrap();
        let mut out = Replacement::in_place(&target, seen).unwrap();
        out.write_all(b"fixed").unwrap();
        // Another program replaces it meanwhile (same size, new inode).
        fs::write(dir.path().join("other"), "new").unwrap();
        fs::rename(dir.path().join("other"), &path).unwrap();
        let error = out.commit().unwrap_err();
        assert!(format!("{:#}", anyhow::Error::from(error))
            .contains("it changed since partkit read it"));
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );

        // Written in place (same inode): its times change.
        let (target, seen) = in_place_target(&path).unwrap();
        let mut out = Replacement::in_place(&target, seen).unwrap();
        out.write_all(b"fixed").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"!")
            .unwrap();
        assert!(out.commit().is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "new!");

        // Unchanged: replaced.
        let (target, seen) = in_place_target(&path).unwrap();
        let mut out = Replacement::in_place(&target, seen).unwrap();
        out.write_all(b"fixed").unwrap();
        out.commit().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "fixed");
    }

    #[test]
    fn special_targets() {
        let dir = tempfile::tempdir().unwrap();
        assert!(in_place_target(dir.path()).is_err(), "a folder");
        // An output that is a device is written directly, not replaced.
        let mut out = Replacement::new(Path::new("/dev/null")).unwrap();
        out.write_all(b"x").unwrap();
        out.commit().unwrap();
        let kind = fs::metadata("/dev/null").unwrap().file_type();
        assert!(std::os::unix::fs::FileTypeExt::is_char_device(&kind));
    }
}
