"""partkit's recording reader against PyYAML and yq on the same YAML cassettes.

Run by benches/yaml.sh (which builds the reader and finds a Python with PyYAML);
docs/speed.md ("Reading recordings") says what is measured and why.

Two inputs:
  (a) every YAML cassette in the shared corpus (`*.yaml`, `*.yml`, `*.yaml.gz`);
  (b) a large vcrpy cassette made here, deterministically, into WORK (outside the
      repository): a few hundred chat interactions, every eighth request carrying
      a ~1 MB base64 image, half of those as a JSON string body and half as a
      gzipped `!!binary` body, and gzipped `!!binary` responses next to plain ones.

Each side reads each file from disk into values: partkit's YAML load
(`examples/read_recording.rs --load`: `recording::load_yaml`, the tree built and
`!!binary` decoded, which is the job PyYAML does) and PyYAML's
`yaml.load(f, Loader=...)` with the C loader and the pure-Python one (which
construct every value, `!!binary` as bytes) are timed in their own process, per
file, median of RUNS reads, and summed over the set. partkit's whole reader
(`recording::read`: the load, then each body found, gzip-inflated by its
`Content-Encoding` or magic bytes, and located) does more than a YAML load, and
is shown beside it: on (b) inflating 40 MB of gzipped bodies is most of its time. A `.yaml.gz` is inflated by
both: partkit by its magic bytes, Python by `gzip.open`. yq (a whole process per
set, start-up included, all files in one call; it reads no gzip, so it gets the
inflated copies) is set beside partkit's reader run the same way: one process,
one read of each file. The verdict is partkit's in-process YAML load against the
C loader's.
"""

import argparse
import base64
import gzip
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

import yaml

# Bump when the generated cassette changes, so an old copy is not reused.
BIG_VERSION = 1
TARGET = 10.0


def args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reader", required=True, help="the read_recording example binary")
    p.add_argument("--cassettes", required=True, help="the shared cassettes folder")
    p.add_argument("--work", required=True, help="a scratch folder outside the repository")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--pure-runs", type=int, default=1, help="runs of the pure-Python loader")
    p.add_argument("--interactions", type=int, default=320)
    return p.parse_args()


def real_cassettes(root):
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith((".yaml", ".yml", ".yaml.gz")):
                found.append(os.path.join(folder, name))
    return sorted(found)


def chat_request(rng, i, image):
    content = [{"type": "text", "text": f"Question {i}: " + " ".join(rng.choice(WORDS) for _ in range(40))}]
    if image:
        content.append({"type": "image_url", "image_url": {"url": "data:image/png;base64," + image}})
    return {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": "You are a careful assistant."},
            {"role": "user", "content": content},
        ],
        "stream": False,
    }


def chat_response(rng, i):
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 120)))
    return {
        "id": f"chatcmpl-{i:06d}",
        "object": "chat.completion",
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 800 + i, "completion_tokens": 40, "total_tokens": 840 + i},
    }


WORDS = "the a dragon country population answer tool image photo cat river blue seven quick jumps over lazy dog".split()


def make_big(path, interactions):
    """A vcrpy cassette as vcrpy writes one (yaml.dump with the C dumper)."""
    rng = random.Random(31)
    items = []
    for i in range(interactions):
        image = None
        if i % 8 == 0:
            # A PNG signature, then noise: ~1 MB once base64-encoded.
            raw = b"\x89PNG\r\n\x1a\n" + rng.randbytes(750_000)
            image = base64.b64encode(raw).decode()
        request = json.dumps(chat_request(rng, i, image), separators=(",", ":"))
        if image and i % 16 == 8:
            request_body = gzip.compress(request.encode(), mtime=0)  # -> !!binary
            request_headers = {"content-encoding": ["gzip"]}
        else:
            request_body = request
            request_headers = {}
        response = json.dumps(chat_response(rng, i), separators=(",", ":"))
        if i % 2:
            response_body = gzip.compress(response.encode(), mtime=0)
            response_headers = {"Content-Encoding": ["gzip"]}
        else:
            response_body = response
            response_headers = {}
        items.append({
            "request": {
                "body": request_body,
                "headers": {"accept": ["application/json"], "authorization": ["Bearer sk-xxxx"],
                            "content-type": ["application/json"], "content-length": [str(len(request))],
                            **request_headers},
                "method": "POST",
                "uri": "https://api.openai.com/v1/chat/completions",
            },
            "response": {
                "body": {"string": response_body},
                "headers": {"Content-Type": ["application/json"], "openai-processing-ms": [str(300 + i)],
                            **response_headers},
                "status": {"code": 200, "message": "OK"},
            },
        })
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        yaml.dump({"interactions": items, "version": 1}, f, Dumper=yaml.CDumper)
    os.replace(tmp, path)


def big_cassette(work, interactions):
    path = os.path.join(work, f"big-v{BIG_VERSION}-{interactions}.yaml")
    if not os.path.exists(path):
        print(f"== making {path}", file=sys.stderr)
        make_big(path, interactions)
    return path


def opener(path):
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def py_load(path, loader, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        with opener(path) as f:
            yaml.load(f, Loader=loader)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def py_set(paths, loader, runs, warm):
    if warm:
        for path in paths:
            py_load(path, loader, 1)
    return sum(py_load(path, loader, runs) for path in paths)


def reader(binary, paths, runs, load=False):
    """partkit's in-process medians, summed; interactions and body bytes too
    (with `load`: 0, and the bytes the YAML scalars hold)."""
    out = subprocess.run([binary, "--runs", str(runs), *(["--load"] if load else []), *paths], check=True,
                         capture_output=True, text=True).stdout
    seconds = interactions = body_bytes = 0
    for line in out.splitlines():
        _, _, n, b, s = line.split("\t")[:5]
        seconds += float(s)
        interactions += int(n)
        body_bytes += int(b)
    return seconds, interactions, body_bytes


def whole(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_rss(command):
    """Peak RSS in bytes of one run under /usr/bin/time, or None."""
    if not os.path.exists("/usr/bin/time"):
        return None
    run = subprocess.run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    try:
        return int(run.stderr.strip().splitlines()[-1]) * 1024
    except (ValueError, IndexError):
        return None


def yq_command():
    yq = shutil.which("yq")
    if not yq:
        return None, "yq: not installed (neither mikefarah's nor the Python one)"
    version = subprocess.run([yq, "--version"], capture_output=True, text=True)
    name = (version.stdout or version.stderr).strip().splitlines()[0] if version.returncode == 0 else "yq"
    # mikefarah's yq prints YAML by default; ask both for JSON of the whole file.
    if "mikefarah" in name:
        return [yq, "-o=json", "."], name
    # The Python yq loads with PyYAML (its C SafeLoader when there is libyaml)
    # and pipes JSON through jq.
    return [yq, "."], f"Python {name} (PyYAML, then jq)"


def mb(n):
    return f"{n / 1e6:,.2f} MB"


def main():
    a = args()
    os.makedirs(a.work, exist_ok=True)
    real = real_cassettes(a.cassettes)
    if not real:
        sys.exit(f"yaml_bench.py: no YAML cassettes under {a.cassettes}")
    big = big_cassette(a.work, a.interactions)
    # yq reads no gzip: it gets inflated copies (made once, outside the timing).
    inflated = []
    for path in real:
        if path.endswith(".gz"):
            copy = os.path.join(a.work, os.path.basename(path)[:-3])
            with gzip.open(path, "rb") as src, open(copy, "wb") as dst:
                shutil.copyfileobj(src, dst)
            inflated.append(copy)
        else:
            inflated.append(path)

    sets = [("(a) shared cassettes", real, inflated), ("(b) generated vcrpy cassette", [big], [big])]
    yq, yq_name = yq_command()
    rows, verdicts = [], []
    print(f"== PyYAML {yaml.__version__}, libyaml {'yes' if yaml.__with_libyaml__ else 'NO'}; {yq_name}",
          file=sys.stderr)
    for label, paths, plain_paths in sets:
        size = sum(os.path.getsize(p) for p in plain_paths)
        print(f"== {label}: {len(paths)} files, {mb(size)} of YAML", file=sys.stderr)
        loaded, _, _ = reader(a.reader, paths, a.runs, load=True)
        ours, interactions, body_bytes = reader(a.reader, paths, a.runs)
        cloader = py_set(paths, yaml.CLoader, a.runs, warm=True) if yaml.__with_libyaml__ else None
        pure = py_set(paths, yaml.Loader, a.pure_runs, warm=False)
        ours_whole = whole([a.reader, "--runs", "1", *paths], a.runs)
        yq_whole = None
        if yq:
            try:
                yq_whole = whole([*yq, *plain_paths], max(1, min(a.runs, 3)))
            except subprocess.CalledProcessError as e:
                yq_whole = f"failed (exit {e.returncode})"
        base = cloader
        def ratio(t):
            return f"{base / t:.2f}×" if base and isinstance(t, float) else ""
        detail = f"{len(paths)} files, {mb(size)}; {interactions:,} interactions, {mb(body_bytes)} of bodies"
        rows.append((label, detail, [
            ("partkit YAML load (in process)", loaded, ratio(loaded)),
            ("partkit whole reader: load, bodies inflated and located (in process)", ours, ratio(ours)),
            ("PyYAML CLoader", cloader, "1.00×" if cloader else "no libyaml"),
            ("PyYAML pure-Python Loader", pure, ratio(pure)),
            ("partkit reader, whole process", ours_whole, ratio(ours_whole)),
            (f"{yq_name}, whole process" if yq else yq_name, yq_whole, ratio(yq_whole) if yq else ""),
        ]))
        if cloader:
            verdicts.append((label, cloader / loaded))
        if label.startswith("(b)"):
            rss = peak_rss([a.reader, "--runs", "1", big])
            py_rss = peak_rss([sys.executable, "-c",
                               "import sys, yaml; yaml.load(open(sys.argv[1], 'rb'), Loader=yaml.CLoader)", big])
            memory = (size, body_bytes, rss, py_rss)

    print("| input | reader | median s | × speed of PyYAML CLoader |")
    print("|---|---|---:|---:|")
    for label, detail, cells in rows:
        for i, (name, seconds, ratio_text) in enumerate(cells):
            shown = f"{seconds:.4f}" if isinstance(seconds, float) else (seconds or "")
            first = f"{label}: {detail}" if i == 0 else ""
            print(f"| {first} | {name} | {shown} | {ratio_text} |")
    print()
    size, body_bytes, rss, py_rss = memory
    def show(n):
        return f"{n / 2**20:,.1f} MiB" if n else "?"
    print(f"Peak RSS reading (b) once: partkit {show(rss)} (file {show(size)} + decoded bodies "
          f"{show(body_bytes)} = {show(size + body_bytes)}); PyYAML CLoader {show(py_rss)}.")
    print(f"In-process times are medians of {a.runs} reads per file (pure-Python: {a.pure_runs}), summed "
          f"over the set; whole-process times are medians of whole runs, start-up included. "
          f"× speed: the C loader's time ÷ the row's (above 1 is faster than the C loader).")
    met = all(r >= TARGET for _, r in verdicts)
    shown = "; ".join(f"{label} {r:.1f}×" for label, r in verdicts) or "no C loader to compare with"
    print(f"Verdict: {'met' if met and verdicts else 'NOT met'} (target ≥{TARGET:.0f}× PyYAML's C loader, "
          f"partkit's YAML load in process): {shown}")
    return 0 if met and verdicts else 1


if __name__ == "__main__":
    sys.exit(main())
