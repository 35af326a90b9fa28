"""Folder and file names made of markdown and HTML, shown by every page of the served app in Chromium (#18 findings
2 and 10): the Code page's title rendered a path as markdown (an image from another host), and the Overview's
treemap rendered a directory name as HTML (a clickable link to another host). Titles, captions, labels, table
cells, chart labels and hover texts must show such names as text: no request leaves, no link goes out.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from codeqa.config import Settings
from tests.conftest import init_repo
from tests.helpers import build_index
from tests.served_app import serve_app, watched_page

pytestmark = pytest.mark.slow

IMAGE_DIR = "![x](https:/evil.test/x.png)"  # "https://evil.test/x.png" as a path: the browser reads https:/ the same
LINK_DIR = "<a href='https:evil.test'>x"  # one folder: plotly reads it as a link to https://evil.test
NESTED_LINK = "<a href=https:/evil.test>x</a>"  # as nested folders
HOSTILE_FILES = {
    f"{IMAGE_DIR}/beacon.py": "def beacon_signal(level):\n    return level * 2\n",
    f"{LINK_DIR}/views.py": "def render_invoice(invoice):\n    return str(invoice)\n",
    f"{NESTED_LINK}/models.py": "class Invoice:\n    total = 0\n",
    "![y](https:\\evil.test\\y.png).py": "def backslash_path():\n    return 1\n",
    "app/main.py": ("from views import render_invoice\n\n\ndef main():\n    return render_invoice(1)\n"),
}
CODE_VIEW_PATHS = [f"{IMAGE_DIR}/beacon.py", f"{LINK_DIR}/views.py", f"{NESTED_LINK}/models.py"]  # no backslash
OUTSIDE_LINKS = """() => [...document.querySelectorAll('a, [href], [*|href]')]
    .map(a => a.getAttribute('href') || a.getAttributeNS('http://www.w3.org/1999/xlink', 'href') || '')
    .filter(href => { try { return new URL(href, location.href).hostname.includes('evil.test'); }
                      catch (error) { return href.includes('evil.test'); } })"""  # our own Code links may name it


@pytest.fixture
def hostile_home(tmp_path: Path, isolated_home: Path) -> Path:
    repo = init_repo(tmp_path / "hostile", HOSTILE_FILES)
    build_index(str(repo), Settings(home=isolated_home), name="hostile")
    return isolated_home


def test_every_page_shows_hostile_names_as_text(hostile_home: Path):
    from playwright.sync_api import expect

    with serve_app(hostile_home) as url, watched_page() as watched:
        page = watched.page
        links: dict[str, list[str]] = {}
        for path in CODE_VIEW_PATHS:  # finding 2: the Code page's title, caption and buttons
            page.goto(f"{url}/Code?index=hostile&path={quote(path, safe='')}")
            expect(page.get_by_role("heading", level=1)).to_contain_text(path.split("/")[-1])
            page.wait_for_timeout(1500)
            links[f"Code {path}"] = page.evaluate(OUTSIDE_LINKS)
        page.goto(f"{url}/Code?index=hostile&path={quote(CODE_VIEW_PATHS[0], safe='')}")
        expect(page.get_by_role("heading", level=1)).to_contain_text(CODE_VIEW_PATHS[0])  # shown literally

        page.goto(url)
        expect(page.get_by_role("heading", name="codeqa")).to_be_visible()
        page.get_by_role("link", name="Overview").click()  # finding 10: the treemap, tables and the import graph
        expect(page.get_by_role("heading", name="Where the code is")).to_be_visible()
        expect(page.locator(".js-plotly-plot").first).to_be_visible()
        page.wait_for_timeout(3000)
        charts = " ".join(page.locator(".js-plotly-plot").all_inner_texts())
        assert LINK_DIR in charts and "![x](https:" in charts, charts[:500]  # the names, as text
        links["Overview"] = page.evaluate(OUTSIDE_LINKS)

        page.get_by_role("link", name="Map").click()  # region names, legend and hover texts
        expect(page.get_by_role("heading", name="Map of hostile")).to_be_visible()
        expect(page.locator(".js-plotly-plot").first).to_be_visible(timeout=120_000)
        page.wait_for_timeout(3000)
        links["Map"] = page.evaluate(OUTSIDE_LINKS)

        page.get_by_role("link", name="Chat").click()  # the directory filter lists the hostile folders
        expect(page.get_by_role("heading", name="Chat with hostile")).to_be_visible()
        page.get_by_test_id("stChatInputTextArea").fill("where is the invoice rendered?")
        page.keyboard.press("Enter")
        expect(page.get_by_text("Sources").first).to_be_visible(timeout=120_000)
        for i in range(page.get_by_test_id("stExpander").count()):
            page.get_by_test_id("stExpander").nth(i).locator("summary").click()
        page.wait_for_timeout(2000)
        links["Chat"] = page.evaluate(OUTSIDE_LINKS)

        assert watched.outside == [], f"requests to other hosts: {watched.outside}"
        assert {where: found for where, found in links.items() if found} == {}, "links to evil.test on the pages"
