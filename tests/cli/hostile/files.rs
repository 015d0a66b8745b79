//! Files partkit writes (docs/safety.md): in-place rewrites through symlinks, of
//! special files and of other users' files; output folders holding links; a
//! full disk (an injected write error: `ulimit -f`); nothing half-written.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

use crate::support::media::{b64, b64_of, png_of, png_of_len};
use crate::{path_arg, run, Run};

/// Runs partkit in `sh` after `setup` (shell commands: limits, traps).
fn run_in_sh(setup: &str, args: &[&str]) -> Run {
    let bin = assert_cmd::cargo::cargo_bin("partkit");
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("{setup} && exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .output()
        .expect("sh runs");
    Run {
        code: output.status.code().expect("partkit exits"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A file size limit of `kib` KiB, over which a write fails with EFBIG (the
/// signal it raises is ignored): a full disk, for any user.
fn full_disk(kib: u64) -> String {
    // dash counts 512-byte blocks.
    format!("trap '' XFSZ; ulimit -f {}", kib * 2)
}

/// A reply whose image declares the wrong type: `validate --fix` rewrites it.
fn fixable_reply() -> String {
    format!(
        r#"{{"text":"t","tool_output_images":[{{"image_url":"data:image/jpeg;base64,{}"}}]}}"#,
        b64("tiny.png")
    )
}

#[test]
fn in_place_writes_fix_a_symlinks_target() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.json");
    let link = dir.path().join("link.json");
    std::fs::write(&real, fixable_reply()).unwrap();
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let fixed = run(&["validate", "--fix", path_arg(&link)]);
    assert_eq!(fixed.code, 0, "{}{}", fixed.stdout, fixed.stderr);
    assert!(
        std::fs::symlink_metadata(&link).unwrap().is_symlink(),
        "still a link"
    );
    assert!(std::fs::read_to_string(&real)
        .unwrap()
        .contains("image/png"));

    let png = dir.path().join("real.png");
    let png_link = dir.path().join("shot.png");
    std::fs::write(&png, png_of(64, 32)).unwrap();
    std::os::unix::fs::symlink(&png, &png_link).unwrap();
    let resized = run(&[
        "resize",
        "--max-dim",
        "16",
        "--in-place",
        path_arg(&png_link),
    ]);
    assert_eq!(resized.code, 0, "{}", resized.stderr);
    assert!(std::fs::symlink_metadata(&png_link).unwrap().is_symlink());
    let image = image::open(&png).unwrap();
    assert_eq!((image.width(), image.height()), (16, 8));
}

#[test]
fn special_files_are_not_rewritten_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("reply.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for args in [
        vec!["validate", "--fix"],
        vec!["resize", "--max-dim", "8", "--in-place"],
    ] {
        let mut args = args.clone();
        args.push(path_arg(&fifo));
        let run = run(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("is a FIFO, not a regular file"),
            "{args:?}: {}",
            run.stderr
        );
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(
            std::os::unix::fs::FileTypeExt::is_fifo(&kind),
            "still a FIFO"
        );
    }
}

/// Owner, group and mode survive a rewrite (the owner only where the run
/// may set it: as root).
#[test]
fn in_place_writes_keep_mode_owner_and_group() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("reply.json");
    std::fs::write(&file, fixable_reply()).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let root = std::fs::metadata(&file).unwrap().uid() == 0;
    if root {
        std::os::unix::fs::chown(&file, Some(4321), Some(8765)).unwrap();
    }
    let fixed = run(&["validate", "--fix", path_arg(&file)]);
    assert_eq!(fixed.code, 0, "{}", fixed.stderr);
    let after = std::fs::metadata(&file).unwrap();
    assert_eq!(after.permissions().mode() & 0o777, 0o640);
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("image/png"));
    // (Not root: the owner cannot be set to another, so that part needs root.)
    if root {
        assert_eq!((after.uid(), after.gid()), (4321, 8765));
    }
}

/// A full disk leaves nothing half-written: no partial image (so a rerun is
/// not refused), no fixed file reported as fixed, no partial output.
#[test]
fn a_full_disk_leaves_nothing_half_written() {
    let dir = tempfile::tempdir().unwrap();
    let image = b64_of(&png_of_len(60 << 10));
    let reply = format!(
        r#"{{"text":"t","tool_output_images":[{{"image_url":"data:image/png;base64,{image}"}},{{"image_url":"data:image/png;base64,{image}"}}]}}"#
    );
    let input = dir.path().join("reply.json");
    std::fs::write(&input, &reply).unwrap();
    let shots = dir.path().join("shots");
    std::fs::create_dir(&shots).unwrap();
    let split = run_in_sh(
        &full_disk(40),
        &["split", path_arg(&input), "--images-dir", path_arg(&shots)],
    );
    assert_eq!(split.code, 2, "{}", split.stderr);
    assert!(split.stderr.contains("cannot write"), "{}", split.stderr);
    assert_eq!(names(&shots), Vec::<String>::new(), "no partial image");
    let again = run(&["split", path_arg(&input), "--images-dir", path_arg(&shots)]);
    assert_eq!(again.code, 0, "a rerun is not refused: {}", again.stderr);
    assert_eq!(names(&shots).len(), 2);

    // --fix: the repair is not reported as made, and the file is as it was.
    let padding = "p".repeat(100 << 10);
    let broken = fixable_reply().replace("\"text\":\"t\"", &format!("\"text\":\"{padding}\""));
    let file = dir.path().join("fix.json");
    std::fs::write(&file, &broken).unwrap();
    let fix = run_in_sh(&full_disk(40), &["validate", "--fix", path_arg(&file)]);
    assert_eq!(fix.code, 2, "{}{}", fix.stdout, fix.stderr);
    assert!(!fix.stdout.contains("fixed["), "{}", fix.stdout);
    assert!(
        fix.stdout.contains("error[media-type-mismatch]"),
        "{}",
        fix.stdout
    );
    assert!(!fix.stderr.contains("1 fixed"), "{}", fix.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);

    // resize -o: no output file at all.
    let big = dir.path().join("big.png");
    std::fs::write(&big, png_of(1200, 1200)).unwrap();
    let out = dir.path().join("out").join("small.png");
    std::fs::create_dir(out.parent().unwrap()).unwrap();
    let lines = format!("{}\n", reply);
    let jsonl = dir.path().join("r.jsonl");
    std::fs::write(&jsonl, lines).unwrap();
    let resize = run_in_sh(
        &full_disk(40),
        &[
            "resize",
            "--max-dim",
            "1000",
            path_arg(&jsonl),
            "-o",
            path_arg(&out),
        ],
    );
    assert_eq!(resize.code, 2, "{}", resize.stderr);
    assert_eq!(names(out.parent().unwrap()), Vec::<String>::new());
}

/// In an output folder a symlink is an entry to replace (with --force) or a
/// file that exists (without): nothing is written outside the folder.
#[test]
fn output_folders_never_write_through_links() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.txt");
    std::fs::write(&outside, "keep me").unwrap();
    let shots = dir.path().join("shots");
    std::fs::create_dir(&shots).unwrap();
    std::os::unix::fs::symlink(&outside, shots.join("001.png")).unwrap();
    let reply = format!(
        r#"{{"tool_output_images":[{{"image_url":"data:image/png;base64,{}"}}]}}"#,
        b64("tiny.png")
    );
    let input = dir.path().join("reply.json");
    std::fs::write(&input, reply).unwrap();
    let refused = run(&["split", path_arg(&input), "--images-dir", path_arg(&shots)]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    let forced = run(&[
        "split",
        path_arg(&input),
        "--images-dir",
        path_arg(&shots),
        "--force",
    ]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
    let written = std::fs::symlink_metadata(shots.join("001.png")).unwrap();
    assert!(written.is_file(), "the link was replaced by the image");
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
