//! What a replaced file keeps: its owner and group, its mode, and its
//! extended attributes (its POSIX ACL among them, stored as
//! `system.posix_acl_access`), all given to the new file before it is
//! renamed over the old one.
//!
//! The order matters. The owner first: a change of owner clears the
//! set-user-ID and set-group-ID bits, which the mode then puts back. Then
//! the attributes the new file was made with and the old one lacks go (an
//! ACL inherited from the folder's default ACL). Then the mode, and the old
//! attributes last: setting the ACL sets the group bits to its mask, as the
//! old file had them. (Copying the mode alone, as a rewrite without the ACL
//! did, turned the mask shown in the group bits into the group's own
//! permission: a group entry of `r--` under a mask of `rw-` became `rw-`.)

use std::ffi::OsString;
use std::fs::{File, Metadata, Permissions};
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::io::Errno;

use super::warn;

/// Gives `new` (the file about to replace `old_path`, whose metadata is
/// `old`) the old file's owner, group, mode and extended attributes. An
/// owner or an attribute that cannot be kept is said in a warning (once a
/// run for the owner); a mode that cannot be set is an error (the new file
/// would be open to more than the old one was).
pub(super) fn carry_over(
    new: &File,
    old_path: &Path,
    old: &Metadata,
    name: &Path,
) -> std::io::Result<()> {
    keep_owner(new, old, name);
    let attributes = attributes_of(old_path, name);
    drop_extra_attributes(new, &attributes);
    new.set_permissions(Permissions::from_mode(old.mode() & 0o7777))?;
    let mut not_kept = Vec::new();
    for (key, value) in &attributes {
        match rustix::fs::fsetxattr(new, key.as_os_str(), value, rustix::fs::XattrFlags::empty()) {
            Ok(()) => {}
            // A kind of attribute the file system does not take (some
            // show attributes they do not store): nothing to keep it in.
            Err(Errno::NOTSUP) => {}
            Err(error) => not_kept.push(format!("{} ({error})", key.to_string_lossy())),
        }
    }
    if !not_kept.is_empty() {
        warn(&format!(
            "{}: rewritten without its extended attributes {}",
            name.display(),
            not_kept.join(", ")
        ));
    }
    Ok(())
}

/// Whether a failure to keep an owner was said already: once a run is
/// enough (`--fix` over a colleague's folder would say it of every file).
static OWNER_WARNED: AtomicBool = AtomicBool::new(false);

/// The old owner and group: always possible as root. Anyone else may give a
/// file only to themselves, and only a group they are in: then the group at
/// least is kept where it can be, and a warning says what was not.
fn keep_owner(new: &File, old: &Metadata, name: &Path) {
    let Ok(now) = new.metadata() else {
        return;
    };
    if (now.uid(), now.gid()) == (old.uid(), old.gid()) {
        return;
    }
    let Err(error) = std::os::unix::fs::fchown(new, Some(old.uid()), Some(old.gid())) else {
        return;
    };
    let _ = std::os::unix::fs::fchown(new, None, Some(old.gid()));
    let Ok(now) = new.metadata() else {
        return;
    };
    if !OWNER_WARNED.swap(true, Ordering::Relaxed) {
        let lost = if now.uid() == old.uid() {
            format!("its group {} could not be kept", old.gid())
        } else if now.gid() == old.gid() {
            format!("its owner {} could not be kept", old.uid())
        } else {
            format!(
                "its owner and group {}:{} could not be kept",
                old.uid(),
                old.gid()
            )
        };
        warn(&format!(
            "{}: rewritten as {}:{}: {lost} ({error}); other files are not reported",
            name.display(),
            now.uid(),
            now.gid()
        ));
    }
}

/// The extended attributes of the file at `path` (followed through a link),
/// names and values. None where the file system holds none; a file whose
/// attributes cannot be read is rewritten without them, with a warning.
fn attributes_of(path: &Path, name: &Path) -> Vec<(OsString, Vec<u8>)> {
    let listed = read_sized(
        |buffer| rustix::fs::listxattr(path, buffer),
        || rustix::fs::listxattr_query(path),
    );
    let keys = match listed {
        Ok(listed) => names(&listed),
        Err(Errno::NOTSUP) => return Vec::new(),
        Err(error) => {
            warn(&format!(
                "{}: its extended attributes could not be read ({error}); rewritten without them",
                name.display()
            ));
            return Vec::new();
        }
    };
    keys.into_iter()
        .filter_map(|key| {
            let value = read_sized(
                |buffer| rustix::fs::getxattr(path, key.as_os_str(), buffer),
                || rustix::fs::getxattr_query(path, key.as_os_str()),
            )
            .ok()?;
            Some((key, value))
        })
        .collect()
}

/// Removes from `new` the attributes the old file did not have (made with
/// the file: an ACL from the folder's default ACL, a security label).
fn drop_extra_attributes(new: &File, keep: &[(OsString, Vec<u8>)]) {
    let Ok(listed) = read_sized(
        |buffer| rustix::fs::flistxattr(new, buffer),
        || rustix::fs::flistxattr_query(new),
    ) else {
        return;
    };
    for key in names(&listed) {
        if !keep.iter().any(|(kept, _)| *kept == key) {
            let _ = rustix::fs::fremovexattr(new, key.as_os_str());
        }
    }
}

/// The names of a listing: each ended by a NUL.
fn names(listed: &[u8]) -> Vec<OsString> {
    listed
        .split(|&b| b == 0)
        .filter(|key| !key.is_empty())
        .map(|key| OsString::from_vec(key.to_vec()))
        .collect()
}

/// Reads a listing or a value whose size is asked first; it may grow
/// between the question and the read (`ERANGE`), so that is tried again.
fn read_sized(
    mut read: impl FnMut(&mut [u8]) -> rustix::io::Result<usize>,
    mut size: impl FnMut() -> rustix::io::Result<usize>,
) -> rustix::io::Result<Vec<u8>> {
    for _ in 0..4 {
        let len = size()?;
        if len == 0 {
            return Ok(Vec::new());
        }
        let mut buffer = vec![0u8; len];
        match read(&mut buffer) {
            Ok(n) => {
                buffer.truncate(n);
                return Ok(buffer);
            }
            Err(Errno::RANGE) => continue,
            Err(error) => return Err(error),
        }
    }
    Err(Errno::RANGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    fn set(path: &Path, key: &str, value: &[u8]) -> bool {
        rustix::fs::setxattr(path, key, value, rustix::fs::XattrFlags::empty()).is_ok()
    }

    /// A user attribute is carried over and one the new file had alone is
    /// dropped; the mode is the old one.
    #[test]
    fn attributes_and_mode_carry_over() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old");
        let new = dir.path().join("new");
        std::fs::write(&old, "old").unwrap();
        std::fs::write(&new, "new").unwrap();
        if !set(&old, "user.kept", b"1") || !set(&new, "user.extra", b"2") {
            // No user attributes on this file system: nothing to carry.
            return;
        }
        std::fs::set_permissions(&old, Permissions::from_mode(0o604)).unwrap();
        let file = File::options().write(true).open(&new).unwrap();
        carry_over(&file, &old, &std::fs::metadata(&old).unwrap(), &old).unwrap();
        let keys = names(
            &read_sized(
                |buffer| rustix::fs::listxattr(&new, buffer),
                || rustix::fs::listxattr_query(&new),
            )
            .unwrap(),
        );
        assert!(keys.iter().any(|k| k.as_bytes() == b"user.kept"));
        assert!(!keys.iter().any(|k| k.as_bytes() == b"user.extra"));
        assert_eq!(std::fs::metadata(&new).unwrap().mode() & 0o7777, 0o604);
    }
}
