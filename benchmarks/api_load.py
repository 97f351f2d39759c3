"""Load test of the HTTP API against a real uvicorn on 127.0.0.1.

8 concurrent clients, bounded request counts, every answer must be a 200:
  * POST /api/v1/score with the rules vectors (one table per request): requests/s, p50/p99 latency;
  * POST /api/v1/photo/score with the bundled example photo: requests/s, p50/p99 latency, and the
    server's resident memory sampled while it answers (default 1,000 photo requests) to show it
    stays flat.

    python benchmarks/api_load.py [--score-requests 2000] [--photo-requests 1000] [--clients 8]

Writes benchmarks/results/api_load.json and api_load.md.  Exits 1 on any error response.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
EXAMPLE = REPO / "api" / "static" / "example.jpg"
#: what the example photo cannot show, as a user gives it: West won by self-draw
#: (tests/data/example_truth.json); naming the winner avoids guessing from sideways tiles
PHOTO_CONTEXT = {"ruleset": "pung-chow", "winner": "W", "win_by": "self-draw", "annotate": "false"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start_server(port: int) -> subprocess.Popen:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "api.app:app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning"],
        cwd=REPO, env=env,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).json()
            if health.get("recognizer") in ("ready", "unavailable"):
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit("uvicorn exited during start-up")
        time.sleep(0.3)
    proc.terminate()
    raise SystemExit("uvicorn did not become ready within 120 s")


def run_load(name: str, total: int, clients: int, send, on_progress=None) -> dict:
    """Run ``total`` requests over ``clients`` threads; ``send(client, i)`` returns an httpx.Response."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    counter = iter(range(total))

    def worker():
        with httpx.Client(timeout=120) as client:
            while True:
                with lock:
                    i = next(counter, None)
                if i is None:
                    return
                start = time.perf_counter()
                try:
                    response = send(client, i)
                    ok = response.status_code == 200
                    detail = f"{response.status_code} {response.text[:200]}"
                except httpx.HTTPError as exc:
                    ok, detail = False, repr(exc)
                elapsed = time.perf_counter() - start
                with lock:
                    latencies.append(elapsed)
                    if not ok:
                        errors.append(detail)
                    done = len(latencies)
                if on_progress:
                    on_progress(done)

    wall = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        for future in [pool.submit(worker) for _ in range(clients)]:
            future.result()
    wall = time.perf_counter() - wall
    latencies.sort()
    q = statistics.quantiles(latencies, n=100, method="inclusive") if len(latencies) > 1 else latencies * 99
    return {
        "endpoint": name,
        "requests": total,
        "clients": clients,
        "errors": len(errors),
        "error_samples": errors[:5],
        "seconds": round(wall, 2),
        "requests_per_second": round(total / wall, 1),
        "p50_ms": round(q[49] * 1000, 1),
        "p99_ms": round(q[98] * 1000, 1),
        "max_ms": round(latencies[-1] * 1000, 1),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--score-requests", type=int, default=2000, help="JSON score requests to send")
    ap.add_argument("--photo-requests", type=int, default=1000, help="photo score requests to send")
    ap.add_argument("--clients", type=int, default=8, help="concurrent clients")
    ap.add_argument("--out", type=Path, default=RESULTS, help="folder for api_load.json and api_load.md")
    args = ap.parse_args(argv)

    tables = [c for c in json.loads((REPO / "tests" / "data" / "vectors.json").read_text())
              if "error" not in c["expected"]]
    for table in tables:
        table.pop("expected", None)
    photo = EXAMPLE.read_bytes()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(port)
    try:
        print(f"server pid {server.pid} on {base}; {len(tables)} tables, photo {len(photo) // 1024} KiB", file=sys.stderr)
        # warm up both paths (first requests load the model and fill caches)
        with httpx.Client(timeout=120) as client:
            for i in range(5):
                client.post(f"{base}/api/v1/score", json=tables[i]).raise_for_status()
                client.post(f"{base}/api/v1/photo/score", files={"image": ("t.jpg", photo, "image/jpeg")},
                            data=PHOTO_CONTEXT).raise_for_status()

        score = run_load("/api/v1/score", args.score_requests, args.clients,
                         lambda c, i: c.post(f"{base}/api/v1/score", json=tables[i % len(tables)]))
        print(f"score: {score}", file=sys.stderr)

        samples = [(0, round(rss_mib(server.pid), 1))]
        step = max(1, args.photo_requests // 40)

        def sample(done):
            if done % step == 0:
                samples.append((done, round(rss_mib(server.pid), 1)))
                print(f"\rphoto requests {done}/{args.photo_requests} rss {samples[-1][1]} MiB", end="", file=sys.stderr)

        photo_result = run_load(
            "/api/v1/photo/score", args.photo_requests, args.clients,
            lambda c, i: c.post(f"{base}/api/v1/photo/score", files={"image": ("t.jpg", photo, "image/jpeg")},
                                data=PHOTO_CONTEXT),
            on_progress=sample,
        )
        print(file=sys.stderr)
        samples.append((args.photo_requests, round(rss_mib(server.pid), 1)))
        # flat: the median RSS of the last quarter of the run is within 5% (or 20 MiB) of the
        # median of the second quarter (the first quarter holds the warm-up allocations)
        quarter = args.photo_requests / 4
        early = [m for n, m in samples if quarter <= n < 2 * quarter] or [samples[-1][1]]
        late = [m for n, m in samples if n >= 3 * quarter] or [samples[-1][1]]
        growth = statistics.median(late) - statistics.median(early)
        memory = {
            "samples": samples,
            "start_mib": samples[0][1],
            "second_quarter_median_mib": round(statistics.median(early), 1),
            "last_quarter_median_mib": round(statistics.median(late), 1),
            "end_mib": samples[-1][1],
            "max_mib": max(m for _, m in samples),
            "growth_mib": round(growth, 1),
            "flat": growth <= max(20.0, 0.05 * statistics.median(early)),
        }
        photo_result["memory"] = memory
        print(f"photo: {photo_result}", file=sys.stderr)
    finally:
        server.terminate()
        server.wait(timeout=30)

    result = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "score": score,
        "photo_score": photo_result,
        "command": "python benchmarks/api_load.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "api_load.json").write_text(json.dumps(result, indent=1))
    md = [
        "# API load (benchmarks/api_load.py)",
        "",
        f"uvicorn on 127.0.0.1, {args.clients} concurrent clients, {os.cpu_count()} CPUs.",
        "",
        "| endpoint | requests | errors | requests/s | p50 ms | p99 ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in (score, photo_result):
        md.append(f"| {r['endpoint']} | {r['requests']} | {r['errors']} | {r['requests_per_second']} | "
                  f"{r['p50_ms']} | {r['p99_ms']} |")
    md += ["", f"Server resident memory over {args.photo_requests} photo requests: {memory['start_mib']} MiB idle "
           f"with the models loaded; median {memory['second_quarter_median_mib']} MiB in the second quarter of "
           f"the run, {memory['last_quarter_median_mib']} MiB in the last quarter (growth {memory['growth_mib']} "
           f"MiB), max {memory['max_mib']} MiB: flat {'yes' if memory['flat'] else 'NO'}."]
    (args.out / "api_load.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    ok = score["errors"] == 0 and photo_result["errors"] == 0 and memory["flat"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
