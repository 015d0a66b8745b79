//! Times the recording reader alone: `recording::read` on each file, from
//! the path to the interactions with every body decoded, nothing else (no
//! validation, no output). `benches/yaml.sh` runs it next to PyYAML and yq,
//! which do the same job for YAML (docs/speed.md, "Reading recordings").
//!
//! ```text
//! cargo run --release --example read_recording -- [--runs N] [--digest|--load] FILE...
//! ```
//!
//! For each file it prints one tab-separated line: the path, its size in
//! bytes, the interactions read, the decoded body bytes, and the median
//! seconds of N reads (default 5, after one warm-up read unless N is 1).
//! `--digest` adds a hash of everything read (the Debug form of the
//! recording, which shows no body bytes, and a hash of each body's bytes),
//! so two builds of the reader can be checked to read the same. `--load`
//! times only what a YAML library's load does (`recording::load_yaml`: the
//! tree built and `!!binary` decoded, bodies not inflated), with 0 for the
//! interactions and the bytes the scalars hold for the body bytes. Memory is
//! what one read takes: each read's recording is dropped before the next.

// An example prints what it measures.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use partkit_core::recording::{self, Recording};

fn main() -> ExitCode {
    let mut runs = 5usize;
    let mut digest = false;
    let mut load = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => runs = n,
                _ => return usage("--runs takes a count above 0"),
            },
            "--digest" => digest = true,
            "--load" => load = true,
            _ if arg.starts_with("--") => return usage(&format!("no option {arg}")),
            _ => files.push(PathBuf::from(arg)),
        }
    }
    if files.is_empty() {
        return usage("no file given");
    }
    let mut out = String::new();
    for path in &files {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let mut times = Vec::with_capacity(runs);
        let mut last = None;
        for run in 0..=runs {
            if run == 0 && runs == 1 {
                continue;
            }
            if load {
                let start = Instant::now();
                // Read as the recording reader reads a file: mapped when large.
                let held = partkit_core::mapped::read(path)
                    .map_err(|e| e.to_string())
                    .and_then(|bytes| recording::load_yaml(&bytes));
                let seconds = start.elapsed().as_secs_f64();
                if run > 0 {
                    times.push(seconds);
                }
                match held {
                    Ok(held) => last = Some((0, held, 0)),
                    Err(e) => {
                        eprintln!("read_recording: {}: {e}", path.display());
                        return ExitCode::FAILURE;
                    }
                }
                continue;
            }
            let start = Instant::now();
            let read = recording::read(path);
            let seconds = start.elapsed().as_secs_f64();
            if run > 0 {
                times.push(seconds);
            }
            // Dropped here, before the next read, so a read's peak is its own.
            last = Some(match read {
                Ok(recording) => summary(&recording, digest),
                Err(e) => {
                    eprintln!("read_recording: {e}");
                    return ExitCode::FAILURE;
                }
            });
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let (interactions, body_bytes, hash) = last.unwrap_or_default();
        out.push_str(&format!(
            "{}\t{size}\t{interactions}\t{body_bytes}\t{median:.6}",
            path.display()
        ));
        if digest {
            out.push_str(&format!("\t{hash:016x}"));
        }
        out.push('\n');
    }
    print!("{out}");
    ExitCode::SUCCESS
}

/// The interactions, the body bytes and (when asked) a hash of all read.
fn summary(recording: &Recording, digest: bool) -> (usize, usize, u64) {
    let mut hasher = DefaultHasher::new();
    let mut body_bytes = 0;
    if digest {
        format!("{recording:?}").hash(&mut hasher);
    }
    for interaction in &recording.interactions {
        let request = interaction.request.as_ref().map(|r| &r.body);
        let response = interaction.response.as_ref().map(|r| &r.body);
        for body in request.into_iter().chain(response) {
            body_bytes += body.bytes.len();
            if digest {
                body.bytes.hash(&mut hasher);
            }
        }
    }
    (recording.interactions.len(), body_bytes, hasher.finish())
}

fn usage(problem: &str) -> ExitCode {
    eprintln!(
        "read_recording: {problem}\nusage: read_recording [--runs N] [--digest|--load] FILE..."
    );
    ExitCode::from(2)
}
