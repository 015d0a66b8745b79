//! The config file (docs/configuration.md): found from the working folder up (nested
//! folders, `.partkit.toml`, `pyproject.toml`), `--config` and `--no-config`,
//! the command line over the file, per-path overrides, include and exclude
//! for walks and named files, bad keys and values (exit 2 naming file, key and
//! line), `partkit config` and `validate --show-config`, and the resize and
//! convert defaults.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::support::media::{b64, png_of};
use super::Run;

/// A project folder of files, and runs of partkit in its folders.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        Project {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> &Project {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
        self
    }

    /// Runs partkit with the working folder `folder` (relative to the project).
    fn run_in(&self, folder: &str, args: &[&str]) -> Run {
        self.run_with(folder, args, b"")
    }

    fn run_with(&self, folder: &str, args: &[&str], stdin: &[u8]) -> Run {
        let cwd = self.path(folder);
        std::fs::create_dir_all(&cwd).unwrap();
        let output = assert_cmd::Command::cargo_bin("partkit")
            .unwrap()
            .args(args)
            .current_dir(&cwd)
            .write_stdin(stdin.to_vec())
            .output()
            .unwrap();
        Run {
            code: output.status.code().expect("an exit code"),
            stdout: String::from_utf8(output.stdout).unwrap(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    }
}

/// A tool reply with two real PNG images and a key written twice (a
/// duplicate-key warning).
fn reply_with_two_images() -> String {
    let url = format!(
        "data:image/png;base64,{}",
        super::support::media::b64_of(&png_of(4, 3))
    );
    format!(
        r#"{{"tool_output_images": [{{"image_url": "{url}"}}, {{"image_url": "{url}"}}], "note": 1, "note": 2}}"#
    )
}

const TWO_IMAGES: &str = "error[limit-images]: 2 images, more than the 1 allowed";
const REPEATED: &str = "warning[duplicate-key] /note: key \"note\" is written 2 times in this object; every reader takes the last value and ignores the others";

/// The lines of stdout, sorted findings as they print.
fn lines(run: &Run) -> Vec<&str> {
    run.stdout.lines().collect()
}

#[test]
fn the_nearest_config_from_the_working_folder_up_wins() {
    let project = Project::new();
    project
        .write("fixtures/two.json", reply_with_two_images())
        .write("partkit.toml", "[validate]\nmax-images = 1\n");
    // Found from two folders below.
    let nested = project.run_in("sub/deeper", &["validate", "../../fixtures"]);
    assert_eq!(
        lines(&nested),
        [
            format!("../../fixtures/two.json:1: {TWO_IMAGES}"),
            format!("../../fixtures/two.json:1: {REPEATED}")
        ]
    );
    assert_eq!(nested.code, 1);
    // --no-config: the limit is gone.
    let bare = project.run_in("sub/deeper", &["--no-config", "validate", "../../fixtures"]);
    assert_eq!(
        lines(&bare),
        [format!("../../fixtures/two.json:1: {REPEATED}")]
    );
    // A nearer .partkit.toml wins over the one above it, and is not merged with it.
    project.write(
        "sub/.partkit.toml",
        "[validate]\nignore = [\"duplicate-key\"]\n",
    );
    let nearer = project.run_in("sub/deeper", &["validate", "../../fixtures"]);
    assert_eq!(
        (nearer.code, nearer.stdout.as_str()),
        (0, ""),
        "{}",
        nearer.stderr
    );
    // In one folder, partkit.toml comes before .partkit.toml.
    project.write(
        "sub/partkit.toml",
        "[validate]\nmax-images = 1\nignore = [\"duplicate-key\"]\n",
    );
    let first = project.run_in("sub/deeper", &["validate", "../../fixtures"]);
    assert_eq!(
        lines(&first),
        [format!("../../fixtures/two.json:1: {TWO_IMAGES}")]
    );
    // --config names one anywhere; its globs are relative to its own folder.
    project.write("ci/strict.toml", "[validate]\ndeny-warnings = true\n");
    let named = project.run_in(
        "sub",
        &["--config", "../ci/strict.toml", "validate", "../fixtures"],
    );
    assert_eq!(
        lines(&named),
        [format!("../fixtures/two.json:1: {REPEATED}")]
    );
    assert_eq!(named.code, 1, "deny-warnings from the named file");
}

#[test]
fn pyproject_tool_partkit_is_read_and_others_passed_over() {
    let project = Project::new();
    project
        .write("fixtures/two.json", reply_with_two_images())
        .write("partkit.toml", "[validate]\nignore = [\"duplicate-key\"]\n")
        // A pyproject.toml without [tool.partkit] is passed over (one that
        // is not TOML is not: hostile::settings).
        .write("a/pyproject.toml", "[project]\nname = 'other'\n")
        .write(
            "a/b/pyproject.toml",
            "[project]\nname = \"partkit-user\"\n[tool.other]\nx = 1\n",
        );
    let passed_over = project.run_in("a/b", &["validate", "../../fixtures"]);
    assert_eq!((passed_over.code, passed_over.stdout.as_str()), (0, ""));
    // [tool.partkit] in the nearer pyproject.toml wins.
    project.write(
        "a/b/pyproject.toml",
        "[project]\nname = \"x\"\n\n[tool.partkit.validate]\nmax-images = 1\n",
    );
    let read = project.run_in("a/b", &["validate", "../../fixtures"]);
    assert_eq!(
        lines(&read),
        [
            format!("../../fixtures/two.json:1: {TWO_IMAGES}"),
            format!("../../fixtures/two.json:1: {REPEATED}")
        ]
    );
    let shown = project.run_in("a/b", &["config"]);
    assert!(shown
        .stdout
        .starts_with("# config file: pyproject.toml (the nearest to the working folder)\n"));
    assert!(
        squeeze(&shown.stdout).contains("\nmax-images = 1 # pyproject.toml:5\n"),
        "{}",
        shown.stdout
    );
    // Its errors name the key as the file writes it.
    project.write(
        "a/b/pyproject.toml",
        "[tool.partkit.validate]\nprofile = 3\n",
    );
    project.run_in("a/b", &["validate", "."]).assert_error(
        2,
        &["pyproject.toml:2: tool.partkit.validate.profile: invalid type: integer `3`, expected a string"],
    );
    // Named with --config, a pyproject.toml must hold the table.
    project.write("a/b/pyproject.toml", "[project]\nname = \"x\"\n");
    project
        .run_in("a/b", &["--config", "pyproject.toml", "validate", "."])
        .assert_error(
            2,
            &["--config pyproject.toml: the file has no [tool.partkit] table"],
        );
}

#[test]
fn the_command_line_wins_key_by_key_and_ignore_lists_add_up() {
    let project = Project::new();
    project.write("two.json", reply_with_two_images()).write(
        "partkit.toml",
        "[validate]\nmax-images = 1\ndeny-warnings = true\nignore = [\"limit-images\"]\n",
    );
    // ignore from the file hides the limit; deny-warnings fails the warning.
    let filed = project.run_in(".", &["validate", "two.json"]);
    assert_eq!(
        (filed.code, lines(&filed)),
        (1, vec![format!("two.json:1: {REPEATED}").as_str()])
    );
    // --no-deny-warnings and --exit-zero both overrule deny-warnings.
    assert_eq!(
        project
            .run_in(".", &["validate", "--no-deny-warnings", "two.json"])
            .code,
        0
    );
    assert_eq!(
        project
            .run_in(".", &["validate", "--exit-zero", "two.json"])
            .code,
        0
    );
    // The command line's --ignore adds to the file's.
    let both = project.run_in(".", &["validate", "--ignore", "duplicate-key", "two.json"]);
    assert_eq!((both.code, both.stdout.as_str()), (0, ""));
    // A key given on the command line takes its value from there.
    project.write("partkit.toml", "[validate]\nmax-images = 1\n");
    let limited = project.run_in(".", &["validate", "--ignore", "duplicate-key", "two.json"]);
    assert_eq!(lines(&limited), [format!("two.json:1: {TWO_IMAGES}")]);
    let wider = project.run_in(
        ".",
        &[
            "validate",
            "--ignore",
            "duplicate-key",
            "--max-images",
            "5",
            "two.json",
        ],
    );
    assert_eq!((wider.code, wider.stdout.as_str()), (0, ""));
    let shown = project.run_in(".", &["validate", "--max-images", "5", "--show-config"]);
    assert!(
        squeeze(&shown.stdout).contains("\nmax-images = 5 # command line\n"),
        "{}",
        shown.stdout
    );
}

#[test]
fn overrides_include_and_exclude_pick_settings_and_files_by_path() {
    let project = Project::new();
    let reply = reply_with_two_images();
    project
        .write("fixtures/anthropic/deep/two.json", &reply)
        .write("fixtures/openai/two.json", &reply)
        .write("fixtures/broken/bad.json", "{")
        .write("fixtures/openai/two.snap.json", "{")
        .write("notes/readme.json", "{")
        .write(
            "partkit.toml",
            "[validate]\n\
             ignore = [\"duplicate-key\"]\n\
             include = [\"fixtures/**\"]\n\
             exclude = [\"fixtures/broken\", \"*.snap.json\"]\n\
             \n\
             [[validate.overrides]]\n\
             paths = [\"fixtures/anthropic/**\"]\n\
             max-images = 1\n\
             \n\
             [[validate.overrides]]\n\
             paths = [\"deep\"]\n\
             ignore = [\"limit-images\"]\n\
             max-dim = 2\n",
        );
    // The walk: excluded folders and names are not entered or taken, and
    // notes/ is outside include. Both overrides match the anthropic file; the
    // later one adds its ignore and its own limit.
    let walked = project.run_in(".", &["validate", "."]);
    assert_eq!(
        lines(&walked),
        [
            "./fixtures/anthropic/deep/two.json:1: error[limit-dim] /tool_output_images/0/image_url: 4x3 px, over 2 px on its longest side",
            "./fixtures/anthropic/deep/two.json:1: error[limit-dim] /tool_output_images/1/image_url: 4x3 px, over 2 px on its longest side",
        ],
        "{}",
        walked.stderr
    );
    assert!(
        walked.stderr.contains("checked 2 documents, 4 images"),
        "{}",
        walked.stderr
    );
    // Named files (a pre-commit hook's list) follow include and exclude too;
    // the summary counts what was left out.
    let named = project.run_in(
        ".",
        &[
            "validate",
            "fixtures/openai/two.json",
            "fixtures/broken/bad.json",
            "notes/readme.json",
        ],
    );
    assert_eq!((named.code, named.stdout.as_str()), (0, ""));
    assert!(
        named.stderr.contains("checked 1 document, 2 images in ")
            && named
                .stderr
                .contains("; 2 paths left out by the include/exclude of partkit.toml"),
        "{}",
        named.stderr
    );
    let none = project.run_in(".", &["validate", "fixtures/broken/bad.json"]);
    assert_eq!((none.code, none.stdout.as_str()), (0, ""));
    assert!(none.stderr.contains(
        "checked nothing: the config's include/exclude leave out every path named (partkit.toml)"
    ));
    // From a folder below, the globs still start at the config's folder.
    let below = project.run_in(
        "fixtures/openai",
        &["validate", "two.json", "two.snap.json"],
    );
    assert_eq!(
        (below.code, below.stdout.as_str()),
        (0, ""),
        "{}",
        below.stderr
    );
    assert!(below.stderr.contains("1 path left out"), "{}", below.stderr);
    // The command line's value wins over an override's too.
    let overruled = project.run_in(".", &["validate", "--max-dim", "10", "fixtures"]);
    assert_eq!((overruled.code, overruled.stdout.as_str()), (0, ""));
    // --no-config: every JSON file, every finding.
    let bare = project.run_in(".", &["--no-config", "validate", "."]);
    assert_eq!(
        bare.stdout.matches("error[invalid-json]").count(),
        3,
        "{}",
        bare.stdout
    );
}

#[test]
fn unknown_keys_and_bad_values_are_exit_2_naming_file_key_and_line() {
    let cases: &[(&str, &str)] = &[
        (
            "[validate]\nprofle = \"anthropic\"\n",
            "partkit.toml:2: validate.profle: unknown key; expected one of paths, profile, target, ignore, deep, max-bytes, max-dim, max-images, deny-warnings, include, exclude, overrides",
        ),
        ("[valdate]\n", "partkit.toml:1: valdate: unknown key; expected one of validate, resize, convert"),
        (
            "[validate]\n\nprofile = \"antropic\"\n",
            "partkit.toml:3: validate.profile: invalid value \"antropic\"; expected one of default, openai, anthropic, gemini, bedrock",
        ),
        (
            "[validate]\nmax-bytes = \"5XB\"\n",
            "partkit.toml:2: validate.max-bytes: invalid size \"5XB\": unknown unit \"XB\" (use B, kB, MB, GB, KiB, MiB or GiB)",
        ),
        ("[validate]\ndeep = \"yes\"\n", "partkit.toml:2: validate.deep: invalid type: string \"yes\", expected a boolean"),
        ("[validate]\ntarget = \"gpt\"\n", "partkit.toml:2: validate.target: invalid value \"gpt\"; expected one of canonical, openai-chat"),
        (
            "[validate]\nignore = [\"text-empty\", \"no-such-rule\"]\n",
            "partkit.toml:2: validate.ignore: no such rule \"no-such-rule\" (see partkit validate --list-rules)",
        ),
        ("[validate]\nexclude = [\"a[b\"]\n", "partkit.toml:2: validate.exclude: bad glob \"a[b\": unclosed character class"),
        ("[validate]\npaths = [\"x\"]\n", "partkit.toml:2: validate.paths: only a [[validate.overrides]] entry takes paths"),
        (
            "[[validate.overrides]]\npaths = [\"a\"]\nbogus = 1\n",
            "partkit.toml:3: validate.overrides[0].bogus: unknown key",
        ),
        (
            "[[validate.overrides]]\npaths = [\"a\"]\n[[validate.overrides]]\nprofile = \"openai\"\n",
            "validate.overrides[1]: an override needs paths",
        ),
        (
            "[[validate.overrides]]\npaths = [\"a\"]\n\ninclude = [\"b\"]\n",
            "partkit.toml:4: validate.overrides[0].include: applies to the whole run; set it in [validate]",
        ),
        ("[resize]\nmax-dim = 0\n", "partkit.toml:2: resize.max-dim: must be at least 1"),
        ("[resize]\nformat = \"json\"\n", "partkit.toml:2: resize.format: invalid value \"json\"; expected one of keep, png, jpeg, webp"),
        ("[convert]\nto = \"gemini\"\n", "partkit.toml:2: convert.to: unknown key"),
        ("[convert]\nstrict = 1\n", "partkit.toml:2: convert.strict: invalid type: integer `1`, expected a boolean"),
        ("x = = 1\n", "partkit.toml:1: not TOML: "),
    ];
    let project = Project::new();
    for (text, expected) in cases {
        project.write("partkit.toml", text);
        let run = project.run_in("sub", &["config"]);
        // Shown as found: from a folder below, with its full path.
        let shown = project.path("partkit.toml").display().to_string();
        let expected = expected.replacen("partkit.toml", &shown, 1);
        run.assert_error(2, &[&expected]);
    }
    // Every command with settings reads it; the others and --list-rules do not.
    project.write("partkit.toml", "[validate]\nprofle = 1\n");
    for args in [
        &["validate", "."][..],
        &["resize", "x.png"],
        &["convert", "--to", "gemini"],
    ] {
        project
            .run_in(".", args)
            .assert_error(2, &["partkit.toml:2: validate.profle: unknown key"]);
    }
    assert_eq!(project.run_in(".", &["validate", "--list-rules"]).code, 0);
    let encoded = project.run_with(".", &["encode", "-", "--mime-type", "text/plain"], b"hello");
    assert_eq!(encoded.code, 0, "{}", encoded.stderr);
    assert_eq!(
        project.run_in(".", &["--no-config", "validate", "."]).code,
        0
    );
}

#[test]
fn config_prints_every_setting_and_its_source() {
    let project = Project::new();
    project.write(
        "partkit.toml",
        "# fixtures\n\
         [validate]\n\
         profile = \"anthropic\"\n\
         max-bytes = \"4MB\"\n\
         \n\
         [[validate.overrides]]\n\
         paths = [\"fixtures/gemini/**\"]\n\
         profile = \"gemini\"\n\
         \n\
         [resize]\n\
         format = \"jpeg\"\n\
         \n\
         [convert]\n\
         tool-media = \"lift\"\n",
    );
    let run = project.run_in(".", &["config"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "# config file: partkit.toml (the nearest to the working folder)\n\
         \n\
         [validate]\n\
         profile = \"anthropic\"            # partkit.toml:3\n\
         # target: not set                # default\n\
         ignore = []                      # default\n\
         deep = false                     # default\n\
         max-bytes = 4000000              # partkit.toml:4\n\
         # max-dim: not set               # default\n\
         # max-images: not set            # default\n\
         deny-warnings = false            # default\n\
         include = [\"*.json\", \"*.jsonl\"]  # default\n\
         exclude = []                     # default\n\
         \n\
         [[validate.overrides]]\n\
         paths = [\"fixtures/gemini/**\"]  # partkit.toml:7\n\
         profile = \"gemini\"              # partkit.toml:8\n\
         \n\
         [resize]\n\
         # profile: not set             # default\n\
         # max-bytes: not set           # default\n\
         # max-encoded-bytes: not set   # default\n\
         # max-dim: not set             # default\n\
         # max-pixels: not set          # default\n\
         max-decode-pixels = 100000000  # default\n\
         format = \"jpeg\"                # partkit.toml:11\n\
         \n\
         [convert]\n\
         from = \"auto\"                   # default\n\
         # on-unsupported: not set       # default\n\
         tool-media = \"lift\"             # partkit.toml:14\n\
         on-invalid-arguments = \"error\"  # default\n\
         strict = false                  # default\n"
    );
    // The output is itself a config file that reads back the same.
    project.write("copy/partkit.toml", &run.stdout);
    let copy = project.run_in("copy", &["config"]);
    assert_eq!(copy.code, 0, "{}", copy.stderr);
    let values = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| !line.starts_with('#'))
            .map(|line| line.split("  #").next().unwrap().trim_end().to_string())
            .collect()
    };
    assert_eq!(values(&copy.stdout), values(&run.stdout));
    // validate --show-config adds the command line; the override's key it
    // overrules is marked.
    let shown = project.run_in(
        ".",
        &["validate", "--profile", "openai", "--deep", "--show-config"],
    );
    let shown = squeeze(&shown.stdout);
    assert!(
        shown.contains("\nprofile = \"openai\" # command line\n"),
        "{shown}"
    );
    assert!(shown.contains("\ndeep = true # command line\n"), "{shown}");
    assert!(
        shown.contains("\nprofile = \"gemini\" # partkit.toml:8, overruled by the command line\n")
    );
    assert!(!shown.contains("[resize]"));
    // Without a file, where it looked.
    let nothing = Project::new();
    let run = nothing.run_in(".", &["config"]);
    assert!(run.stdout.starts_with("# no config file: no partkit.toml, .partkit.toml or pyproject.toml with [tool.partkit] in "));
    let run = project.run_in(".", &["--no-config", "config"]);
    assert!(run.stdout.starts_with("# no config file (--no-config)\n"));
    assert!(run.stdout.contains("profile: not set"));
}

#[test]
fn convert_and_resize_take_their_defaults_from_the_config() {
    let project = Project::new();
    project.write(
        "partkit.toml",
        "[convert]\nstrict = true\ntool-media = \"lift\"\n\n[resize]\nmax-dim = 10\n",
    );
    // strict: a dropped field fails the run; --no-strict drops it with a warning.
    let request = json!({"model": "m", "max_tokens": 10, "temperature": 0.2,
                         "messages": [{"role": "user", "content": "hi"}]})
    .to_string();
    let args = ["convert", "--from", "openai-chat", "--to", "anthropic"];
    project
        .run_with(".", &args, request.as_bytes())
        .assert_error(1, &["--strict: anthropic cannot carry temperature"]);
    let loose = project.run_with(
        ".",
        &[&args[..], &["--no-strict"]].concat(),
        request.as_bytes(),
    );
    assert_eq!(loose.code, 0, "{}", loose.stderr);
    // tool-media: lifted into a user message unless the command line says native.
    let transcript = json!([
        {"role": "assistant", "content": [
            {"type": "tool_call", "id": "call_1", "name": "shot", "arguments": {}}]},
        {"role": "tool", "content": [
            {"type": "tool_result", "call_id": "call_1", "name": "shot", "content": [
                {"type": "image", "mimeType": "image/png", "data": b64("tiny.png")}]}]}
    ])
    .to_string();
    let args = [
        "convert",
        "--from",
        "canonical",
        "--to",
        "anthropic",
        "--compact",
    ];
    let lifted = project.run_with(".", &args, transcript.as_bytes());
    assert_eq!(lifted.code, 0, "{}", lifted.stderr);
    assert!(
        lifted.stdout.contains("Output of tool shot (call_1):"),
        "{}",
        lifted.stdout
    );
    let native = project.run_with(
        ".",
        &[&args[..], &["--tool-media", "native"]].concat(),
        transcript.as_bytes(),
    );
    assert!(
        !native.stdout.contains("Output of tool"),
        "{}",
        native.stdout
    );
    // resize: max-dim from the file, the command line over it.
    project.write("big.png", png_of(40, 30));
    let resized = project.run_in(".", &["resize", "big.png", "-o", "small.png"]);
    assert_eq!(resized.code, 0, "{}", resized.stderr);
    assert_eq!(png_size(&project.path("small.png")), (10, 8));
    let wider = project.run_in(
        ".",
        &["resize", "big.png", "-o", "wide.png", "--max-dim", "20"],
    );
    assert_eq!(wider.code, 0, "{}", wider.stderr);
    assert_eq!(png_size(&project.path("wide.png")), (20, 15));
}

/// `text` with each run of spaces as one (the columns of `config` vary).
fn squeeze(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    out
}

/// The width and height in a PNG's header.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn the_configuration_page_example_config_reads() {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/configuration.md"),
    )
    .unwrap();
    let start = page.find("```toml\n").expect("an example") + "```toml\n".len();
    let example = &page[start..start + page[start..].find("```").unwrap()];
    let project = Project::new();
    project.write("partkit.toml", example);
    let run = project.run_in(".", &["config"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let shown = squeeze(&run.stdout);
    for line in [
        "\nprofile = \"anthropic\" # partkit.toml:3\n",
        "\nmax-bytes = 4000000 # partkit.toml:6\n",
        "\nprofile = \"gemini\" # partkit.toml:12\n",
        "\ntool-media = \"lift\" # partkit.toml:26\n",
    ] {
        assert!(shown.contains(line), "{line:?} not in {shown}");
    }
}
