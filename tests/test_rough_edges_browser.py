"""Rough edges a newcomer hit (#37), in a served app and headless Chromium: tables that fit or scroll, and no 404s
when a page is opened directly."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeqa.config import Settings
from tests.helpers import build_index
from tests.indexed_home import make_sample_repo
from tests.served_app import serve_app, watched_page

pytestmark = pytest.mark.slow

# For each table: scrolled to its right end, where its last column's cells sit against the table's own box.
LAST_COLUMNS = """() => [...document.querySelectorAll('.cq-table-scroll')].map(box => {
  box.scrollLeft = box.scrollWidth;
  const edge = box.getBoundingClientRect();
  const cells = [...box.querySelectorAll('tr')].map(row => row.lastElementChild.getBoundingClientRect());
  return {
    table: box.querySelector('table').getAttribute('aria-label'),
    cells: cells.length,
    hidden: cells.filter(c => c.right > edge.right + 1 || c.left < edge.left - 1 || c.width < 8).length,
    scrolls: box.scrollWidth <= box.clientWidth + 1 || getComputedStyle(box).overflowX === 'auto',
  };
})"""


@pytest.fixture
def deep_shop_home(tmp_path: Path, isolated_home: Path) -> Path:
    """Index ``shop`` from a long path (the Home table's widest column)."""
    repo = make_sample_repo(tmp_path / "projects" / "clients" / "a-rather-long-customer-name" / "shop-backend")
    build_index(str(repo), Settings(home=isolated_home), name="shop")
    return isolated_home


@pytest.mark.parametrize("width", [1280, 900])
def test_tables_show_their_last_column_or_scroll_to_it(deep_shop_home: Path, width: int):
    from playwright.sync_api import expect

    with serve_app(deep_shop_home) as url, watched_page(width=width) as watched:
        page = watched.page
        page.goto(url)
        expect(page.get_by_role("table", name="Indexed repositories")).to_be_visible()
        [home] = page.evaluate(LAST_COLUMNS)
        assert home["cells"] == 2 and home["hidden"] == 0 and home["scrolls"], home
        page.goto(f"{url}/Overview")
        expect(page.get_by_role("table", name="Most-referenced symbols")).to_be_attached()
        tables = {table["table"]: table for table in page.evaluate(LAST_COLUMNS)}
        assert set(tables) == {"Largest files", "Most-referenced symbols"}
        for table in tables.values():
            assert table["cells"] > 2 and table["hidden"] == 0 and table["scrolls"], table


def test_opening_a_page_directly_asks_the_server_for_nothing_that_is_not_there(deep_shop_home: Path):
    from playwright.sync_api import expect

    with serve_app(deep_shop_home) as url, watched_page() as watched:
        page = watched.page
        missing: list[str] = []
        page.on("response", lambda response: missing.append(response.url) if response.status >= 400 else None)
        for path, heading in (("Map", "Map of shop"), ("Overview", "Overview of shop"), ("Chat", "Chat with shop")):
            page.goto(f"{url}/{path}")
            expect(page.get_by_role("heading", name=heading)).to_be_visible()
        assert not missing, missing  # were /Map/_stcore/health and /Map/_stcore/host-config
        assert not watched.foreign


def test_the_warm_up_survives_a_visitor_clicking_away_while_it_runs(deep_shop_home: Path):
    """The warm-up runs beside the first visitor's page; a click elsewhere stops that page's run, and a spinner the
    warm-up showed there raised StopException in it (a traceback in the log, the warm-up ended half-way)."""
    import threading
    import time

    from playwright.sync_api import expect

    processes: list = []
    with serve_app(deep_shop_home, {"CODEQA_WARM_APP": "true"}, processes) as url, watched_page() as watched:
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(iter(processes[0].stdout.readline, "")), daemon=True)
        reader.start()
        page = watched.page
        page.goto(url)
        for label in ("Map", "Overview", "Chat", "Map"):  # at once, while the first run is still warming
            page.get_by_test_id("stSidebar").get_by_role("link", name=label).click()
        expect(page.get_by_role("heading", name="Map of shop")).to_be_visible()
        deadline = time.monotonic() + 120
        while not any("codeqa: warm" in line for line in lines) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert any("codeqa: warmed 1 index(es)" in line for line in lines), lines[-30:]
        assert not any("Traceback" in line or "StopException" in line for line in lines), lines[-30:]
