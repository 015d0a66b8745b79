//! Running partkit with a cap on its memory, on input that is never held by
//! the test either.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use crate::Run;

/// What the run's stdin gets.
pub enum Feed<'a> {
    Nothing,
    /// `head`, then `pattern` until `total` bytes were written, then `tail`
    /// (written by a thread: the input is never held whole).
    Repeat {
        head: &'a [u8],
        pattern: &'a [u8],
        total: u64,
        tail: &'a [u8],
    },
    /// A file opened as stdin (`/dev/zero`, say).
    File(&'a str),
}

/// Runs partkit with `args` under a data-segment limit of `data_mb` MiB
/// (`ulimit -d`: the heap and anonymous mappings, which is where an input
/// held whole would go; a run over it aborts), fed `feed`. stdout is
/// counted, and its first 64 KiB kept, so that a large output is not held
/// either.
pub fn run_bounded(args: &[&str], data_mb: u64, feed: Feed<'_>) -> (Run, u64) {
    let bin = assert_cmd::cargo::cargo_bin("partkit");
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!(
            "ulimit -d {} && exec \"$0\" \"$@\"",
            data_mb * 1024
        ))
        .arg(bin)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match feed {
        Feed::Nothing => command.stdin(Stdio::null()),
        Feed::Repeat { .. } => command.stdin(Stdio::piped()),
        Feed::File(path) => command.stdin(std::fs::File::open(path).expect("stdin file opens")),
    };
    let mut child = command.spawn().expect("sh runs");
    let writer = match feed {
        Feed::Repeat {
            head,
            pattern,
            total,
            tail,
        } => {
            let mut stdin = child.stdin.take().unwrap();
            let (head, pattern, tail) = (head.to_vec(), pattern.to_vec(), tail.to_vec());
            Some(std::thread::spawn(move || {
                // A closed pipe (partkit stopped reading) ends the feed.
                let _ = (|| -> std::io::Result<()> {
                    stdin.write_all(&head)?;
                    let mut written = head.len() as u64;
                    let block = pattern.repeat((1 << 16) / pattern.len().max(1) + 1);
                    while written < total {
                        let n = block.len().min((total - written) as usize);
                        stdin.write_all(&block[..n])?;
                        written += n as u64;
                    }
                    stdin.write_all(&tail)
                })();
            }))
        }
        _ => None,
    };
    let mut stdout = child.stdout.take().unwrap();
    let counter = std::thread::spawn(move || {
        let (mut kept, mut count) = (Vec::new(), 0u64);
        let mut buffer = vec![0; 1 << 16];
        loop {
            match stdout.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if kept.len() < 1 << 16 {
                        kept.extend_from_slice(&buffer[..n]);
                    }
                    count += n as u64;
                }
            }
        }
        (kept, count)
    });
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    let (kept, count) = counter.join().unwrap();
    let run = Run {
        code: status
            .code()
            .unwrap_or_else(|| panic!("partkit was killed ({status}); stderr: {stderr}")),
        stdout: String::from_utf8_lossy(&kept).into_owned(),
        stderr,
    };
    (run, count)
}
