"""Take the README's screenshots of the web page in headless Chromium (Debian's, via Playwright).

By default this runs the browser tests with MJSCORE_SCREENSHOTS set, so the pictures show the
page after the end-to-end test has uploaded the example photo, corrected what the recogniser
misread and scored the table (docs/page.png), the phone-width layout (docs/page-phone.png), and
the game section after a hand was added (docs/page-game.png).
With --raw it instead starts uvicorn itself, uploads the example and scores it uncorrected.

    python docs/screenshot.py [--raw]
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from PIL import Image
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def shrink(source: Path, target: Path, width: int = 800) -> None:
    image = Image.open(source).convert("RGB")
    if image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    image.quantize(colors=256).save(target, optimize=True)  # keep the PNGs small in git
    print(f"wrote {target.relative_to(REPO)} ({target.stat().st_size // 1024} KiB)")


def from_tests() -> int:
    with tempfile.TemporaryDirectory() as shots:
        env = dict(os.environ, MJSCORE_SCREENSHOTS=shots)
        subprocess.run([sys.executable, "-m", "pytest", "-q", "tests/test_browser.py", "-k", "end_to_end or phone or keeps_the_hands"],
                       cwd=REPO, env=env, check=True)
        shrink(Path(shots) / "page-end-to-end.png", REPO / "docs" / "page.png")
        shrink(Path(shots) / "page-phone.png", REPO / "docs" / "page-phone.png", width=390)
        shrink(Path(shots) / "page-game.png", REPO / "docs" / "page-game.png")
    return 0


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Redraw README's screenshots of the web page (docs/page.png, "
                                                 "docs/page-phone.png) in headless Chromium.")
    parser.add_argument("--raw", action="store_true",
                        help="start a server, upload the example and score it uncorrected (default: take the "
                             "pictures from the browser tests' pages)")
    if not parser.parse_args().raw:
        return from_tests()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "api.app:app", "--host", "127.0.0.1",
                               "--port", str(port), "--log-level", "warning"], cwd=REPO)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
            browser = pw.chromium.launch_persistent_context(
                profile, executable_path=shutil.which("chromium"), headless=True, args=FLAGS,
                viewport={"width": 1000, "height": 800}, device_scale_factor=1)
            page = browser.new_page()
            page.goto(base + "/")
            page.click("#example")
            page.wait_for_selector("body[data-state=recognized]", timeout=120_000)
            page.click("#score")
            page.wait_for_selector("body[data-state=scored], body[data-state=score-error]", timeout=30_000)
            page.evaluate("window.scrollTo(0, 0)")
            out = REPO / "docs" / "page.png"
            page.screenshot(path=str(out), full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
            page.locator("#hands").scroll_into_view_if_needed()
            page.evaluate("document.querySelector('#hands').scrollIntoView({block: 'start'})")
            page.screenshot(path=str(REPO / "docs" / "page-phone.png"), full_page=False)
            browser.close()
        for path in (out, REPO / "docs" / "page-phone.png"):
            image = Image.open(path).convert("RGB")
            if image.width > 800:
                image = image.resize((800, round(image.height * 800 / image.width)), Image.LANCZOS)
            image.quantize(colors=256).save(path, optimize=True)  # keep the PNGs small in git
            print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size // 1024} KiB)")
    finally:
        server.terminate()
        server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
