"""Service behaviour: the event loop stays free while photos are recognised, the waiting line is
bounded (503 when full), and the app answers health checks meanwhile."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import api.service
from api.app import app
from api.service import Workers

from test_api_uploads import jpeg_bytes

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def slow_recognition(monkeypatch):
    release = threading.Event()

    def slow(data, camera_seat, annotate=True, photo=False, name=None):  # stands in for a long CPU-bound recognition
        release.wait(10)
        return {"width": 64, "height": 48, "tiles": [], "seats": {}, "warnings": []}

    monkeypatch.setattr(api.service, "recognize_upload", slow)
    yield release
    release.set()


def test_health_answers_while_a_photo_is_being_recognised(slow_recognition):
    with TestClient(app) as client:
        results = {}
        worker = threading.Thread(target=lambda: results.setdefault("r", client.post(
            "/api/v1/recognize", files={"image": ("a.jpg", jpeg_bytes(), "image/jpeg")})))
        worker.start()
        time.sleep(0.3)
        start = time.perf_counter()
        assert client.get("/healthz").status_code == 200
        assert time.perf_counter() - start < 1.0  # not stuck behind the recognition
        assert worker.is_alive()  # the recognition is still running
        slow_recognition.set()
        worker.join(10)
        assert results["r"].status_code == 200


def test_full_waiting_line_gets_503(slow_recognition):
    with TestClient(app) as client:
        app.state.workers = Workers(workers=1, queue=0)
        first = threading.Thread(target=lambda: client.post(
            "/api/v1/recognize", files={"image": ("a.jpg", jpeg_bytes(), "image/jpeg")}))
        first.start()
        time.sleep(0.3)
        second = client.post("/api/v1/recognize", files={"image": ("a.jpg", jpeg_bytes(), "image/jpeg")})
        assert second.status_code == 503 and second.json()["code"] == "busy"
        slow_recognition.set()
        first.join(10)
        assert client.get("/healthz").status_code == 200


def test_security_headers_on_the_page():
    with TestClient(app) as client:
        response = client.get("/")
        assert response.status_code == 200 and "<input id=\"photo\"" in response.text
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert client.get("/static/js/main.js").status_code == 200
        assert client.get("/static/../app.py").status_code == 404


def test_the_page_and_its_files_are_asked_for_again_each_time_and_cheaply():
    """After an upgrade a browser must not run a copy of the page it kept (an old index.html
    asking for a script that is gone) or mix kept script modules with new ones: the page and its
    static files say `Cache-Control: no-cache` (the browser asks each time), and a copy still
    current is answered 304, with no body, by its ETag or Last-Modified; the JSON API's answers
    are left as they were."""
    with TestClient(app) as client:
        for path in ("/", "/static/js/main.js", "/static/js/extras.js", "/static/style.css", "/static/example.jpg"):
            response = client.get(path)
            assert response.status_code == 200 and response.headers["cache-control"] == "no-cache", path
            for asked in ({"If-None-Match": response.headers["etag"]},
                          {"If-Modified-Since": response.headers["last-modified"]}):
                again = client.get(path, headers=asked)
                assert again.status_code == 304 and again.content == b"", (path, asked)
                assert again.headers["cache-control"] == "no-cache" and again.headers["etag"] == response.headers["etag"]
            assert client.get(path, headers={"If-None-Match": '"another"'}).content == response.content
        assert client.head("/").headers["cache-control"] == "no-cache"
        assert client.get("/static/app.js").headers["cache-control"] == "no-cache"  # gone: asked again
        assert "cache-control" not in client.get("/healthz").headers


def test_the_page_and_its_headers_under_a_root_path():
    """Behind a web server serving mjscore at /mahjong/ (`mjscore serve --root-path /mahjong`):
    the page keeps its security headers, and everything it links (relative, never from the
    site's root) is served under the prefix: each of its script modules, reached along their
    imports from the one index.html loads, as JavaScript (a browser runs no module served as
    anything else), and every module in api/static/js is one of them."""
    import re
    from urllib.parse import urljoin

    with TestClient(app, root_path="/mahjong") as client:
        page = client.get("/mahjong/")
        assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["cache-control"] == "no-cache"
        assert client.get("/mahjong/", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
        scripts: dict[str, str] = {}
        todo = re.findall(r'<script type="module" src="([^"]+)"', page.text)
        assert todo == ["static/js/main.js"], todo
        while todo:
            link = todo.pop()
            if link in scripts:
                continue
            script = client.get(urljoin("http://club.example/mahjong/", link)[len("http://club.example"):])
            assert script.status_code == 200 and "default-src 'self'" in script.headers["content-security-policy"]
            assert script.headers["cache-control"] == "no-cache", link
            assert script.headers["content-type"].split(";")[0] in {"text/javascript", "application/javascript"}, link
            scripts[link] = script.text
            todo += [urljoin(link, module) for module in re.findall(r'from "(\./[^"]+)"', script.text)]
        assert sorted(scripts) == sorted(f"static/js/{p.name}" for p in (REPO / "api" / "static" / "js").glob("*.js"))
        links = re.findall(r'(?:src|href)="([^"#:]+)"', page.text) + [
            link for text in scripts.values() for link in re.findall(r'fetch\("([^"]+)"', text)]
        assert {"static/js/main.js", "static/style.css", "docs", "api/v1/recognize", "api/v1/score",
                "api/v1/game", "static/example.jpg"} <= set(links), links
        for link in links:
            assert not link.startswith("/"), f"the page links {link} from the site's root, not from its own path"
            path = urljoin("http://club.example/mahjong/", link)[len("http://club.example"):]
            answer = client.post(path, json={}) if link.startswith("api/") else client.get(path)
            assert answer.status_code != 404, (link, path)
        assert "/mahjong/openapi.json" in client.get("/mahjong/docs").text


def test_every_file_of_the_page_is_in_the_package_data():
    """An installed mjscore serves the page from its package: each file under api/static (the
    script modules in api/static/js too, which "static/*" alone leaves out) is in the package
    data pyproject.toml names, as setuptools globs it."""
    import tomllib

    api = REPO / "api"
    globs = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["api"]
    packaged = {path for pattern in globs for path in api.glob(pattern) if path.is_file()}
    page = {path for path in (api / "static").rglob("*") if path.is_file()}
    assert page - packaged == set(), sorted(str(p.relative_to(api)) for p in page - packaged)


def test_serve_refuses_a_root_path_without_its_slash(monkeypatch):
    import argparse

    import uvicorn

    from api import serve_cli

    ran = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: ran.update(k))
    parser = argparse.ArgumentParser()
    serve_cli.add_arguments(parser)
    with pytest.raises(SystemExit, match="must start with '/'"):
        serve_cli.run(parser.parse_args(["--root-path", "mahjong"]))
    assert serve_cli.run(parser.parse_args(["--root-path", "/mahjong/"])) == 0
    assert ran["root_path"] == "/mahjong"
    serve_cli.run(parser.parse_args([]))
    assert ran["root_path"] == ""


def test_health_says_loading_while_the_models_load(monkeypatch):
    """The app's start-up loads the models in the background; a health check polled meanwhile
    says "loading" (it said "not loaded", as if the models were missing), then "ready"."""
    import models.classifier

    release = threading.Event()
    real = models.classifier.default_classifier
    monkeypatch.setattr(models.classifier, "default_classifier", lambda: release.wait(10) and real())
    monkeypatch.setitem(api.service._state, "recognizer", "not loaded")
    with TestClient(app) as client:
        time.sleep(0.2)
        assert client.get("/healthz").json()["recognizer"] == "loading"
        release.set()
        for _ in range(100):
            if client.get("/healthz").json()["recognizer"] != "loading":
                break
            time.sleep(0.05)
        assert client.get("/healthz").json()["recognizer"] == "ready"


@pytest.mark.parametrize("sent, named", [("table 7.jpg", "table 7.jpg"), ("C:\\photos\\t.jpg", "t.jpg"),
                                         ("../../etc/passwd", "passwd"), ("..", "image"), ("", "image"),
                                         (None, "image"), ("a\u202egpj.exe", "agpj.exe"), ("x" * 500, "x" * 120)])
def test_an_upload_is_given_back_under_its_own_name(sent, named):
    assert api.service.upload_name(sent) == named


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_serve_refuses_a_port_that_is_no_port_before_starting(port, capsys):
    """--port 99999 ended in an OverflowError traceback from bind(): now a usage error."""
    from api.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", port])
    assert exit_.value.code == 2 and "--port" in capsys.readouterr().err


def test_the_recognition_answered_gives_each_warning_its_tiles_and_kind():
    """What the API answers holds "warning_tiles" and "warning_kinds" parallel to "warnings",
    also for a recognition that names neither (none: [] and "")."""
    from vision.hands import TileWarning

    class Bare:
        def to_json(self):
            return {"width": 64, "height": 48, "tiles": [], "seats": {}, "warnings": ["blurred", "short"]}

    out = api.service.recognition_json(Bare(), annotate=False)
    assert out["warning_tiles"] == [[], []] and out["warning_kinds"] == ["", ""]

    from vision.recognize import Recognition

    read = Recognition("x.jpg", 64, 48, "E", [], {}, ["blurred", TileWarning("North has 12 tiles", [3, 4], "count")])
    out = api.service.recognition_json(read, annotate=False)
    assert out["warning_tiles"] == [[], [3, 4]] and out["warning_kinds"] == ["", "count"]
