//! The settings and selections a run is given, under attack: config files
//! that are huge, endless, missing behind a link, folders, FIFOs or broken;
//! `--at` pointers read strictly by RFC 6901; `--max-dim 0`. And what the
//! checks and `resize` make of inputs they half-handled: truncated BMP and
//! TIFF parts under `--deep`, image types `resize` does not take, duplicate
//! keys in rollouts and skipped documents, a failing single document's
//! output.

use std::io::Cursor;
use std::path::Path;
use std::process::Command;

use super::{run_bounded, Feed};
use crate::support::media::{b64_of, png_of};
use crate::{path_arg, run, run_with_stdin, temp_file, Run};

/// Runs partkit in `dir` (so that config discovery starts there).
fn run_in(dir: &Path, args: &[&str]) -> Run {
    let output = assert_cmd::Command::cargo_bin("partkit")
        .unwrap()
        .args(args)
        .current_dir(dir)
        .write_stdin(Vec::new())
        .output()
        .unwrap();
    Run {
        code: output.status.code().expect("an exit code"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// A clean tool reply with no images, for runs that only need a document.
const REPLY: &str = "{\"tool_output_images\":[]}\n";

// --- config files -------------------------------------------------------

#[test]
fn an_endless_config_is_refused_at_the_cap() {
    // Without a cap the reader grows until the memory limit kills it.
    let (run, _) = run_bounded(
        &["--config", "/dev/zero", "validate", "-"],
        256,
        Feed::Nothing,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.error_lines(),
        ["partkit: error: /dev/zero: larger than 1 MiB, the most a config file may be (a config file is a few hundred bytes)"],
        "{}",
        run.stderr
    );
    // A sparse file of 1 GB: never read past the cap either.
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.toml");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let (run, _) = run_bounded(
        &["--config", path_arg(&huge), "validate", "-"],
        256,
        Feed::Nothing,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("huge.toml: larger than 1 MiB"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_found_config_over_the_cap_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    // Valid TOML (comments), just too much of it.
    let mut text = String::from("[validate]\n");
    while text.len() <= 1 << 20 {
        text.push_str("# a comment line that takes up room in the file\n");
    }
    std::fs::write(dir.path().join("partkit.toml"), &text).unwrap();
    std::fs::write(dir.path().join("r.json"), REPLY).unwrap();
    let run = run_in(dir.path(), &["validate", "r.json"]);
    run.assert_error(
        2,
        &["partkit.toml: larger than 1 MiB, the most a config file may be"],
    );
    // Just under the cap is read.
    text.truncate(1 << 20);
    let cut = text.rfind('\n').unwrap() + 1;
    text.truncate(cut);
    std::fs::write(dir.path().join("partkit.toml"), &text).unwrap();
    let run = run_in(dir.path(), &["validate", "r.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// A fault in a found config: what it is, how to make it in a folder, and
/// what the one error line starts with.
type Fault = (&'static str, fn(&Path), &'static str);

/// What each fault in a found config says: the file, then what is wrong.
#[test]
fn a_found_config_that_cannot_be_read_is_exit_2_naming_it() {
    let cases: [Fault; 6] = [
        (
            "dangling link",
            |dir| std::os::unix::fs::symlink("gone.toml", dir.join("partkit.toml")).unwrap(),
            "partkit.toml: a link to gone.toml, which does not exist",
        ),
        (
            "folder",
            |dir| std::fs::create_dir(dir.join("partkit.toml")).unwrap(),
            "partkit.toml: a folder, not a config file",
        ),
        (
            "FIFO",
            |dir| {
                let made = Command::new("mkfifo")
                    .arg(dir.join(".partkit.toml"))
                    .status()
                    .unwrap();
                assert!(made.success());
            },
            ".partkit.toml: a FIFO, not a regular file: a config file must be one",
        ),
        (
            "pyproject not TOML",
            |dir| std::fs::write(dir.join("pyproject.toml"), "[project\nname = 'x'\n").unwrap(),
            "pyproject.toml:1: not TOML: ",
        ),
        (
            "not UTF-8",
            |dir| std::fs::write(dir.join("partkit.toml"), b"# caf\xe9\n").unwrap(),
            "partkit.toml:1: not UTF-8 text",
        ),
        (
            "link loop",
            |dir| std::os::unix::fs::symlink("partkit.toml", dir.join("partkit.toml")).unwrap(),
            "partkit.toml: cannot read config",
        ),
    ];
    for (what, make, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("r.json"), REPLY).unwrap();
        make(dir.path());
        for args in [&["validate", "r.json"][..], &["config"]] {
            let run = run_in(dir.path(), args);
            assert_eq!(
                run.code, 2,
                "{what}, {args:?}: {}{}",
                run.stdout, run.stderr
            );
            assert_eq!(run.stdout, "", "{what}, {args:?}");
            let errors = run.error_lines();
            assert_eq!(errors.len(), 1, "{what}: {}", run.stderr);
            assert!(
                errors[0].starts_with(&format!("partkit: error: {expected}")),
                "{what}: {}",
                errors[0]
            );
        }
    }
}

#[test]
fn a_named_config_that_is_a_folder_or_missing_is_exit_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("conf")).unwrap();
    let run = run_in(dir.path(), &["--config", "conf", "validate", "-"]);
    run.assert_error(2, &["conf: a folder, not a config file"]);
    let run = run_in(dir.path(), &["--config", "nope.toml", "validate", "-"]);
    run.assert_error(2, &["nope.toml: cannot read config: "]);
}

#[test]
fn a_duplicate_key_in_a_config_is_named_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("partkit.toml"),
        "[validate]\ndeep = true\n\ndeep = false\n",
    )
    .unwrap();
    run_in(dir.path(), &["config"])
        .assert_error(2, &["partkit.toml:4: not TOML: duplicate key \"deep\""]);
    std::fs::write(
        dir.path().join("partkit.toml"),
        "[resize]\nmax-dim = 10\n[resize]\n",
    )
    .unwrap();
    run_in(dir.path(), &["config"])
        .assert_error(2, &["partkit.toml:3: not TOML: duplicate key \"resize\""]);
}

#[test]
fn a_config_max_dim_of_0_is_refused_in_validate_too() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("partkit.toml"), "[validate]\nmax-dim = 0\n").unwrap();
    run_in(dir.path(), &["config"])
        .assert_error(2, &["partkit.toml:2: validate.max-dim: must be at least 1"]);
    std::fs::write(
        dir.path().join("partkit.toml"),
        "[[validate.overrides]]\npaths = [\"x\"]\nmax-dim = 0\n",
    )
    .unwrap();
    run_in(dir.path(), &["config"]).assert_error(
        2,
        &["partkit.toml:3: validate.overrides[0].max-dim: must be at least 1"],
    );
}

/// The config fixtures (the config fuzz target's seeds too) read as they
/// say: every key of `partkit.toml` with its line, `[tool.partkit]` of a
/// `pyproject.toml`, and a misspelt key refused at its line.
#[test]
fn the_config_fixtures_read_as_they_say() {
    let every = crate::fixture("config/partkit.toml");
    let shown = run(&["--config", path_arg(&every), "config"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let text = std::fs::read_to_string(&every).unwrap();
    for (index, line) in text.lines().enumerate() {
        if line.contains(" = ") && !line.starts_with('#') {
            let source = format!("partkit.toml:{}\n", index + 1);
            assert!(shown.stdout.contains(&source), "{line}: {}", shown.stdout);
        }
    }
    let pyproject = crate::fixture("config/pyproject.toml");
    let shown = run(&["--config", path_arg(&pyproject), "config"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(
        shown.stdout.contains("pyproject.toml:13\n"),
        "{}",
        shown.stdout
    );
    let misspelt = crate::fixture("config/misspelt.toml");
    run(&["--config", path_arg(&misspelt), "config"])
        .assert_error(2, &["misspelt.toml:3: validate.max-dimm: unknown key"]);
}

// --- --at pointers --------------------------------------------------------

/// A document whose `arr` holds a clean reply, then a broken one.
fn pointed_document() -> String {
    let broken = r#"{"tool_output_images":[{"image_url":"data:image/png;base64,AAAA"}]}"#;
    format!(
        r#"{{"arr":[{{"tool_output_images":[]}},{broken}],"a/b":{broken},"a~b":{broken},"":{broken}}}"#
    )
}

#[test]
fn array_indexes_in_pointers_are_digits_without_a_leading_zero() {
    let doc = pointed_document();
    let at = |pointer: &str| run_with_stdin(&["validate", "--at", pointer, "-"], doc.as_bytes());
    // The real index selects the broken reply.
    let selected = at("/arr/1");
    assert_eq!(selected.code, 1, "{}", selected.stdout);
    assert!(
        selected
            .stdout
            .contains("error[media-type-mismatch] /arr/1/tool_output_images/0/image_url"),
        "{}",
        selected.stdout
    );
    // What selects nothing says so, the same way for every spelling.
    let missing = at("/arr/9");
    let expected = |pointer: &str| missing.stdout.replace("/arr/9", pointer);
    assert!(
        missing
            .stdout
            .contains("error[at-missing] /arr/9: no such value"),
        "{}",
        missing.stdout
    );
    for pointer in [
        "/arr/01",
        "/arr/+1",
        "/arr/-",
        "/arr/1.0",
        "/arr/ 1",
        "/arr/1 ",
        "/arr/-1",
        "/arr/0x1",
        "/arr/1e0",
        "/arr/",
        "/arr/００",
    ] {
        let run = at(pointer);
        assert_eq!(
            (run.code, run.stdout.clone()),
            (missing.code, expected(pointer)),
            "{pointer}"
        );
    }
    // The same in every command that takes --at.
    for command in [
        &["inspect"][..],
        &["split"],
        &["convert", "--to", "gemini"],
        &["resize", "--max-dim", "8"],
    ] {
        let args = |pointer: &'static str| -> Vec<&str> {
            let mut args = command.to_vec();
            args.extend(["--at", pointer, "-"]);
            args
        };
        let missing = run_with_stdin(&args("/arr/9"), doc.as_bytes());
        for pointer in ["/arr/01", "/arr/+1", "/arr/-"] {
            let run = run_with_stdin(&args(pointer), doc.as_bytes());
            assert_eq!(
                (run.code, run.stderr.replace(pointer, "/arr/9")),
                (missing.code, missing.stderr.clone()),
                "{command:?} {pointer}"
            );
        }
    }
}

#[test]
fn pointer_escapes_are_read_as_rfc_6901_says() {
    let doc = pointed_document();
    let at = |pointer: &str| run_with_stdin(&["validate", "--at", pointer, "-"], doc.as_bytes());
    for (pointer, key) in [("/a~1b", "a/b"), ("/a~0b", "a~b"), ("/", "")] {
        let run = at(pointer);
        assert!(
            run.stdout.contains(&format!(
                "error[media-type-mismatch] {pointer}/tool_output_images/0/image_url"
            )),
            "{key:?}: {}",
            run.stdout
        );
    }
    // `~01` is `~1` (a tilde, then 1), never a slash: no such key here.
    let run = at("/a~01b");
    assert!(
        run.stdout.contains("error[at-missing] /a~01b"),
        "{}",
        run.stdout
    );
    for pointer in ["/a~2b", "/a~", "/a~b", "/~~"] {
        at(pointer).assert_error(
            2,
            &[&format!(
                "--at \"{pointer}\": '~' must be followed by 0 or 1"
            )],
        );
    }
}

// --- images ---------------------------------------------------------------

/// An image of `format` made by the `image` crate.
fn encoded(format: image::ImageFormat, width: u32, height: u32) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x * 7) as u8, (y * 5) as u8, ((x + y) * 3) as u8])
    })
    .write_to(&mut out, format)
    .expect("encode");
    out.into_inner()
}

/// An uncompressed RGB TIFF with its directory first and its pixels after it
/// (as many writers lay them out), so that cutting the file short cuts the
/// pixels and leaves the header whole.
fn tiff_directory_first(width: u32, height: u32) -> Vec<u8> {
    let entries: [(u16, u16, u32); 9] = [
        (256, 4, width),              // ImageWidth
        (257, 4, height),             // ImageLength
        (258, 3, 8),                  // BitsPerSample (8, for each sample)
        (259, 3, 1),                  // Compression: none
        (262, 3, 2),                  // PhotometricInterpretation: RGB
        (273, 4, 0),                  // StripOffsets: set below
        (277, 3, 3),                  // SamplesPerPixel
        (278, 4, height),             // RowsPerStrip: one strip
        (279, 4, width * height * 3), // StripByteCounts
    ];
    let directory_len = 2 + entries.len() * 12 + 4;
    let data_at = (8 + directory_len) as u32;
    let mut out = Vec::new();
    out.extend_from_slice(b"II*\0");
    out.extend_from_slice(&8u32.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    for (tag, kind, value) in entries {
        let value = if tag == 273 { data_at } else { value };
        out.extend_from_slice(&tag.to_le_bytes());
        out.extend_from_slice(&kind.to_le_bytes());
        // One value each: a single BitsPerSample stands for every sample
        // (libtiff reads it so too).
        out.extend_from_slice(&1u32.to_le_bytes());
        match kind {
            3 => {
                out.extend_from_slice(&(value as u16).to_le_bytes());
                out.extend_from_slice(&[0, 0]);
            }
            _ => out.extend_from_slice(&value.to_le_bytes()),
        }
    }
    out.extend_from_slice(&0u32.to_le_bytes());
    for i in 0..width * height * 3 {
        out.push((i % 251) as u8);
    }
    out
}

/// A canonical parts document holding one image.
fn parts_with(mime: &str, bytes: &[u8]) -> String {
    format!(
        r#"[{{"type":"image","mimeType":"{mime}","data":"{}"}}]"#,
        b64_of(bytes)
    )
}

#[test]
fn deep_checks_decode_bmp_and_tiff_as_resize_does() {
    let bmp = encoded(image::ImageFormat::Bmp, 40, 30);
    let tiff = tiff_directory_first(40, 30);
    for (mime, whole) in [("image/bmp", bmp), ("image/tiff", tiff)] {
        // Whole, they are clean at either depth.
        let doc = parts_with(mime, &whole);
        for deep in [&["validate", "--deep", "-"][..], &["validate", "-"]] {
            let run = run_with_stdin(deep, doc.as_bytes());
            assert_eq!(
                (run.code, run.stdout.as_str()),
                (0, ""),
                "{mime}: {}",
                run.stderr
            );
        }
        // Cut short in their pixels: the header still reads, the pixels do not.
        let cut = &whole[..whole.len() * 2 / 3];
        let doc = parts_with(mime, cut);
        let header = run_with_stdin(&["validate", "-"], doc.as_bytes());
        assert_eq!((header.code, header.stdout.as_str()), (0, ""), "{mime}");
        let deep = run_with_stdin(&["validate", "--deep", "-"], doc.as_bytes());
        assert_eq!(deep.code, 1, "{mime}: {}{}", deep.stdout, deep.stderr);
        assert!(
            deep.stdout
                .starts_with("<stdin>:1: error[image-truncated] /0/data: image does not decode: "),
            "{mime}: {}",
            deep.stdout
        );
        let resized = run_with_stdin(&["resize", "--max-dim", "8", "-"], doc.as_bytes());
        assert_eq!(resized.code, 1, "{mime}: {}", resized.stderr);
        assert!(
            resized.stderr.contains("image does not decode"),
            "{mime}: {}",
            resized.stderr
        );
        // Dimensions come from their headers: a cap on them holds.
        let doc = parts_with(mime, &whole);
        let capped = run_with_stdin(&["validate", "--max-dim", "20", "-"], doc.as_bytes());
        assert!(
            capped.stdout.contains("error[limit-dim] /0/data:"),
            "{mime}: {}",
            capped.stdout
        );
    }
}

#[test]
fn resize_names_an_image_type_it_does_not_take() {
    let mut ico = vec![0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0];
    ico.extend_from_slice(&[0x68, 4, 0, 0, 22, 0, 0, 0]);
    ico.resize(200, 7);
    let (_dir, file) = temp_file("x.ico", &ico);
    let run = run(&["resize", "--max-dim", "8", path_arg(&file)]);
    run.assert_error(
        1,
        &[
            "x.ico: image/vnd.microsoft.icon is not an image type partkit can resize (it takes PNG, JPEG, GIF, WebP, BMP and TIFF images, and JSON documents)",
        ],
    );
    assert!(!run.stderr.contains("JSON:"), "{}", run.stderr);
    // From stdin alike.
    let run = run_with_stdin(&["resize", "--max-dim", "8"], &ico);
    run.assert_error(
        1,
        &["<stdin>: image/vnd.microsoft.icon is not an image type partkit can resize"],
    );
    // Text that is not JSON is still invalid JSON.
    let run = run_with_stdin(&["resize", "--max-dim", "8"], b"hello");
    run.assert_error(1, &["invalid JSON"]);
}

#[test]
fn validate_refuses_max_dim_0_as_resize_does() {
    let resize = run_with_stdin(&["resize", "--max-dim", "0"], REPLY.as_bytes());
    let validate = run_with_stdin(&["validate", "--max-dim", "0"], REPLY.as_bytes());
    resize.assert_error(
        2,
        &["invalid value '0' for '--max-dim <PX>': 0 is not in 1..="],
    );
    validate.assert_error(
        2,
        &["invalid value '0' for '--max-dim <PX>': 0 is not in 1..="],
    );
}

// --- duplicate keys -------------------------------------------------------

#[test]
fn duplicate_keys_are_reported_in_rollouts() {
    let line = concat!(
        r#"{"responses_create_params":{"input":[{"role":"user","content":"hi","content":"hello"}],"model":"m"},"#,
        r#""response":{"id":"r","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a","text":"b"}]}]},"#,
        r#""reward":1.0,"reward":0.0}"#,
        "\n"
    );
    for args in [
        &["validate", "--format", "json", "-"][..],
        &["validate", "--format", "json", "--kind", "rollout", "-"],
    ] {
        let run = run_with_stdin(args, line.as_bytes());
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        let found: Vec<(String, String)> = run
            .json_lines()
            .iter()
            .filter(|f| f["rule"] == "duplicate-key")
            .map(|f| {
                (
                    f["pointer"].as_str().unwrap().to_string(),
                    f["message"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let pointers: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/responses_create_params/input/0/content",
                "/response/output/0/content/0/text",
                "/reward"
            ],
            "{args:?}: {}",
            run.stdout
        );
        assert!(
            found[2].1.contains("key \"reward\" is written 2 times"),
            "{found:?}"
        );
    }
}

#[test]
fn duplicate_keys_are_reported_in_documents_validate_skips() {
    let doc = "{\"name\":\"a\",\"name\":\"b\",\"nested\":[{\"k\":1,\"k\":2}]}\n";
    let run = run_with_stdin(&["validate", "-"], doc.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        concat!(
            "<stdin>:1: warning[duplicate-key] /nested/0/k: key \"k\" is written 2 times in this object; every reader takes the last value and ignores the others\n",
            "<stdin>:1: warning[duplicate-key] /name: key \"name\" is written 2 times in this object; every reader takes the last value and ignores the others\n",
        )
    );
    assert!(run.stderr.contains("1 document skipped"), "{}", run.stderr);
    let strict = run_with_stdin(&["validate", "--deny-warnings", "-"], doc.as_bytes());
    assert_eq!(strict.code, 1, "{}", strict.stdout);
    // A value at an --at pointer alike.
    let wrapped = format!("{{\"x\":{}}}", doc.trim_end());
    let run = run_with_stdin(&["validate", "--at", "/x", "-"], wrapped.as_bytes());
    assert!(
        run.stdout
            .contains("<stdin>:1: warning[duplicate-key] /x/name: key \"name\" is written 2 times"),
        "{}",
        run.stdout
    );
    // One without duplicates is skipped quietly, as before.
    let clean = run_with_stdin(&["validate", "-"], b"{\"name\":\"a\"}\n");
    assert_eq!(
        (clean.code, clean.stdout.as_str()),
        (0, ""),
        "{}",
        clean.stderr
    );
}

// --- resize's output of one document ---------------------------------------

#[test]
fn a_single_document_that_fails_prints_nothing() {
    let broken = b64_of(&png_of(64, 64)[..60]);
    let doc = format!(
        "\n\n  \n{{\"tool_output_images\":[{{\"image_url\":\"data:image/png;base64,{broken}\"}}]}}\n"
    );
    // On one line, and over several.
    for text in [doc.clone(), doc.replace("[{", "[\n  {")] {
        let run = run_with_stdin(&["resize", "--max-dim", "8"], text.as_bytes());
        assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{}", run.stderr);
        assert!(
            run.stderr
                .contains("/tool_output_images/0: image does not decode"),
            "{}",
            run.stderr
        );
    }
    // Under --on-error null it becomes null, after the blank lines.
    let run = run_with_stdin(
        &["resize", "--max-dim", "8", "--on-error", "null"],
        doc.as_bytes(),
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "\n\n  \nnull\n"),
        "{}",
        run.stderr
    ); // Its summary claims nothing of an image that failed.
    assert!(!run.stderr.contains("within every cap"), "{}", run.stderr);
}

#[test]
fn a_document_comes_back_with_its_own_ending() {
    let small = b64_of(&png_of(4, 4));
    let unchanged = format!(
        "\n\n{{\"tool_output_images\":[{{\"image_url\":\"data:image/png;base64,{small}\"}}]}}"
    );
    for text in [
        unchanged.clone(),
        format!("{unchanged}\n"),
        format!("{unchanged}  \n\n"),
        format!("{unchanged}\r\n"),
        unchanged.replace("[{", "[\n  {"),
    ] {
        let run = run_with_stdin(&["resize", "--max-dim", "8"], text.as_bytes());
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, text, "{text:?}");
    }
    // Resized, it still ends as it did.
    let big = b64_of(&png_of(64, 64));
    let doc =
        format!("{{\"tool_output_images\":[{{\"image_url\":\"data:image/png;base64,{big}\"}}]}}");
    let resized = run_with_stdin(&["resize", "--max-dim", "8"], doc.as_bytes());
    assert_eq!(resized.code, 0, "{}", resized.stderr);
    assert!(resized.stdout.ends_with("\"}]}"), "{:?}", resized.stdout);
    assert_ne!(resized.stdout, doc);
    // A large file (read from where it lies) alike.
    let padding = " ".repeat(2 << 20);
    let large = format!("{{\"pad\":\"{padding}\",\"tool_output_images\":[{{\"image_url\":\"data:image/png;base64,{small}\"}}]}}");
    let (_dir, file) = temp_file("large.json", large.as_bytes());
    let from_file = run(&["resize", "--max-dim", "8", path_arg(&file)]);
    assert_eq!(from_file.code, 0, "{}", from_file.stderr);
    assert!(
        from_file.stdout == large,
        "the large file comes back as it was"
    );
}
