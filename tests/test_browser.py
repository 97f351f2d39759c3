"""The web page in real headless Chromium (Debian's, driven by Playwright) against a real uvicorn.

* end to end: upload the bundled example photo, correct one tile, score, and check that the page
  shows exactly the scores and payments the rules engine gives for the corrected table;
* editing: with the recognition answered from the example's ground truth, move a tile between
  sets and toggle a set's exposure, and check the table the page sends and the scores it shows;
* keyboard use, a readable phone layout, and a clear message for a file that is not a photo.

`make test` installs Debian's chromium when it is missing; without it these tests fail (they are
never skipped).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from scoring import score_table

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "api" / "static" / "example.jpg"
TRUTH = REPO / "tests" / "data" / "example_truth.json"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
#: set MJSCORE_SCREENSHOTS=DIR to keep screenshots of the pages the tests drive
SCREENSHOTS = Path(os.environ["MJSCORE_SCREENSHOTS"]) if os.environ.get("MJSCORE_SCREENSHOTS") else None


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, "Debian chromium is not installed: run `make test` (it installs it) or apt-get install chromium"
    return path


def _serving(command: list[str]):
    """Start the service (`command`, to which --port PORT is added) and wait for /healthz:
    (process, its address)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(command + ["--port", str(port), "--log-level", "warning"], cwd=REPO)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        assert proc.poll() is None, f"{command} exited during start-up"
        assert time.time() < deadline, f"{command} did not answer within 90 s"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def server():
    proc, base = _serving([sys.executable, "-m", "uvicorn", "api.app:app", "--host", "127.0.0.1"])
    yield base
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as pw, tempfile.TemporaryDirectory(prefix="mjscore-chromium-") as profile:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=executable, headless=True, args=CHROMIUM_FLAGS,
            viewport={"width": 1100, "height": 900},
        )
        yield context
        context.close()


@pytest.fixture
def page(browser):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    # the profile is shared by the module's pages: a game one test kept in the browser's storage
    # must not set the next test's rules
    for other in browser.pages:
        if other.url.startswith("http"):
            other.evaluate("localStorage.clear()")
            break
    page.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def truth_to_recognition(truth: dict) -> dict:
    """The example's ground truth in the shape /api/v1/recognize answers."""
    tiles = [{"box": t["box"], "quad": t["quad"], "code": t["code"], "confidence": 1.0, "seat": t["seat"],
              "group": t["group"], "face_down": t["face_down"]} for t in truth["tiles"]]
    seats = {}
    for hand in truth["case"]["hands"]:
        seats[hand["seat"]] = {"seat": hand["seat"], "concealed": hand["concealed"], "melds": hand["melds"],
                               "bonus_tiles": hand.get("bonus_tiles", ""),
                               "winning_tile": hand["winning_tile"] if hand["winner"] else None}
    return {"width": truth["width"], "height": truth["height"], "tiles": tiles, "seats": seats, "warnings": []}


def answer_from_truth(page, edit=None) -> dict:
    """Answer the page's recognition requests with the example's ground truth (no recogniser
    run, the same tiles every time; `edit` may change that answer first); returns the truth."""
    truth = json.loads(TRUTH.read_text())
    recognition = truth_to_recognition(truth)
    if edit:
        edit(recognition)
    page.route("**/api/v1/recognize", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(recognition)))
    return truth


def upload_example(page, server: str) -> None:
    page.goto(server + "/")
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("body[data-state=recognized]")


def capture_score_requests(page) -> list[dict]:
    sent: list[dict] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.url.endswith("/api/v1/score") else None)
    return sent


def shown_results(page) -> dict:
    """{seat: (score text, net text)} as the page shows them."""
    rows = page.locator("#result-body tbody tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.get_attribute("data-seat")] = (row.locator("td.score").inner_text().strip(),
                                               row.locator("td.net").inner_text().strip())
    return out


def expected_results(result: dict) -> dict:
    def score(seat):
        if "scores" in result:
            return result["scores"].get(seat)
        return result["score"] if seat == result.get("winner") else None

    out = {}
    for seat, net in result["payments"].items():
        s = score(seat)
        out[seat] = ("–" if s is None else str(s), f"+{net}" if net > 0 else str(net))
    return out


def transfers_shown(page) -> list[str]:
    return [t.strip() for t in page.locator("#result-body ul.transfers li").all_inner_texts()]


def expected_transfers(result: dict) -> list[str]:
    return [f"{WIND_NAMES[a]} pays {WIND_NAMES[b]} {n}" for a, b, n in result.get("transfers", [])]


def pick_tile(page, tile_locator, code: str) -> None:
    tile_locator.click()
    page.wait_for_selector("#picker[open]")
    page.click(f'#picker-kinds button[data-code="{code}"]')
    page.wait_for_selector("#picker:not([open])", state="attached")


def score(page) -> None:
    """Score the table and wait for this table's answer (the page marks itself "scoring" at the
    click, so an earlier table's results are not taken for it)."""
    page.click("#score")
    page.wait_for_selector("body[data-state=scored], body[data-state=score-error]", timeout=30_000)


def least_used_kind(codes: list[str], avoid: str) -> str:
    counts = Counter(codes)
    candidates = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    return min((c for c in candidates if c != avoid), key=lambda c: (counts[c], c))


def page_tiles(page) -> list[tuple[str, tuple[float, float], str]]:
    """(tile id, box centre, code) of every tile outlined on the photo."""
    return page.locator("#overlay g.box").evaluate_all("""gs => gs.map(g => {
        const r = g.querySelector('rect');
        const x = +r.getAttribute('x'), y = +r.getAttribute('y');
        return [g.dataset.id, [x + +r.getAttribute('width') / 2, y + +r.getAttribute('height') / 2],
                document.querySelector(`#hands button.tile[data-id="${g.dataset.id}"]`).dataset.code];
    })""")


def truth_tile_at(truth: dict, centre) -> dict | None:
    x, y = centre
    inside = [t for t in truth["tiles"] if t["box"][0] <= x <= t["box"][2] and t["box"][1] <= y <= t["box"][3]]
    return min(inside, key=lambda t: abs((t["box"][0] + t["box"][2]) / 2 - x) + abs((t["box"][1] + t["box"][3]) / 2 - y),
               default=None)


def normalised(hands: list[dict]) -> dict:
    from scoring.tiles import parse_tiles

    return {
        h["seat"]: (sorted(parse_tiles(h["concealed"])),
                    sorted((m["kind"], sorted(parse_tiles(m["tiles"])), m["exposed"]) for m in h.get("melds", [])),
                    sorted(parse_tiles(h.get("bonus_tiles", ""))))
        for h in hands
    }


def tile_location(page, tile_id: str) -> tuple[str | None, str]:
    """(seat wind or None, data-set) of a tile in the hands view."""
    return page.locator(f'#hands button.tile[data-id="{tile_id}"]').evaluate(
        "b => [b.closest('article').dataset.seat || null, b.closest('.set').dataset.set]")


def move(page, tile_id: str, option_label: str) -> None:
    page.locator(f'#hands button.tile[data-id="{tile_id}"]').click()
    page.wait_for_selector("#picker[open]")
    page.select_option("#picker-move", label=option_label)
    page.click("#picker-move-go")
    page.wait_for_selector("#picker:not([open])", state="attached")


def repair_to_truth(page, truth: dict) -> list[str]:
    """Correct the recognised table through the page, as a person would: fix each misread tile,
    remove tiles that are not there, add missed ones, put every tile in its set, set each set's
    exposure and mark the winning tile.  Returns the edits made."""
    edits: list[str] = []
    truth_tiles = truth["tiles"]
    # 1. pair page tiles with true tiles (box centre inside the true box), drop the extras
    paired: dict[int, str] = {}
    for tile_id, centre, code in page_tiles(page):
        true_tile = truth_tile_at(truth, centre)
        k = truth_tiles.index(true_tile) if true_tile else None
        if k is None or k in paired:
            page.locator(f'#hands button.tile[data-id="{tile_id}"]').click()
            page.wait_for_selector("#picker[open]")
            page.click("#picker-delete")
            page.wait_for_selector("#picker:not([open])", state="attached")
            edits.append(f"removed {code}")
            continue
        paired[k] = tile_id
        want = true_tile["kind"] if true_tile["face_down"] else true_tile["code"]
        if code != want and not (true_tile["face_down"] and code == "back"):
            pick_tile(page, page.locator(f'#hands button.tile[data-id="{tile_id}"]'), want)
            edits.append(f"{code} -> {want}")
    # 2. add the tiles the recogniser missed (into the seat's concealed tiles; placed below)
    for k, true_tile in enumerate(truth_tiles):
        if k in paired:
            continue
        seat = true_tile["seat"]
        before = set(page.locator("#hands button.tile[data-id]").evaluate_all("bs => bs.map(b => b.dataset.id)"))
        page.click(f'article[data-seat="{seat}"] [data-set="concealed"] button.add')
        page.wait_for_selector("#picker[open]")
        page.click(f'#picker-kinds button[data-code="{true_tile["kind"]}"]')
        page.wait_for_selector("#picker:not([open])", state="attached")
        after = page.locator("#hands button.tile[data-id]").evaluate_all("bs => bs.map(b => b.dataset.id)")
        paired[k] = next(i for i in after if i not in before)
        edits.append(f"added {true_tile['kind']}")
    # 3. every tile into its set: concealed, flowers, or the true meld (rebuilt as a new set)
    for k, true_tile in enumerate(truth_tiles):
        seat, group = true_tile["seat"], true_tile["group"]
        name = WIND_NAMES[seat]
        if group in ("concealed", "bonus"):
            target = "concealed" if group == "concealed" else "bonus"
            if tile_location(page, paired[k]) != [seat, target]:
                move(page, paired[k], f"{name}: {'concealed' if group == 'concealed' else 'flowers / seasons'}")
                edits.append(f"moved {true_tile['kind']} to {name} {group}")
    for hand in truth["case"]["hands"]:
        seat, name = hand["seat"], WIND_NAMES[hand["seat"]]
        groups = sorted({t["group"] for t in truth_tiles if t["seat"] == seat and t["group"].startswith("meld")})
        for g_index, group in enumerate(groups):
            members = [paired[k] for k, t in enumerate(truth_tiles) if t["seat"] == seat and t["group"] == group]
            locations = {tuple(tile_location(page, m)) for m in members}
            sizes_match = len(locations) == 1 and next(iter(locations))[1].startswith("meld") and (
                page.locator(f'article[data-seat="{seat}"] [data-set="{next(iter(locations))[1]}"] button.tile[data-id]').count()
                == len(members))
            if not sizes_match:
                move(page, members[0], f"{name}: new set")
                for m in members[1:]:  # (sets left empty vanish, so look the new set up each time)
                    new_set = tile_location(page, members[0])[1]
                    move(page, m, f"{name}: set {int(new_set.split('-')[1]) + 1}")
                edits.append(f"regrouped {name} {group}")
        # exposure of each set as the truth has it
        for meld in hand["melds"]:
            member = next(paired[k] for k, t in enumerate(truth_tiles)
                          if t["seat"] == seat and t["group"].startswith("meld") and t["kind"] == meld["tiles"][-2:]
                          and not t["face_down"])
            set_key = tile_location(page, member)[1]
            toggle = page.locator(f'article[data-seat="{seat}"] [data-set="{set_key}"] button.toggle')
            if (toggle.get_attribute("data-exposed") == "true") != meld["exposed"]:
                toggle.click()
                edits.append(f"toggled {name} {set_key}")
    # 4. the winning tile: the one laid sideways
    win = next((k for k, t in enumerate(truth_tiles) if t.get("sideways")), None)
    if win is not None and "winning" not in (page.locator(f'#hands button.tile[data-id="{paired[win]}"]')
                                             .get_attribute("class") or ""):
        page.locator(f'#hands button.tile[data-id="{paired[win]}"]').click()
        page.wait_for_selector("#picker[open]")
        page.check("#picker-winning")
        page.keyboard.press("Escape")
        page.wait_for_selector("#picker:not([open])", state="attached")
        edits.append("marked the winning tile")
    return edits


def test_example_photo_end_to_end(server, page):
    """Upload the bundled photo, correct what was misread, and check the scores the page shows."""
    assert EXAMPLE.is_file() and EXAMPLE.stat().st_size < 400_000
    truth = json.loads(TRUTH.read_text())
    case = truth["case"]
    winner_hand = next(h for h in case["hands"] if h["winner"])
    sent = capture_score_requests(page)
    page.goto(server + "/")
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("body[data-state=recognized]", timeout=120_000)
    assert len(page_tiles(page)) >= 0.8 * len(truth["tiles"])  # the recognised tiles are outlined

    edits = repair_to_truth(page, truth)
    expected_case = json.loads(json.dumps(case))
    if not edits:  # read perfectly: correct one tile anyway, a non-winner's concealed tile
        other = next(h for h in expected_case["hands"] if not h["winner"] and h["concealed"])
        tile = page.locator(f'article[data-seat="{other["seat"]}"] [data-set="concealed"] button.tile[data-id]').first
        old = tile.get_attribute("data-code")
        all_codes = page.locator("#hands button.tile[data-id]").evaluate_all("bs => bs.map(b => b.dataset.code)")
        new = least_used_kind(all_codes, old)
        pick_tile(page, tile, new)
        edits.append(f"{old} -> {new}")
        from scoring.tiles import format_tiles, parse_tiles

        codes = parse_tiles(other["concealed"])
        codes[codes.index(old)] = new
        other["concealed"] = format_tiles(codes, sort=True)
    print(f"edits on the page: {edits}")
    for tile_id, _, code in page_tiles(page):  # each outline shows what its hand tile says
        label = page.locator(f'#overlay g.box[data-id="{tile_id}"] text').text_content()
        assert label == page.locator(f'#hands button.tile[data-id="{tile_id}"]').inner_text()

    page.select_option("#winner", case["seat_wind"])
    page.select_option("#win_by", winner_hand["win_by"])
    score(page)
    table = sent[-1]
    assert normalised(table["hands"]) == normalised(expected_case["hands"]), (
        f"after the edits {edits} the page's table differs from the photo's ground truth")
    assert next(h for h in table["hands"] if h["winner"])["winning_tile"] == winner_hand["winning_tile"]
    result = score_table(expected_case)
    assert "error" not in result, result
    assert page.get_attribute("body", "data-state") == "scored"
    assert shown_results(page) == expected_results(result)
    assert transfers_shown(page) == expected_transfers(result)
    if SCREENSHOTS:
        page.screenshot(path=str(SCREENSHOTS / "page-end-to-end.png"), full_page=True)


def test_editing_moves_tiles_and_toggles_exposure(server, page):
    """With the recognition answered from ground truth: edits reach the scored table."""
    truth = answer_from_truth(page)
    sent = capture_score_requests(page)
    upload_example(page, server)
    case = truth["case"]
    winner = case["seat_wind"]
    win_by = next(h for h in case["hands"] if h["winner"])["win_by"]
    page.select_option("#winner", winner)
    page.select_option("#win_by", win_by)

    # 1. unchanged: the page scores the ground-truth table exactly
    score(page)
    expected = score_table(case)
    assert "error" not in expected, expected
    assert shown_results(page) == expected_results(expected)

    # 2. toggle the exposure of the first exposed set of a player who did not win
    other = next(h for h in case["hands"] if not h["winner"] and any(m["exposed"] for m in h["melds"]))
    meld_index = next(i for i, m in enumerate(other["melds"]) if m["exposed"])
    page.click(f'article[data-seat="{other["seat"]}"] [data-set="meld-{meld_index}"] button.toggle')
    toggle = page.locator(f'article[data-seat="{other["seat"]}"] [data-set="meld-{meld_index}"] button.toggle')
    assert toggle.get_attribute("data-exposed") == "false"
    # its name holds the word it shows (a voice-control user says what they see)
    assert toggle.inner_text() == "concealed" and toggle.get_attribute("aria-label") == f"set {meld_index + 1}: concealed"
    # 3. move that player's first concealed tile into a new set and back again into concealed
    first = page.locator(f'article[data-seat="{other["seat"]}"] [data-set="concealed"] button.tile[data-id]').first
    tile_id = first.get_attribute("data-id")
    move(page, tile_id, f"{WIND_NAMES[other['seat']]}: flowers / seasons")
    assert page.locator(f'article[data-seat="{other["seat"]}"] [data-set="bonus"] button[data-id="{tile_id}"]').count() == 1
    move(page, tile_id, f"{WIND_NAMES[other['seat']]}: concealed")
    score(page)

    table = sent[-1]
    hand = next(h for h in table["hands"] if h["seat"] == other["seat"])
    assert hand["melds"][meld_index]["exposed"] is False
    changed = json.loads(json.dumps(case))
    next(h for h in changed["hands"] if h["seat"] == other["seat"])["melds"][meld_index]["exposed"] = False
    expected = score_table(changed)
    assert shown_results(page) == expected_results(expected)
    assert transfers_shown(page) == expected_transfers(expected)


def test_keyboard_opens_and_closes_the_picker(server, page):
    answer_from_truth(page)
    upload_example(page, server)
    page.focus("#hands button.tile[data-id]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#picker[open]")
    assert page.evaluate("document.activeElement.closest('#picker') !== null")  # focus moved into the picker
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")


FOCUS_RING = "el => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineColor, s.outlineWidth]; }"


def test_the_keyboard_is_seen_and_goes_from_tile_to_tile(server, page):
    """Focus shows as its own ring, never the same as a mark (a tile to check, the winning tile,
    the picker's current kind); the arrow keys go from tile to tile in the hands and the picker."""
    def unsure_of_one(recognition):
        first = next(t for t in recognition["tiles"] if t["seat"] == "S" and not t["face_down"])
        first["confidence"] = 0.31

    answer_from_truth(page, unsure_of_one)
    upload_example(page, server)
    marked = page.locator("#hands button.tile.unsure")
    winning = page.locator("#hands button.tile.winning")
    for tile in (marked, winning):
        page.locator("#score").focus()
        resting = tile.evaluate(FOCUS_RING)
        page.keyboard.press("Shift+Tab")  # the keyboard's focus, as a keyboard gives it
        tile.focus()
        assert tile.evaluate(FOCUS_RING) != resting
        assert tile.evaluate(FOCUS_RING)[0] == "solid"
    tiles = page.locator('article[data-seat="S"] button.tile')
    tiles.nth(0).focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement") == tiles.nth(1).evaluate("b => b")
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.closest('article').dataset.seat") == "S"
    assert page.evaluate("document.activeElement") == tiles.last.evaluate("b => b")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")  # to the next line: the concealed run's second row or a set
    below = page.evaluate("document.activeElement.getBoundingClientRect().top")
    assert below > tiles.nth(0).evaluate("b => b.getBoundingClientRect().bottom")
    # the picker: its current kind marked, focused on opening, with a ring of its own
    tiles.nth(0).press("Enter")
    page.wait_for_selector("#picker[open]")
    current = page.locator('#picker-kinds button[aria-pressed="true"]')
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    focused = current.evaluate(FOCUS_RING)
    page.keyboard.press("ArrowRight")
    assert current.evaluate(FOCUS_RING) != focused  # the ring moved on; the mark stayed
    assert current.get_attribute("aria-pressed") == "true"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"  # back where it began
    # the grid is one Tab stop: Tab leaves it for the actions below
    assert page.locator('#picker-kinds button[tabindex="0"]').count() == 1
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#picker-kinds')") is None
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")
    # the dialog's close event, a task after it closes, gives the focus back to the tile: wait
    # for it, or it may take the focus from the skip link below (seen once with the machine busy)
    page.wait_for_function("document.activeElement && document.activeElement.matches('button.tile')")
    # past the hands' many tiles in one step: the skip link, shown when focused
    page.focus("#table .skip")
    assert page.locator("#table .skip").evaluate("a => a.getBoundingClientRect().left") >= 0
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "score"


def test_removing_a_sets_last_tile_leaves_the_keyboard_in_that_hand(server, page):
    answer_from_truth(page)
    upload_example(page, server)
    card = 'article[data-seat="S"]'  # the example's South has a flower and sets
    for group in ("bonus", "meld-0"):
        tiles = page.locator(f'{card} [data-set="{group}"] button.tile[data-id]')
        count = tiles.count()
        assert count >= 1
        for _ in range(count):
            tiles.first.click()
            page.wait_for_selector("#picker[open]")
            page.click("#picker-delete")
            page.wait_for_selector("#picker:not([open])", state="attached")
            # the set's other tiles, then (its last gone) the hand's "+", never the page's top
            assert page.evaluate("document.activeElement.closest('article')?.dataset.seat") == "S"
        assert page.evaluate("document.activeElement.classList.contains('add')")


def phone_screenshot(page, path: Path) -> None:
    """The whole page, shot one screen at a time and stacked."""
    import io

    from PIL import Image

    height = page.evaluate("document.documentElement.scrollHeight")
    screen = page.viewport_size["height"]
    shots = []
    for top in range(0, height, screen):
        page.evaluate(f"window.scrollTo({{top: {top}, behavior: 'instant'}})")
        shown = page.evaluate("window.scrollY")
        shots.append((shown, Image.open(io.BytesIO(page.screenshot()))))
    whole = Image.new("RGB", (shots[0][1].width, height))
    for top, shot in shots:
        whole.paste(shot, (0, top))
    whole.save(path)


def test_phone_layout_has_no_sideways_scroll(server, browser):
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    # a touch screen, as a phone's (the media query `pointer: coarse` follows it)
    # (the session is kept to the end: Chromium drops its emulation when the session detaches)
    touch = page.context.new_cdp_session(page)
    touch.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    answer_from_truth(page)
    try:
        page.goto(server + "/")
        # a phone offers the camera at once and the gallery beside it (with the capture hint
        # Android's browser opens the camera alone, so choosing needs an input without it)
        assert page.get_attribute("#camera", "capture") == "environment"
        assert page.get_attribute("#photo", "capture") is None
        assert page.get_attribute("#photo", "accept") == page.get_attribute("#camera", "accept") == "image/*"
        assert page.is_visible('label[for="camera"]') and page.is_visible('label[for="photo"]')
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.set_input_files("#photo", str(EXAMPLE))
        page.wait_for_selector("body[data-state=recognized]")
        score(page)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        font_px = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert font_px >= 16
        assert page.is_visible('label[for="camera"]')  # still a phone after the scoring
        # the picker, with the tile's picture, fits the phone's width and its buttons are reachable
        page.locator("#hands button.tile[data-id]").first.click()
        page.wait_for_selector("#picker[open]")
        assert page.is_visible("#picker-crop")
        assert page.evaluate("document.querySelector('#picker').getBoundingClientRect().right <= window.innerWidth")
        # its actions stay at the dialog's foot, in view without scrolling it
        inside = "b => { const d = document.querySelector('#picker').getBoundingClientRect(); " \
                 "const r = b.getBoundingClientRect(); return r.top >= d.top && r.bottom <= d.bottom; }"
        assert page.locator("#picker-close").evaluate(inside)
        # the boxes of "Also" are rows a finger can hit (the classical rules offer them all)
        page.select_option("#ruleset", "classical")
        assert min(page.locator(".flags label:visible").evaluate_all(
            "ls => ls.map(l => l.getBoundingClientRect().height)")) >= 44
        if SCREENSHOTS:
            phone_screenshot(page, SCREENSHOTS / "page-phone-picker.png")
        page.click("#picker-close")
        page.wait_for_selector("#picker:not([open])", state="attached")
        if SCREENSHOTS:  # a screen at a time: Playwright's full-page shot drops the touch screen
            phone_screenshot(page, SCREENSHOTS / "page-phone.png")
    finally:
        touch.detach()
        page.close()


def test_a_text_file_gets_a_clear_message(server, page, tmp_path):
    bogus = tmp_path / "notes.jpg"
    bogus.write_text("this is not a photo\n")
    page.goto(server + "/")
    # with a mouse there is no camera to open: one button chooses a file
    assert not page.is_visible('label[for="camera"]') and page.is_visible('label[for="photo"]')
    page.set_input_files("#photo", str(bogus))
    page.wait_for_selector("#status.error")
    message = page.inner_text("#status")
    # what went wrong, and what to do, in words, once (the API's code is not shown)
    assert "not a readable image; send a JPEG, PNG, WebP, BMP" in message and message.count("JPEG") == 1
    assert "(not-an-image)" not in message and "unsupported" not in message



def test_a_heic_photo_is_shown_from_the_server(server, page, tmp_path):
    """Chromium cannot show an iPhone's HEIC: the page asks the server for the photo itself and
    draws the tiles over that."""
    import io

    from PIL import Image

    import vision.io  # registers pillow-heif with Pillow (the test extra installs it)

    assert vision.io.HEIC
    heic = tmp_path / "IMG_0001.HEIC"
    buffer = io.BytesIO()
    Image.open(EXAMPLE).save(buffer, "HEIF", quality=70)
    heic.write_bytes(buffer.getvalue())
    page.goto(server + "/")
    page.set_input_files("#photo", str(heic))
    page.wait_for_selector("body[data-state=recognized]", timeout=120_000)
    assert len(page_tiles(page)) == 56  # the example's every tile, from a lossy HEIC
    src = page.get_attribute("#photo-img", "src")
    assert src.startswith("data:image/jpeg;base64,")
    wait_until(page, "document.querySelector('#photo-img').complete")
    assert page.evaluate("document.querySelector('#photo-img').naturalWidth") == 1600


def wait_until(page, expression: str, timeout: float = 30.0) -> None:
    """Poll a JS expression with page.evaluate (the page's Content-Security-Policy forbids the
    eval that Playwright's wait_for_function polls with once the first check fails)."""
    deadline = time.time() + timeout
    while not page.evaluate(expression):
        assert time.time() < deadline, f"timed out waiting for {expression}"
        time.sleep(0.05)


def test_a_reload_keeps_the_corrections(server, page):
    """A phone's browser may reload a tab it put in the background: the table being corrected,
    the photo and the form come back as they were, and a new photo starts afresh."""
    truth = answer_from_truth(page)
    upload_example(page, server)
    wait_until(page, "sessionStorage.getItem('mjscore.photo') !== null")
    tile = page.locator('article[data-seat="N"] [data-set="concealed"] button.tile[data-id]').first
    tile_id = tile.get_attribute("data-id")
    pick_tile(page, tile, "f8")
    page.select_option("#ruleset", "pung-chow-limit")
    page.select_option("#win_by", "self-draw")
    page.check('input[name=flag][value="last-tile"]')
    before = page.locator("#hands button.tile[data-id]").evaluate_all(
        "bs => bs.map(b => [b.dataset.id, b.dataset.code])")

    page.reload()
    page.wait_for_selector("body[data-state=recognized]")
    after = page.locator("#hands button.tile[data-id]").evaluate_all(
        "bs => bs.map(b => [b.dataset.id, b.dataset.code])")
    assert after == before and [tile_id, "f8"] in after
    assert page.input_value("#win_by") == "self-draw" and page.is_checked('input[name=flag][value="last-tile"]')
    assert len(page_tiles(page)) == len(truth["tiles"])  # the outlines are back on the photo
    wait_until(page, "document.querySelector('#photo-img').complete")
    assert page.evaluate("document.querySelector('#photo-img').naturalWidth") == 1600
    assert "as you left it" in page.inner_text("#status")
    score(page)
    assert page.get_attribute("body", "data-state") in ("scored", "score-error")

    # a new photo: the corrections are gone, once the player agrees (this table was not scored)
    page.once("dialog", lambda dialog: dialog.accept())
    page.set_input_files("#photo", str(EXAMPLE))
    wait_until(page, f"!document.querySelector('#hands button.tile[data-id=\"{tile_id}\"]')")
    page.wait_for_selector("body[data-state=recognized]")
    codes = page.locator("#hands button.tile[data-id]").evaluate_all("bs => bs.map(b => b.dataset.code)")
    assert "f8" not in codes or any(t["code"] == "f8" for t in truth["tiles"])


def test_tiles_read_with_little_confidence_are_marked_until_checked(server, page):
    """A tile the recogniser was unsure of is outlined dashed, in its hand and on the photo, and
    named so to a screen reader; picking its kind (even the same one) clears the mark."""
    doubtful = {}

    def unsure_of_one(recognition):
        doubtful.update(next(t for t in recognition["tiles"] if t["seat"] == "S" and not t["face_down"]))
        doubtful["confidence"] = 0.31
        recognition["tiles"] = [doubtful if t["box"] == doubtful["box"] else t for t in recognition["tiles"]]

    answer_from_truth(page, unsure_of_one)
    upload_example(page, server)
    marked = page.locator("#hands button.tile.unsure")
    assert marked.count() == 1
    assert marked.get_attribute("data-code") == doubtful["code"]
    assert "31% confidence: check it" in marked.get_attribute("aria-label")
    tile_id = marked.get_attribute("data-id")
    assert page.locator(f'#overlay g.box.unsure[data-id="{tile_id}"]').count() == 1
    assert page.locator("#overlay g.box.unsure").count() == 1
    assert "1 read with little confidence" in page.inner_text("#status")
    pick_tile(page, marked, doubtful["code"])
    assert page.locator("#hands button.tile.unsure").count() == 0
    assert page.locator("#overlay g.box.unsure").count() == 0


def test_the_picker_offers_a_doubtful_tiles_likeliest_readings(server, page):
    """The recogniser's three likeliest readings of a tile are one click each in the picker,
    with their probabilities; picking one sets the tile's kind and clears its mark. A sure
    tile's picker shows none (its other readings are all under 1%)."""
    doubtful = {}

    def unsure_of_one(recognition):
        doubtful.update(next(t for t in recognition["tiles"] if t["seat"] == "S" and not t["face_down"]))
        doubtful["other"] = least_used_kind([t["code"] for t in recognition["tiles"]], doubtful["code"])
        doubtful.update(confidence=0.41, candidates=[[doubtful["code"], 0.41], [doubtful["other"], 0.37], ["5z", 0.12]])
        recognition["tiles"] = [{k: v for k, v in doubtful.items() if k != "other"} if t["box"] == doubtful["box"]
                                else {**t, "candidates": [[t["code"], 0.999], ["1m", 0.0004]]}
                                for t in recognition["tiles"]]

    answer_from_truth(page, unsure_of_one)
    upload_example(page, server)
    page.locator("#hands button.tile:not(.unsure)[data-id]").first.click()
    page.wait_for_selector("#picker[open]")
    assert page.locator("#picker-likely").is_hidden()
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")

    marked = page.locator("#hands button.tile.unsure")
    assert marked.get_attribute("data-code") == doubtful["code"]
    tile_id = marked.get_attribute("data-id")
    marked.click()
    page.wait_for_selector("#picker[open]")
    offered = page.locator("#picker-likely-kinds button")
    assert offered.evaluate_all("bs => bs.map(b => b.dataset.code)") == [doubtful["code"], doubtful["other"], "5z"]
    assert offered.nth(0).get_attribute("aria-pressed") == "true"
    assert offered.nth(1).inner_text().split()[-1] == "37%"
    if SCREENSHOTS:
        page.screenshot(path=str(SCREENSHOTS / "page-picker-likeliest.png"))
    offered.nth(1).click()
    page.wait_for_selector("#picker:not([open])", state="attached")
    assert page.locator(f'#hands button.tile[data-id="{tile_id}"]').get_attribute("data-code") == doubtful["other"]
    assert page.locator("#hands button.tile.unsure").count() == 0


def _picker_crop(page, tile_locator) -> dict:
    """Open the picker on a tile and return its crop: size, and its grey and red (red less the
    mean of green and blue) pixels at 24x32."""
    tile_locator.click()
    page.wait_for_selector("#picker[open]")
    crop = page.evaluate("""() => {
      const c = document.querySelector("#picker-crop");
      if (c.hidden) return {hidden: true};
      const small = document.createElement("canvas");
      small.width = 24; small.height = 32;
      small.getContext("2d").drawImage(c, 0, 0, 24, 32);
      const d = small.getContext("2d").getImageData(0, 0, 24, 32).data;
      const grey = [], red = [];
      for (let i = 0; i < d.length; i += 4) {
        grey.push((d[i] + d[i + 1] + d[i + 2]) / 3);
        red.push(d[i] - (d[i + 1] + d[i + 2]) / 2);
      }
      return {hidden: false, width: c.width, height: c.height, grey, red};
    }""")
    if SCREENSHOTS and not crop["hidden"]:
        page.locator("#picker-crop").screenshot(path=str(SCREENSHOTS / f"picker-crop-{tile_locator.get_attribute('data-id')}.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")
    return crop


def test_the_picker_shows_the_tile_as_the_photo_shows_it_turned_upright(server, page):
    """The picker shows the tile cut from the photo and turned upright, whichever seat's side of
    the photo it lies on: a 3m's red 萬 under its black 三 is in the crop's lower half, from the
    bottom seat and from the left seat (a quarter turn in the photo) alike. A tile added by
    hand has no picture."""
    import numpy as np

    answer_from_truth(page)
    upload_example(page, server)
    page.wait_for_function("document.querySelector('#photo-img').complete")
    bottom = _picker_crop(page, page.locator('article[data-seat="E"] button.tile[data-code="3m"]').first)
    left = _picker_crop(page, page.locator('article[data-seat="N"] button.tile[data-code="3m"]').first)
    for crop in (bottom, left):
        assert not crop["hidden"] and crop["height"] == 120 and crop["width"] < crop["height"], crop
        assert np.std(crop["grey"]) > 20  # the photo was drawn, not a blank canvas
        red = np.array(crop["red"]).reshape(32, 24)[4:28, 4:20]  # the face, without the rim's colours
        assert red[12:].mean() > red[:12].mean() + 10, (red[12:].mean(), red[:12].mean())

    page.locator('article[data-seat="E"] button.tile.add').first.click()
    page.wait_for_selector("#picker[open]")
    page.click('#picker-kinds button[data-code="1m"]')
    page.wait_for_selector("#picker:not([open])", state="attached")
    added = page.locator('article[data-seat="E"] button.tile[data-code="1m"]').last
    assert "added by hand" in added.get_attribute("aria-label")
    assert _picker_crop(page, added)["hidden"]


def test_choosing_the_same_photo_again_reads_it_again(server, page):
    """A player who wants to start over picks the same photo again: it is read afresh (a file
    input whose value has not changed fires no change event unless it is cleared)."""
    answer_from_truth(page)
    upload_example(page, server)
    tile = page.locator('article[data-seat="N"] [data-set="concealed"] button.tile[data-id]').first
    tile_id = tile.get_attribute("data-id")
    pick_tile(page, tile, "f8")
    asked: list[str] = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    # corrections not yet scored: the page asks first, and "cancel" keeps them
    page.once("dialog", lambda dialog: answer(dialog, False))
    page.set_input_files("#photo", str(EXAMPLE))
    assert len(asked) == 1 and "corrections" in asked[0]
    assert page.locator(f'#hands button.tile[data-id="{tile_id}"][data-code=f8]').count() == 1
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.set_input_files("#photo", str(EXAMPLE))
    wait_until(page, f"!document.querySelector('#hands button.tile[data-id=\"{tile_id}\"]')", timeout=10)
    assert page.locator("#hands button.tile[data-code=f8]").count() == 0


def focus_comes_back_to(page, tile_id: str) -> None:
    """The keyboard comes back to the tile once the picker has closed: the dialog's close event,
    which moves it, runs in a task after the dialog is no longer open (on a busy machine, after a
    test's next line), so this waits for it, failing if it never comes (Playwright's timeout)."""
    page.wait_for_function("id => document.activeElement && document.activeElement.dataset.id === id",
                           arg=tile_id)
    assert page.evaluate("document.activeElement.dataset.id") == tile_id


def test_scoring_waits_for_the_winner_and_the_winning_tile(server, page):
    """No tile lying sideways: the page names who won from the player alone, and asks for the
    winning tile to be marked instead of taking some tile for it (which would score wrongly)."""
    def no_sideways_tile(recognition):
        for hand in recognition["seats"].values():
            hand["winning_tile"] = None

    truth = answer_from_truth(page, no_sideways_tile)
    sent = capture_score_requests(page)
    upload_example(page, server)
    case = truth["case"]
    winner = next(h for h in case["hands"] if h["winner"])
    assert page.input_value("#winner") == ""
    assert "No winning tile lies sideways" in page.inner_text("#status")
    score(page)
    # the keyboard (and the view) is taken to the field, which is marked and says why; said once
    assert "Choose who won" in page.inner_text("#context-error") and not sent
    assert page.evaluate("document.activeElement.id") == "winner"
    assert page.get_attribute("#winner", "aria-invalid") == "true"
    assert page.get_attribute("#winner", "aria-describedby") == "context-error"
    # its message right under the field, not under the whole form
    assert page.evaluate("document.querySelector('#winner').closest('label').nextElementSibling.id") == "context-error"
    assert "Choose who won" not in page.inner_text("#status") + page.inner_text("#score-status")
    page.select_option("#winner", winner["seat"])
    assert page.get_attribute("#winner", "aria-invalid") is None and page.locator("#context-error").is_hidden()
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert "Mark the tile that won West the hand" in page.inner_text("#score-status") and not sent
    assert "Mark the tile" not in page.inner_text("#status")
    assert page.locator("#results").is_hidden()
    page.click("#score-status button.go-to-seat")  # beside the message: a way to West's tiles
    assert page.evaluate("document.activeElement.closest('article').dataset.seat") == winner["seat"]
    tile = page.locator(f'article[data-seat="{winner["seat"]}"] [data-set="concealed"] '
                        f'button.tile[data-code="{winner["winning_tile"]}"]').last
    tile_id = tile.get_attribute("data-id")
    tile.click()
    page.wait_for_selector("#picker[open]")
    page.check("#picker-winning")
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")
    focus_comes_back_to(page, tile_id)
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    assert next(h for h in sent[-1]["hands"] if h["winner"])["winning_tile"] == winner["winning_tile"]
    assert shown_results(page) == expected_results(score_table(case))


def test_a_winning_tile_laid_by_itself_is_marked_when_the_winner_is_chosen(server, page):
    """The winner's tile read lying by itself apart from the sets (group "apart"), none lying
    sideways: choosing the winner marks it as the tile that won, as `mjscore photo` takes it, and
    the table scores as the engine scores it."""
    def laid_apart(recognition):
        for hand in recognition["seats"].values():
            hand["winning_tile"] = None
        sideways = next(t for t, true in zip(recognition["tiles"], json.loads(TRUTH.read_text())["tiles"])
                        if true.get("sideways"))
        sideways["group"] = "apart"

    truth = answer_from_truth(page, laid_apart)
    sent = capture_score_requests(page)
    upload_example(page, server)
    winner = next(h for h in truth["case"]["hands"] if h["winner"])
    assert page.locator("#hands button.tile.winning").count() == 0
    page.select_option("#winner", winner["seat"])
    marked = page.locator("#hands button.tile.winning")
    assert marked.count() == 1 and marked.get_attribute("data-code") == winner["winning_tile"]
    assert marked.evaluate("b => b.closest('article').dataset.seat") == winner["seat"]
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    assert next(h for h in sent[-1]["hands"] if h["winner"])["winning_tile"] == winner["winning_tile"]
    assert shown_results(page) == expected_results(score_table(truth["case"]))


def test_the_winning_tile_lying_sideways_is_marked_again_when_its_player_is_chosen_again(server, page):
    """West's winning tile lies sideways: another winner takes its mark away, and West chosen
    again has it back, as `mjscore photo` takes a named winner's tile lying sideways for its
    winning tile (a person taking the mark off leaves none), and the table scores as the engine
    scores it."""
    def read_sideways(recognition):
        for tile, true in zip(recognition["tiles"], json.loads(TRUTH.read_text())["tiles"]):
            tile["sideways"] = bool(true.get("sideways"))

    truth = answer_from_truth(page, read_sideways)
    sent = capture_score_requests(page)
    upload_example(page, server)
    winner = next(h for h in truth["case"]["hands"] if h["winner"])
    marked = page.locator("#hands button.tile.winning")
    tile_id = marked.get_attribute("data-id")
    assert marked.count() == 1 and marked.get_attribute("data-code") == winner["winning_tile"]
    other = next(w for w in WIND_NAMES if w != winner["seat"])
    page.select_option("#winner", other)
    assert marked.count() == 0
    page.select_option("#winner", winner["seat"])
    assert marked.evaluate_all("bs => bs.map(b => b.dataset.id)") == [tile_id]
    # a person taking its mark off says it did not win: no tile is marked in its place
    mark_winning_tile(page, tile_id, marked=False)
    assert marked.count() == 0
    mark_winning_tile(page, tile_id)
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    assert next(h for h in sent[-1]["hands"] if h["winner"])["winning_tile"] == winner["winning_tile"]
    assert shown_results(page) == expected_results(score_table(truth["case"]))


def test_a_tile_on_the_photo_opens_its_own_set_not_a_copy_in_the_run(server, page):
    """A seat holding one kind both among its concealed tiles and in a set (South: a 7z in its
    run and the pung 777z, the recogniser listing the set's tiles first): each outline on the
    photo belongs to the tile button of its own group, so a click on the set's tile corrects the
    set; and the winner's mark is on the copy lying sideways (West holds two 2s)."""
    truth = json.loads(TRUTH.read_text())
    sideways = next(t for t in truth["tiles"] if t.get("sideways"))

    def same_kind_in_run_and_set(recognition):
        for tile, true in zip(recognition["tiles"], truth["tiles"]):
            tile["sideways"] = bool(true.get("sideways"))  # as /api/v1/recognize names it
        run_tile = next(t for t in recognition["tiles"] if t["seat"] == "S" and t["group"] == "concealed"
                        and t["code"] == "6z")
        run_tile["code"] = "7z"
        recognition["seats"]["S"]["concealed"] = "78m5p58s27z"
        next(t for t in recognition["tiles"] if t["seat"] == "W" and t["code"] == "1s")["code"] = "2s"
        recognition["seats"]["W"]["concealed"] = "56667789p223333s"

    answer_from_truth(page, same_kind_in_run_and_set)
    upload_example(page, server)
    # each outline is its own group's button: the recogniser's meld-1 is the page's set 1 (meld-0)
    for tile_id, centre, _ in page_tiles(page):
        group = truth_tile_at(truth, centre)["group"]
        where = {"concealed": "concealed", "bonus": "bonus"}.get(group) or f"meld-{int(group.split('-')[1]) - 1}"
        assert tile_location(page, tile_id)[1] == where, (tile_id, centre, group)
    # the set's first 7z clicked on the photo and corrected: the set changes, the run keeps its 7z
    in_set = next(t for t in truth["tiles"] if t["seat"] == "S" and t["group"] == "meld-1")
    tile_id = next(i for i, centre, _ in page_tiles(page) if truth_tile_at(truth, centre) is in_set)
    page.locator(f'#overlay g.box[data-id="{tile_id}"]').dispatch_event("click")
    page.wait_for_selector("#picker[open]")
    page.click('#picker-kinds button[data-code="1m"]')
    page.wait_for_selector("#picker:not([open])", state="attached")

    def codes(where):
        return sorted(page.locator(f'article[data-seat="S"] [data-set="{where}"] button.tile[data-id]').evaluate_all(
            "bs => bs.map(b => b.dataset.code)"))

    assert codes("meld-0") == ["1m", "7z", "7z"]
    assert codes("concealed") == sorted(["7m", "8m", "5p", "5s", "8s", "2z", "7z"])
    winning = page.locator("#hands button.tile.winning").get_attribute("data-id")
    assert truth_tile_at(truth, dict((i, c) for i, c, _ in page_tiles(page))[winning]) is sideways


def test_a_change_takes_the_old_scores_away_and_a_new_photo_starts_a_new_hand(server, page):
    answer_from_truth(page)
    upload_example(page, server)
    page.select_option("#ruleset", "classical")
    page.select_option("#win_by", "self-draw")
    page.check('input[name=flag][value="standing-hand"]')
    score(page)
    assert page.locator("#results").is_visible()
    tile = page.locator('article[data-seat="N"] [data-set="concealed"] button.tile[data-id]').first
    pick_tile(page, tile, tile.get_attribute("data-code"))  # even a tile confirmed as it was
    assert page.locator("#results").is_hidden() and "score it again" in page.inner_text("#status")
    score(page)
    page.select_option("#ruleset", "pung-chow-limit")
    assert page.locator("#results").is_hidden()
    page.select_option("#ruleset", "classical")
    # the next photo is another hand: who won and how are its own (the rules stay)
    page.once("dialog", lambda dialog: dialog.accept())
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("body[data-state=recognized]")
    wait_until(page, "document.querySelector('#win_by').value === 'discard'")
    assert not page.is_checked('input[name=flag][value="standing-hand"]')
    assert page.input_value("#ruleset") == "classical"
    assert page.input_value("#winner") == "W"  # from the photo's sideways tile


def test_house_settings_reach_the_engine(server, page):
    """A limit game is scored with its limit (300, or as set; empty: the book's uncapped game)
    and its Mah-Jongg bonus; the classical rules with theirs (1000)."""
    answer_from_truth(page)
    sent = capture_score_requests(page)
    upload_example(page, server)
    assert page.locator("#limit").is_hidden() and page.locator("#mj_bonus").is_hidden()
    page.select_option("#ruleset", "pung-chow-limit")
    assert page.input_value("#limit") == "300" and page.locator("#mj_bonus").is_visible()
    assert page.locator('input[name=flag][value="east-13th-consecutive"]').is_hidden()
    score(page)
    assert sent[-1]["params"] == {"mj_bonus": 10, "limit": 300}
    page.select_option("#mj_bonus", "20")
    assert page.input_value("#limit") == "400"  # the usual limit follows the bonus
    page.fill("#limit", "")
    score(page)
    assert sent[-1]["params"] == {"mj_bonus": 20, "limit": None}
    assert shown_results(page) == expected_results(score_table(sent[-1]))
    page.select_option("#ruleset", "classical")
    assert page.input_value("#limit") == "1000"
    # East's thirteenth win in a row is offered when East won, and East's first discard when
    # anyone else did
    thirteenth = page.locator('input[name=flag][value="east-13th-consecutive"]')
    first_discard = page.locator('input[name=flag][value="east-first-discard"]')
    assert page.input_value("#winner") == "W" and thirteenth.is_hidden() and first_discard.is_visible()
    page.select_option("#winner", "E")
    assert thirteenth.is_visible() and first_discard.is_hidden()
    page.select_option("#winner", "W")
    page.locator('article[data-seat="W"] button.tile').filter(has_text="2s").last.click()
    page.wait_for_selector("#picker[open]")
    page.check("#picker-winning")
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")
    score(page)
    assert sent[-1]["params"] == {"limit": 1000}
    assert shown_results(page) == expected_results(score_table(sent[-1]))


def test_turning_the_camera_seat_keeps_the_winner_in_place(server, page):
    """The player who won stays the one who won when the wind at the photo's bottom is set
    after the photo: West at the top becomes North when South sits at the bottom."""
    answer_from_truth(page)
    upload_example(page, server)
    assert page.input_value("#winner") == "W"
    page.select_option("#camera_seat", "S")
    assert page.input_value("#winner") == "N"
    assert page.locator('article[data-seat="N"] button.tile.winning').count() == 1
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"


def test_turning_the_camera_seat_so_the_winner_is_east_takes_east_flags_away(server, page):
    """The winner kept in place becomes East when West sits at the photo's bottom: "on East's
    first discard", ticked while they were West, is no longer offered nor kept (the engine would
    refuse the table)."""
    answer_from_truth(page)
    upload_example(page, server)
    page.select_option("#ruleset", "pung-chow-limit")
    first_discard = page.locator('input[name=flag][value="east-first-discard"]')
    first_discard.check()
    page.select_option("#camera_seat", "W")
    assert page.input_value("#winner") == "E"
    assert first_discard.is_hidden() and not first_discard.is_checked()
    score(page)
    assert page.get_attribute("body", "data-state") == "scored", page.inner_text("#result-body")


def test_only_the_flags_the_rule_set_scores_are_offered(server, page):
    """A standing hand ticked in a Part I game was sent and scored as nothing (the engine now
    refuses it): each rule set offers its own flags only (scoring.case.RULESET_WIN_FLAGS), and a
    box the rule set changed away from is not left ticked."""
    from scoring.case import RULESET_WIN_FLAGS

    answer_from_truth(page)
    sent = capture_score_requests(page)
    upload_example(page, server)
    assert page.input_value("#winner") == "W"

    def offered():
        return sorted(page.locator("input[name=flag]").evaluate_all(
            "bs => bs.filter(b => !b.closest('label').hidden).map(b => b.value)"))

    assert page.locator("fieldset.flags").is_hidden() and offered() == []
    page.select_option("#ruleset", "classical")
    assert offered() == sorted(f for f in RULESET_WIN_FLAGS["classical"] if f != "east-13th-consecutive")
    page.check('input[name=flag][value="standing-hand"]')
    page.check('input[name=flag][value="last-tile"]')
    page.select_option("#ruleset", "pung-chow-limit")
    assert offered() == sorted(RULESET_WIN_FLAGS["pung-chow-limit"])
    assert not page.is_checked('input[name=flag][value="standing-hand"]')
    page.select_option("#win_by", "self-draw")
    score(page)
    assert sent[-1]["hands"][[h["seat"] for h in sent[-1]["hands"]].index("W")]["flags"] == ["last-tile"]
    assert page.get_attribute("body", "data-state") == "scored", page.inner_text("#result-body")


def test_marking_easts_winning_tile_in_the_picker_takes_east_for_the_winner(server, page):
    """The winning tile marked in the picker names its player the winner as the winner's list
    does: East won, so "on East's first discard" is no longer offered nor kept ticked (the engine
    would refuse the table), and the classical rules offer East's thirteenth win in a row."""
    def no_sideways_tile(recognition):
        for hand in recognition["seats"].values():
            hand["winning_tile"] = None

    truth = answer_from_truth(page, no_sideways_tile)
    upload_example(page, server)
    winner = next(h for h in truth["case"]["hands"] if h["winner"])
    page.select_option("#camera_seat", "W")  # the winner's hand, at the top, is East's
    page.select_option("#ruleset", "classical")
    page.select_option("#win_by", winner["win_by"])
    first_discard = page.locator('input[name=flag][value="east-first-discard"]')
    first_discard.check()
    thirteenth = page.locator('input[name=flag][value="east-13th-consecutive"]')
    assert page.input_value("#winner") == "" and thirteenth.is_hidden()
    page.locator(f'article[data-seat="E"] [data-set="concealed"] button.tile[data-code="{winner["winning_tile"]}"]').click()
    page.wait_for_selector("#picker[open]")
    page.check("#picker-winning")
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")
    assert page.input_value("#winner") == "E"
    assert first_discard.is_hidden() and not first_discard.is_checked()
    assert thirteenth.is_visible()
    score(page)
    assert page.get_attribute("body", "data-state") == "scored", page.inner_text("#result-body")


def test_the_move_list_is_browsed_and_the_button_moves(server, page):
    """Arrow keys browse the "Move to" list without moving the tile; the Move button moves it,
    and the keyboard's place is the moved tile."""
    answer_from_truth(page)
    upload_example(page, server)
    tile = page.locator('article[data-seat="N"] [data-set="concealed"] button.tile[data-id]').first
    tile_id = tile.get_attribute("data-id")
    tile.click()
    page.wait_for_selector("#picker[open]")
    page.focus("#picker-move")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.locator("#picker[open]").count() == 1
    assert tile_location(page, tile_id) == ["N", "concealed"]
    page.select_option("#picker-move", label="North: flowers / seasons")
    page.click("#picker-move-go")
    page.wait_for_selector("#picker:not([open])", state="attached")
    assert tile_location(page, tile_id) == ["N", "bonus"]
    focus_comes_back_to(page, tile_id)
    # a place chosen and Done pressed moves the tile too
    page.locator(f'#hands button.tile[data-id="{tile_id}"]').click()
    page.wait_for_selector("#picker[open]")
    page.select_option("#picker-move", label="North: concealed")
    page.click("#picker-close")
    page.wait_for_selector("#picker:not([open])", state="attached")
    assert tile_location(page, tile_id) == ["N", "concealed"]


def test_a_face_down_kong_end_is_named_as_read(server, page):
    """A concealed kong shows its ends face down: in the picker each end says it was read as a
    face-down tile, counted as the kong's kind, and not as a face read with that confidence."""
    def concealed_kong(recognition):
        recognition["seats"]["E"]["melds"][0]["exposed"] = False
        ends = [t for t in recognition["tiles"] if t["seat"] == "E" and t["code"] == "5z"][:2]
        for t in ends:
            t.update(code="back", face_down=True, confidence=0.58)

    answer_from_truth(page, concealed_kong)
    upload_example(page, server)
    texts = []
    tiles = page.locator('article[data-seat="E"] [data-set="meld-0"] button.tile[data-id]')
    assert tiles.count() == 4
    for i in range(4):
        tiles.nth(i).click()
        page.wait_for_selector("#picker[open]")
        texts.append(page.inner_text("#picker-current"))
        page.keyboard.press("Escape")
        page.wait_for_selector("#picker:not([open])", state="attached")
    assert sum("Read as face-down tile (58% sure), counted as White Dragon" in t for t in texts) == 2
    assert sum(t.startswith("Read as White Dragon (100% sure)") for t in texts) == 2


def test_a_new_photo_asks_only_over_corrected_tiles(server, page):
    """Choosing the winner or the rules loses nothing a new photo would throw away: no question."""
    answer_from_truth(page)
    upload_example(page, server)
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.select_option("#ruleset", "classical")
    page.select_option("#win_by", "self-draw")
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("body[data-state=recognized]")
    wait_until(page, "document.querySelector('#win_by').value === 'discard'")  # read afresh
    assert asked == []


def test_a_photo_without_tiles_says_so(server, page):
    page.route("**/api/v1/recognize", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body=json.dumps({"width": 640, "height": 480, "tiles": [], "seats": {},
                         "warnings": ["no tiles found in the image: photograph the table from above"]})))
    page.goto(server + "/")
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("#status.error")
    assert "No tiles were found in this photo" in page.inner_text("#status")
    assert page.locator("#table").is_hidden()


def test_a_warning_shows_the_tiles_it_is_about(server, page):
    """A warning counts tiles along a seat's groups in the photo ("tile 3 of North"), which no
    view on the page numbers: its button marks the tile, in its hand and on the photo, and puts
    the keyboard on it."""
    named = {}

    def warn_about_one(recognition):
        k = next(i for i, t in enumerate(recognition["tiles"]) if t["seat"] == "N" and not t["face_down"])
        named.update(recognition["tiles"][k])
        recognition["warnings"] = ["the photo is blurred", "low confidence: tile 3 of North (read as f2, 40%; else 5z 31%)"]
        recognition["warning_tiles"] = [[], [k]]

    answer_from_truth(page, warn_about_one)
    upload_example(page, server)
    buttons = page.locator("#warnings button.show-tiles")
    assert buttons.count() == 1 and page.locator("#warnings li").count() == 2
    # tile codes in the player's words
    assert "(read as Orchid, 40%; else White Dragon 31%)" in page.locator("#warnings li").nth(1).inner_text()
    buttons.focus()
    page.keyboard.press("Enter")  # from the keyboard: the tile it puts the keyboard on shows the ring
    marked = page.locator("#hands button.tile.named")
    assert marked.count() == 1 and marked.get_attribute("data-code") == named["code"]
    assert page.evaluate("document.activeElement.classList.contains('named')")
    # the mark and the keyboard's ring (on the same tile here) are told apart by their colours
    ring, mark = marked.evaluate("b => [getComputedStyle(b).outlineColor, getComputedStyle(b).boxShadow]")
    assert ring == "rgb(26, 115, 232)" and "rgb(123, 47, 190)" in mark
    tile_id = marked.get_attribute("data-id")
    assert page.locator(f'#overlay g.box.named[data-id="{tile_id}"]').count() == 1
    # the tile removed, the warning has nothing left to show
    marked.click()
    page.wait_for_selector("#picker[open]")
    page.click("#picker-delete")
    page.wait_for_selector("#picker:not([open])", state="attached")
    assert page.locator("#warnings button.show-tiles").count() == 0 and page.locator("#warnings li").count() == 2


# a tile lying by itself behind North's row (North sits at the photo's left) that North's hand,
# full without it, leaves out, and a warning naming it: an answer's tile no hand holds (the page
# reads /api/v1/recognize, where vision/hands.py leaves out face-down tiles so; the group is
# /api/v1/photo/score's for a rack's corner, vision/extras.py: the page does not judge why)
NORTH_STRAY_BOX = [290.0, 374.7, 330.6, 405.0]
NORTH_STRAY_WARNING = ("North: the 5z lying by itself apart from the sets is not counted: North's hand has its 13 "
                       "tiles without it (a tile rack's corner or a stray piece found as a tile?): check it")


def upload_with_answer(page, server, edit, wind: str):
    """The example photo uploaded with its true answer changed by `edit` (answer_from_truth):
    (the true case, `wind`'s hand in it, the winner's hand, the score requests the page sends)."""
    case = answer_from_truth(page, edit)["case"]
    hand = next(h for h in case["hands"] if h["seat"] == wind)
    winner = next(h for h in case["hands"] if h["winner"])
    sent = capture_score_requests(page)
    upload_example(page, server)
    return case, hand, winner, sent


def left_out_tiles(page, wind: str) -> list[tuple[str, str]]:
    """(id, code) of the tiles waiting under "Not placed" as found beside `wind`'s hand."""
    return page.locator(f'#hands article.unplaced [data-set="left-out"][data-near="{wind}"] button.tile[data-id]'
                        ).evaluate_all("bs => bs.map(b => [b.dataset.id, b.dataset.code])")


def test_a_tile_the_recogniser_left_out_of_a_hand_waits_beside_it_unscored(server, page):
    """A recognised tile that no hand holds (North's hand is whole without a lone 5z found behind
    its row) is not put in that hand's concealed tiles: it waits under "Not placed", named as
    found beside North's hand, its box on the photo struck through and still opening the picker,
    its warning pointing at it; the table scored is the hands as recognised, and once moved into
    North's concealed tiles it counts there.  A tile found beside no hand waits there as before."""
    from scoring.tiles import parse_tiles

    stray = {}

    def with_a_stray(recognition):
        recognition["tiles"].append({"box": NORTH_STRAY_BOX, "code": "5z", "confidence": 0.93, "seat": "N",
                                     "group": "extra", "face_down": False})
        recognition["tiles"].append({"box": [1500.0, 60.0, 1530.0, 100.0], "code": "9s", "confidence": 0.9,
                                     "seat": None, "group": None, "face_down": False})
        stray["index"] = len(recognition["tiles"]) - 2
        recognition["warnings"] = [NORTH_STRAY_WARNING]
        recognition["warning_tiles"] = [[stray["index"]]]
        recognition["warning_kinds"] = ["extra"]

    case, north, winner, sent = upload_with_answer(page, server, with_a_stray, "N")

    # waiting beside North's hand, not in it; the tile found beside no hand waits apart
    (tile_id, code), = left_out_tiles(page, "N")
    assert code == "5z"
    assert tile_location(page, tile_id) == [None, "left-out"]
    concealed = 'article[data-seat="N"] [data-set="concealed"] button.tile[data-id]'
    assert page.locator(concealed).count() == len(parse_tiles(north["concealed"]))
    assert page.locator(f'article[data-seat="N"] button.tile[data-id="{tile_id}"]').count() == 0
    assert "13 tiles" in page.inner_text('article[data-seat="N"] h3')
    assert page.locator('#hands article.unplaced [data-set="unplaced"] button.tile[data-code="9s"]').count() == 1
    assert "left out of North's hand" in page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "aria-label")
    assert "Beside North's hand" in page.inner_text('#hands article.unplaced [data-set="left-out"]')
    assert "left out" in page.inner_text("#status")
    if SCREENSHOTS:
        page.screenshot(path=str(SCREENSHOTS / "page-left-out.png"), full_page=True)
    # on the photo: drawn, struck through as left out, and opening the tile
    box = page.locator(f'#overlay g.box.left-out[data-id="{tile_id}"]')
    assert box.count() == 1 and box.locator("line").count() == 1
    assert page.locator("#overlay g.box.left-out").count() == 1  # the tile beside no hand is drawn as before
    box.click()
    page.wait_for_selector("#picker[open]")
    assert "left out of it" in page.inner_text("#picker-where") and "North" in page.inner_text("#picker-where")
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")
    # its warning shows it, where it waits
    page.click("#warnings button.show-tiles")
    assert page.evaluate("document.activeElement.dataset.id") == tile_id
    assert page.locator(f'#overlay g.box.named[data-id="{tile_id}"]').count() == 1

    # the hand scored is North's as recognised: the engine's scores for the table as it is
    page.select_option("#winner", winner["seat"])
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    assert normalised(sent[-1]["hands"]) == normalised(case["hands"])
    assert shown_results(page) == expected_results(score_table(case))

    # the camera's wind changed: named by the wind North's hand now shows, as its warning names it
    page.select_option("#camera_seat", "N")  # the left edge's hand is West's now
    assert [i for i, _ in left_out_tiles(page, "W")] == [tile_id] and not left_out_tiles(page, "N")
    assert "Beside West's hand" in page.inner_text('#hands article.unplaced [data-set="left-out"]')
    assert page.inner_text("#warnings li").startswith("West: the White Dragon lying by itself")
    page.select_option("#camera_seat", "E")
    # a reload keeps it where it waits
    page.reload()
    page.wait_for_selector("body[data-state=recognized]")
    assert [i for i, _ in left_out_tiles(page, "N")] == [tile_id]

    # moved into North's concealed tiles, it counts there, and is no longer marked left out
    move(page, tile_id, "North: concealed")
    assert tile_location(page, tile_id) == ["N", "concealed"]
    assert not left_out_tiles(page, "N")
    assert page.locator(f'#overlay g.box[data-id="{tile_id}"]:not(.left-out)').count() == 1
    assert "left out" not in page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "aria-label")
    score(page)
    hand = next(h for h in sent[-1]["hands"] if h["seat"] == "N")
    assert sorted(parse_tiles(hand["concealed"])) == sorted(parse_tiles(north["concealed"]) + ["5z"])


# the recogniser's warning about a lone tile lying apart (vision/hands.py), North's 5z here
NORTH_APART_WARNING = ("North: the tiles 5z (tiles 14) are apart from the concealed run but are not a chow, pung or "
                       "kong; counted with the concealed tiles")


# and West's, a fifteenth tile, with its count
WEST_APART_WARNING = ("West: the tiles 1z (tiles 15) are apart from the concealed run but are not a chow, pung or "
                      "kong; counted with the concealed tiles")
WEST_COUNT_WARNING = ("West has 15 tiles (a hand holds 13, the winner 14, not counting each kong's fourth tile or "
                      "bonus tiles; expected 13 or 14)")


def lay_apart(recognition, seat: str, code: str, box: list[float]) -> int:
    """Add a tile of `code` lying by itself apart from `seat`'s sets (group "apart", counted with
    its concealed tiles) to a recognition answer; returns its index."""
    from scoring.tiles import format_tiles, parse_tiles

    hand = recognition["seats"][seat]
    hand["concealed"] = format_tiles(parse_tiles(hand["concealed"]) + [code], sort=True)
    x1, y1, x2, y2 = box
    recognition["tiles"].append({"box": box, "quad": [[x1, y1], [x2, y1], [x2, y2], [x1, y2]], "code": code,
                                 "confidence": 0.93, "seat": seat, "group": "apart", "face_down": False})
    return len(recognition["tiles"]) - 1


def photo_case(recognition: dict, context: dict, warnings: list | None = None) -> dict:
    """The case `mjscore photo` and api/v1/photo/score build from a recognition answer (as the
    page got it) and what the page's fields say: vision.case.build_case, which leaves a lone tile
    apart out of a hand full without it (vision/extras.py); `warnings`, if given, gets the
    recognition's warnings as build_case leaves them."""
    import numpy as np

    from vision import Recognition, RecognizedTile, build_case
    from vision.quad import TileQuad

    answer = json.loads(json.dumps(recognition))
    tiles = [RecognizedTile(TileQuad(np.array(t["quad"], np.float32)), t["code"], t["confidence"], t["seat"],
                            t["group"], bool(t.get("sideways")), t.get("candidates", [])) for t in answer["tiles"]]
    recognition = Recognition("photo", answer["width"], answer["height"], "E", tiles, answer["seats"],
                              answer["warnings"])
    case = build_case(recognition, {"ruleset": "pung-chow", **context})
    if warnings is not None:
        warnings.extend(recognition.warnings)
    return case


def test_a_lone_tile_apart_that_a_full_hand_holds_is_left_out_once_the_winner_is_known(server, page):
    """North's 13 tiles and a 5z lying by itself apart from them (a rack's corner, say), no tile
    lying sideways: the page counts it until the winner is chosen; a winner other than North
    leaves it out, as `mjscore photo` does (vision/extras.py): it waits beside North's hand under
    "Not placed", unscored, a warning saying why in place of the one that counted it, and the
    table sent is the one build_case makes.  Through a reload it stays so; North chosen, it goes
    back and is North's winning tile (14 with a lone tile laid apart); a tile a person has moved
    back into the hand stays there whoever wins."""
    from scoring.tiles import parse_tiles

    answer = {}

    def north_lays_one_apart(recognition):
        for hand in recognition["seats"].values():
            hand["winning_tile"] = None
        k = lay_apart(recognition, "N", "5z", NORTH_STRAY_BOX)
        recognition["warnings"] = [NORTH_APART_WARNING]
        recognition["warning_tiles"] = [[k]]
        recognition["warning_kinds"] = ["apart"]
        answer.update(recognition)

    case, north, winner, sent = upload_with_answer(page, server, north_lays_one_apart, "N")
    concealed = 'article[data-seat="N"] [data-set="concealed"] button.tile[data-id]'
    # no winner yet: the 5z is one of North's concealed tiles, as recognised
    tile_id = page.locator(f'{concealed}[data-code="5z"]').get_attribute("data-id")
    assert page.locator(concealed).count() == 14 and not left_out_tiles(page, "N")
    assert page.inner_text("#warnings li").startswith("North: the tiles White Dragon (tiles 14) are apart")

    page.select_option("#winner", winner["seat"])
    assert left_out_tiles(page, "N") == [[tile_id, "5z"]]
    assert page.locator(concealed).count() == 13 and "13 tiles" in page.inner_text('article[data-seat="N"] h3')
    assert "left out of North's hand" in page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "aria-label")
    assert page.locator(f'#overlay g.box.left-out[data-id="{tile_id}"] line').count() == 1
    said = page.locator("#warnings li")
    assert said.count() == 1 and said.inner_text().startswith(
        "North: the White Dragon lying by itself apart from the sets is not counted: North's hand has its 13 tiles "
        "without it (a tile rack's corner or a stray piece found as a tile?): check it")
    page.click("#warnings button.show-tiles")
    assert page.evaluate("document.activeElement.dataset.id") == tile_id
    page.keyboard.press("Enter")
    page.wait_for_selector("#picker[open]")
    assert "has its 13 tiles without it" in page.inner_text("#picker-where")
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")

    def mark_wests_winning_tile():
        page.locator(f'article[data-seat="{winner["seat"]}"] [data-set="concealed"] '
                     f'button.tile[data-code="{winner["winning_tile"]}"]').last.click()
        page.wait_for_selector("#picker[open]")
        page.check("#picker-winning")
        page.keyboard.press("Escape")
        page.wait_for_selector("#picker:not([open])", state="attached")

    # scored with West's winning tile marked: the table `mjscore photo` makes of the same answer
    mark_wests_winning_tile()
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    cli = photo_case(answer, {"winner": winner["seat"], "win_by": winner["win_by"],
                              "winning_tile": winner["winning_tile"]})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"]) == normalised(case["hands"])
    assert shown_results(page) == expected_results(score_table(case))

    # a reload keeps it where it waits, once
    codes = sorted(page.locator("#hands button.tile[data-id]").evaluate_all("bs => bs.map(b => b.dataset.code)"))
    page.reload()
    page.wait_for_selector("body[data-state=recognized]")
    assert left_out_tiles(page, "N") == [[tile_id, "5z"]] and page.locator(concealed).count() == 13
    assert sorted(page.locator("#hands button.tile[data-id]").evaluate_all("bs => bs.map(b => b.dataset.code)")) == codes
    assert page.inner_text("#warnings li").startswith("North: the White Dragon lying by itself")

    # North won: the 5z is back, and it is the tile North laid apart to show it won
    page.select_option("#winner", "N")
    assert not left_out_tiles(page, "N") and tile_location(page, tile_id) == ["N", "concealed"]
    assert page.locator(concealed).count() == 14
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [tile_id]
    assert page.inner_text("#warnings li").startswith("North: the tiles White Dragon (tiles 14) are apart")
    score(page)
    cli = photo_case(answer, {"winner": "N", "win_by": winner["win_by"]})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    assert next(h for h in sent[-1]["hands"] if h["winner"])["winning_tile"] == "5z"
    assert next(h for h in cli["hands"] if h["winner"])["winning_tile"] == "5z"

    # West again: left out again; moved back into North's hand by a person, it stays whoever wins
    page.select_option("#winner", winner["seat"])
    assert left_out_tiles(page, "N") == [[tile_id, "5z"]]
    move(page, tile_id, "North: concealed")
    for seat in ("S", winner["seat"]):
        page.select_option("#winner", seat)
        assert tile_location(page, tile_id) == ["N", "concealed"] and not left_out_tiles(page, "N")
    mark_wests_winning_tile()
    scored = len(sent)
    score(page)
    assert len(sent) == scored + 1
    hand = next(h for h in sent[-1]["hands"] if h["seat"] == "N")
    assert sorted(parse_tiles(hand["concealed"])) == sorted(parse_tiles(north["concealed"]) + ["5z"])


def test_a_lone_tile_apart_is_left_out_only_of_a_hand_full_without_it(server, page):
    """The winner read from the photo (West's sideways tile), each seat with a tile lying by
    itself apart: North's 5z, a fourteenth tile, and West's 1z, a fifteenth, are left out at once;
    South's 7z, a fourteenth too, is a copy of South's pung 777z (it may be the kong's fourth) and
    stays, South named as a seat that did not win but holds 14; East's 2z leaves East 13 and
    stays.  The table sent, and South's warning, are the ones `mjscore photo` makes."""
    answer = {}

    def each_lays_one_apart(recognition):
        north = lay_apart(recognition, "N", "5z", NORTH_STRAY_BOX)
        lay_apart(recognition, "S", "7z", [1500.0, 700.0, 1530.0, 740.0])
        west = lay_apart(recognition, "W", "1z", [700.0, 60.0, 730.0, 100.0])
        east = next(t for t in recognition["tiles"] if t["seat"] == "E" and t["code"] == "2z")
        east["group"] = "apart"
        # the recogniser's warnings about West's 1z and count, told by their kinds; North's, as an
        # answer from before the kinds gives it (none), is shown as it is
        recognition["warnings"] = [NORTH_APART_WARNING, WEST_APART_WARNING, WEST_COUNT_WARNING]
        recognition["warning_tiles"] = [[north], [west], [i for i, t in enumerate(recognition["tiles"])
                                                          if t["seat"] == "W"]]
        recognition["warning_kinds"] = ["", "apart", "count"]
        answer.update(recognition)

    case, _, winner, sent = upload_with_answer(page, server, each_lays_one_apart, "N")
    assert page.input_value("#winner") == winner["seat"]
    assert [code for _, code in left_out_tiles(page, "N")] == ["5z"]
    assert [code for _, code in left_out_tiles(page, "W")] == ["1z"]
    assert "2 tiles found beside hands were left out" in page.inner_text("#status")
    shown = page.locator("#warnings li").all_inner_texts()
    assert [w.split(":")[0] for w in shown[:3]] == ["North", "West", "North"]
    assert len(shown) == 4 and shown[3].startswith("South did not win but holds 14 tiles")
    assert shown[0].startswith("North: the tiles White Dragon (tiles 14) are apart")
    assert shown[1].startswith("West: the East Wind lying by itself apart from the sets is not counted: West's hand "
                               "has its 14 tiles without it")
    assert shown[2].startswith("North: the White Dragon lying by itself apart from the sets is not counted")
    assert not left_out_tiles(page, "S") and not left_out_tiles(page, "E")
    assert page.locator('article[data-seat="S"] [data-set="concealed"] button.tile[data-code="7z"]').count() == 1
    assert page.locator('article[data-seat="E"] [data-set="concealed"] button.tile[data-code="2z"]').count() == 1
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    said: list = []
    cli = photo_case(answer, {"winner": winner["seat"], "win_by": winner["win_by"]}, said)
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    assert shown_results(page) == expected_results(score_table(cli))
    south, = [w for w in said if "did not win" in w]
    assert shown[3].startswith(south) and shown[3].endswith(f"show the {len(south.tiles)} tiles")


def test_a_seat_that_did_not_win_but_holds_14_is_named_once_the_winner_is_known(server, page):
    """North holds 14 tiles, two of them lying apart (its own 2z and a 5z laid by it), so no lone
    tile apart is left out: once the winner is known (West's sideways tile) the page names North,
    as `mjscore photo` does (vision/extras.py), its button showing North's tiles; North chosen as
    the winner, North is no longer named but West, now a seat that did not win holding 14, is;
    West again and the 5z removed (North holds 13), no seat is named."""
    answer = {}

    def north_holds_14(recognition):
        lay_apart(recognition, "N", "5z", NORTH_STRAY_BOX)
        next(t for t in recognition["tiles"] if t["seat"] == "N" and t["code"] == "2z")["group"] = "apart"
        answer.update(recognition)

    case, north, winner, sent = upload_with_answer(page, server, north_holds_14, "N")
    assert page.input_value("#winner") == winner["seat"] == "W"
    assert not left_out_tiles(page, "N")
    north_tiles = page.locator('article[data-seat="N"] button.tile[data-id]').evaluate_all(
        "bs => bs.map(b => b.dataset.id)")
    cli: list = []
    photo_case(answer, {"winner": "W", "win_by": winner["win_by"]}, cli)
    said = [w for w in cli if "did not win" in w]
    assert said == ["North did not win but holds 14 tiles (a hand that did not win holds 13, each kong counted as "
                    "three): a tile too many was read in North's hand, or North won: check it"]
    assert len(said[0].tiles) == len(north_tiles)
    item = page.locator("#warnings li", has_text="did not win")
    assert item.count() == 1 and item.inner_text().startswith(said[0])
    assert item.locator("button.show-tiles").inner_text() == f"show the {len(north_tiles)} tiles"
    item.locator("button.show-tiles").click()
    assert page.evaluate("document.activeElement.dataset.id") in north_tiles
    assert sorted(page.locator("#hands button.tile.named").evaluate_all("bs => bs.map(b => b.dataset.id)")) \
        == sorted(north_tiles)

    # North won: West holds 14 and did not win
    page.select_option("#winner", "N")
    item = page.locator("#warnings li", has_text="did not win")
    assert item.count() == 1 and item.inner_text().startswith("West did not win but holds 14 tiles")

    # West won, North's 5z taken away: North holds 13, no seat is named
    page.select_option("#winner", "W")
    assert page.locator("#warnings li", has_text="North did not win").count() == 1
    stray = page.locator('article[data-seat="N"] button.tile[data-code="5z"]').last
    stray.click()
    page.wait_for_selector("#picker[open]")
    page.click("#picker-delete")
    page.wait_for_selector("#picker:not([open])", state="attached")
    assert "13 tiles" in page.inner_text('article[data-seat="N"] h3')
    assert page.locator("#warnings li", has_text="did not win").count() == 0


def read_as_a_season(recognition, seat: str, code: str, box: list[float] | None = None) -> int:
    """Turn `seat`'s (first) `code` in a recognition answer, or a new tile at `box`, into a tile
    lying by itself that the recogniser, reading it unsurely, took for the season among its
    readings because flowers and seasons lie apart (vision/repairs.py repair_lone_tiles): in group
    "bonus", read as f6 (25%) with `code` likeliest (55%), among the hand's bonus tiles and out of
    its concealed ones, with the warning that says so (kind "bonus-apart"); no hand has a winning
    tile (none lies sideways).  Returns its index."""
    from scoring.tiles import format_tiles, parse_tiles

    hand = recognition["seats"][seat]
    candidates = [[code, 0.55], ["f6", 0.25], ["5z", 0.1]]
    if box is None:
        k = next(i for i, t in enumerate(recognition["tiles"]) if t["seat"] == seat and t["code"] == code)
        codes = parse_tiles(hand["concealed"])
        codes.remove(code)
        hand["concealed"] = format_tiles(codes, sort=True)
    else:
        x1, y1, x2, y2 = box
        recognition["tiles"].append({"box": box, "quad": [[x1, y1], [x2, y1], [x2, y2], [x1, y2]], "seat": seat,
                                     "face_down": False})
        k = len(recognition["tiles"]) - 1
    recognition["tiles"][k].update(code="f6", confidence=0.25, group="bonus", sideways=False, candidates=candidates)
    hand["bonus_tiles"] = "".join(sorted(parse_tiles(hand.get("bonus_tiles") or "") + ["f6"]))
    for each in recognition["seats"].values():
        each["winning_tile"] = None
    recognition.setdefault("warning_tiles", [[] for _ in recognition["warnings"]])
    recognition.setdefault("warning_kinds", ["" for _ in recognition["warnings"]])
    number = sum(t["seat"] == seat for t in recognition["tiles"][:k]) + 1
    recognition["warnings"].append(f"{WIND_NAMES[seat]}: tile {number} read as {code}, taken as f6 (its likeliest "
                                   "reading as a flower or season: it lies apart from the sets, where bonus tiles "
                                   "lie): check it")
    recognition["warning_tiles"].append([k])
    recognition["warning_kinds"].append("bonus-apart")
    return k


def upload_west_winning_on_a_season(page, server):
    """The example photo uploaded with West's 2s read as a season (read_as_a_season, no winner
    chosen yet): (the recognition answer sent, then upload_with_answer's four)."""
    answer = {}

    def west_wins_on_a_season(recognition):
        read_as_a_season(recognition, "W", "2s")
        answer.update(recognition)

    return (answer, *upload_with_answer(page, server, west_wins_on_a_season, "W"))


def test_a_winning_tile_taken_for_a_season_is_the_winning_tile_once_the_winner_is_chosen(server, page):
    """West laid its winning 2s (the example's sideways tile) by itself apart from the sets, read
    unsurely and taken for a season (read_as_a_season), so West holds 13 and a Summer and no tile
    lies sideways: choosing West
    puts the tile in West's hand as the 2s it was read as, marked as the winning tile, with
    `mjscore photo`'s warning in place of the one that took it for a season, and the table sent is
    the true one, which build_case makes of the same answer (vision/extras.py
    winning_tile_read_as_bonus).  A reload keeps it so, once; another winner puts it back as the
    Summer; a tile a person has read stays where it is whoever wins."""
    answer, case, west, winner, sent = upload_west_winning_on_a_season(page, server)
    assert winner["seat"] == "W" and winner["winning_tile"] == "2s"
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    bonus = 'article[data-seat="W"] [data-set="bonus"] button.tile[data-id]'
    # no winner yet: the Summer is among West's flowers and seasons, as recognised
    tile_id = page.locator(f'{bonus}[data-code="f6"]').get_attribute("data-id")
    assert page.locator(concealed).count() == 13 and page.locator("#hands button.tile.winning").count() == 0
    assert page.input_value("#winner") == ""
    said = page.locator("#warnings li")
    assert said.count() == 1 and said.inner_text().startswith("West: tile 1 read as 2 Bamboo, taken as Summer")

    def taken():
        assert tile_location(page, tile_id) == ["W", "concealed"] and page.locator(bonus).count() == 0
        assert page.locator(concealed).count() == 14
        assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [tile_id]
        assert page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "data-code") == "2s"
        assert said.count() == 1 and said.inner_text().startswith(
            "West won holding 13 tiles without the tile laid apart from the sets: read as 2 Bamboo (55%) "
            "and taken for Summer only because flowers and seasons lie apart, it is taken as the winning tile "
            "2 Bamboo; if it is Summer, or another tile won, correct it")

    page.select_option("#winner", "W")
    taken()
    # the picker says what the recogniser answered, and what it counts as
    page.locator(f'#hands button.tile[data-id="{tile_id}"]').click()
    page.wait_for_selector("#picker[open]")
    assert "Read as Summer (25% sure), counted as 2 Bamboo" in page.inner_text("#picker-current")
    assert page.is_checked("#picker-winning")
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")
    page.click("#warnings button.show-tiles")
    assert page.evaluate("document.activeElement.dataset.id") == tile_id

    # scored: the true table, which `mjscore photo` makes of the same answer, and the engine's scores
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"]})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"]) == normalised(case["hands"])
    assert ([h["winning_tile"] for h in sent[-1]["hands"] if h["winner"]]
            == [h["winning_tile"] for h in cli["hands"] if h["winner"]] == ["2s"])
    assert shown_results(page) == expected_results(score_table(case))

    # a reload keeps it so, once
    codes = sorted(page.locator("#hands button.tile[data-id]").evaluate_all("bs => bs.map(b => b.dataset.code)"))
    page.reload()
    page.wait_for_selector("body[data-state=recognized]")
    taken()
    assert sorted(page.locator("#hands button.tile[data-id]").evaluate_all("bs => bs.map(b => b.dataset.code)")) == codes

    # North won: the tile is West's Summer again, and the recogniser's warning with it
    page.select_option("#winner", "N")
    assert tile_location(page, tile_id) == ["W", "bonus"]
    assert page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "data-code") == "f6"
    assert page.locator(concealed).count() == 13 and page.locator("#hands button.tile.winning").count() == 0
    assert said.count() == 1 and said.inner_text().startswith("West: tile 1 read as 2 Bamboo, taken as Summer")
    page.select_option("#winner", "")
    assert tile_location(page, tile_id) == ["W", "bonus"]

    # West again: taken again; read by a person, it is theirs, and stays whoever wins
    page.select_option("#winner", "W")
    taken()
    pick_tile(page, page.locator(f'#hands button.tile[data-id="{tile_id}"]'), "2s")
    for seat in ("S", "W"):
        page.select_option("#winner", seat)
        assert tile_location(page, tile_id) == ["W", "concealed"]
        assert page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "data-code") == "2s"


def test_a_tile_taken_for_a_season_is_no_winning_tile_of_a_hand_dealt_complete(server, page):
    """A hand won as dealt (original hand) has no winning tile: build_case neither takes a tile
    for a season back as one nor marks one laid apart, and the page, mirroring it, puts West's
    tile taken as the winning tile back among its flowers when that is chosen as how West won
    (the table sent is build_case's), and takes it again when another way is."""
    answer, case, west, winner, sent = upload_west_winning_on_a_season(page, server)
    bonus = 'article[data-seat="W"] [data-set="bonus"] button.tile[data-id]'
    tile_id = page.locator(f'{bonus}[data-code="f6"]').get_attribute("data-id")
    page.select_option("#winner", "W")
    assert tile_location(page, tile_id) == ["W", "concealed"]
    page.select_option("#win_by", "original-hand")
    assert tile_location(page, tile_id) == ["W", "bonus"]
    assert page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "data-code") == "f6"
    assert page.locator("#hands button.tile.winning").count() == 0
    assert not any(w.startswith("West won") for w in page.locator("#warnings li").all_inner_texts())
    score(page)
    cli = photo_case(answer, {"winner": "W", "win_by": "original-hand"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    page.select_option("#win_by", "self-draw")
    assert tile_location(page, tile_id) == ["W", "concealed"]
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [tile_id]


@pytest.mark.parametrize("why", ["a hand of 14 without it", "two such tiles"])
def test_a_tile_taken_for_a_season_stays_one_unless_it_alone_makes_the_winners_hand(server, page, why):
    """The winner's tile taken for a season stays a season when West holds 14 without it (its
    flowers are its own: West's 2s stays in the run, its mark taken off) or when two of its
    tiles were so taken (which won is not known): choosing West moves neither, and no tile is
    marked as the winning tile, as build_case asks which tile won."""
    from vision import CaseError

    answer = {}

    def edit(recognition):
        if why == "two such tiles":
            read_as_a_season(recognition, "W", "2s")
        read_as_a_season(recognition, "W", "9m", [700.0, 60.0, 730.0, 100.0])
        answer.update(recognition)

    case, west, winner, sent = upload_with_answer(page, server, edit, "W")
    seasons = page.locator('article[data-seat="W"] [data-set="bonus"] button.tile[data-id]')
    held = page.locator('article[data-seat="W"] [data-set="concealed"] button.tile[data-id]').count()
    ids = seasons.evaluate_all("bs => bs.map(b => b.dataset.id)")
    assert len(ids) == (2 if why == "two such tiles" else 1)
    page.select_option("#winner", "W")
    assert seasons.evaluate_all("bs => bs.map(b => b.dataset.id)") == ids
    assert seasons.evaluate_all("bs => bs.map(b => b.dataset.code)") == ["f6"] * len(ids)
    assert page.locator('article[data-seat="W"] [data-set="concealed"] button.tile[data-id]').count() == held
    assert page.locator("#hands button.tile.winning").count() == 0
    assert not any(w.startswith("West won") for w in page.locator("#warnings li").all_inner_texts())
    with pytest.raises(CaseError) as err:
        photo_case(answer, {"winner": "W", "win_by": winner["win_by"]})
    assert err.value.code == "no-winning-tile"


def mark_winning_tile(page, tile_id: str, marked: bool = True) -> None:
    """Tick "winning tile" in the picker of a tile on the page (untick it: `marked` false), as a
    person does."""
    page.locator(f'#hands button.tile[data-id="{tile_id}"]').click()
    page.wait_for_selector("#picker[open]")
    page.set_checked("#picker-winning", marked)
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")


def test_another_winning_tile_marked_puts_a_tile_taken_for_a_season_back(server, page):
    """West's 2s taken for a season (read_as_a_season) is West's winning tile once West is chosen;
    a person marking another of West's tiles, the 9p, as the winning tile puts it back among West's
    flowers and seasons as the Summer it was read as, the recogniser's warning in place of the
    page's, as `mjscore photo` takes such a tile as the winning tile only when no other is named
    (vision/extras.py winning_tile_read_as_bonus): the table sent is build_case's with the 9p
    named.  A reload keeps it so.  Taken again (North, then West chosen) and read by a person, the
    tile is theirs: it stays in West's hand when the 9p is marked."""
    answer, case, west, winner, sent = upload_west_winning_on_a_season(page, server)
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    bonus = 'article[data-seat="W"] [data-set="bonus"] button.tile[data-id]'
    tile_id = page.locator(f'{bonus}[data-code="f6"]').get_attribute("data-id")
    nine = page.locator(f'{concealed}[data-code="9p"]').get_attribute("data-id")
    said = page.locator("#warnings li")
    page.select_option("#winner", "W")
    assert tile_location(page, tile_id) == ["W", "concealed"] and said.inner_text().startswith("West won holding 13")

    def put_back():
        assert tile_location(page, tile_id) == ["W", "bonus"]
        assert page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "data-code") == "f6"
        assert page.locator(concealed).count() == 13
        assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [nine]
        assert said.count() == 1 and said.inner_text().startswith("West: tile 1 read as 2 Bamboo, taken as Summer")

    mark_winning_tile(page, nine)
    assert page.input_value("#winner") == "W"
    put_back()
    page.select_option("#win_by", winner["win_by"])
    score(page)
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"], "winning_tile": "9p"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    assert ([h["winning_tile"] for h in sent[-1]["hands"] if h["winner"]]
            == [h["winning_tile"] for h in cli["hands"] if h["winner"]] == ["9p"])

    page.reload()
    page.wait_for_selector("body[data-state=recognized]")
    put_back()

    # taken again, then read by a person: theirs, it stays in West's hand as they read it
    page.select_option("#winner", "N")
    page.select_option("#winner", "W")
    assert tile_location(page, tile_id) == ["W", "concealed"]
    pick_tile(page, page.locator(f'#hands button.tile[data-id="{tile_id}"]'), "2s")
    mark_winning_tile(page, nine)
    assert tile_location(page, tile_id) == ["W", "concealed"] and page.locator(concealed).count() == 14
    assert page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "data-code") == "2s"
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [nine]


def test_a_copy_of_its_kind_marked_keeps_a_tile_taken_for_a_season_taken(server, page):
    """West holding another 2s (its 1s read as one): marking that copy as the winning tile names
    the same kind, and `mjscore photo` with the 2s named still takes the tile taken for a season
    as West's winning tile (winning_tile_read_as_bonus): so does the page, the mark on the copy,
    the page's warning kept, the table sent build_case's."""
    answer = {}

    def west_holds_two(recognition):
        recognition["seats"]["W"]["concealed"] = "56667789p223333s"
        next(t for t in recognition["tiles"] if t["seat"] == "W" and t["code"] == "1s")["code"] = "2s"
        read_as_a_season(recognition, "W", "2s")
        answer.update(recognition)

    case, west, winner, sent = upload_with_answer(page, server, west_holds_two, "W")
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    tile_id = page.locator('article[data-seat="W"] [data-set="bonus"] button.tile[data-code="f6"]').get_attribute(
        "data-id")
    copy = page.locator(f'{concealed}[data-code="2s"]').get_attribute("data-id")
    page.select_option("#winner", "W")
    assert tile_location(page, tile_id) == ["W", "concealed"]
    mark_winning_tile(page, copy)
    assert tile_location(page, tile_id) == ["W", "concealed"] and page.locator(concealed).count() == 14
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [copy]
    assert page.inner_text("#warnings li").startswith("West won holding 13 tiles")
    page.select_option("#win_by", winner["win_by"])
    score(page)
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"], "winning_tile": "2s"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])


def test_a_lone_tile_apart_kept_as_the_only_winning_tile_is_left_out_once_another_is_marked(server, page):
    """West holds its 14 and a 1z laid by itself apart, no tile lying sideways: a person marking the
    1z as the winning tile names West the winner and keeps the 1z, the only copy of the winning
    tile, in West's hand (leaveOutExtras); marking West's 2s instead leaves the 1z out of the hand,
    full without it, as `mjscore photo` does with the 2s named (vision/extras.py drop_extra_tiles):
    it waits beside West's hand with the page's warning, the table sent is build_case's, and a
    reload keeps it so."""
    answer = {}
    case, west, winner, sent = upload_with_answer(page, server, west_lays_1z_apart(answer), "W")
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    tile_id = page.locator(f'{concealed}[data-code="1z"]').get_attribute("data-id")
    two = page.locator(f'{concealed}[data-code="2s"]').get_attribute("data-id")
    assert page.input_value("#winner") == "" and page.locator(concealed).count() == 15
    mark_winning_tile(page, tile_id)
    assert page.input_value("#winner") == "W" and tile_location(page, tile_id) == ["W", "concealed"]
    assert not left_out_tiles(page, "W")

    def left_out():
        assert left_out_tiles(page, "W") == [[tile_id, "1z"]] and page.locator(concealed).count() == 14
        assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [two]
        said = page.locator("#warnings li")
        assert said.count() == 1 and said.inner_text().startswith(
            "West: the East Wind lying by itself apart from the sets is not counted: West's hand has its 14 tiles "
            "without it")

    mark_winning_tile(page, two)
    left_out()
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"], "winning_tile": "2s"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"]) == normalised(case["hands"])
    assert shown_results(page) == expected_results(score_table(case))
    page.reload()
    page.wait_for_selector("body[data-state=recognized]")
    left_out()


def west_holds_two_2s(recognition):
    """West holding another 2s (its 1s read as one) and its winning 2s taken for a season
    (read_as_a_season): 13 tiles and a Summer read as 2s."""
    recognition["seats"]["W"]["concealed"] = "56667789p223333s"
    next(t for t in recognition["tiles"] if t["seat"] == "W" and t["code"] == "1s")["code"] = "2s"
    read_as_a_season(recognition, "W", "2s")


def winning_tiles(hands: list[dict]) -> list[str | None]:
    """The winner's winning tile in a table's hands (the cases sent and built)."""
    return [h["winning_tile"] for h in hands if h["winner"]]


def test_a_copy_of_its_kind_marked_after_another_kind_takes_a_tile_taken_for_a_season_again(server, page):
    """West's 2s taken for a season (west_holds_two_2s) is taken as West's winning tile once West is
    chosen; a person marking the 9p puts it back among the flowers; marking West's other 2s then
    names its kind, and `mjscore photo` with the 2s named takes the tile read as 2s out of the
    flowers (vision/extras.py winning_tile_read_as_bonus): so does the page, the mark staying on the
    copy the person marked, with the page's warning; the table sent, its winning tile too, is
    build_case's.  A reload keeps it so."""
    answer = {}

    def edit(recognition):
        west_holds_two_2s(recognition)
        answer.update(recognition)

    case, west, winner, sent = upload_with_answer(page, server, edit, "W")
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    bonus = 'article[data-seat="W"] [data-set="bonus"] button.tile[data-id]'
    tile_id = page.locator(f'{bonus}[data-code="f6"]').get_attribute("data-id")
    copy = page.locator(f'{concealed}[data-code="2s"]').get_attribute("data-id")
    nine = page.locator(f'{concealed}[data-code="9p"]').get_attribute("data-id")
    said = page.locator("#warnings li")
    page.select_option("#winner", "W")
    assert tile_location(page, tile_id) == ["W", "concealed"]
    mark_winning_tile(page, nine)
    assert tile_location(page, tile_id) == ["W", "bonus"] and page.locator(concealed).count() == 13

    def taken_again():
        assert tile_location(page, tile_id) == ["W", "concealed"] and page.locator(bonus).count() == 0
        assert page.get_attribute(f'#hands button.tile[data-id="{tile_id}"]', "data-code") == "2s"
        assert page.locator(concealed).count() == 14
        assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [copy]
        assert said.count() == 1 and said.inner_text().startswith(
            "West won holding 13 tiles without the tile laid apart from the sets: read as 2 Bamboo (55%)")

    mark_winning_tile(page, copy)
    taken_again()
    page.select_option("#win_by", winner["win_by"])
    score(page)
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"], "winning_tile": "2s"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    assert winning_tiles(sent[-1]["hands"]) == winning_tiles(cli["hands"]) == ["2s"]
    page.reload()
    page.wait_for_selector("body[data-state=recognized]")
    taken_again()


@pytest.mark.parametrize("how", ["West chosen first", "the mark names West"])
def test_the_kind_marked_picks_the_winners_tile_out_of_two_taken_for_seasons(server, page, how):
    """West holding 13 with two tiles taken for seasons, one read as 2s, one as 9m: choosing West
    takes neither (which won is not known); a person marking West's 2s as the winning tile, with
    West chosen or naming West the winner by the mark (North chosen before), names its kind, and
    `mjscore photo` with the 2s named takes the one read as 2s (winning_tile_read_as_bonus): so
    does the page, the mark staying on the person's 2s, the tile read as 9m left a season; the
    table sent is build_case's.  The 9p marked instead puts it back, as build_case with the 9p
    named takes neither."""
    answer = {}

    def edit(recognition):
        west_holds_two_2s(recognition)
        read_as_a_season(recognition, "W", "9m", [700.0, 60.0, 730.0, 100.0])
        answer.update(recognition)

    case, west, winner, sent = upload_with_answer(page, server, edit, "W")
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    bonus = 'article[data-seat="W"] [data-set="bonus"] button.tile[data-id]'
    seasons = page.locator(bonus).evaluate_all("bs => bs.map(b => b.dataset.id)")
    copy = page.locator(f'{concealed}[data-code="2s"]').get_attribute("data-id")
    nine = page.locator(f'{concealed}[data-code="9p"]').get_attribute("data-id")
    assert len(seasons) == 2 and page.locator(concealed).count() == 13
    page.select_option("#winner", "W" if how == "West chosen first" else "N")
    assert page.locator(bonus).evaluate_all("bs => bs.map(b => b.dataset.id)") == seasons
    assert page.locator("#hands button.tile.winning").count() == 0

    mark_winning_tile(page, copy)
    assert page.input_value("#winner") == "W"
    taken = [i for i in seasons if tile_location(page, i) == ["W", "concealed"]]
    assert len(taken) == 1 and page.get_attribute(f'#hands button.tile[data-id="{taken[0]}"]', "data-code") == "2s"
    assert page.locator(bonus).evaluate_all("bs => bs.map(b => b.dataset.code)") == ["f6"]
    assert page.locator(concealed).count() == 14
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [copy]
    assert any(w.startswith("West won holding 13 tiles") for w in page.locator("#warnings li").all_inner_texts())
    page.select_option("#win_by", winner["win_by"])
    score(page)
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"], "winning_tile": "2s"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    assert winning_tiles(sent[-1]["hands"]) == winning_tiles(cli["hands"]) == ["2s"]

    mark_winning_tile(page, nine)
    assert sorted(page.locator(bonus).evaluate_all("bs => bs.map(b => b.dataset.id)")) == sorted(seasons)
    assert page.locator(concealed).count() == 13
    scored = len(sent)
    score(page)
    assert len(sent) == scored + 1
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"], "winning_tile": "9p"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    assert winning_tiles(sent[-1]["hands"]) == winning_tiles(cli["hands"]) == ["9p"]


def hands_shown(page) -> list[list[str]]:
    """[id, code, seat (None: not placed), set] of every tile in the hands view, in order."""
    return page.locator("#hands button.tile[data-id]").evaluate_all(
        "bs => bs.map(b => [b.dataset.id, b.dataset.code, b.closest('article').dataset.seat || null,"
        " b.closest('.set').dataset.set])")


def asks_for_the_winning_tile(page, sent: list) -> None:
    """Scoring asks which of West's tiles won, and sends nothing."""
    scored = len(sent)
    score(page)
    assert "Mark the tile that won West the hand" in page.inner_text("#score-status") and len(sent) == scored


def test_the_mark_taken_off_a_tile_taken_for_a_season_puts_it_back(server, page):
    """West's 2s taken for a season (read_as_a_season) is taken as West's winning tile once West is
    chosen; a person taking its mark off says it did not win: it goes back among West's flowers
    and seasons as the Summer it was read as, where the recogniser put it, with the recogniser's
    warning, West holding 13 and the page asking which tile won; a tile a person read elsewhere
    stays as they read it.  A reload keeps it so."""
    answer, case, west, winner, sent = upload_west_winning_on_a_season(page, server)
    bonus = 'article[data-seat="W"] [data-set="bonus"] button.tile[data-id]'
    tile_id = page.locator(f'{bonus}[data-code="f6"]').get_attribute("data-id")
    north = page.locator('article[data-seat="N"] [data-set="concealed"] button.tile[data-id]').first
    north_id = north.get_attribute("data-id")
    kind = "7z" if north.get_attribute("data-code") != "7z" else "6z"
    pick_tile(page, north, kind)
    read = hands_shown(page)
    said = page.locator("#warnings li")
    recognised = said.all_inner_texts()
    assert len(recognised) == 1 and recognised[0].startswith("West: tile 1 read as 2 Bamboo, taken as Summer")
    page.select_option("#winner", "W")
    page.select_option("#win_by", winner["win_by"])
    assert tile_location(page, tile_id) == ["W", "concealed"]
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [tile_id]

    def put_back():
        assert hands_shown(page) == read
        assert page.locator("#hands button.tile.winning").count() == 0
        assert said.all_inner_texts() == recognised
        assert page.get_attribute(f'#hands button.tile[data-id="{north_id}"]', "data-code") == kind

    mark_winning_tile(page, tile_id, marked=False)
    put_back()
    asks_for_the_winning_tile(page, sent)
    page.reload()
    page.wait_for_selector("body[data-state=recognized]")
    put_back()


def test_the_mark_taken_off_another_tile_takes_a_tile_taken_for_a_season_again(server, page):
    """West's 2s taken for a season is West's winning tile once West is chosen; a person marking the
    9p puts it back among the flowers (test_another_winning_tile_marked_puts_a_tile_taken_for_a_
    season_back), and taking that mark off undoes it: the page takes the tile again as the
    winning tile with its own warning, as `mjscore photo` does with no winning tile named, and the
    table sent, its winning tile too, is build_case's."""
    answer, case, west, winner, sent = upload_west_winning_on_a_season(page, server)
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    tile_id = page.locator('article[data-seat="W"] [data-set="bonus"] button.tile[data-code="f6"]').get_attribute(
        "data-id")
    nine = page.locator(f'{concealed}[data-code="9p"]').get_attribute("data-id")
    page.select_option("#winner", "W")
    taken = hands_shown(page)
    said = page.locator("#warnings li")
    warned = said.all_inner_texts()
    assert tile_location(page, tile_id) == ["W", "concealed"] and warned[0].startswith("West won holding 13")
    mark_winning_tile(page, nine)
    assert tile_location(page, tile_id) == ["W", "bonus"]

    mark_winning_tile(page, nine, marked=False)
    assert hands_shown(page) == taken and said.all_inner_texts() == warned
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [tile_id]
    page.select_option("#win_by", winner["win_by"])
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"]})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"]) == normalised(case["hands"])
    assert winning_tiles(sent[-1]["hands"]) == winning_tiles(cli["hands"]) == ["2s"]


@pytest.mark.parametrize("seasons", [1, 2])
def test_the_mark_taken_off_a_kind_marked_undoes_what_it_took(server, page, seasons):
    """West holding 13, another 2s among them, with its 2s taken for a season (west_holds_two_2s)
    and, with two seasons, a 9m taken for one too.  A person marks West's other 2s, naming its kind,
    and takes the mark off again: the page is as West chosen alone left it, what `mjscore photo`
    makes with no winning tile named.  One season: the tile read as 2s taken and marked as the
    winning tile (the table sent build_case's); two: both seasons among the flowers, no tile
    marked, the page asking which tile won as build_case does."""
    from vision import CaseError

    answer = {}

    def edit(recognition):
        west_holds_two_2s(recognition)
        if seasons == 2:
            read_as_a_season(recognition, "W", "9m", [700.0, 60.0, 730.0, 100.0])
        answer.update(recognition)

    case, west, winner, sent = upload_with_answer(page, server, edit, "W")
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    copy = page.locator(f'{concealed}[data-code="2s"]').get_attribute("data-id")
    page.select_option("#winner", "W")
    page.select_option("#win_by", winner["win_by"])
    chosen = hands_shown(page)
    marked = page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)")
    said = page.locator("#warnings li")
    warned = said.all_inner_texts()
    assert len(marked) == 2 - seasons
    mark_winning_tile(page, copy)
    assert page.locator(concealed).count() == 14

    mark_winning_tile(page, copy, marked=False)
    assert hands_shown(page) == chosen and said.all_inner_texts() == warned
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == marked
    if seasons == 2:
        asks_for_the_winning_tile(page, sent)
        with pytest.raises(CaseError) as err:
            photo_case(answer, {"winner": "W", "win_by": winner["win_by"]})
        assert err.value.code == "no-winning-tile"
        return
    score(page)
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"]})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    assert winning_tiles(sent[-1]["hands"]) == winning_tiles(cli["hands"]) == ["2s"]


def west_lays_1z_apart(answer: dict):
    """An edit of the example's answer (answer_from_truth): West holds its 14 and a 1z laid by
    itself apart, no tile lying sideways; the answer is kept in `answer`."""
    def edit(recognition):
        for hand in recognition["seats"].values():
            hand["winning_tile"] = None
        k = lay_apart(recognition, "W", "1z", [700.0, 60.0, 730.0, 100.0])
        recognition["warnings"] = [WEST_APART_WARNING]
        recognition["warning_tiles"] = [[k]]
        recognition["warning_kinds"] = ["apart"]
        answer.update(recognition)
    return edit


def test_a_lone_tile_apart_is_left_out_once_another_is_marked_after_its_mark_was_taken_off(server, page):
    """West's 1z laid apart marked as the winning tile (kept, the only copy); the mark then taken
    off it: the 1z is left out of West's hand, full without it, and no tile is marked, as
    `mjscore photo` with no winning tile named leaves it out and asks which tile won; West's 2s
    then marked, it stays out, as `mjscore photo` with the 2s named leaves it out
    (vision/extras.py drop_extra_tiles); the table sent is build_case's."""
    from vision import CaseError

    answer = {}
    case, west, winner, sent = upload_with_answer(page, server, west_lays_1z_apart(answer), "W")
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    tile_id = page.locator(f'{concealed}[data-code="1z"]').get_attribute("data-id")
    two = page.locator(f'{concealed}[data-code="2s"]').get_attribute("data-id")
    mark_winning_tile(page, tile_id)
    assert page.input_value("#winner") == "W" and page.locator(concealed).count() == 15
    mark_winning_tile(page, tile_id, marked=False)
    assert page.locator("#hands button.tile.winning").count() == 0
    assert left_out_tiles(page, "W") == [[tile_id, "1z"]] and page.locator(concealed).count() == 14
    asks_for_the_winning_tile(page, sent)
    with pytest.raises(CaseError) as err:
        photo_case(answer, {"winner": "W", "win_by": page.input_value("#win_by")})
    assert err.value.code == "no-winning-tile"

    mark_winning_tile(page, two)
    assert left_out_tiles(page, "W") == [[tile_id, "1z"]] and page.locator(concealed).count() == 14
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [two]
    page.select_option("#win_by", winner["win_by"])
    score(page)
    cli = photo_case(answer, {"winner": "W", "win_by": winner["win_by"], "winning_tile": "2s"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"]) == normalised(case["hands"])
    assert winning_tiles(sent[-1]["hands"]) == winning_tiles(cli["hands"]) == ["2s"]


def test_a_mark_keeps_no_lone_tile_apart_in_a_hand_won_as_dealt(server, page):
    """West's 1z laid apart marked as the winning tile is kept in West's hand (the only copy);
    a hand won as dealt (original hand) has no winning tile, and build_case, naming none, leaves
    the 1z out of West's hand, full without it: so does the page once that is chosen as how West
    won, the mark taken off, the table sent build_case's.  Won otherwise again, the 1z is back in
    the hand with the mark the person put on it."""
    answer = {}
    case, west, winner, sent = upload_with_answer(page, server, west_lays_1z_apart(answer), "W")
    concealed = 'article[data-seat="W"] [data-set="concealed"] button.tile[data-id]'
    tile_id = page.locator(f'{concealed}[data-code="1z"]').get_attribute("data-id")
    mark_winning_tile(page, tile_id)
    assert page.input_value("#winner") == "W" and page.locator(concealed).count() == 15

    page.select_option("#win_by", "original-hand")
    assert left_out_tiles(page, "W") == [[tile_id, "1z"]] and page.locator(concealed).count() == 14
    assert page.locator("#hands button.tile.winning").count() == 0
    score(page)
    for named in ({}, {"winning_tile": "1z"}):
        cli = photo_case(answer, {"winner": "W", "win_by": "original-hand", **named})
        assert normalised(sent[-1]["hands"]) == normalised(cli["hands"]) == normalised(case["hands"])
        assert winning_tiles(sent[-1]["hands"]) == winning_tiles(cli["hands"]) == [None]

    page.select_option("#win_by", "discard")
    assert not left_out_tiles(page, "W") and tile_location(page, tile_id) == ["W", "concealed"]
    assert page.locator(concealed).count() == 15
    assert page.locator("#hands button.tile.winning").evaluate_all("bs => bs.map(b => b.dataset.id)") == [tile_id]
    scored = len(sent)
    score(page)
    assert len(sent) == scored + 1
    cli = photo_case(answer, {"winner": "W", "win_by": "discard", "winning_tile": "1z"})
    assert normalised(sent[-1]["hands"]) == normalised(cli["hands"])
    assert winning_tiles(sent[-1]["hands"]) == winning_tiles(cli["hands"]) == ["1z"]


def test_a_face_down_tile_of_a_run_waits_beside_its_hand_until_read_and_moved(server, page):
    """A tile of South's concealed run read surely face down is in no hand of the recogniser's
    answer (vision/hands.py: "South: tile 2 of the concealed tiles is face down", South holding
    12): the page leaves it out of South's hand too, beside it under "Not placed", and the
    table sent is South's 12; once its kind is picked and it is moved into South's concealed
    tiles, the table is the whole one and scores as the engine scores it."""
    from scoring.tiles import format_tiles, parse_tiles

    turned = {}

    def one_face_down(recognition):
        k = next(i for i, t in enumerate(recognition["tiles"]) if t["seat"] == "S" and t["group"] == "concealed")
        tile = recognition["tiles"][k]
        turned.update(code=tile["code"], index=k)
        tile.update(code="back", face_down=True, confidence=0.97)
        south = recognition["seats"]["S"]
        codes = parse_tiles(south["concealed"])
        codes.remove(turned["code"])
        south["concealed"] = format_tiles(codes, sort=True)
        recognition["warnings"] = ["South: tile 2 of the concealed tiles is face down",
                                   "South has 12 tiles (a hand holds 13, the winner 14, not counting each kong's "
                                   "fourth tile or bonus tiles; expected 13 or 14)"]
        recognition["warning_tiles"] = [[k], [i for i, t in enumerate(recognition["tiles"]) if t["seat"] == "S"]]
        recognition["warning_kinds"] = ["", "count"]

    case, south, winner, sent = upload_with_answer(page, server, one_face_down, "S")
    (tile_id, code), = left_out_tiles(page, "S")
    assert code == "back"
    assert page.locator('article[data-seat="S"] button.tile[data-code="back"]').count() == 0
    page.click("#warnings li:first-child button.show-tiles")
    assert page.evaluate("document.activeElement.dataset.id") == tile_id

    page.select_option("#winner", winner["seat"])
    page.select_option("#win_by", winner["win_by"])
    score(page)
    hand = next(h for h in sent[-1]["hands"] if h["seat"] == "S")
    as_recognised = parse_tiles(south["concealed"])
    as_recognised.remove(turned["code"])
    assert sorted(parse_tiles(hand["concealed"])) == sorted(as_recognised)  # 12, and no face-down tile

    pick_tile(page, page.locator(f'#hands button.tile[data-id="{tile_id}"]'), turned["code"])
    assert left_out_tiles(page, "S") == [[tile_id, turned["code"]]]  # read, still where it waits
    move(page, tile_id, "South: concealed")
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    assert normalised(sent[-1]["hands"]) == normalised(case["hands"])
    assert shown_results(page) == expected_results(score_table(case))


def test_warnings_name_each_player_by_the_wind_shown_after_the_camera_seat_changes(server, page):
    """The server names players by wind as the photo was sent (East at the bottom): the wind at
    the bottom set otherwise after, each warning names each player by the wind their hand now
    shows, every name moved at once (South becomes East as East becomes North), a tile's name
    ("East Wind") left alone; and so again after a reload."""
    def warn(recognition):
        k = next(i for i, t in enumerate(recognition["tiles"]) if t["seat"] == "S" and not t["face_down"])
        recognition["warnings"] = [
            "low confidence: tile 3 of South (read as f2, 40%; else 5z 31%)",
            "East has 15 tiles (a hand holds 13, the winner 14, not counting each kong's fourth tile or "
            "bonus tiles; expected 13 or 14)",
            "North: tile 2 read as f1, taken as 1z (its likeliest reading that is no flower or season: "
            "it lies among other tiles, and bonus tiles lie apart): check it",
            "five 1z on the table (East Wind; a set has 4)",
        ]
        recognition["warning_tiles"] = [[k], [], [], []]
        recognition["warning_kinds"] = ["", "count", "", ""]

    answer_from_truth(page, warn)
    upload_example(page, server)

    def warnings():
        return page.locator("#warnings li").all_inner_texts()

    sent = warnings()
    page.select_option("#camera_seat", "N")  # South's hand, at the right, is East's now
    for _ in range(2):
        shown = warnings()
        assert shown[0].startswith("low confidence: tile 3 of East (read as Orchid")
        assert shown[1].startswith("North has 15 tiles")
        assert shown[2].startswith("West: tile 2 read as Plum, taken as East Wind")
        assert shown[3].startswith("five 1z on the table (East Wind;")
        page.click("#warnings li:first-child button.show-tiles")
        assert page.locator("#hands button.tile.named").evaluate("b => b.closest('article').dataset.seat") == "E"
        page.reload()
        page.wait_for_selector("body[data-state=recognized]")
    page.select_option("#camera_seat", "E")
    assert warnings() == sent


def test_a_refused_table_points_to_its_hand_and_scores_are_announced(server, page):
    """The engine's refusal names a seat: a button beside it takes the keyboard to that hand, and
    no API code is shown; once scored, the keyboard is at the scores and the status line says who
    won and the nets."""
    truth = answer_from_truth(page)
    upload_example(page, server)
    winner = next(h for h in truth["case"]["hands"] if h["winner"])["seat"]
    spare = page.locator(f'article[data-seat="{winner}"] [data-set="concealed"] button.tile:not(.winning)[data-id]').first
    code = spare.get_attribute("data-code")
    spare.click()
    page.wait_for_selector("#picker[open]")
    page.click("#picker-delete")
    page.wait_for_selector("#picker:not([open])", state="attached")
    score(page)
    refusal = page.inner_text("#result-body")
    assert "This table cannot be scored" in refusal and "wrong-tile-count" not in refusal
    page.click("#result-body button.go-to-seat")
    assert page.evaluate("document.activeElement.closest('article').dataset.seat") == winner

    page.locator(f'article[data-seat="{winner}"] [data-set="concealed"] button.add').click()
    page.wait_for_selector("#picker[open]")
    page.click(f'#picker-kinds button[data-code="{code}"]')
    page.wait_for_selector("#picker:not([open])", state="attached")
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    assert page.evaluate("document.activeElement.id") == "results-title"
    status = page.inner_text("#status")
    assert status.startswith(f"Scored: {WIND_NAMES[winner]} won; ")
    shown = shown_results(page)
    assert len(shown) == 4
    for seat, (_, net) in shown.items():  # the nets the table shows, said in the status line
        assert f"{WIND_NAMES[seat]} {net}" in status


def test_choosing_no_winner_for_a_moment_keeps_the_winning_tiles_mark(server, page):
    """"(choose)" names no other player: the mark on West's winning tile stays; and each tile's
    name on the photo lies inside its own box (above it, a column's names fell in the box of the
    tile above)."""
    answer_from_truth(page)
    upload_example(page, server)
    assert page.locator("#hands button.tile.winning").count() == 1
    page.select_option("#winner", "")
    page.select_option("#winner", "W")
    assert page.locator("#hands button.tile.winning").count() == 1
    inside = page.locator("#overlay g.box").evaluate_all("""gs => gs.every(g => {
        const r = g.querySelector('rect').getBBox(), t = g.querySelector('text');
        const y = Number(t.getAttribute('y'));
        return y > r.y && y <= r.y + r.height + 1; })""")
    assert inside


def test_a_tap_between_boxes_on_the_photo_opens_the_nearest_tile(server, page):
    """On a phone the boxes are a few pixels wide: a tap that lands just beside one opens it."""
    answer_from_truth(page)
    upload_example(page, server)
    tile_id, centre, _ = page_tiles(page)[0]
    page.locator(f'#overlay g.box[data-id="{tile_id}"]').scroll_into_view_if_needed()
    box = page.locator(f'#overlay g.box[data-id="{tile_id}"] rect').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] + 2)  # just below it
    page.wait_for_selector("#picker[open]")
    assert page.evaluate("mjscore.picking.id") == int(tile_id)  # that tile, not another
    page.keyboard.press("Escape")
    page.wait_for_selector("#picker:not([open])", state="attached")
    page.locator("#overlay").scroll_into_view_if_needed()
    page.mouse.click(*(lambda b: (b["x"] + 3, b["y"] + 3))(page.locator("#overlay").bounding_box()))  # far from any
    assert page.locator("#picker[open]").count() == 0


class _StrippingProxy:
    """A web server in front of mjscore as a club would run one (nginx's `location /mahjong/ {
    proxy_pass http://127.0.0.1:8000/; }`): requests under PREFIX go on without it, anything else
    is a 404, and a body over `max_body` bytes gets the front server's own 413 page (nginx's
    client_max_body_size), not mjscore's JSON."""

    def __init__(self, upstream: str, prefix: str, max_body: int):
        import http.server
        import threading

        proxy = self
        self.seen: list[str] = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _forward(self):
                proxy.seen.append(self.path)
                if not self.path.startswith(prefix + "/"):
                    return self._answer(404, b"<html><body>404 Not Found</body></html>", "text/html")
                size = int(self.headers.get("content-length") or 0)
                if size > max_body:
                    return self._answer(413, b"<html><body><h1>413 Request Entity Too Large</h1></body></html>",
                                        "text/html")
                body = self.rfile.read(size) if size else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                r = httpx.request(self.command, upstream + self.path[len(prefix):], headers=headers, content=body,
                                  timeout=120)
                self._answer(r.status_code, r.content, r.headers.get("content-type", ""), r.headers)

            def _answer(self, status, body, content_type, headers=None):
                self.send_response(status)
                for k, v in (headers or {}).items():
                    if k.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding",
                                         "date", "server"):
                        self.send_header(k, v)
                if not headers:
                    self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            do_GET = do_POST = do_HEAD = _forward

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def behind_a_proxy():
    """mjscore served with `--root-path /mahjong` behind a front server that takes the prefix
    off (uploads over 1 MB refused by the front server, as nginx's default)."""
    proc, upstream = _serving([sys.executable, "-m", "api.cli", "serve", "--root-path", "/mahjong"])
    proxy = _StrippingProxy(upstream, "/mahjong", max_body=1024 * 1024)
    yield proxy
    proxy.close()
    proc.terminate()
    proc.wait(timeout=20)


def test_the_page_works_under_a_web_servers_path_prefix(behind_a_proxy, page, tmp_path):
    """A club serves mjscore at https://its-site/mahjong/: the page, its script modules, the example
    photo, reading and scoring all go through the front server under the prefix, and the API
    docs link there too.  An upload the front server refuses (its own 413 page, not mjscore's)
    says which setting is in the way."""
    proxy = behind_a_proxy
    page.goto(proxy.url + "/mahjong/")
    page.click("#example")
    page.wait_for_selector("body[data-state=recognized]", timeout=120_000)
    assert len(page_tiles(page)) >= 50
    page.select_option("#winner", "W")
    page.select_option("#win_by", "self-draw")
    score(page)
    assert page.get_attribute("body", "data-state") == "scored"
    assert page.get_attribute("footer a", "href") == "docs"
    page.click("footer a")
    page.wait_for_selector("#swagger-ui .info", timeout=30_000)  # the docs' assets and schema came through
    assert all(p.startswith("/mahjong/") for p in proxy.seen), [p for p in proxy.seen if not p.startswith("/mahjong/")]
    modules = {f"/mahjong/static/js/{p.name}" for p in (REPO / "api" / "static" / "js").glob("*.js")}
    assert modules | {"/mahjong/api/v1/recognize", "/mahjong/api/v1/score", "/mahjong/openapi.json"} <= set(proxy.seen)

    big = tmp_path / "big.jpg"
    big.write_bytes(EXAMPLE.read_bytes() + b"\0" * (1024 * 1024))  # over the front server's limit
    page.goto(proxy.url + "/mahjong/")
    page.set_input_files("#photo", str(big))
    page.wait_for_selector("#status.error")
    message = page.inner_text("#status")
    assert "web server in front of mjscore refused the upload as too large (HTTP 413)" in message
    assert "client_max_body_size" in message


@pytest.mark.parametrize("status, words", [
    (502, "mjscore is not answering behind its web server (HTTP 502)"),
    (504, "stopped waiting for the answer (HTTP 504)"),
    (500, "the server refused it (HTTP 500)"),
])
def test_a_front_servers_own_error_page_is_put_in_words(server, page, status, words):
    page.route("**/api/v1/recognize", lambda route: route.fulfill(
        status=status, content_type="text/html", body=f"<html><body><h1>{status}</h1></body></html>"))
    page.goto(server + "/")
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("#status.error")
    assert words in page.inner_text("#status")


def test_a_front_servers_error_when_scoring_or_fetching_the_example_is_not_called_a_correction(server, page):
    """A 502 from the web server in front while scoring is no table to correct, and the example
    photo it cannot fetch is not a lost connection: the status line says what happened."""
    answer_from_truth(page)
    upload_example(page, server)
    page.select_option("#winner", "W")
    page.route("**/api/v1/score", lambda route: route.fulfill(status=502, content_type="text/html",
                                                               body="<html><body>502 Bad Gateway</body></html>"))
    score(page)
    status = page.inner_text("#status")
    assert "The table could not be scored: mjscore is not answering behind its web server (HTTP 502)" in status
    assert "needs a correction" not in status
    page.route("**/static/example.jpg", lambda route: route.fulfill(status=502, content_type="text/html",
                                                                    body="<html><body>502</body></html>"))
    page.click("#example")
    page.wait_for_selector("#status.error:has-text('example photo could not be fetched')")
    assert "HTTP 502" in page.inner_text("#status")


def test_a_game_keeps_the_hands_added_with_east_passing_and_survives_a_reload(server, page):
    """Name four players, score the example (West wins, self-drawn), add it to the game: the
    game's hand and totals are the scores' payments by player, the deal passes (West won, so the
    player who was South becomes East), and the game is still there after a reload; the hand
    can be taken back and the game ended."""
    truth = answer_from_truth(page)
    page.goto(server + "/")
    page.evaluate("localStorage.clear()")
    page.select_option("#ruleset", "pung-chow-limit")
    for wind, name in zip("ESWN", ["Ann", "Bo", "Cy", "Di"]):
        page.fill(f"#player-{wind}", name)
    page.click("#game-begin")
    page.wait_for_selector("#game-on:not([hidden])")
    assert page.inner_text("#game-next") == "Hand 1, East round: East Ann, South Bo, West Cy, North Di."
    sent = capture_score_requests(page)
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("body[data-state=recognized]")
    # each hand's heading names the player sitting there at this hand
    assert page.inner_text('article[data-seat="E"] h3').startswith("East Ann (")
    assert page.inner_text('article[data-seat="W"] h3').startswith("West Cy (")
    page.select_option("#winner", "W")
    page.select_option("#win_by", "self-draw")
    score(page)
    result = score_table(sent[-1])
    assert "error" not in result, result
    page.click("#game-add")
    page.wait_for_selector("#game-add[disabled]")
    names = dict(zip("ESWN", ["Ann", "Bo", "Cy", "Di"]))
    totals = {p: page.inner_text(f'#game-body tfoot td[data-player="{p}"]') for p in names.values()}
    assert totals == {names[w]: (f"+{n}" if n > 0 else str(n)) for w, n in result["payments"].items()}
    assert page.inner_text("#game-next") == "Hand 2, East round: East Bo, South Cy, West Di, North Ann."
    assert "Hand 1 added, won by Cy" in page.inner_text("#game-status")
    if SCREENSHOTS:
        page.locator("#game").screenshot(path=str(SCREENSHOTS / "page-game.png"))
    assert page.inner_text("#result-body tbody tr[data-seat=W] th") == "West · Cy (winner)"

    page.reload()
    page.wait_for_selector("#game-on:not([hidden])")
    assert page.inner_text("#game-next").startswith("Hand 2, East round: East Bo")
    assert page.locator("#game-body tbody tr").count() == 1
    # the headings follow the game: the table brought back is hand 1, headed with its players
    assert page.inner_text('article[data-seat="E"] h3 .player').strip() == "Ann"
    page.click("#game-undo")
    page.wait_for_selector("#game-status:has-text('Hand 1 taken back')")
    assert page.inner_text("#game-next") == "Hand 1, East round: East Ann, South Bo, West Cy, North Di."
    assert page.locator("#game-body tbody tr").count() == 0
    assert page.inner_text('article[data-seat="E"] h3 .player').strip() == "Ann"
    page.click("#game-end")
    page.wait_for_selector("#game-start:not([hidden])")
    assert page.locator("#hands h3 .player").count() == 0
    assert page.evaluate("localStorage.getItem('mjscore.game')") is None
    assert truth  # the recognition answered was the example's ground truth


def test_a_game_needs_four_different_names(server, page):
    page.goto(server + "/")
    page.evaluate("localStorage.clear()")
    for wind, name in zip("ESW", ["Ann", "Bo", "Cy"]):
        page.fill(f"#player-{wind}", name)
    page.click("#game-begin")
    page.wait_for_selector("#game-status.error")
    assert "Name the player sitting North" in page.inner_text("#game-status")
    page.fill("#player-N", "ann")
    page.click("#game-begin")
    page.wait_for_selector("#game-status:has-text('four different names')")
    assert page.locator("#game-on").is_hidden()
    page.fill("#player-N", "Di")
    page.click("#game-begin")  # Part I, the page's first rules, plays no wind of the round: its rounds are counted
    page.wait_for_selector("#game-on:not([hidden])")
    assert page.inner_text("#game-next") == "Hand 1, round 1 of 4: East Ann, South Bo, West Cy, North Di."


@pytest.mark.parametrize("saved", ["{bad", '{"players": 1}', '{"ruleset": "classical", "players": ["A", "B", "C", "D"], '
                                   '"hands": [], "answer": {"hands": [], "totals": {}, "next": {}}}', "[]", "7"])
def test_a_game_saved_wrongly_in_the_browser_is_no_game_and_no_error(server, page, saved):
    page.goto(server + "/")
    page.evaluate("(v) => localStorage.setItem('mjscore.game', v)", saved)
    page.reload()
    page.wait_for_selector("#game-start:not([hidden])")
    assert page.locator("#game-on").is_hidden()
    assert "could not be read" in page.inner_text("#game-status")


def test_a_game_written_unreadably_by_another_tab_is_said_so_not_called_ended(server, page):
    """A storage event carrying what cannot be read (another tab, or this tab's own write before a
    reload, the event arriving late on a busy machine) says the saved game could not be read."""
    page.goto(server + "/")
    other = page.context.new_page()
    other.goto(server + "/")
    other.evaluate("() => localStorage.setItem('mjscore.game', '[]')")
    page.wait_for_selector("#game-status:has-text('could not be read')")
    assert "ended in another tab" not in page.inner_text("#game-status")
    other.evaluate("() => localStorage.removeItem('mjscore.game')")  # a game truly ended there
    page.wait_for_selector("#game-status:has-text('ended in another tab')")
    page.evaluate("() => document.querySelector('#game-status').textContent = ''")
    other.evaluate("() => localStorage.setItem('mjscore.game', 'null')")  # no game, written as such
    page.wait_for_selector("#game-status:has-text('ended in another tab')")
    other.close()


def test_a_game_takes_a_hand_once_follows_its_rules_and_other_tabs(server, page):
    """A hand already in the game is not offered again (scored twice, it says which hand it is);
    a second tab opened on the game takes the game's rules and house settings, whatever its form
    says, and sees the first tab's changes; rules changed mid-game are named at once, and a hand
    scored by them is refused in words."""
    answer_from_truth(page)
    page.goto(server + "/")
    page.select_option("#ruleset", "classical")
    page.fill("#limit", "1000")
    for wind, name in zip("ESWN", ["Ann", "Bo", "Cy", "Di"]):
        page.fill(f"#player-{wind}", name)
    page.click("#game-begin")
    page.wait_for_selector("#game-on:not([hidden])")
    sent = capture_score_requests(page)
    _score_example(page)
    # a classical game tells each hand East's wins in a row (limit hand J is the thirteenth); the
    # game keeps its own count, not the table's
    assert sent[-1]["params"] == {"limit": 1000, "east_consecutive_wins": 1}
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('Hand 1 added')")
    assert page.evaluate("JSON.parse(localStorage.getItem('mjscore.game')).hands[0].params") == {"limit": 1000}
    assert page.evaluate("document.activeElement.id") == "game-next"
    score(page)  # the same table again: it is hand 1 already
    assert page.inner_text("#game-add") == "In the game as hand 1" and page.is_disabled("#game-add")

    other = page.context.new_page()
    other.goto(server + "/")
    other.wait_for_selector("#game-on:not([hidden])")
    assert other.input_value("#ruleset") == "classical" and other.input_value("#limit") == "1000"
    assert other.input_value("#round_wind") == "E"
    assert other.inner_text("#game-next").startswith("Hand 2, East round: East Bo")
    other.click("#game-undo")  # taken back in the other tab: this one follows
    page.wait_for_selector("#game-status:has-text('changed in another tab')")
    assert page.inner_text("#game-next").startswith("Hand 1, East round: East Ann")
    assert page.inner_text("#game-add") == "Add this hand to the game (hand 1)"
    other.close()

    page.select_option("#ruleset", "pung-chow")
    assert "This game plays the classical rules with limit 1000" in page.inner_text("#game-status")
    score(page)
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('cannot be added')")
    assert "this game plays the classical rules, and the hand was scored by Pung Chow (unlimited)" in page.inner_text("#game-status")
    assert page.locator("#game-body tbody tr").count() == 0


def test_a_corrected_last_hand_can_take_its_place_in_the_game(server, page):
    """Added, then found wrong: corrected and scored again, the hand can be put in place of the
    game's last hand (not added a second time beside it)."""
    answer_from_truth(page)
    _start_game(page, server)
    _score_example(page)
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('Hand 1 added')")
    before = page.inner_text('#game-totals li[data-player="Cy"] strong')
    page.select_option("#win_by", "self-draw")  # the correction: West drew the winning tile
    score(page)
    assert page.inner_text("#game-replace") == "Put this corrected hand in place of hand 1"
    assert page.locator("#game-add").count() == 0  # scored as hand 1, it is no hand 2
    page.reload()  # a correction under way survives a reload
    page.wait_for_selector("#game-on:not([hidden])")
    score(page)
    assert page.inner_text("#game-replace") == "Put this corrected hand in place of hand 1"
    page.click("#game-replace")
    page.wait_for_selector("#game-status:has-text('Hand 1 corrected')")
    assert page.locator("#game-body tbody tr").count() == 1
    after = page.inner_text('#game-totals li[data-player="Cy"] strong')
    assert before != after
    assert page.inner_text("#game-add") == "In the game as hand 1" and page.is_disabled("#game-add")


def test_the_hand_just_added_stays_that_hand_after_a_reload_and_a_second_correction(server, page):
    """A phone's browser reloads the page after a hand is added (no scores shown then): the table
    is still that hand, headed with its players, and corrected it takes its place, not a new
    hand's with the next hand's players; so does a hand corrected twice, scored in between."""
    answer_from_truth(page)
    _start_game(page, server)
    _score_example(page)
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('Hand 1 added')")
    page.reload()
    page.wait_for_selector("#game-on:not([hidden])")
    assert page.inner_text("#game-next").startswith("Hand 2, East round: East Bo")
    assert page.inner_text('article[data-seat="E"] h3 .player').strip() == "Ann"  # hand 1's East
    page.select_option("#win_by", "self-draw")  # the correction: West drew the winning tile
    score(page)
    assert page.inner_text("#game-add-row") == "Put this corrected hand in place of hand 1"
    page.check("input[name=flag][value=last-tile]")  # and found it a second time: the wall's last tile
    score(page)
    assert page.inner_text("#game-add-row") == "Put this corrected hand in place of hand 1"
    assert page.inner_text('article[data-seat="E"] h3 .player').strip() == "Ann"
    page.click("#game-replace")
    page.wait_for_selector("#game-status:has-text('Hand 1 corrected')")
    assert page.locator("#game-body tbody tr").count() == 1
    stored = page.evaluate("JSON.parse(localStorage.getItem('mjscore.game'))")
    winner = next(h for h in stored["hands"][0]["hands"] if h["winner"])
    assert winner["win_by"] == "self-draw" and winner["flags"] == ["last-tile"]


def _start_game(page, server, ruleset="pung-chow-limit", names=("Ann", "Bo", "Cy", "Di")):
    page.goto(server + "/")
    page.select_option("#ruleset", ruleset)
    for wind, name in zip("ESWN", names):
        page.fill(f"#player-{wind}", name)
    page.click("#game-begin")
    page.wait_for_selector("#game-on:not([hidden])")


def _score_example(page, winner="W", win_by="discard"):
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("body[data-state=recognized]")
    page.select_option("#winner", winner)
    page.select_option("#win_by", win_by)
    score(page)


def _game_in_storage(page, hands, ruleset="pung-chow-limit"):
    """A game of `hands` (vectors) put in the browser's storage as the page keeps it."""
    from scoring.game import play_out

    vectors = {c["id"]: c for c in json.loads((REPO / "tests" / "data" / "vectors.json").read_text())}
    tables = []
    for case_id in hands:
        case = json.loads(json.dumps(vectors[case_id]))
        case.pop("expected")
        case["round_wind"] = None
        tables.append(case)
    answer = play_out(ruleset, ["Ann", "Bo", "Cy", "Di"], tables)
    tables = [dict(t, round_wind=h["round_wind"]) for t, h in zip(tables, answer["hands"])]
    game = {"ruleset": ruleset, "players": ["Ann", "Bo", "Cy", "Di"], "hands": tables, "answer": answer,
            "params": {"mj_bonus": 10, "limit": 300}}
    page.evaluate("(g) => localStorage.setItem('mjscore.game', JSON.stringify(g))", game)
    return game


def test_the_hand_that_ends_a_round_can_be_scored_again_and_corrected(server, page):
    """Three hands pass the deal; the fourth, added, ends the East round: scored again unchanged
    it is the same hand, and corrected it takes its own place, in its own round, with its own
    players named."""
    answer_from_truth(page)
    page.goto(server + "/")
    _game_in_storage(page, ["harr-II-ex05"] * 3)
    page.reload()
    page.wait_for_selector("#game-on:not([hidden])")
    assert page.inner_text("#game-next").startswith("Hand 4, East round: East Di")
    _score_example(page)
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('Hand 4 added')")
    assert page.inner_text("#game-next").startswith("Hand 5, South round: East Ann")
    score(page)
    assert page.inner_text("#game-add") == "In the game as hand 4"
    page.select_option("#win_by", "self-draw")
    score(page)
    assert page.inner_text("#result-body tbody tr[data-seat=W] th") == "West · Bo (winner)"  # hand 4's West
    page.click("#game-replace")
    page.wait_for_selector("#game-status:has-text('Hand 4 corrected')")
    assert page.locator("#game-body tbody tr").count() == 4
    stored = page.evaluate("JSON.parse(localStorage.getItem('mjscore.game'))")
    corrected = next(h for h in stored["hands"][3]["hands"] if h["winner"])
    assert stored["hands"][3]["round_wind"] == "E" and corrected["win_by"] == "self-draw"
    assert page.inner_text("#game-next").startswith("Hand 5, South round: East Ann")


def test_a_game_saved_before_games_kept_their_house_settings_takes_hands(server, page):
    answer_from_truth(page)
    page.goto(server + "/")
    game = _game_in_storage(page, ["harr-II-ex05"])
    del game["params"]
    for hand in game["answer"]["hands"]:
        del hand["east_wins"]
    del game["answer"]["next"]["east_wins"]
    page.evaluate("(g) => localStorage.setItem('mjscore.game', JSON.stringify(g))", game)
    page.reload()
    page.wait_for_selector("#game-on:not([hidden])")
    assert page.input_value("#limit") == "300"
    _score_example(page)
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('Hand 2 added')")


def test_a_hand_on_its_way_when_another_tab_adds_one_is_not_written_over_it(server, page):
    answer_from_truth(page)
    _start_game(page, server)
    _score_example(page)
    held = []
    page.route("**/api/v1/game", lambda route: held.append(route))
    page.click("#game-add")
    page.wait_for_timeout(300)
    assert held
    other = page.context.new_page()
    answer_from_truth(other)
    other.goto(server + "/")
    other.wait_for_selector("#game-on:not([hidden])")
    _score_example(other, win_by="self-draw")
    other.click("#game-add")
    other.wait_for_selector("#game-status:has-text('Hand 1 added')")
    page.wait_for_selector("#game-status:has-text('changed in another tab')")
    page.unroute("**/api/v1/game")
    held[0].continue_()
    page.wait_for_selector("#game-status:has-text('was not added')")
    stored = page.evaluate("JSON.parse(localStorage.getItem('mjscore.game'))")
    winner = next(h for h in stored["hands"][0]["hands"] if h["winner"])
    assert len(stored["hands"]) == 1 and winner["win_by"] == "self-draw"  # the other tab's hand
    other.close()


def test_a_classical_hand_scored_again_carries_its_own_count_of_easts_wins(server, page):
    """East's wins in a row sent with a classical hand are those before that hand: the next
    hand's for a new one, the hand's own when it is scored again after the game moved on."""
    answer_from_truth(page)
    page.goto(server + "/")
    game = _game_in_storage(page, ["classical-winds"], ruleset="classical")  # East (Ann) won hand 1
    game["params"] = {"limit": 1000}
    page.evaluate("(g) => localStorage.setItem('mjscore.game', JSON.stringify(g))", game)
    page.reload()
    page.wait_for_selector("#game-on:not([hidden])")
    sent = capture_score_requests(page)
    _score_example(page)
    assert sent[-1]["params"]["east_consecutive_wins"] == 2  # East has won 1 in a row before it
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('Hand 2 added')")
    assert page.inner_text("#game-next").startswith("Hand 3, East round: East Bo")  # West won: the deal passed
    score(page)
    assert sent[-1]["params"]["east_consecutive_wins"] == 2 and page.inner_text("#game-add") == "In the game as hand 2"


def test_the_game_is_saved_as_a_spreadsheet(server, page, tmp_path):
    """A row a hand (its number, round, East, winner, each player's points) and the totals; a
    name a spreadsheet would take for a formula is written as text."""
    import csv

    answer_from_truth(page)
    _start_game(page, server, names=("Ann", "=Bo", "Cy, Jr.", "-2"))
    _score_example(page)
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('Hand 1 added')")
    with page.expect_download() as download:
        page.click("#game-save")
    path = tmp_path / "game.csv"
    download.value.save_as(path)
    assert download.value.suggested_filename.startswith("mahjong-game-")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # a spreadsheet reads the names as UTF-8
    rows = list(csv.reader(path.open(newline="", encoding="utf-8-sig")))
    assert rows[0] == ["hand", "round", "East", "won by", "Ann", "'=Bo", "Cy, Jr.", "'-2"]
    totals = {p: page.inner_text(f'#game-totals li[data-player="{p}"] strong') for p in ["Ann", "=Bo", "Cy, Jr.", "-2"]}
    assert rows[1][:4] == ["1", "East", "Ann", "Cy, Jr."]
    assert rows[2][0] == "total" and [int(v) for v in rows[2][4:]] == [int(t) for t in totals.values()]


def test_a_name_typed_in_another_unicode_spelling_keeps_its_totals(server, page):
    """Zoé typed as e and a combining accent is the name the game keeps (composed): her totals
    show, and the game survives a reload."""
    answer_from_truth(page)
    _start_game(page, server, names=("Zoe\u0301", "Bo", "Cy", "Di"))
    _score_example(page)
    page.click("#game-add")
    page.wait_for_selector("#game-status:has-text('Hand 1 added')")
    total = page.inner_text('#game-totals li[data-player="Zo\u00e9"] strong')
    assert total not in ("undefined", "0") and int(total) != 0
    page.reload()
    page.wait_for_selector("#game-on:not([hidden])")
    assert page.inner_text('#game-totals li[data-player="Zo\u00e9"] strong') == total


def test_a_big_upload_cut_off_names_its_size_as_a_possible_cause(server, page, tmp_path):
    """A front server refusing a big upload early may cut the connection (no 413 reaches the
    browser): the message names the connection and the photo's size."""
    big = tmp_path / "big.jpg"
    big.write_bytes(EXAMPLE.read_bytes() + b"\\0" * (2 * 1024 * 1024))
    page.route("**/api/v1/recognize", lambda route: route.abort("connectionreset"))
    page.goto(server + "/")
    page.set_input_files("#photo", str(big))
    page.wait_for_selector("#status.error")
    message = page.inner_text("#status")
    assert message.startswith("Could not reach the server") and "larger than a web server in front" in message
    page.set_input_files("#photo", str(EXAMPLE))  # a small photo: the connection alone
    page.wait_for_selector("#status.error:not(:has-text('larger than'))")
