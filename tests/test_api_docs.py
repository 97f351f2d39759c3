"""The OpenAPI docs pages work offline: every script and stylesheet comes from this server."""

import re

from fastapi.testclient import TestClient

from api.app import app


def test_docs_pages_load_their_assets_from_this_server():
    with TestClient(app) as client:
        for page in ("/docs", "/redoc"):
            response = client.get(page)
            assert response.status_code == 200
            urls = re.findall(r'(?:src|href)=["\']([^"\']+)["\']', response.text)
            urls += re.findall(r"url: ['\"]([^'\"]+)['\"]", response.text)
            assets = [u for u in urls if u.endswith((".js", ".css"))]
            assert assets, page
            for url in assets:
                assert url.startswith("/"), f"{page} loads {url} from another host"
                assert client.get(url).status_code == 200, url
        assert client.get("/openapi.json").json()["info"]["title"] == "mjscore"
