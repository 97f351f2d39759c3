"""Synthetic photos of a finished mahjong table with exact ground truth (laid out as README's "Photographing a table" shows).

`make_table(rng)` deals legal hands (one winner with four sets and a pair, three other players
with thirteen tiles plus their kongs), lays each seat's tiles out the way the layout describes
(concealed run touching, exposed sets apart, concealed kongs with face-down ends, bonus tiles
aside, the winning tile turned sideways at the end of the concealed run), renders the tiles with
`datasets.render_tiles` on a procedural felt/wood/cloth surface with thickness and shadow, then
photographs the table: perspective tilt, rotation, a lighting gradient, noise and JPEG.  On
request the table also holds dice, sticks, coins or chips (`props`, datasets/props.py) or a tile
rack behind each seat's row (`racks`, datasets/racks.py).

Ground truth per tile: quad and box in image pixels, code, seat, group ("concealed", "meld-1",
..., "bonus"), face_down, sideways; and the whole table as a vectors.json case.

    python -m datasets.synth_table OUT_DIR --count 200 --seed 1 [--art xmahjongg-real]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from datasets.backgrounds import random_surface
from datasets.props import draw_props
from datasets.racks import draw_rack, rack_outline
from datasets.render_tiles import dark_style, random_style, render_tile
from scoring.tiles import BACK, BONUS, KINDS, format_tiles

SEATS = ("E", "S", "W", "N")


@dataclass
class Meld:
    kind: str
    tiles: list[str]
    exposed: bool = True


@dataclass
class Hand:
    seat: str
    concealed: list[str]
    melds: list[Meld] = field(default_factory=list)
    bonus: list[str] = field(default_factory=list)
    winner: bool = False
    winning_tile: str | None = None
    win_by: str | None = None

    def to_case(self) -> dict:
        return {
            "seat": self.seat,
            "winner": self.winner,
            "concealed": format_tiles(self.concealed, sort=True),
            "melds": [{"kind": m.kind, "tiles": format_tiles(m.tiles), "exposed": m.exposed}
                      for m in self.melds],
            "winning_tile": self.winning_tile,
            "win_by": self.win_by,
            "flags": [],
            "bonus_tiles": "".join(self.bonus),
        }


# ------------------------------------------------------------------------------- dealing
class _Wall:
    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self.left = Counter({k: 4 for k in KINDS})

    def take(self, tiles: list[str]) -> bool:
        need = Counter(tiles)
        if any(self.left[t] < n for t, n in need.items()):
            return False
        self.left.subtract(need)
        return True

    def random_set(self, kind: str) -> list[str] | None:
        for _ in range(50):
            if kind == "chow":
                suit = "mps"[self.rng.integers(3)]
                r = int(self.rng.integers(1, 8))
                tiles = [f"{r + i}{suit}" for i in range(3)]
            else:
                t = KINDS[self.rng.integers(len(KINDS))]
                tiles = [t] * (3 if kind == "pung" else 4 if kind == "kong" else 2)
            if self.take(tiles):
                return tiles
        return None

    def random_tiles(self, n: int) -> list[str]:
        pool = [t for t, c in self.left.items() for _ in range(c)]
        pick = [pool[i] for i in self.rng.choice(len(pool), size=n, replace=False)]
        self.take(pick)
        return pick


def deal(rng: np.random.Generator, seats=SEATS, winner: str | None = None) -> list[Hand]:
    """Legal hands for the given seats: one winner (complete hand), the rest 13 tiles + kongs."""
    wall = _Wall(rng)
    bonus_left = list(BONUS)
    rng.shuffle(bonus_left)
    winner = winner or seats[rng.integers(len(seats))]
    hands = []
    for seat in seats:
        kinds = ["pung", "chow", "kong"]
        if seat == winner:
            n_sets = 4
        else:
            n_sets = int(rng.integers(0, 3))
        sets = []
        for _ in range(n_sets):
            k = kinds[rng.choice(3, p=[0.42, 0.43, 0.15])]
            s = wall.random_set(k)
            if s is None:
                s = wall.random_set("chow") or wall.random_set("pung")
                k = "chow" if len(set(s)) == 3 else "pung"
            sets.append(Meld(k, s))
        n_exposed = int(rng.integers(0, min(3, n_sets) + 1)) if seat == winner else n_sets
        melds, hidden = [], []
        for i, m in enumerate(sets):
            if i < n_exposed:
                melds.append(m)
            elif m.kind == "kong":
                m.exposed = False  # a concealed kong is laid out with face-down ends
                melds.append(m)
            else:
                hidden.extend(m.tiles)
        n_bonus = int(rng.choice(3, p=[0.55, 0.3, 0.15]))
        bonus = [bonus_left.pop() for _ in range(n_bonus)]
        hand = Hand(seat, hidden, melds, bonus)
        if seat == winner:
            hand.concealed += wall.random_set("pair") or wall.random_tiles(2)
            hand.winner = True
            hand.winning_tile = hand.concealed[int(rng.integers(len(hand.concealed)))]
            hand.win_by = "discard" if rng.random() < 0.6 else "self-draw"
        else:
            held = sum(3 for m in melds)
            hand.concealed += wall.random_tiles(13 - held)
        hands.append(hand)
    return hands


# ------------------------------------------------------------------------------- layout
@dataclass
class Placed:
    """One tile on the table in canvas coordinates (before the camera)."""

    code: str  # what the face shows, or "back" when face down
    true_code: str  # the tile's kind (a face-down tile of a concealed kong keeps its kind)
    corners: np.ndarray  # (4, 2): top-left, top-right, bottom-right, bottom-left as upright
    seat: str
    group: str
    face_down: bool = False
    sideways: bool = False


def _layout_seat(hand: Hand, rng, tw: float, th: float, row_len: float):
    """Tiles of one seat in seat-local coordinates: x along the row (player's left to right),
    y away from the player (row 0 nearest).  Returns (code, kind, x, y, w, h, group, down, side)."""
    out = []
    seam = lambda: float(rng.uniform(0.0, 0.04)) * tw  # concealed tiles touch or nearly
    gap = lambda: float(rng.uniform(0.6, 1.2)) * tw
    concealed = sorted(hand.concealed, key=lambda t: (t[-1], t[0])) if rng.random() < 0.7 \
        else list(rng.permutation(hand.concealed))
    win = None
    if hand.winning_tile:
        concealed.remove(hand.winning_tile)
        win = hand.winning_tile
    x = 0.0
    for t in concealed:
        out.append((t, t, x, 0.0, tw, th, "concealed", False, False))
        x += tw + seam()
    if win:
        x += float(rng.uniform(0.05, 0.3)) * tw
        out.append((win, win, x, 0.0, th, tw, "concealed", False, True))
        x += th
    # exposed sets: same row when they fit, otherwise a second row further from the player
    groups = [(f"meld-{i + 1}", m) for i, m in enumerate(hand.melds)]
    row_x, row_y = x + gap(), 0.0
    total = sum(len(m.tiles) * tw + 1.0 * tw for _, m in groups) + len(hand.bonus) * 1.8 * tw
    if row_x + total > row_len:
        row_x, row_y = float(rng.uniform(0, 1.5)) * tw, th + float(rng.uniform(0.3, 0.8)) * tw
    for name, m in groups:
        for i, t in enumerate(m.tiles):
            down = (m.kind == "kong" and not m.exposed and i in (0, 3))
            out.append((BACK if down else t, t, row_x, row_y, tw, th, name, down, False))
            row_x += tw + seam()
        row_x += gap()
    for b in hand.bonus:
        out.append((b, b, row_x, row_y, tw, th, "bonus", False, False))
        row_x += tw + gap()
    return out


def layout_table(hands: list[Hand], rng, tw: float, camera_seat: str = "E",
                 racks: bool = False) -> tuple[list[Placed], tuple[int, int], list[dict]]:
    """Place every seat's tiles on a square table (one seat's strip when `hands` holds one); with
    `racks`, a rack behind each seat's row (datasets.racks; the photo frames them in half the
    tables, else only the tiles).  Returns (tiles, canvas size, racks)."""
    th = tw * float(rng.uniform(1.3, 1.42))
    side = 30 * tw
    band = 2 * th + 1.2 * tw  # depth of one seat's area
    row_len = side - 2 * band - 1.0 * tw
    placed, rack_list = [], []
    cam = SEATS.index(camera_seat)
    for hand in hands:
        pos = (SEATS.index(hand.seat) - cam) % 4  # 0 bottom, 1 right, 2 top, 3 left
        local = _layout_seat(hand, rng, tw, th, row_len)
        length = max(x + w for _, _, x, _, w, _, _, _, _ in local)
        x0 = band + 0.5 * tw + float(rng.uniform(0, max(0.0, row_len - length)))
        y0 = side - 0.6 * tw - float(rng.uniform(0, 0.5)) * tw  # bottom of the first row
        for code, kind, x, y, w, h, group, down, sideways in local:
            # bottom seat frame: x to the right, rows going up the photo
            bx0, bx1 = x0 + x, x0 + x + w
            by1 = y0 - y  # rows are aligned on the edge nearest the player
            by0 = by1 - h
            pts = np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]], np.float64)
            if sideways:
                # the face is turned a quarter (counter-clockwise): its top edge is the left side
                pts = pts[[3, 0, 1, 2]]
            pts = _turn(pts, pos, side)
            placed.append(Placed(code, kind, pts, hand.seat, group, down, sideways))
        if racks:
            rack = rack_outline(rng, (x0 + min(x for _, _, x, *_ in local), x0 + length), y0, tw)
            c = rack["corners"]
            lip = np.array([c[3] + (c[0] - c[3]) * rack["lip"], c[2] + (c[1] - c[2]) * rack["lip"], c[2], c[3]])
            rack["corners"], rack["lip_corners"] = _turn(c, pos, side), _turn(lip, pos, side)
            rack_list.append(rack)
    # the photo frames the tiles, not the whole table (with racks: in half the tables the racks too)
    allpts = np.concatenate([p.corners for p in placed])
    if racks and rng.random() < 0.5:
        allpts = np.concatenate([allpts] + [r["corners"] for r in rack_list])
    lo = allpts.min(axis=0) - float(rng.uniform(1.0, 3.0)) * tw
    hi = allpts.max(axis=0) + float(rng.uniform(1.0, 3.0)) * tw
    for p in placed:
        p.corners = p.corners - lo
    for r in rack_list:
        r["corners"], r["lip_corners"] = r["corners"] - lo, r["lip_corners"] - lo
    size = (int(hi[0] - lo[0]), int(hi[1] - lo[1]))
    return placed, size, rack_list


def _turn(pts: np.ndarray, quarter: int, side: float) -> np.ndarray:
    """Rotate canvas points by quarter turns counter-clockwise (as seen in the photo) about the
    table's centre: the bottom seat's layout becomes the right (1), top (2) or left (3) seat's."""
    c = side / 2
    out = pts.copy()
    for _ in range(quarter % 4):
        x, y = out[:, 0] - c, out[:, 1] - c
        out = np.stack([c + y, c - x], axis=1)  # counter-clockwise on screen (y down)
    return out


# ------------------------------------------------------------------------------- camera
def _camera(rng, size: tuple[int, int], out_size: tuple[int, int], tilt_deg: float,
            rotate_deg: float) -> np.ndarray:
    """Homography from the table canvas to the photo: fit, rotate, tilt (keystone)."""
    w, h = size
    ow, oh = out_size
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    # a pinhole camera looking at the table tilted by `tilt_deg` about its horizontal axis:
    # the far edge shrinks and everything is foreshortened by about cos(tilt)
    t = np.radians(tilt_deg)
    dist = float(rng.uniform(1.2, 2.0)) * max(w, h)
    X, Y = src[:, 0] - w / 2, src[:, 1] - h / 2
    depth = dist - Y * np.sin(t)
    dst = np.stack([X * dist / depth + w / 2, Y * np.cos(t) * dist / depth + h / 2], axis=1).astype(np.float32)
    tilt = cv2.getPerspectiveTransform(src, dst)
    rot = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), rotate_deg, 1.0), [0, 0, 1]])
    m = rot @ tilt
    corners = cv2.perspectiveTransform(src.reshape(-1, 1, 2), m).reshape(-1, 2)
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    scale = min(ow / (hi[0] - lo[0]), oh / (hi[1] - lo[1])) * float(rng.uniform(0.82, 0.95))
    off = np.array([ow, oh]) / 2 - scale * (lo + hi) / 2
    fit = np.array([[scale, 0, off[0]], [0, scale, off[1]], [0, 0, 1]])
    return fit @ m


def _draw_tile(img: np.ndarray, face: np.ndarray, quad: np.ndarray, body: tuple, depth: np.ndarray,
               shade: np.ndarray) -> None:
    """Paint one tile: shadow, the body's side (thickness), then the warped face."""
    h, w = img.shape[:2]
    q = quad.astype(np.float32)
    x0, y0 = np.floor(np.minimum(q.min(axis=0), (q + depth).min(axis=0))).astype(int) - 6
    x1, y1 = np.ceil(np.maximum(q.max(axis=0), (q + depth).max(axis=0) + 6)).astype(int) + 6
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    off = np.array([x0, y0], np.float32)
    # shadow
    sh = np.zeros(roi.shape[:2], np.float32)
    cv2.fillConvexPoly(sh, np.round(q + depth * 1.6 - off).astype(np.int32), 1.0)
    sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, float(np.linalg.norm(depth))))
    roi[:] = (roi * (1 - 0.45 * sh[..., None])).astype(np.uint8)
    # body: the face's outline swept along the depth vector
    hull = cv2.convexHull(np.concatenate([q, q + depth]).astype(np.float32))
    cv2.fillConvexPoly(roi, np.round(hull.reshape(-1, 2) - off).astype(np.int32), body, lineType=cv2.LINE_AA)
    # face
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, q - off)
    warped = cv2.warpPerspective(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), m, (x1 - x0, y1 - y0))
    a = (mask.astype(np.float32) / 255.0)[..., None]
    lit = warped.astype(np.float32) * shade[y0:y1, x0:x1, None]
    roi[:] = (roi * (1 - a) + lit * a).clip(0, 255).astype(np.uint8)


@dataclass
class SynthTable:
    image: np.ndarray
    tiles: list[dict]  # quad, box, code, seat, group, face_down, sideways
    case: dict
    camera_seat: str
    props: list[dict] = field(default_factory=list)  # kind, quad, box: things that are no tile

    def tile_width(self) -> float:
        """The median of the tiles' shorter sides in the photo, in pixels (face-down ones too)."""
        return float(np.median([min(np.linalg.norm(np.subtract(t["quad"][1], t["quad"][0])),
                                    np.linalg.norm(np.subtract(t["quad"][2], t["quad"][1])))
                                for t in self.tiles]))

    def truth(self) -> dict:
        return {"tiles": self.tiles, "case": self.case, "camera_seat": self.camera_seat,
                "width": int(self.image.shape[1]), "height": int(self.image.shape[0]),
                "props": self.props}


def make_table(rng: np.random.Generator, out_size=(1600, 1200), art: str | None = None,
               single: bool | None = None, camera_seat: str = "E", tilt: float | None = None,
               rotate: float | None = None, surface: str | None = None,
               ruleset: str = "pung-chow", hands: list[Hand] | None = None, props: bool = False,
               dark: bool = False, racks: bool = False) -> SynthTable:
    """One synthetic table photo with its ground truth (`hands` to lay out given hands; `props`:
    dice, scoring sticks, coins or chips lie where no tile does, datasets.props; `dark`: a
    procedural set with dark faces, `render_tiles.dark_style`; `racks`: a tile rack behind each
    seat's row, datasets.racks, listed with the props)."""
    if dark and art is not None:
        raise ValueError(f"dark faces are procedural: art {art!r} cannot have them")
    if hands is not None:
        single = len(hands) == 1
    single = bool(rng.random() < 0.15) if single is None else single
    seats = (camera_seat,) if single else SEATS
    hands = hands if hands is not None else deal(rng, seats)
    style = dark_style(rng) if dark else random_style(rng, art=art)
    tw = 48.0
    placed, canvas, rack_list = layout_table(hands, rng, tw, camera_seat, racks)
    ow, oh = out_size
    tilt = float(rng.uniform(0, 35)) if tilt is None else tilt
    rotate = float(rng.uniform(-12, 12)) if rotate is None else rotate
    H = _camera(rng, canvas, (ow, oh), tilt, rotate)
    img = random_surface(rng, oh, ow, surface)
    scale = float(np.sqrt(abs(np.linalg.det(H[:2, :2]))))
    things = draw_props(rng, img, lambda pts: _to_photo(pts, H), canvas,
                        [p.corners for p in placed] + [r["corners"] for r in rack_list], tw, scale) if props else []
    # lighting: a linear gradient plus a soft spot
    yy, xx = np.mgrid[0:oh, 0:ow].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    grad = ((xx - ow / 2) * np.cos(ang) + (yy - oh / 2) * np.sin(ang)) / max(ow, oh)
    shade = 1.0 + grad * float(rng.uniform(0.0, 0.5))
    cx, cy = rng.uniform(0, ow), rng.uniform(0, oh)
    shade += float(rng.uniform(0, 0.15)) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (0.2 * ow * ow))
    shade = np.clip(shade, 0.55, 1.25).astype(np.float32)
    img = (img.astype(np.float32) * shade[..., None]).clip(0, 255).astype(np.uint8)
    tile_px = tw * scale
    depth = np.array([float(rng.uniform(-0.08, 0.08)), float(rng.uniform(0.12, 0.3))]) * tile_px
    body = tuple(int(c) for c in np.array(style.rim[::-1]) * 0.8)
    for r in rack_list:
        quad = _to_photo(r["corners"], H)
        draw_rack(img, quad, _to_photo(r["lip_corners"], H), r, depth.astype(np.float32), shade)
        things.append({"kind": "rack", "quad": quad.round(2).tolist(),
                       "box": [round(float(v), 2) for v in (*quad.min(axis=0), *quad.max(axis=0))]})
    # far tiles first so nearer ones overlap them
    order = sorted(range(len(placed)), key=lambda i: placed[i].corners[:, 1].mean())
    truth = []
    for i in order:
        p = placed[i]
        quad = _to_photo(p.corners, H)
        fw = max(8, int(round(np.linalg.norm(quad[1] - quad[0]) * 1.5)))
        fh = max(8, int(round(np.linalg.norm(quad[3] - quad[0]) * 1.5)))
        face = render_tile(p.code, style, rng, (fw, fh))
        _draw_tile(img, face, quad, body, depth.astype(np.float32), shade)
        truth.append({
            "quad": quad.round(2).tolist(),
            "box": [round(float(v), 2) for v in (*quad.min(axis=0), *quad.max(axis=0))],
            "code": p.code if not p.face_down else BACK,
            "kind": p.true_code,
            "seat": p.seat, "group": p.group, "face_down": p.face_down, "sideways": p.sideways,
        })
    noise = rng.standard_normal(img.shape).astype(np.float32) * float(rng.uniform(1, 5))
    img = (img.astype(np.float32) + noise).clip(0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.0)))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 95))])
    img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    winner = next(h for h in hands if h.winner)
    case = {"id": "synthetic", "ruleset": ruleset, "seat_wind": winner.seat,
            "round_wind": None if ruleset == "pung-chow" else "E",
            "hands": [h.to_case() for h in hands]}
    return SynthTable(img, truth, case, camera_seat, things)


def _to_photo(pts: np.ndarray, H: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), H).reshape(-1, 2)


def _pick_art(rng: np.random.Generator, art: str | None) -> str | None:
    """`art` as given, or for 'mixed' half procedural, half a packaged style seen in training."""
    if art != "mixed":
        return art
    from datasets.tile_art import HELD_OUT_STYLES, available_styles

    styles = [s for s in available_styles() if s not in HELD_OUT_STYLES and not s.startswith("unicode")]
    return None if not styles or rng.random() < 0.5 else str(rng.choice(styles))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=(
        "each table is table_NNNN.jpg with its labels beside it in table_NNNN.json (boxes, codes, seats, "
        "groups and the case): the folder is a labelled set, so `mjscore validate OUT` measures recognition "
        "on it. Example: python -m datasets.synth_table /tmp/tables --count 50 --art xmahjongg-real"))
    ap.add_argument("out", type=Path, help="folder to write the tables into (made if missing)")
    ap.add_argument("--count", type=int, default=20, help="how many tables (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="random seed: the same seed draws the same tables (default 1)")
    ap.add_argument("--art", default=None,
                    help="packaged art style (datasets.tile_art), default procedural; 'mixed': each "
                         "table procedural or a packaged style other than the held-out ones "
                         "(for training the localiser)")
    ap.add_argument("--width", type=int, default=1600, help="photo width in pixels (default 1600)")
    ap.add_argument("--height", type=int, default=1200, help="photo height in pixels (default 1200)")
    ap.add_argument("--props", action="store_true",
                    help="dice, scoring sticks, coins or chips on each table where no tile lies")
    ap.add_argument("--racks", action="store_true",
                    help="a tile rack behind each seat's row (datasets.racks)")
    ap.add_argument("--dark-faces", type=float, default=0.0, metavar="SHARE",
                    help="this share of the procedural tables get a set with dark faces and light "
                         "marks (for training the localiser; default 0)")
    args = ap.parse_args(argv)
    if not 0.0 <= args.dark_faces <= 1.0:
        ap.error(f"--dark-faces must be a share from 0 to 1, not {args.dark_faces}")
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    for i in range(args.count):
        art = _pick_art(rng, args.art)
        # drawn only when asked for, so that tables made without it keep their random draws
        dark = art is None and args.dark_faces > 0 and bool(rng.random() < args.dark_faces)
        t = make_table(rng, (args.width, args.height), art=art, props=args.props, dark=dark,
                       racks=args.racks)
        name = f"table_{i:04d}"
        cv2.imwrite(str(args.out / f"{name}.jpg"), t.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (args.out / f"{name}.json").write_text(json.dumps({"image": f"{name}.jpg", **t.truth()}))
    print(f"wrote {args.count} tables to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


# ------------------------------------------------------------------------------- stand-ins
class TruthClassifier:
    """Reads tiles from ground truth instead of pixels: each found quad takes the code of the
    true tile whose centre is nearest (confidence 1.0), or 'unmatched' (confidence 0).  Lets
    tests and benchmarks check detection and layout apart from the classifier."""

    def __init__(self, truth_tiles: list[dict]):
        self.centres = np.array([np.mean(np.array(t["quad"] if "quad" in t else
                                                   [[t["box"][0], t["box"][1]], [t["box"][2], t["box"][3]]]),
                                          axis=0) for t in truth_tiles]) if truth_tiles else np.zeros((0, 2))
        self.codes = [t["code"] for t in truth_tiles]
        self.sizes = np.array([min(t["box"][2] - t["box"][0], t["box"][3] - t["box"][1])
                               for t in truth_tiles]) if truth_tiles else np.zeros(0)

    def classify_quads(self, crops, quads):
        from models.classifier import Prediction

        out = []
        for q in quads:
            if not len(self.codes):
                out.append(Prediction("5z", 0.0, []))
                continue
            d = np.linalg.norm(self.centres - q.center, axis=1)
            j = int(np.argmin(d))
            ok = d[j] < 0.5 * self.sizes[j]
            out.append(Prediction(self.codes[j] if ok else "5z", 1.0 if ok else 0.0, []))
        return out

    def classify(self, crops):
        raise TypeError("TruthClassifier needs the tile positions: call classify_quads")


class TruthLocalizer:
    """Finds exactly the true tiles (their quads, in a shuffled corner order) at any scale."""

    def __init__(self, truth_tiles: list[dict], image_size: tuple[int, int]):
        self.quads = [np.array(t["quad"], np.float32) for t in truth_tiles]
        self.width = image_size[0]

    def find(self, bgr):
        from vision.quad import TileQuad

        s = bgr.shape[1] / self.width
        rng = np.random.default_rng(0)
        return [TileQuad(np.roll(q * s, int(rng.integers(4)), axis=0).astype(np.float32)) for q in self.quads]
