"""Render a validation report: a confusion-matrix picture, the worst images drawn with their errors,
and one self-contained HTML page (pictures inlined as data: URLs, no scripts, no external files)."""

from __future__ import annotations

import base64
import html
import io
import json
import math
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from api.annotate import draw_errors
from api.images import decode_image, encode_data_url
from api.validation import CHECK_KINDS, SURE, ImageOutcome

#: labels to check listed in the page (all are in report.json), each with a picture this high
CHECK_ROWS = 100
CHECK_PICTURE_HEIGHT = 72


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def confusion_png(confusion: dict) -> bytes:
    """The confusion matrix as a PNG: rows = labelled code, columns = predicted code, log colour."""
    rows, cols, matrix = confusion["rows"], confusion["columns"], np.array(confusion["matrix"], dtype=float)
    cell, margin_left, margin_top = 16, 56, 56
    width = margin_left + cell * len(cols) + 10
    height = margin_top + cell * len(rows) + 30
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    font = _font(10)
    peak = math.log1p(matrix.max()) if matrix.size and matrix.max() > 0 else 1.0
    for r, row_label in enumerate(rows):
        for c, col_label in enumerate(cols):
            value = matrix[r, c] if matrix.size else 0
            x, y = margin_left + c * cell, margin_top + r * cell
            if value > 0:
                strength = math.log1p(value) / peak
                off_diagonal = row_label != col_label
                if off_diagonal:  # errors in red, right answers in blue
                    colour = (255, int(235 - 200 * strength), int(235 - 200 * strength))
                else:
                    colour = (int(230 - 200 * strength), int(240 - 150 * strength), 255)
                draw.rectangle([x, y, x + cell - 1, y + cell - 1], fill=colour)
            draw.rectangle([x, y, x + cell - 1, y + cell - 1], outline=(225, 225, 225))
    for r, label in enumerate(rows):
        draw.text((4, margin_top + r * cell + 2), label, fill="black", font=font)
    label_strip = Image.new("RGB", (margin_top - 4, cell * len(cols)), "white")
    strip_draw = ImageDraw.Draw(label_strip)
    for c, label in enumerate(cols):
        strip_draw.text((2, c * cell + 2), label, fill="black", font=font)
    image.paste(label_strip.rotate(90, expand=True), (margin_left, 2))
    draw.text((4, height - 22), "rows: labelled   columns: predicted   blue: right   red: wrong",
              fill=(60, 60, 60), font=font)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def worst_image_urls(outcomes: list[ImageOutcome], paths: dict[str, Path], limit: int = 12) -> list[tuple[ImageOutcome, str]]:
    ranked = sorted((o for o in outcomes if o.errors), key=lambda o: (-o.errors, o.name))[:limit]
    drawn = []
    for outcome in ranked:
        try:
            image = decode_image(paths[outcome.name].read_bytes())
        except Exception:  # noqa: BLE001 - an unreadable image is listed without its picture
            drawn.append((outcome, ""))
            continue
        picture = draw_errors(image, _on_image(outcome.truth, image), _on_image(outcome.predicted, image),
                              outcome.pairs, outcome.missed, outcome.extra)
        drawn.append((outcome, encode_data_url(picture, max_side=900, quality=80)))
    return drawn


def _on_image(boxes: list[tuple], image: np.ndarray) -> list[tuple]:
    """(box, code) pairs with each box clipped to the photo: a label may give any size for its
    photo and boxes to match (10**13 pixels), and OpenCV draws only coordinates that fit an int."""
    height, width = image.shape[:2]

    def clip(value: float, limit: int) -> float:
        return min(max(float(value), 0.0), float(limit))

    return [((clip(x1, width), clip(y1, height), clip(x2, width), clip(y2, height)), code)
            for (x1, y1, x2, y2), code in boxes]


def check_picture_urls(report: dict, paths: dict[str, Path]) -> list[str]:
    """A small picture of each listed label to check: its box with a quarter of its size around
    it, CHECK_PICTURE_HEIGHT pixels high; "" where the photo cannot be read.  Each photo is
    decoded once and let go before the next (a hundred 12 MP photos would not fit in memory)."""
    entries = (report.get("labels_to_check") or [])[:CHECK_ROWS]
    urls = [""] * len(entries)
    name, image = None, None
    for i in sorted(range(len(entries)), key=lambda i: entries[i]["image"]):
        entry = entries[i]
        if entry["image"] != name:
            name, image = entry["image"], None
            try:
                image = decode_image(paths[name].read_bytes())
            except Exception:  # noqa: BLE001 - an unreadable photo is listed without its picture
                pass
        if image is not None:
            urls[i] = _tile_picture(image, entry["box"], entry.get("found_box"))
    return urls


def _tile_picture(image: np.ndarray, box, found_box=None) -> str:
    """The box with a quarter of its size around it (and the find's box, for a label off its tile),
    CHECK_PICTURE_HEIGHT high, as a data URL, the box drawn on it: which tile is meant is plain
    even where tiles touch."""
    boxes = [box] + ([found_box] if found_box else [])
    x1, y1 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x2, y2 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    mx, my = 0.25 * (box[2] - box[0]), 0.25 * (box[3] - box[1])
    left, top = max(0, int(x1 - mx)), max(0, int(y1 - my))
    crop = image[top:max(0, int(y2 + my) + 1), left:max(0, int(x2 + mx) + 1)].copy()
    if crop.size == 0:
        return ""
    line = max(1, round(2 * crop.shape[0] / CHECK_PICTURE_HEIGHT))  # about 2 pixels once shrunk
    for b, colour in zip(boxes, ((0, 140, 255), (200, 60, 200))):  # the label's orange, the find's purple
        h, w = crop.shape[:2]  # (a box a label says is 10^13 pixels long is drawn to the crop's edge)
        x1, x2 = (int(min(max(v - left, -1), w + 1)) for v in (b[0], b[2]))
        y1, y2 = (int(min(max(v - top, -1), h + 1)) for v in (b[1], b[3]))
        cv2.rectangle(crop, (x1, y1), (x2, y2), colour, line)
    k = CHECK_PICTURE_HEIGHT / crop.shape[0]
    crop = cv2.resize(crop, (max(1, round(crop.shape[1] * k)), CHECK_PICTURE_HEIGHT),
                      interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC)
    return encode_data_url(crop, quality=80, max_side=4 * CHECK_PICTURE_HEIGHT)


def _pct(value) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def render_html(report: dict, confusion_picture: bytes, worst: list[tuple[ImageOutcome, str]],
                check_pictures: list[str] | None = None) -> str:
    esc = html.escape
    summary = [
        ("images", report["images"]),
        ("labelled tiles", report["tiles"]),
        ("predicted tiles", report["predictions"]),
        (f"recall (IoU {report['iou_threshold']})", _pct(report["recall"])),
        ("precision (boxes)", _pct(report["precision"])),
        ("tile accuracy (found and right / labelled)", _pct(report["tile_accuracy"])),
        ("classification accuracy (right / found)", _pct(report["classification_accuracy"])),
        ("whole images exactly right", f"{_pct(report['exact_image_rate'])} ({report['exact_images']} of {report['images']})"),
        ("images that failed", report["images_failed"]),
        ("blurred images (moved or out of focus)", report.get("blurred_images", 0)),
        ("seconds", report["seconds"]),
    ]
    summary_rows = "".join(f"<tr><th>{esc(str(k))}</th><td>{esc(str(v))}</td></tr>" for k, v in summary)
    class_rows = "".join(
        f"<tr><td>{esc(code)}</td><td>{s['labelled']}</td><td>{s['predicted']}</td><td>{s['correct']}</td>"
        f"<td>{_pct(s['precision'])}</td><td>{_pct(s['recall'])}</td></tr>"
        for code, s in report["per_class"].items()
    )
    confusions = "".join(
        f"<tr><td>{esc(c['true'])}</td><td>{esc(c['predicted'])}</td><td>{c['count']}</td></tr>"
        for c in report["top_confusions"]
    ) or "<tr><td colspan=3>none</td></tr>"
    cards = []
    for outcome, url in worst:
        data = outcome.to_json()
        details = []
        if data["error"]:
            details.append(f"failed: {esc(data['error'])}")
        if data.get("blurred"):
            details.append("the photo is blurred")
        if data["missed"]:
            details.append("missed: " + esc(" ".join(data["missed"])))
        if data["wrong"]:
            details.append("wrong: " + esc(", ".join(f"{t} read as {p}" for t, p in data["wrong"])))
        if data["extra"]:
            details.append("extra: " + esc(" ".join(data["extra"])))
        picture = f'<img src="{url}" alt="{esc(outcome.name)} with its errors drawn">' if url else ""
        cards.append(
            f"<figure>{picture}<figcaption><b>{esc(outcome.name)}</b>: {outcome.errors} error{'s' * (outcome.errors != 1)}, "
            f"{data['correct']}/{data['tiles']} right<br>{'<br>'.join(details)}</figcaption></figure>"
        )
    to_check = report.get("labels_to_check") or []
    pictures = list(check_pictures or [])
    pictures += [""] * (len(to_check) - len(pictures))
    rows = []
    for c, url in zip(to_check[:CHECK_ROWS], pictures):
        picture = f'<img src="{url}" alt="the tile">' if url else ""
        label = esc(c["label"]) if c["label"] else "no label"
        box = " ".join(f"{v:g}" for v in c["box"])
        if c.get("found_box"):
            box += "<br>found at " + " ".join(f"{v:g}" for v in c["found_box"])
        read = esc(c["read"]) if c.get("read") else "&mdash;"
        sure = f"{c['confidence'] * 100:.0f}%" if c.get("confidence") is not None else ""
        rows.append(f"<tr><td>{picture}</td><td>{esc(c['image'])}</td><td>{box}</td><td>{label}</td>"
                    f"<td>{read}</td><td>{sure}</td><td>{esc(CHECK_KINDS.get(c['kind'], c['kind']))}</td></tr>")
    check_rows = "".join(rows) or "<tr><td colspan=7>none</td></tr>"
    total = report.get("labels_to_check_total", len(to_check))
    if total > CHECK_ROWS:
        where = "in report.json" if total == len(to_check) else f"(the first {len(to_check)} in report.json)"
        check_rows += f"<tr><td colspan=7>... and {total - CHECK_ROWS} more {where}</td></tr>"
    warnings = "".join(f"<li>{esc(w)}</li>" for w in report["warnings"])
    unsure = report.get("unsure_disagreements", 0)
    unsure_note = (f" Not listed: {unsure} reading{'s' * (unsure != 1)} under {SURE:.0%} confidence the labels "
                   "contradict, the recogniser's doubt more likely than the labels'." if unsure else "")
    confusion_url = "data:image/png;base64," + base64.b64encode(confusion_picture).decode("ascii")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mjscore validation: {esc(report['dataset'])}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 1100px; padding: 0 1rem; color: #222; }}
table {{ border-collapse: collapse; margin: .5rem 0 1.5rem; }}
th, td {{ border: 1px solid #ddd; padding: .25rem .6rem; text-align: left; }}
th {{ background: #f5f5f5; font-weight: 600; }}
.grid {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 1rem; }}
figure {{ margin: 0; border: 1px solid #ddd; padding: .5rem; }}
figure img {{ width: 100%; height: auto; }}
.legend span {{ padding: 0 .4rem; color: #fff; }}
.cm {{ overflow-x: auto; }}
</style></head><body>
<h1>Validation of {esc(report['dataset'])}</h1>
<p>Format: {esc(report['format'])}. A labelled tile counts as found when a predicted box overlaps it with
IoU &ge; {report['iou_threshold']}; boxes are paired one to one, best overlap first.</p>
<h2>Summary</h2><table>{summary_rows}</table>
<h2>Per class</h2>
<p>Right: labelled tiles of the kind found and named right. Precision: of the tiles read as the kind, those
labelled so. Read right: right / labelled (report.json's per-class "recall").</p>
<table><tr><th>code</th><th>labelled</th><th>predicted</th><th>right</th><th>precision</th><th>read right</th></tr>
{class_rows}</table>
<h2>Most frequent confusions</h2>
<table><tr><th>labelled</th><th>read as</th><th>count</th></tr>{confusions}</table>
<h2>Confusion matrix</h2>
<div class="cm"><img src="{confusion_url}" alt="confusion matrix: rows labelled code, columns predicted code"></div>
<h2>Labels to check</h2>
<p>Where a mistake in the labels explains what the recogniser found: a tile it read surely (at least
{SURE:.0%}) where no label is, or as another kind than the label's; a label's box lying off the tile found
beside it; a second label on one tile; a label under which no tile was found. A set's own errors are as
likely as the recogniser's here: look at each (the picture shows the label's box, or the find's where no
label is); the surest readings first.{unsure_note}</p>
<table><tr><th>tile</th><th>image</th><th>box</th><th>label</th><th>read as</th><th>confidence</th><th>what it may mean</th></tr>{check_rows}</table>
<h2>Worst images</h2>
<p class="legend"><span style="background:#3cb43c">right</span> <span style="background:#ff8c00">wrong (read/true)</span>
<span style="background:#e62828">missed</span> <span style="background:#c83cc8">extra</span></p>
<div class="grid">{''.join(cards) or '<p>No image had an error.</p>'}</div>
<h2>Warnings</h2><ul>{warnings or '<li>none</li>'}</ul>
</body></html>
"""


def write_report(report: dict, outcomes: list[ImageOutcome], paths: dict[str, Path], out_dir: Path,
                 worst: int = 12) -> tuple[Path, Path]:
    """Write ``report.json`` and ``report.html`` into ``out_dir``; returns both paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path, html_path = out_dir / "report.json", out_dir / "report.html"
    json_path.write_text(json.dumps(report, indent=1), encoding="utf-8")
    page = render_html(report, confusion_png(report["confusion"]), worst_image_urls(outcomes, paths, worst),
                       check_picture_urls(report, paths))
    html_path.write_text(page, encoding="utf-8")
    return json_path, html_path


def html_for(report: dict, outcomes: list[ImageOutcome], paths: dict[str, Path], worst: int = 12) -> str:
    return render_html(report, confusion_png(report["confusion"]), worst_image_urls(outcomes, paths, worst),
                       check_picture_urls(report, paths))
