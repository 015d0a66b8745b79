//! `partkit encode URL --fetch` (docs/commands/encode.md) against a small HTTP/1.1 server that each
//! test starts on 127.0.0.1, on a port the OS picks. Nothing else is contacted.
//!
//! The server is hand-written so that status lines, headers, framing and timing are
//! exactly what a test needs; it records what it was asked and, for the bodies it
//! streams, how much it managed to send before the client went away. Every server
//! thread ends by itself: on `finish`/drop, and in any case after `SERVER_LIFETIME`.

use std::io::{Cursor, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

use crate::{run, Run};

/// The longest a server (and any of its connections) lives, whatever the test does.
const SERVER_LIFETIME: Duration = Duration::from_secs(20);
/// What `/big` declares in its Content-Length.
const BIG_DECLARED: u64 = 50_000_000;
/// What `/big-no-length` and `/big-chunked` would send if the client read it all:
/// far more than loopback socket buffers hold, so a client that stops reading
/// makes the server's writes fail long before the end.
const BIG_STREAMED: u64 = 64 << 20;
/// What `/slow` declares; it sends one byte every `SLOW_TICK`.
const SLOW_DECLARED: u64 = 1_000;
const SLOW_TICK: Duration = Duration::from_millis(100);
/// The secret a signed URL carries in its query.
const SECRET: &str = "SECRET-7f3a9c";

// ---------------------------------------------------------------------------
// Payloads

/// A valid 2×2 PNG.
fn png() -> &'static [u8] {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    PNG.get_or_init(|| {
        let mut out = Cursor::new(Vec::new());
        image::RgbImage::new(2, 2)
            .write_to(&mut out, image::ImageFormat::Png)
            .expect("a PNG encodes");
        out.into_inner()
    })
}

/// A valid 8×8 JPEG.
fn jpeg() -> &'static [u8] {
    static JPEG: OnceLock<Vec<u8>> = OnceLock::new();
    JPEG.get_or_init(|| {
        let mut out = Cursor::new(Vec::new());
        image::RgbImage::from_pixel(8, 8, image::Rgb([200, 40, 40]))
            .write_to(&mut out, image::ImageFormat::Jpeg)
            .expect("a JPEG encodes");
        out.into_inner()
    })
}

/// Bytes no sniffer recognizes.
const PLAIN_TEXT: &[u8] = b"just a few words, nothing a magic-number sniffer knows\n";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

// ---------------------------------------------------------------------------
// The server

/// One request the server read.
#[derive(Debug, Clone)]
struct Request {
    /// The request target as sent (`/img.png?sig=…`).
    target: String,
    /// The whole request head, lower-cased.
    head: String,
}

/// What happened to a body the server streamed.
#[derive(Debug, Clone)]
struct Streamed {
    target: String,
    /// Body bytes written successfully.
    written: u64,
    /// Body bytes the server meant to send.
    total: u64,
    /// Whether the server saw the client close the connection (a failed write, or
    /// end of input while it waited) before the body was complete.
    client_left: bool,
}

#[derive(Debug, Default)]
struct Log {
    requests: Vec<Request>,
    streamed: Vec<Streamed>,
}

impl Log {
    fn targets(&self) -> Vec<&str> {
        self.requests.iter().map(|r| r.target.as_str()).collect()
    }
}

struct Server {
    port: u16,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<Log>>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server on 127.0.0.1, port 0.
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let port = listener.local_addr().expect("a local address").port();
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Log::default()));
        let thread = {
            let (stop, log) = (Arc::clone(&stop), Arc::clone(&log));
            thread::spawn(move || accept_loop(&listener, &stop, &log))
        };
        Server {
            port,
            stop,
            log,
            thread: Some(thread),
        }
    }

    /// The URL of `target` (a path, maybe with a query) on this server.
    fn url(&self, target: &str) -> String {
        format!("http://127.0.0.1:{}{target}", self.port)
    }

    /// Stops the server, waits for its connections to end, and returns its log.
    fn finish(mut self) -> Log {
        self.shut_down();
        std::mem::take(&mut *self.log.lock().unwrap())
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

fn accept_loop(listener: &TcpListener, stop: &Arc<AtomicBool>, log: &Arc<Mutex<Log>>) {
    let born = Instant::now();
    let mut connections = Vec::new();
    while !stop.load(Ordering::SeqCst) && born.elapsed() < SERVER_LIFETIME {
        match listener.accept() {
            Ok((stream, _)) => {
                let (stop, log) = (Arc::clone(stop), Arc::clone(log));
                connections.push(thread::spawn(move || {
                    handle(stream, &stop, &log, born + SERVER_LIFETIME);
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
}

/// Reads the request head (up to the blank line), or `None` if the client sent none.
fn read_head(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() > 16 * 1024 {
            return None;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return None,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    Some(String::from_utf8_lossy(&head).into_owned())
}

fn handle(mut stream: TcpStream, stop: &AtomicBool, log: &Mutex<Log>, deadline: Instant) {
    stream.set_nonblocking(false).expect("a blocking stream");
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_nodelay(true);
    let Some(head) = read_head(&mut stream) else {
        return;
    };
    let target = head
        .lines()
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .unwrap_or("")
        .to_string();
    log.lock().unwrap().requests.push(Request {
        target: target.clone(),
        head: head.to_ascii_lowercase(),
    });
    let path = target.split(['?', '#']).next().unwrap_or("");
    let streamed = match path {
        "/img.png" | "/my%20shot.png" => ok(&mut stream, "image/png", png()),
        "/noext" => ok(&mut stream, "application/octet-stream", png()),
        "/mislabeled.png" => ok(&mut stream, "image/png", jpeg()),
        "/text-by-header" => ok(&mut stream, "text/plain; charset=utf-8", PLAIN_TEXT),
        "/empty.png" => ok(&mut stream, "image/png", b""),
        "/redirect" => redirect(&mut stream, "/img.png"),
        "/redirect-query" => redirect(&mut stream, &format!("/img.png?sig={SECRET}")),
        "/redirect-ftp" => redirect(&mut stream, "ftp://127.0.0.1/x.png"),
        "/loop" => redirect(&mut stream, &target),
        // A Location a careless redirector builds: a space in the path, unencoded.
        "/redirect-malformed" => redirect(
            &mut stream,
            &format!("http://127.0.0.1/my shot.png?sig={SECRET}"),
        ),
        "/big" => Some(declared_too_big(&mut stream, &target)),
        "/big-no-length" => Some(stream_big(&mut stream, &target, false, stop, deadline)),
        "/big-chunked" => Some(stream_big(&mut stream, &target, true, stop, deadline)),
        "/slow" => Some(trickle(&mut stream, &target, stop, deadline)),
        "/stall" => {
            // Never answer: wait for the client to give up.
            wait_for_close(&mut stream, stop, deadline);
            None
        }
        _ => respond(
            &mut stream,
            "404 Not Found",
            &[("Content-Type", "text/plain")],
            b"not found\n",
        ),
    };
    if let Some(streamed) = streamed {
        log.lock().unwrap().streamed.push(streamed);
    }
}

fn write_head(stream: &mut TcpStream, status: &str, headers: &[(&str, &str)]) -> bool {
    let mut head = format!("HTTP/1.1 {status}\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("Connection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).is_ok()
}

/// A complete response with a Content-Length, then a graceful close.
fn respond(
    stream: &mut TcpStream,
    status: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Option<Streamed> {
    let length = body.len().to_string();
    let mut all = headers.to_vec();
    all.push(("Content-Length", &length));
    if write_head(stream, status, &all) && stream.write_all(body).is_ok() {
        let _ = stream.flush();
        let _ = stream.shutdown(Shutdown::Write);
        // Let the client read everything before the socket goes away.
        let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
        let mut sink = [0u8; 256];
        while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
    }
    None
}

fn ok(stream: &mut TcpStream, content_type: &str, body: &[u8]) -> Option<Streamed> {
    respond(stream, "200 OK", &[("Content-Type", content_type)], body)
}

fn redirect(stream: &mut TcpStream, location: &str) -> Option<Streamed> {
    respond(
        stream,
        "302 Found",
        &[("Location", location), ("Content-Type", "text/plain")],
        b"moved\n",
    )
}

/// Waits until the client closes the connection (or the server must stop);
/// returns whether the client closed it.
fn wait_for_close(stream: &mut TcpStream, stop: &AtomicBool, deadline: Instant) -> bool {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(50)));
    let mut sink = [0u8; 256];
    while !stop.load(Ordering::SeqCst) && Instant::now() < deadline {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return true,
        }
    }
    false
}

/// Declares a body of `BIG_DECLARED` bytes, sends only its first few, and waits: a
/// client that tried to read the body would hang here until its timeout.
fn declared_too_big(stream: &mut TcpStream, target: &str) -> Streamed {
    let length = BIG_DECLARED.to_string();
    let mut written = 0;
    if write_head(
        stream,
        "200 OK",
        &[("Content-Type", "image/png"), ("Content-Length", &length)],
    ) && stream.write_all(png()).is_ok()
    {
        written = png().len() as u64;
    }
    let never = AtomicBool::new(false);
    let client_left = wait_for_close(stream, &never, Instant::now() + Duration::from_secs(8));
    Streamed {
        target: target.to_string(),
        written,
        total: BIG_DECLARED,
        client_left,
    }
}

/// Streams `BIG_STREAMED` bytes (a PNG, then zeros) without a Content-Length: either
/// delimited by closing the connection or chunked. Stops at the first failed write.
fn stream_big(
    stream: &mut TcpStream,
    target: &str,
    chunked: bool,
    stop: &AtomicBool,
    deadline: Instant,
) -> Streamed {
    let mut streamed = Streamed {
        target: target.to_string(),
        written: 0,
        total: BIG_STREAMED,
        client_left: false,
    };
    let framing: &[(&str, &str)] = if chunked {
        &[
            ("Content-Type", "image/png"),
            ("Transfer-Encoding", "chunked"),
        ]
    } else {
        &[("Content-Type", "image/png")]
    };
    if !write_head(stream, "200 OK", framing) {
        streamed.client_left = true;
        return streamed;
    }
    let mut block = vec![0u8; 64 * 1024];
    block[..png().len()].copy_from_slice(png());
    while streamed.written < BIG_STREAMED {
        if Instant::now() >= deadline {
            return streamed;
        }
        if stop.load(Ordering::SeqCst) {
            // The test is over, so its partkit has exited; on a busy machine
            // this thread may not have written since. Writing on finds out
            // whether the client is gone (the first writes may still be
            // buffered; after the peer's reset they fail).
            streamed.client_left = client_gone(stream, &block);
            return streamed;
        }
        let sent = if chunked {
            let mut chunk = format!("{:x}\r\n", block.len()).into_bytes();
            chunk.extend_from_slice(&block);
            chunk.extend_from_slice(b"\r\n");
            stream.write_all(&chunk)
        } else {
            stream.write_all(&block)
        };
        if sent.is_err() {
            streamed.client_left = true;
            return streamed;
        }
        block[..png().len()].fill(0);
        streamed.written += block.len() as u64;
    }
    if chunked {
        let _ = stream.write_all(b"0\r\n\r\n");
    }
    streamed
}

/// Whether writes to `stream` fail within a bounded number of tries and a
/// second: the peer has closed the connection.
fn client_gone(stream: &mut TcpStream, block: &[u8]) -> bool {
    let until = Instant::now() + Duration::from_secs(1);
    for _ in 0..256 {
        if stream.write_all(block).is_err() {
            return true;
        }
        if Instant::now() >= until {
            break;
        }
        thread::sleep(Duration::from_millis(2));
    }
    false
}

/// Declares `SLOW_DECLARED` bytes and sends one every `SLOW_TICK`: each read is
/// quick, but the whole body takes far longer than any timeout a test passes.
fn trickle(stream: &mut TcpStream, target: &str, stop: &AtomicBool, deadline: Instant) -> Streamed {
    let mut streamed = Streamed {
        target: target.to_string(),
        written: 0,
        total: SLOW_DECLARED,
        client_left: false,
    };
    let length = SLOW_DECLARED.to_string();
    if !write_head(
        stream,
        "200 OK",
        &[("Content-Type", "image/png"), ("Content-Length", &length)],
    ) {
        streamed.client_left = true;
        return streamed;
    }
    let body: Vec<u8> = png()
        .iter()
        .copied()
        .chain(std::iter::repeat(0))
        .take(SLOW_DECLARED as usize)
        .collect();
    for byte in body {
        if stop.load(Ordering::SeqCst) || Instant::now() >= deadline {
            return streamed;
        }
        if stream.write_all(&[byte]).is_err() {
            streamed.client_left = true;
            return streamed;
        }
        streamed.written += 1;
        thread::sleep(SLOW_TICK);
    }
    streamed
}

// ---------------------------------------------------------------------------
// Helpers

/// Runs `partkit encode ARGS` and times it.
fn encode(args: &[&str]) -> (Run, Duration) {
    let mut all = vec!["encode"];
    all.extend_from_slice(args);
    let started = Instant::now();
    let run = run(&all);
    (run, started.elapsed())
}

/// Asserts a successful run: exit 0, no diagnostics, and stdout equal to `expected`.
fn assert_parts(run: &Run, expected: &Value) {
    assert_eq!(run.code, 0, "exit code; stderr: {}", run.stderr);
    assert_eq!(run.stderr, "", "no diagnostics expected");
    assert_eq!(&run.json(), expected);
}

fn png_part(name: &str) -> Value {
    json!([{"type": "image", "mimeType": "image/png", "data": b64(png()), "name": name}])
}

// ---------------------------------------------------------------------------
// Success

#[test]
fn fetch_inlines_the_served_bytes() {
    let server = Server::start();
    let url = server.url("/img.png");
    let (run, _) = encode(&[&url, "--fetch"]);
    assert_parts(&run, &png_part("img.png"));
    let log = server.finish();
    assert_eq!(log.targets(), ["/img.png"]);
    assert!(
        log.requests[0]
            .head
            .starts_with("get /img.png http/1.1\r\n"),
        "{}",
        log.requests[0].head
    );
    assert!(
        log.requests[0].head.contains("\r\nuser-agent: partkit/"),
        "{}",
        log.requests[0].head
    );
}

#[test]
fn without_fetch_a_url_stays_a_url_and_nothing_is_contacted() {
    let server = Server::start();
    let url = server.url("/img.png");
    let (run, _) = encode(&[&url]);
    assert_parts(
        &run,
        &json!([{"type": "image", "mimeType": "image/png", "url": url}]),
    );
    assert!(server.finish().requests.is_empty());
}

#[test]
fn fetch_sniffs_a_path_without_extension_over_the_content_type_header() {
    // /noext says application/octet-stream; the bytes are a PNG.
    let server = Server::start();
    let (run, _) = encode(&[&server.url("/noext"), "--fetch"]);
    assert_parts(&run, &png_part("noext"));
}

#[test]
fn fetch_names_the_part_from_the_decoded_last_segment_without_query_or_fragment() {
    let server = Server::start();
    let url = server.url(&format!("/my%20shot.png?sig={SECRET}#frag"));
    let (run, _) = encode(&[&url, "--fetch"]);
    assert_parts(&run, &png_part("my shot.png"));
    let log = server.finish();
    // The query is the server's business; the fragment never leaves the client.
    assert_eq!(
        log.targets(),
        [format!("/my%20shot.png?sig={SECRET}").as_str()]
    );
}

#[test]
fn fetch_name_option_overrides_the_url_name() {
    let server = Server::start();
    let (run, _) = encode(&[&server.url("/img.png"), "--fetch", "--name", "shot.png"]);
    assert_parts(&run, &png_part("shot.png"));
}

#[test]
fn fetch_follows_a_redirect_and_names_the_part_from_the_final_url() {
    let server = Server::start();
    let (run, _) = encode(&[&server.url("/redirect"), "--fetch"]);
    assert_parts(&run, &png_part("img.png"));
    assert_eq!(server.finish().targets(), ["/redirect", "/img.png"]);
}

#[test]
fn fetch_redirected_to_a_signed_url_names_the_part_without_its_query() {
    let server = Server::start();
    let (run, _) = encode(&[&server.url("/redirect-query"), "--fetch"]);
    assert_parts(&run, &png_part("img.png"));
    assert_eq!(
        server.finish().targets(),
        ["/redirect-query", format!("/img.png?sig={SECRET}").as_str()]
    );
}

#[test]
fn fetch_falls_back_to_the_content_type_header_for_unrecognized_bytes() {
    let server = Server::start();
    let (run, _) = encode(&[&server.url("/text-by-header"), "--fetch"]);
    assert_parts(
        &run,
        &json!([{
            "type": "file",
            "mimeType": "text/plain",
            "data": b64(PLAIN_TEXT),
            "name": "text-by-header",
        }]),
    );
}

#[test]
fn fetch_content_beats_the_extension_with_a_warning() {
    let server = Server::start();
    let url = server.url("/mislabeled.png");
    let (run, _) = encode(&[&url, "--fetch"]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        run.json(),
        json!([{
            "type": "image",
            "mimeType": "image/jpeg",
            "data": b64(jpeg()),
            "name": "mislabeled.png",
        }])
    );
    assert_eq!(
        run.stderr,
        format!("partkit: warning: {url}: content is image/jpeg, not image/png\n")
    );
}

#[test]
fn fetch_to_anthropic_gives_an_image_block_with_a_base64_source() {
    let server = Server::start();
    let (run, _) = encode(&[&server.url("/img.png"), "--fetch", "--to", "anthropic"]);
    assert_parts(
        &run,
        &json!([{
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": b64(png())},
        }]),
    );
}

#[test]
fn fetch_keeps_command_line_order_with_text_and_several_urls() {
    let server = Server::start();
    let (run, _) = encode(&[
        "-t",
        "compare",
        &server.url("/img.png"),
        &server.url("/noext"),
        "--fetch",
    ]);
    assert_parts(
        &run,
        &json!([
            {"type": "text", "text": "compare"},
            {"type": "image", "mimeType": "image/png", "data": b64(png()), "name": "img.png"},
            {"type": "image", "mimeType": "image/png", "data": b64(png()), "name": "noext"},
        ]),
    );
}

// ---------------------------------------------------------------------------
// Rejections (exit 1)

#[test]
fn fetch_strict_makes_a_content_mismatch_an_error() {
    let server = Server::start();
    let url = server.url("/mislabeled.png");
    let (run, _) = encode(&[&url, "--fetch", "--strict"]);
    run.assert_error(1, &[&url, "content is image/jpeg, not image/png"]);
}

#[test]
fn fetch_of_an_empty_body_is_rejected() {
    let server = Server::start();
    let url = server.url("/empty.png");
    let (run, _) = encode(&[&url, "--fetch"]);
    run.assert_error(1, &[&url, "empty"]);
}

#[test]
fn fetch_over_the_cap_by_content_length_is_rejected_before_reading_the_body() {
    let server = Server::start();
    let url = server.url("/big");
    // /big sends only a few body bytes and then waits: a client that read the body
    // would sit here until --timeout and fail with exit 2 instead.
    let (run, took) = encode(&[&url, "--fetch", "--max-part-bytes", "1kB", "--timeout", "8"]);
    run.assert_error(
        1,
        &[&url, "50,000,000 bytes", "over the cap of 1,000 bytes"],
    );
    // Not a timing test: that the server could not send the whole body shows
    // the download was cut while reading (the 8 s timeout would say "timed out").
    let _ = took;
    let log = server.finish();
    assert_eq!(log.streamed.len(), 1);
    assert_eq!(log.streamed[0].target, "/big");
    assert!(log.streamed[0].client_left, "{:?}", log.streamed[0]);
}

fn assert_stopped_while_reading(target: &str) {
    let server = Server::start();
    let url = server.url(target);
    let (run, took) = encode(&[&url, "--fetch", "--max-part-bytes", "1kB", "--timeout", "8"]);
    run.assert_error(1, &[&url, "over the cap of 1,000 bytes"]);
    // Not a timing test: that the server could not send the whole body shows
    // the download was cut while reading (the 8 s timeout would say "timed out").
    let _ = took;
    let log = server.finish();
    assert_eq!(log.streamed.len(), 1);
    let streamed = &log.streamed[0];
    assert_eq!(streamed.target, target);
    assert!(streamed.client_left, "{streamed:?}");
    assert!(
        streamed.written < streamed.total,
        "the whole body was sent: {streamed:?}"
    );
}

#[test]
fn fetch_over_the_cap_without_content_length_is_stopped_while_reading() {
    assert_stopped_while_reading("/big-no-length");
}

#[test]
fn fetch_over_the_cap_chunked_is_stopped_while_reading() {
    assert_stopped_while_reading("/big-chunked");
}

// ---------------------------------------------------------------------------
// Failures to fetch (exit 2)

#[test]
fn fetch_of_a_missing_resource_names_the_status() {
    let server = Server::start();
    let url = server.url("/missing");
    let (run, _) = encode(&[&url, "--fetch"]);
    run.assert_error(2, &["cannot fetch", &url, "404"]);
}

#[test]
fn fetch_failure_prints_nothing_even_after_good_sources() {
    let server = Server::start();
    let (run, _) = encode(&[
        "-t",
        "hi",
        &server.url("/img.png"),
        &server.url("/missing"),
        "--fetch",
    ]);
    run.assert_error(2, &["/missing", "404"]);
}

#[test]
fn fetch_refuses_a_redirect_to_a_non_http_scheme() {
    let server = Server::start();
    let url = server.url("/redirect-ftp");
    let (run, _) = encode(&[&url, "--fetch"]);
    run.assert_error(2, &["cannot fetch", &url, "ftp"]);
    assert_eq!(server.finish().targets(), ["/redirect-ftp"]);
}

#[test]
fn fetch_gives_up_on_a_redirect_loop() {
    let server = Server::start();
    let url = server.url("/loop");
    let (run, took) = encode(&[&url, "--fetch", "--timeout", "8"]);
    run.assert_error(2, &["cannot fetch", &url, "redirect"]);
    assert!(took < Duration::from_secs(4), "took {took:?}");
    let requests = server.finish().requests.len();
    assert!(
        (2..=11).contains(&requests),
        "{requests} requests for a redirect loop"
    );
}

#[test]
fn fetch_of_a_slow_body_times_out() {
    let server = Server::start();
    let url = server.url(&format!("/slow?sig={SECRET}"));
    let (run, took) = encode(&[&url, "--fetch", "--timeout", "1"]);
    run.assert_error(2, &["cannot fetch", "/slow?", "timed out"]);
    assert!(!run.stderr.contains(SECRET), "{}", run.stderr);
    assert!(took >= Duration::from_millis(900), "took {took:?}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let log = server.finish();
    let streamed = &log.streamed[0];
    assert_eq!(streamed.target, format!("/slow?sig={SECRET}"));
    assert!(streamed.written < streamed.total, "{streamed:?}");
}

#[test]
fn fetch_times_out_when_the_server_never_answers() {
    let server = Server::start();
    let url = server.url("/stall");
    let (run, took) = encode(&[&url, "--fetch", "--timeout", "1"]);
    run.assert_error(2, &["cannot fetch", &url, "timed out"]);
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn fetch_of_a_closed_port_is_a_connection_failure() {
    // A port that was ours a moment ago and is closed now.
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("bind 127.0.0.1:0")
        .port();
    let url = format!("http://127.0.0.1:{port}/img.png");
    let (run, _) = encode(&[&url, "--fetch", "--timeout", "5"]);
    run.assert_error(2, &["cannot fetch", &url]);
    let stderr = run.stderr.to_lowercase();
    assert!(
        stderr.contains("connection refused") || stderr.contains("connection failed"),
        "{stderr}"
    );
}

#[test]
fn timeout_without_fetch_is_a_usage_error() {
    let server = Server::start();
    let (run, _) = encode(&[&server.url("/img.png"), "--timeout", "5"]);
    run.assert_error(2, &["required", "(see --help)"]);
    assert!(server.finish().requests.is_empty());
}

#[test]
fn timeout_without_fetch_names_the_missing_option() {
    let server = Server::start();
    let (run, _) = encode(&[&server.url("/img.png"), "--timeout", "5"]);
    run.assert_error(2, &["required", "--fetch"]);
}

// ---------------------------------------------------------------------------
// Signed URLs: the query never reaches a message

#[test]
fn fetch_messages_never_show_the_query() {
    let server = Server::start();
    let query = format!("?sig={SECRET}&expires=99");
    let cases: &[(&str, &[&str], i32)] = &[
        ("/missing", &[], 2),
        ("/loop", &[], 2),
        ("/redirect-ftp", &[], 2),
        ("/big", &["--max-part-bytes", "1kB"], 1),
        ("/big-no-length", &["--max-part-bytes", "1kB"], 1),
        ("/mislabeled.png", &["--strict"], 1),
        ("/empty.png", &[], 1),
    ];
    for (path, extra, code) in cases {
        let url = server.url(&format!("{path}{query}"));
        let mut args = vec![url.as_str(), "--fetch", "--timeout", "8"];
        args.extend_from_slice(extra);
        let (run, _) = encode(&args);
        run.assert_error(*code, &[&format!("{path}?")]);
        assert!(
            !run.stderr.contains(SECRET) && !run.stderr.contains("expires"),
            "{path}: {}",
            run.stderr
        );
    }
    // A warning is a message too.
    let url = server.url(&format!("/mislabeled.png{query}"));
    let (run, _) = encode(&[&url, "--fetch"]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(
        run.stderr.contains("content is image/jpeg"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(SECRET), "{}", run.stderr);
    assert_eq!(run.json()[0]["name"], "mislabeled.png");
}

#[test]
fn fetch_messages_never_show_a_password_in_the_url() {
    let server = Server::start();
    let url = format!("http://reader:{SECRET}@127.0.0.1:{}/missing", server.port);
    let (run, _) = encode(&[&url, "--fetch"]);
    run.assert_error(2, &["cannot fetch", "127.0.0.1", "/missing", "404"]);
    assert!(!run.stderr.contains(SECRET), "{}", run.stderr);
}

#[test]
fn fetch_messages_never_show_the_query_of_a_redirect_target() {
    let server = Server::start();
    let url = server.url("/redirect-malformed");
    let (run, _) = encode(&[&url, "--fetch"]);
    run.assert_error(2, &["cannot fetch", &url, "location"]);
    assert!(!run.stderr.contains(SECRET), "{}", run.stderr);
}
