//! `encode` on sources without an end, sources that fail while read, and
//! servers that lie (docs/commands/encode.md): every source is read within
//! `--max-document-size`, nothing partial ever reaches stdout, a body is
//! decoded before it is sniffed, and a redirect leaves http(s) for nothing.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{run_bounded, Feed};
use crate::support::media::{b64_of, bytes};
use crate::{path_arg, run, temp_file, Run};

/// The memory a run may use (MiB of data segment): far below what an
/// endless source reaches in a second, far above what a bounded run needs.
const CAP_MB: u64 = 300;

/// The longest a server connection lives, whatever the client does.
const LIFETIME: Duration = Duration::from_secs(30);

/// What a secret in a redirect's target looks like.
const SECRET: &str = "SECRET-b41d";

/// The one error line of a failed run with nothing on stdout; `printed` is
/// how many bytes the run wrote to stdout.
fn assert_failed(run: &Run, printed: u64, code: i32, fragments: &[&str]) {
    assert_eq!(run.code, code, "stderr: {}", run.stderr);
    assert_eq!(printed, 0, "stdout: {:.200}", run.stdout);
    let errors = run.error_lines();
    assert_eq!(errors.len(), 1, "stderr: {}", run.stderr);
    for fragment in fragments {
        assert!(
            errors[0].contains(fragment),
            "{fragment:?} not in {errors:?}"
        );
    }
    assert!(errors[0].len() < 2_000, "{:.300}", errors[0]);
}

// ---------------------------------------------------------------------------
// A server that lies

struct Server {
    port: u16,
    stop: Arc<AtomicBool>,
    targets: Arc<Mutex<Vec<String>>>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("non-blocking");
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let targets = Arc::new(Mutex::new(Vec::new()));
        let thread = {
            let (stop, targets) = (Arc::clone(&stop), Arc::clone(&targets));
            thread::spawn(move || {
                let born = Instant::now();
                let mut connections = Vec::new();
                while !stop.load(Ordering::SeqCst) && born.elapsed() < LIFETIME {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            let (stop, targets) = (Arc::clone(&stop), Arc::clone(&targets));
                            connections.push(thread::spawn(move || {
                                serve(stream, port, &stop, &targets, born + LIFETIME);
                            }));
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                            thread::sleep(Duration::from_millis(5));
                        }
                        Err(_) => break,
                    }
                }
                for connection in connections {
                    let _ = connection.join();
                }
            })
        };
        Server {
            port,
            stop,
            targets,
            thread: Some(thread),
        }
    }

    fn url(&self, target: &str) -> String {
        format!("http://127.0.0.1:{}{target}", self.port)
    }

    /// Stops the server and returns the request targets it was sent.
    fn finish(mut self) -> Vec<String> {
        self.shut_down();
        std::mem::take(&mut *self.targets.lock().unwrap())
    }

    fn shut_down(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shut_down();
    }
}

fn png() -> Vec<u8> {
    bytes("tiny.png")
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn raw_deflate(data: &[u8]) -> Vec<u8> {
    let mut encoder =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// 64 MiB of zeros, gzipped (about 64 KiB).
fn bomb() -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..64 {
        encoder.write_all(&zeros).unwrap();
    }
    encoder.finish().unwrap()
}

fn serve(
    mut stream: TcpStream,
    port: u16,
    stop: &AtomicBool,
    targets: &Mutex<Vec<String>>,
    deadline: Instant,
) {
    stream.set_nonblocking(false).unwrap();
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let target = head.split(' ').nth(1).unwrap_or("").to_string();
    targets.lock().unwrap().push(target.clone());
    let path = target.split('?').next().unwrap_or("").to_string();
    let s = &mut stream;
    match path.as_str() {
        "/img.png" => respond(s, &[("Content-Type", "image/png")], &png()),
        "/gzip.png" => respond(
            s,
            &[("Content-Type", "image/png"), ("Content-Encoding", "gzip")],
            &gzip(&png()),
        ),
        "/x-gzip.png" => respond(
            s,
            &[
                ("Content-Type", "image/png"),
                ("Content-Encoding", "X-GZIP"),
            ],
            &gzip(&png()),
        ),
        "/deflate.png" => respond(
            s,
            &[
                ("Content-Type", "image/png"),
                ("Content-Encoding", "deflate"),
            ],
            &zlib(&png()),
        ),
        "/raw-deflate.png" => respond(
            s,
            &[
                ("Content-Type", "image/png"),
                ("Content-Encoding", "deflate"),
            ],
            &raw_deflate(&png()),
        ),
        "/twice.png" => respond(
            s,
            &[
                ("Content-Type", "image/png"),
                ("Content-Encoding", "gzip, deflate"),
            ],
            &zlib(&gzip(&png())),
        ),
        "/br.png" => respond(
            s,
            &[("Content-Type", "image/png"), ("Content-Encoding", "br")],
            b"\x1b\x00\x00",
        ),
        "/broken-gzip.png" => respond(
            s,
            &[("Content-Type", "image/png"), ("Content-Encoding", "gzip")],
            &gzip(&png())[..20],
        ),
        "/bomb.png" => respond(
            s,
            &[("Content-Type", "image/png"), ("Content-Encoding", "gzip")],
            &bomb(),
        ),
        "/endless" => endless(s, "Transfer-Encoding: chunked", true, stop, deadline),
        "/endless-declared" => {
            endless(s, "Content-Length: 1000000000000000", false, stop, deadline)
        }
        "/declared-then-stall" => {
            // Declares a huge body, sends a few bytes of it, and waits: only a
            // client that reads the body before refusing it sits here.
            let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 1000000000000000\r\n\r\n";
            if s.write_all(head.as_bytes()).is_ok() && s.write_all(&png()).is_ok() {
                wait_for_close(s, stop, deadline);
            }
        }
        "/to-file" => redirect(s, "file:///etc/passwd"),
        "/hop-to-file" => redirect(s, "/to-file"),
        "/to-file-secret" => redirect(
            s,
            &format!("FILE://reader:{SECRET}@localhost/etc/passwd?token={SECRET}"),
        ),
        "/to-javascript" => redirect(s, "javascript:alert(1)"),
        "/to-mailto" => redirect(s, "mailto:someone@example.com"),
        "/to-data" => redirect(s, "data:image/png;base64,iVBORw0KGgo="),
        "/hop/relative" => redirect(s, "../img.png"),
        "/to-network-path" => redirect(s, &format!("//127.0.0.1:{port}/img.png")),
        "/to-absolute" => redirect(s, &format!("HTTP://127.0.0.1:{port}/img.png")),
        _ => {
            let _ = s.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        }
    }
}

fn respond(stream: &mut TcpStream, headers: &[(&str, &str)], body: &[u8]) {
    let mut head = String::from("HTTP/1.1 200 OK\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    if stream.write_all(head.as_bytes()).is_ok() && stream.write_all(body).is_ok() {
        let _ = stream.flush();
        let _ = stream.shutdown(std::net::Shutdown::Write);
        let mut sink = [0u8; 256];
        let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
        while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
    }
}

fn redirect(stream: &mut TcpStream, location: &str) {
    let head = format!(
        "HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    let _ = stream.write_all(head.as_bytes());
}

/// A PNG's first bytes and then zeros, for as long as the client reads.
fn endless(
    stream: &mut TcpStream,
    framing: &str,
    chunked: bool,
    stop: &AtomicBool,
    deadline: Instant,
) {
    let head = format!("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n{framing}\r\n\r\n");
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let mut block = vec![0u8; 64 * 1024];
    let png = png();
    block[..png.len()].copy_from_slice(&png);
    while !stop.load(Ordering::SeqCst) && Instant::now() < deadline {
        let sent = if chunked {
            let mut chunk = format!("{:x}\r\n", block.len()).into_bytes();
            chunk.extend_from_slice(&block);
            chunk.extend_from_slice(b"\r\n");
            stream.write_all(&chunk)
        } else {
            stream.write_all(&block)
        };
        if sent.is_err() {
            return;
        }
        block[..png.len()].fill(0);
    }
}

fn wait_for_close(stream: &mut TcpStream, stop: &AtomicBool, deadline: Instant) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(50)));
    let mut sink = [0u8; 256];
    while !stop.load(Ordering::SeqCst) && Instant::now() < deadline {
        match stream.read(&mut sink) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return,
        }
    }
}

fn png_part(name: &str) -> Value {
    json!({"type": "image", "mimeType": "image/png", "data": b64_of(&png()), "name": name})
}

// ---------------------------------------------------------------------------
// Sources without an end stop at the document limit

#[test]
fn an_endless_body_stops_at_the_document_limit() {
    let server = Server::start();
    for target in ["/endless", "/endless-declared"] {
        let url = server.url(target);
        let args = ["encode", "--fetch", &url, "--max-document-size", "8MiB"];
        let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
        assert_failed(
            &run,
            printed,
            2,
            &[&format!("{url}: longer than 8 MiB"), "--max-document-size"],
        );
    }
}

#[test]
fn a_declared_length_over_the_limit_is_refused_before_reading() {
    let server = Server::start();
    let url = server.url("/declared-then-stall");
    // A client that read the body would wait here for the timeout.
    let (run, printed) = run_bounded(
        &["encode", "--fetch", &url, "--timeout", "20"],
        CAP_MB,
        Feed::Nothing,
    );
    assert_failed(&run, printed, 2, &[&format!("{url}: longer than 512 MiB")]);
    // The cap, when it is the smaller, still decides (a rejection, exit 1).
    let (run, printed) = run_bounded(
        &[
            "encode",
            "--fetch",
            &url,
            "--timeout",
            "20",
            "--max-part-bytes",
            "1MB",
        ],
        CAP_MB,
        Feed::Nothing,
    );
    assert_failed(&run, printed, 1, &[&url, "over the cap of 1,000,000 bytes"]);
}

#[test]
fn an_endless_device_or_stdin_stops_at_the_document_limit() {
    for extra in [&[][..], &["--jsonl"], &["--to", "anthropic"]] {
        let mut args = vec!["encode", "--mime-type", "image/png", "/dev/zero"];
        args.extend_from_slice(&["--max-document-size", "1MiB"]);
        args.extend_from_slice(extra);
        let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
        assert_failed(&run, printed, 2, &["/dev/zero: longer than 1 MiB"]);
        args[3] = "-";
        let (run, printed) = run_bounded(&args, CAP_MB, Feed::File("/dev/zero"));
        assert_failed(&run, printed, 2, &["<stdin>: longer than 1 MiB"]);
    }
    // The cap, when smaller, is met first: a rejection, as for any stream.
    let args = [
        "encode",
        "--mime-type",
        "image/png",
        "/dev/zero",
        "--max-part-bytes",
        "100kB",
    ];
    let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
    assert_failed(
        &run,
        printed,
        1,
        &["/dev/zero", "over the cap of 100,000 bytes"],
    );
}

#[test]
fn a_file_over_the_limit_is_refused() {
    let (_dir, file) = temp_file("big.png", &crate::support::media::png_of_len(2 << 20));
    let args = ["encode", path_arg(&file), "--max-document-size", "1MiB"];
    let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
    let place = format!("{}: longer than 1 MiB", path_arg(&file));
    assert_failed(&run, printed, 2, &[&place]);
    // Raised, the same file is read.
    let args = ["encode", path_arg(&file), "--max-document-size", "3MiB"];
    let (run, _) = run_bounded(&args, CAP_MB, Feed::Nothing);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// An array is one document: what it holds together is bounded too, so
/// that many large sources cannot add up past the limit; one part per
/// line is not.
#[test]
fn the_parts_of_one_array_are_bounded_together() {
    let png = crate::support::media::png_of_len(600 << 10);
    let (_dir, file) = temp_file("a.png", &png);
    let file = path_arg(&file);
    let args = ["encode", file, file, "--max-document-size", "1MiB"];
    let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
    assert_failed(&run, printed, 2, &[file, "longer than 1 MiB"]);
    let args = [
        "encode",
        "--jsonl",
        file,
        file,
        "--max-document-size",
        "1MiB",
    ];
    let (run, _) = run_bounded(&args, CAP_MB, Feed::Nothing);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

// ---------------------------------------------------------------------------
// Nothing partial on stdout

/// A kernel file that says it is empty and reads as megabytes of text: a
/// regular file that grows while it is read, as far as a reader can tell.
const GROWS: &str = "/proc/kallsyms";

/// A kernel file whose reads succeed until one asks for a length that is not
/// a multiple of 8 (as a read up to one byte past a bound does): a read
/// error partway, EINVAL where a disk would give EIO.
const FAILS: &str = "/proc/self/pagemap";

#[test]
fn a_file_that_grows_past_the_cap_while_read_prints_nothing() {
    for extra in [&[][..], &["--jsonl"], &["--to", "gemini"]] {
        let mut args = vec!["encode", "--mime-type", "text/plain", GROWS];
        args.extend_from_slice(&["--max-part-bytes", "1MiB"]);
        args.extend_from_slice(extra);
        let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
        assert_failed(
            &run,
            printed,
            1,
            &[GROWS, "over the cap of 1,048,576 bytes"],
        );
        let mut args = vec!["encode", "--mime-type", "text/plain", GROWS];
        args.extend_from_slice(&["--max-document-size", "1MiB"]);
        args.extend_from_slice(extra);
        let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
        assert_failed(&run, printed, 2, &[&format!("{GROWS}: longer than 1 MiB")]);
    }
}

#[test]
fn a_read_error_partway_prints_nothing() {
    for extra in [&[][..], &["--jsonl"], &["--to", "gemini"]] {
        let mut args = vec!["encode", "--mime-type", "application/octet-stream", FAILS];
        args.extend_from_slice(&["--max-part-bytes", "1MiB"]);
        args.extend_from_slice(extra);
        let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
        assert_failed(&run, printed, 2, &[&format!("cannot read {FAILS}")]);
    }
}

/// Under `--on-error` a source that fails while it is read fails like any
/// other source: its line is `null` or left out, and no part of it is
/// printed.
#[test]
fn under_on_error_a_source_that_fails_while_read_fails_alone() {
    let before = r#"{"type":"text","text":"before"}"#;
    let after = r#"{"type":"text","text":"after"}"#;
    let lines = [
        format!("{before}\nnull\n{after}\n"),
        format!("{before}\n{after}\n"),
        format!("{before}\n"),
    ];
    let policies = ["null", "skip", "stop"];
    // (source, bound, the exit codes under null, skip and stop, the message)
    let cases = [
        // Over the cap: a rejection, exit 1 as any rejection is.
        (GROWS, "--max-part-bytes", [0, 1, 1], "over the cap"),
        // Not read whole: exit 2, as a file that cannot be read is, unless a
        // null marks it.
        (GROWS, "--max-document-size", [0, 2, 2], "longer than 1 MiB"),
        (FAILS, "--max-part-bytes", [0, 2, 2], "cannot read"),
    ];
    for (source, bound, codes, message) in cases {
        for ((policy, code), stdout) in policies.iter().zip(codes).zip(&lines) {
            let args = [
                "encode",
                "--jsonl",
                "--on-error",
                policy,
                "-t",
                "before",
                "--mime-type",
                "text/plain",
                source,
                "-t",
                "after",
                bound,
                "1MiB",
            ];
            let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
            let what = format!("{source} {bound} {policy}");
            assert_eq!(run.code, code, "{what}: {}", run.stderr);
            assert!(
                printed == stdout.len() as u64 && run.stdout == *stdout,
                "{what}: {printed} bytes: {:.300}",
                run.stdout
            );
            let errors = run.error_lines();
            assert_eq!(errors.len(), 1, "{what}: {}", run.stderr);
            assert!(
                errors[0].contains(source) && errors[0].contains(message),
                "{what}: {}",
                errors[0]
            );
        }
    }
}

// ---------------------------------------------------------------------------
// HTTP: content encodings and redirects

#[test]
fn a_compressed_body_is_decoded_before_it_is_sniffed() {
    let server = Server::start();
    for name in [
        "gzip.png",
        "x-gzip.png",
        "deflate.png",
        "raw-deflate.png",
        "twice.png",
    ] {
        let url = server.url(&format!("/{name}"));
        let fetched = run(&["encode", "--fetch", &url]);
        assert_eq!((fetched.code, fetched.stderr.as_str()), (0, ""), "{name}");
        assert_eq!(fetched.json(), json!([png_part(name)]), "{name}");
    }
}

#[test]
fn an_unknown_or_broken_content_encoding_is_refused() {
    let server = Server::start();
    let url = server.url("/br.png");
    let refused = run(&["encode", "--fetch", &url]);
    refused.assert_error(2, &["cannot fetch", &url, "\"br\"", "gzip", "deflate"]);
    let url = server.url("/broken-gzip.png");
    let broken = run(&["encode", "--fetch", &url]);
    broken.assert_error(2, &["cannot fetch", &url, "gzip"]);
}

#[test]
fn a_gzip_bomb_stops_at_the_limit() {
    let server = Server::start();
    let url = server.url("/bomb.png");
    let args = ["encode", "--fetch", &url, "--max-document-size", "1MiB"];
    let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
    assert_failed(&run, printed, 2, &[&format!("{url}: longer than 1 MiB")]);
    let args = ["encode", "--fetch", &url, "--max-part-bytes", "1MiB"];
    let (run, printed) = run_bounded(&args, CAP_MB, Feed::Nothing);
    assert_failed(&run, printed, 1, &[&url, "over the cap of 1,048,576 bytes"]);
}

#[test]
fn a_redirect_to_another_scheme_is_refused_naming_both_urls() {
    let server = Server::start();
    let cases = [
        ("/to-file", "file:///etc/passwd"),
        ("/to-javascript", "javascript:alert(1)"),
        ("/to-mailto", "mailto:someone@example.com"),
        ("/to-data", "data:image/png;base64,"),
    ];
    for (target, location) in cases {
        let url = server.url(target);
        let refused = run(&["encode", "--fetch", &url]);
        refused.assert_error(2, &["cannot fetch", &url, location, "http"]);
    }
    // A later hop is named too.
    let url = server.url("/hop-to-file");
    let hop = run(&["encode", "--fetch", &url]);
    let from = format!(
        "redirect from {} to file:///etc/passwd",
        server.url("/to-file")
    );
    hop.assert_error(2, &["cannot fetch", &url, &from]);
    // The redirect's target loses its credentials and query, as a URL does.
    let url = server.url("/to-file-secret?sig=x");
    let secret = run(&["encode", "--fetch", &url]);
    secret.assert_error(
        2,
        &["cannot fetch", "/to-file-secret?…", "localhost/etc/passwd"],
    );
    assert!(!secret.stderr.contains(SECRET), "{}", secret.stderr);
    // None of them was asked of the server as a path.
    let targets = server.finish();
    assert_eq!(
        targets,
        [
            "/to-file",
            "/to-javascript",
            "/to-mailto",
            "/to-data",
            "/hop-to-file",
            "/to-file",
            "/to-file-secret?sig=x"
        ]
    );
}

#[test]
fn redirects_within_http_are_followed_wherever_they_point() {
    let server = Server::start();
    for target in ["/hop/relative", "/to-network-path", "/to-absolute"] {
        let fetched = run(&["encode", "--fetch", &server.url(target)]);
        assert_eq!((fetched.code, fetched.stderr.as_str()), (0, ""), "{target}");
        assert_eq!(fetched.json(), json!([png_part("img.png")]), "{target}");
    }
    let targets = server.finish();
    assert_eq!(
        targets,
        [
            "/hop/relative",
            "/img.png",
            "/to-network-path",
            "/img.png",
            "/to-absolute",
            "/img.png"
        ]
    );
}

/// Files are opened one at a time: a run over more files than it may have
/// descriptors open works, as one, as lines, and under `--on-error`.
#[test]
fn many_files_are_read_one_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = (0..200)
        .map(|i| {
            let file = dir.path().join(format!("{i}.png"));
            std::fs::write(&file, png()).unwrap();
            file.display().to_string()
        })
        .collect();
    for extra in [&[][..], &["--jsonl"], &["--jsonl", "--on-error", "null"]] {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -n 64 && exec \"$0\" \"$@\"")
            .arg(assert_cmd::cargo::cargo_bin("partkit"))
            .arg("encode")
            .args(extra)
            .args(&files)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{extra:?}: {stderr}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        let parts = if extra.is_empty() {
            serde_json::from_str::<Value>(&stdout)
                .unwrap()
                .as_array()
                .unwrap()
                .len()
        } else {
            stdout.lines().count()
        };
        assert_eq!(parts, 200, "{extra:?}");
    }
}
