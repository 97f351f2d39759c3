"""Work done is done: after a photo is recognised, no thread of the process keeps using CPU.

OpenBLAS, under numpy's matrix products, leaves its worker threads spinning for about 0.1 s
after a product big enough to share out.  On a 2-core machine they took a core from the next
photo's work: the blur measure's product over the pooled grey-level changes made the 12 MP
latency benchmark 149 ms a photo back to back against 115 ms with 0.1 s between photos (105 ms
either way once the product became a broadcast).  Each check runs in a fresh process and reads
every other thread's CPU time from Linux's /proc while the caller sleeps."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]

_MEASURE = """
import os, threading, time

def other_threads_cpu_ticks():
    me, total = threading.get_native_id(), 0
    for task in os.listdir("/proc/self/task"):
        if int(task) != me:
            try:
                stat = open(f"/proc/self/task/{task}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(stat[11]) + int(stat[12])  # utime, stime, in clock ticks
    return total

def busy_after(work):
    work()  # the first call loads models and starts the thread pools
    time.sleep(0.3)
    work()
    before = other_threads_cpu_ticks()
    time.sleep(0.3)
    return other_threads_cpu_ticks() - before
"""

_TILE_BLUR = """
import numpy as np
from vision.quad import TileQuad
from vision.sharpness import tile_blur

img = np.random.default_rng(0).integers(0, 256, (1500, 2000, 3), dtype=np.uint8)
quads = [TileQuad(np.float32([[x, y], [x + 90, y], [x + 90, y + 120], [x, y + 120]]))
         for x in range(50, 1850, 150) for y in (100, 700)]
print(busy_after(lambda: tile_blur(img, quads)))
"""

_SCORE_PHOTO = """
import cv2, numpy as np
from api.service import score_photo
from datasets.synth_table import make_table

table = make_table(np.random.default_rng(3), (1280, 960))
jpeg = cv2.imencode(".jpg", table.image)[1].tobytes()
winner = next(h for h in table.case["hands"] if h["winner"])
print(busy_after(lambda: score_photo(jpeg, {"winner": winner["seat"], "win_by": winner["win_by"]},
                                     annotate=True)))
"""


def _busy_ticks(script: str) -> int:
    out = subprocess.run([sys.executable, "-c", _MEASURE + script], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.strip().splitlines()[-1])


def test_the_blur_measure_leaves_no_thread_spinning():
    assert _busy_ticks(_TILE_BLUR) <= 2


def test_scoring_a_photo_leaves_no_thread_spinning():
    """The web service's whole path: decode, find, check, read, score, draw."""
    assert _busy_ticks(_SCORE_PHOTO) <= 2
