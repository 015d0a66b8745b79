//! `validate --format github` (workflow commands CI turns into annotations)
//! and `--exit-zero` (docs/ci.md).

use super::support::run;

/// Two files in one folder: an error and a warning in `a.json`, a warning
/// whose key (in the pointer and the message) and file name hold every
/// character the workflow-command syntax reserves.
fn two_files() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("a.json");
    std::fs::write(
        &a,
        r#"{"tool_output_images": [{"image_url": "data:image/png;base64,AAAA"}], "note": 1, "note": 2}"#,
    )
    .unwrap();
    let odd = dir.path().join("odd,name:100%.json");
    std::fs::write(
        &odd,
        r#"{"tool_output_images": [], "100%, sure: \nyes": 1, "100%, sure: \nyes": 2}"#,
    )
    .unwrap();
    let a = a.to_str().unwrap().to_string();
    let odd = odd.to_str().unwrap().to_string();
    (dir, a, odd)
}

const REPEATED: &str =
    "is written 2 times in this object; every reader takes the last value and ignores the others";

#[test]
fn github_format_is_one_escaped_workflow_command_per_finding() {
    let (dir, a, odd) = two_files();
    let run = run(&["validate", "--format", "github", &a, &odd]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let odd_escaped = format!("{}/odd%2Cname%3A100%25.json", dir.path().to_str().unwrap());
    assert_eq!(
        run.stdout,
        format!(
            "::error file={a},line=1,title=media-type-mismatch::/tool_output_images/0/image_url: content is not image/png (no known type matches its first bytes)\n\
             ::warning file={a},line=1,title=duplicate-key::/note: key \"note\" {REPEATED}\n\
             ::warning file={odd_escaped},line=1,title=duplicate-key::/100%25, sure: \\nyes: key \"100%25, sure: \\nyes\" {REPEATED}\n"
        )
    );
    // The summary stays on stderr, as in every format.
    assert!(run.stderr.contains("1 error, 2 warnings"), "{}", run.stderr);
    // A line a runner reads as one command: no raw line break inside.
    assert_eq!(run.stdout.lines().count(), 3);
}

#[test]
fn exit_zero_reports_and_succeeds_but_not_for_an_unreadable_input() {
    let (_dir, a, odd) = two_files();
    let failing = run(&["validate", &a, &odd]);
    assert_eq!(failing.code, 1);
    let reported = run(&["validate", "--exit-zero", &a, &odd]);
    assert_eq!((reported.code, &reported.stdout), (0, &failing.stdout));
    assert!(reported.stderr.contains("1 error, 2 warnings"));
    let warned = run(&["validate", "--exit-zero", "--format", "github", &odd]);
    assert_eq!(warned.code, 0);
    assert!(warned.stdout.starts_with("::warning "), "{}", warned.stdout);
    // A run that could not happen is not a finding: still exit 2.
    let missing = run(&[
        "validate",
        "--exit-zero",
        "/nonexistent/partkit-input.json",
        &a,
    ]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    // --exit-zero and --deny-warnings ask opposite things.
    let both = run(&["validate", "--exit-zero", "--deny-warnings", &a]);
    assert_eq!(both.code, 2, "{}", both.stderr);
}

#[test]
fn sarif_is_one_log_that_the_schema_s_types_read() {
    let (_dir, a, odd) = two_files();
    let run = run(&["validate", "--format", "sarif", &a, &odd]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    // The official schema's types (serde-sarif): the log must read as them.
    let log: serde_sarif::sarif::Sarif =
        serde_json::from_str(&run.stdout).expect("the output is a SARIF 2.1.0 log");
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["version"], "2.1.0");
    // The check can fail: a level the schema does not have is refused.
    let mut broken = value.clone();
    broken["runs"][0]["results"][0]["level"] = serde_json::json!("fatal");
    assert!(serde_json::from_value::<serde_sarif::sarif::Sarif>(broken).is_err());
    assert_eq!(log.runs.len(), 1);
    let driver = &value["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "partkit");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(driver["informationUri"]
        .as_str()
        .unwrap()
        .starts_with("https://"));
    // Every rule, with its description and default level.
    let list = run_rules();
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), list.len());
    for (rule, (id, severity)) in rules.iter().zip(&list) {
        assert_eq!(
            (&rule["id"], &rule["defaultConfiguration"]["level"]),
            (&serde_json::json!(id), &serde_json::json!(severity))
        );
        assert!(!rule["shortDescription"]["text"]
            .as_str()
            .unwrap()
            .is_empty());
    }
    let results = value["runs"][0]["results"].as_array().unwrap();
    let seen: Vec<(&str, &str, &str, u64, &str)> = results
        .iter()
        .map(|r| {
            let location = &r["locations"][0];
            (
                r["ruleId"].as_str().unwrap(),
                r["level"].as_str().unwrap(),
                location["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap(),
                location["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap(),
                location["logicalLocations"][0]["fullyQualifiedName"]
                    .as_str()
                    .unwrap(),
            )
        })
        .collect();
    // The files are outside the working folder (the repository): file URIs,
    // percent-encoded.
    let uri = |path: &str| {
        format!(
            "file://{}",
            path.replace('%', "%25")
                .replace(',', "%2C")
                .replace(':', "%3A")
        )
    };
    assert_eq!(
        seen,
        [
            (
                "media-type-mismatch",
                "error",
                uri(&a).as_str(),
                1,
                "/tool_output_images/0/image_url"
            ),
            ("duplicate-key", "warning", uri(&a).as_str(), 1, "/note"),
            (
                "duplicate-key",
                "warning",
                uri(&odd).as_str(),
                1,
                "/100%, sure: \nyes"
            ),
        ]
    );
    for result in results {
        let pointer = &result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"];
        assert_eq!(&result["properties"]["pointer"], pointer);
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }
    assert!(run.stderr.contains("1 error, 2 warnings"), "{}", run.stderr);
}

#[test]
fn sarif_uris_are_relative_to_the_working_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("fixtures")).unwrap();
    std::fs::write(
        dir.path().join("fixtures/a b.json"),
        r#"{"tool_output_images": [{"image_url": "data:image/png;base64,AAAA"}]}"#,
    )
    .unwrap();
    let output = assert_cmd::Command::cargo_bin("partkit")
        .unwrap()
        .args(["validate", "--format", "sarif", "fixtures"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let location = &value["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "fixtures/a%20b.json");
    // A clean run is a log with no results, exit 0.
    std::fs::remove_file(dir.path().join("fixtures/a b.json")).unwrap();
    std::fs::write(
        dir.path().join("fixtures/ok.json"),
        r#"{"tool_output_images": []}"#,
    )
    .unwrap();
    let clean = assert_cmd::Command::cargo_bin("partkit")
        .unwrap()
        .args(["validate", "--format", "sarif", "fixtures"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(clean.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&clean.stdout).unwrap();
    assert_eq!(value["runs"][0]["results"], serde_json::json!([]));
}

/// `--list-rules --format json`: each rule's id and severity, in order.
fn run_rules() -> Vec<(String, String)> {
    let listed = run(&["validate", "--list-rules", "--format", "json"]);
    listed
        .stdout
        .lines()
        .map(|line| {
            let rule: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                rule["rule"].as_str().unwrap().to_string(),
                rule["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_format_can_come_from_the_environment_for_ci() {
    // A pre-commit hook's command line stays as it is; CI sets the variable.
    let (_dir, a, _odd) = two_files();
    let by_option = run(&["validate", "--format", "github", &a]);
    let by_variable = assert_cmd::Command::cargo_bin("partkit")
        .unwrap()
        .args(["validate", &a])
        .env("PARTKIT_VALIDATE_FORMAT", "github")
        .output()
        .unwrap();
    assert_eq!(by_variable.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(by_variable.stdout).unwrap(),
        by_option.stdout
    );
    // The command line wins; a bad value is a usage error.
    let both = assert_cmd::Command::cargo_bin("partkit")
        .unwrap()
        .args(["validate", "--format", "json", &a])
        .env("PARTKIT_VALIDATE_FORMAT", "github")
        .output()
        .unwrap();
    assert!(String::from_utf8(both.stdout)
        .unwrap()
        .starts_with("{\"path\":"));
    let bad = assert_cmd::Command::cargo_bin("partkit")
        .unwrap()
        .args(["validate", &a])
        .env("PARTKIT_VALIDATE_FORMAT", "gh")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
