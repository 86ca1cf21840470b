"""The balance report (issue 12 §1): charts byte-identical run to run, the HTML page self-contained,
"significant" shown only when it is, the proof sheet beside each card's numbers, and the page checked
in headless Chromium."""
from __future__ import annotations

import copy
import html as html_mod
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from forge.balance import charts
from forge.balance.report import build, render_html
from forge.carddb.database import load_database

from ..browser import launch
from ..conftest import invoke

REPO = Path(__file__).resolve().parents[2]
GAMES = 24


@pytest.fixture(scope="module")
def browser():
    """The module's Chromium (skipped without it)."""
    yield from launch()


@pytest.fixture(scope="module")
def db():
    return load_database(REPO).db


@pytest.fixture(scope="module")
def written(tmp_path_factory, db):
    """One small run of ``forge simulate --report`` (with the proof sheet) into a temporary folder."""
    out = tmp_path_factory.mktemp("balance-out")
    result = invoke(["simulate", "--root", str(REPO), "--games", str(GAMES), "--seed", "3",
                     "--report", "--out", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    return out / "balance", json.loads(result.stdout)


@pytest.fixture(scope="module")
def again(written, db):
    """The same report built again in this process (no proof sheet): its files and charts."""
    return build({k: v for k, v in written[1].items() if k != "report"}, db, REPO, proofs=False)


@pytest.mark.slow
def test_the_report_files_are_written(written, again):
    folder, data = written
    names = sorted(p.name for p in folder.iterdir())
    assert [chart.name for chart in again.charts] == list(charts.CHARTS)  # the names the blank stand-ins use
    for chart in charts.CHARTS:
        assert f"{chart}.png" in names and f"{chart}.svg" in names
        assert (folder / f"{chart}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "report.html" in names and data["report"][-1].endswith("report.html")
    saved = json.loads((folder / "balance.json").read_text())
    assert saved["games"] == GAMES and saved["balance"] == data["balance"]


def test_charts_are_byte_identical_and_carry_no_date(written, again):
    folder, data = written
    for name in ("matchups.png", "matchups.svg", "card-deltas.svg", "health.png", "balance.json"):
        assert again.files[name] == (folder / name).read_bytes(), name
    svg = (folder / "matchups.svg").read_text()
    assert "<dc:date>" not in svg and "Matplotlib" not in svg and "matplotlib.org" not in svg
    assert b"Software" not in (folder / "matchups.png").read_bytes()


def test_the_page_is_self_contained(written):
    html = (written[0] / "report.html").read_text()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith(("data:", "#")) for s in sources), [s for s in sources if not
                                                                              s.startswith(("data:", "#"))]
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    policy = html_mod.unescape(re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)[1])
    assert "default-src 'none'" in policy and "script-src 'none'" in policy and "img-src data:" in policy
    assert "<script" not in html  # the page has no script: a card name that became one would not run


def test_the_page_shows_every_figure_with_its_interval_and_size(written, db):
    folder, data = written
    html = (folder / "report.html").read_text()
    b = data["balance"]
    red = b["by_faction"]["red"]
    assert f"{100 * red['value']:.1f} %" in html and f"n = {red['n']}" in html
    assert f"{100 * red['low']:.1f} % – {100 * red['high']:.1f} %" in html
    assert f"{GAMES} games with heuristic agents, seed 3" in html
    # one proof-sheet section per card, each with its printed face
    sections = re.findall(r'<section class="card" id="card-([^"]+)">\s*<img src="data:image/jpeg;base64,', html)
    assert sorted(sections) == sorted(c.id for c in db.cards)


def _with_flags(balance: dict, card: str, use: str) -> dict:
    out = copy.deepcopy(balance)
    for row in out["cards"]:
        row["significant"] = [use] if row["card"] == card else []
        for u in ("bought", "played", "activated", "in_hand"):
            row[u]["significant"] = row["card"] == card and u == use
    out["seat"]["significant"] = False
    return out


def test_significant_only_when_it_is(written, db, again):
    _, data = written
    card = next(c.id for c in db.of_set("recruit"))
    name = next(c.name["en"] for c in db.cards if c.id == card)
    flagged = data | {"balance": _with_flags(data["balance"], card, "bought")}
    built = render_html(flagged, db, again.charts, {})
    badges = re.findall(r'<span class="sig">significant</span>', built)
    # the legend's one, the flagged list's one and the proof sheet's one: no other
    assert len(badges) == 3, len(badges)
    assert f'<a href="#card-{card}">{name}</a>' in built
    quiet = render_html(data | {"balance": _with_flags(data["balance"], "no-such-card", "bought")}, db,
                        again.charts, {})
    assert len(re.findall(r'<span class="sig">significant</span>', quiet)) == 1  # the legend only
    never = [r["card"] for r in data["balance"]["cards"] if r["never_used"]]
    assert len(re.findall(r'<span class="flag">never bought or played</span>', quiet)) == 2 * len(never)


def test_a_hostile_card_name_is_escaped(written, db, again):
    _, data = written
    evil = copy.deepcopy(db)
    evil.cards[0].name["en"] = "<script>alert(1)</script>"
    page = render_html(data, evil, again.charts, {})
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_chart_settings_make_reproducible_files():
    assert charts.RC["svg.hashsalt"] and charts.SVG_META["Date"] is None and charts.PNG_META["Software"] is None


# -- in a real browser -----------------------------------------------------------------------------

def test_the_page_in_headless_chromium(written, db, browser):
    page_file = written[0] / "report.html"
    messages, requests, failed = [], [], []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.on("console", lambda m: messages.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: messages.append(f"error: {e}"))
        page.on("request", lambda r: requests.append(r.url))
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.goto(page_file.as_uri())
        page.wait_for_load_state("load")
        broken = page.evaluate("[...document.images].filter(i => !i.complete || i.naturalWidth === 0)"
                               ".map(i => i.alt)")
        images = page.evaluate("document.images.length")
        charts_shown = page.evaluate("[...document.querySelectorAll('figure img')]"
                                     ".filter(i => i.getBoundingClientRect().width > 300).length")
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        if os.environ.get("FORGE_SCREENSHOTS"):
            page.screenshot(path=str(Path(os.environ["FORGE_SCREENSHOTS"]) / "balance-report.png"), full_page=True)
    finally:
        context.close()
    assert messages == [] and failed == []
    assert all(r.startswith(("file://", "data:")) for r in requests), requests
    assert broken == [] and images == 6 + len(db.cards)
    assert charts_shown == 6 and not overflow


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_the_page_is_accessible_and_never_scrolls_sideways(written, browser, viewport):
    """axe-core finds no serious or critical violation (it found 64 empty table headers), and a phone
    reads the page without scrolling it sideways (issue 25 §5)."""
    from ..browser import serious_violations

    context = browser.new_context(viewport=viewport, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto((written[0] / "report.html").as_uri())
        page.wait_for_load_state("load")
        wide = page.evaluate("document.documentElement.scrollWidth")
        found = serious_violations(page)
    finally:
        context.close()
    assert wide <= viewport["width"], f"the page is {wide} px wide"
    assert found == []


def test_the_text_report_says_the_new_figures(written):
    from forge.sim.simulate import render_text

    _, data = written
    text = render_text(data)
    e = data["balance"]["endings"]["kinds"]
    assert f"how games end: wound {100 * e['wound']['value']:5.1f}%" in text
    lengths = data["balance"]["lengths"]
    assert f"game turns (both players'): median {lengths['median']} (quartiles {lengths['q1']}–{lengths['q3']}" in text
    red = data["balance"]["matrix"]["by_seat"]["red"]
    assert f"  red          {100 * red['first']['value']:5.1f}% [" in text


def test_a_project_without_locales_gets_a_sheet_of_numbers(written, db, again, tmp_path, monkeypatch):
    """The card renderer cannot draw without the locales: the report says so and keeps the numbers.
    (The charts are ``again``'s: drawing them anew takes 4 s and proves nothing here.)"""
    from forge.balance import report

    for part in ("cards", "schema", "templates"):
        shutil.copytree(REPO / part, tmp_path / part)
    monkeypatch.setattr(report, "all_charts", lambda *args: again.charts)
    _, data = written
    page = build({k: v for k, v in data.items() if k != "report"}, db, tmp_path).files["report.html"].decode()
    assert "Some faces could not be drawn" in page and "no card faces:" in page
    assert page.count('<section class="card"') == len(db.cards) and "data:image/jpeg" not in page


def test_a_health_chart_without_curves_says_why(written, again, recwarn):
    """Fewer than 10 games at every turn: no curve to draw, so the chart says so (and no legend warning)."""
    balance = copy.deepcopy(written[1]["balance"])
    for role in ("winner", "loser"):
        balance["health"][role] = [dict(r, n=min(r["n"], 9)) for r in balance["health"][role]]
    chart = charts.health_over_turns(balance)
    assert b"fewer than 10 games reached any turn" in chart.svg
    assert b"eventual winner" not in chart.svg
    assert not [w for w in recwarn if "legend" in str(w.message)]
    full = next(c for c in again.charts if c.name == "health")  # drawn from the same figures by all_charts
    assert b"eventual winner" in full.svg and b"fewer than 10 games" not in full.svg
