"""The replay viewer in a real browser (headless Chromium): stepped by the keyboard and the buttons,
it shows each board the game had and ends on the final state the record states; a phone and a desktop;
no console message, nothing fetched."""
from __future__ import annotations

import pytest

from forge.engine.record import from_jsonl

from ..browser import DESKTOP, PHONE, shoot

SHOWN = """() => {
  const side = n => {
    const p = document.getElementById('p' + n);
    const get = k => Number(p.querySelector(`[data-k="${k}"]`).textContent);
    return {h: get('h'), e: get('e'), po: get('po'), hd: get('hd'), dk: get('dk'), dc: get('dc'),
            al: [...p.querySelectorAll('.pips')].map(x => Number(x.dataset.level)),
            f: [...p.querySelectorAll('[data-z="f"] figure')].map(f => [f.dataset.card, f.classList.contains('ex') ? 1 : 0]),
            r: (p.querySelector('[data-z="r"] figure') || {dataset: {card: null}}).dataset.card,
            winner: p.classList.contains('winner')};
  };
  return {step: Number(document.body.dataset.step), where: document.getElementById('where').textContent,
          p0: side(0), p1: side(1),
          row: [...document.querySelectorAll('#row .slot')].map(s => (s.querySelector('figure') || {dataset: {card: null}}).dataset.card),
          rd: Number(document.getElementById('rd').textContent), x: Number(document.getElementById('x').textContent),
          log: [...document.querySelectorAll('#log li')].filter(li => !li.hidden).length};
}"""


def _expected(board: dict) -> dict:
    def side(p: dict) -> dict:
        return {k: p[k] for k in ("h", "e", "po", "hd", "dk", "dc", "al", "f", "r")}

    return {"p0": side(board["p0"]), "p1": side(board["p1"]), "row": board["row"], "rd": board["rd"], "x": board["x"]}


def _shown(page) -> dict:
    got = page.evaluate(SHOWN)
    for p in ("p0", "p1"):
        got[p].pop("winner")
    return {k: got[k] for k in ("p0", "p1", "row", "rd", "x")}


def _open(visit, viewer_pages, lang="en", viewport=DESKTOP):
    v = visit(viewer_pages[0], viewport, touch=viewport is PHONE)
    return v, v.open(f"game-{lang}.html")


def _quiet(v, folder, name) -> None:
    assert v.messages == []
    assert [u for u in v.requests if not u.startswith("data:")] == [(folder / name).as_uri()]


def test_the_arrow_keys_step_forward_and_back_through_the_boards_the_game_had(visit, viewer_pages, played):
    _, views, _ = played
    v, page = _open(visit, viewer_pages)
    assert page.evaluate(SHOWN)["step"] == 0 and _shown(page) == _expected(views[0])
    for step in range(1, 8):
        page.keyboard.press("ArrowRight")
        assert _shown(page) == _expected(views[step]), step
    for step in range(6, 2, -1):
        page.keyboard.press("ArrowLeft")
        assert _shown(page) == _expected(views[step]), step
    assert page.evaluate(SHOWN)["where"].startswith(f"Step 4 of {len(views)}")
    page.click("#next")
    assert page.evaluate(SHOWN)["step"] == 4
    _quiet(v, viewer_pages[0], "game-en.html")


def test_end_reaches_the_final_state_the_record_states(visit, viewer_pages, played):
    path, views, state = played
    result = from_jsonl(path.read_bytes())[-1]
    v, page = _open(visit, viewer_pages, "fr")
    page.keyboard.press("End")
    got = page.evaluate(SHOWN)
    assert got["step"] == len(views) - 1 and _shown(page) == _expected(views[-1])
    assert [got["p0"]["h"], got["p1"]["h"]] == result["health"]
    assert got[f"p{result['winner']}"]["winner"] and not got[f"p{1 - result['winner']}"]["winner"]
    assert got["where"] == f"Étape {len(views)} sur {len(views)} · Tour {result['turns']}"
    assert got["log"] == page.locator("#log li").count()  # the whole log, to the winner's line
    assert page.locator("#log li").last.text_content() == f"Joueur {result['winner'] + 1} gagne."
    page.keyboard.press("Home")
    assert page.evaluate(SHOWN)["step"] == 0
    _quiet(v, viewer_pages[0], "game-fr.html")


def test_page_down_goes_to_the_next_turn_and_the_log_follows(visit, viewer_pages, played):
    _, views, _ = played
    v, page = _open(visit, viewer_pages)
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")
    step = page.evaluate(SHOWN)["step"]
    turns = [b["t"] for b in views]
    second = turns.index(turns[0] + 1)
    assert step == turns.index(turns[0] + 2) and turns[step - 1] == turns[0] + 1 and second < step
    page.keyboard.press("PageUp")
    assert page.evaluate(SHOWN)["step"] == second
    shown = page.evaluate(SHOWN)["log"]
    hidden = page.locator("#log li[hidden]").count()
    assert shown > 0 and hidden > 0 and shown + hidden == page.locator("#log li").count()
    assert page.locator("#log li.now").count() >= 1
    decisions = page.locator("#log li.decision:not([hidden])")
    assert decisions.count() == second and decisions.first.is_visible()  # one a step, up to this one
    page.click("#decisions")  # the raw decisions hidden, the events kept
    assert decisions.count() > 0 and not decisions.first.is_visible()
    assert page.locator("#log li.event:not([hidden])").first.is_visible()
    _quiet(v, viewer_pages[0], "game-en.html")


@pytest.mark.parametrize("viewport, name", [(PHONE, "phone"), (DESKTOP, "desktop")])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_viewer_fits_a_phone_and_a_desktop(visit, viewer_pages, played, viewport, name, lang):
    _, views, _ = played
    v, page = _open(visit, viewer_pages, lang, viewport)
    middle = len(views) // 2
    page.goto(page.url.split("#")[0] + f"#step-{middle + 1}")
    page.reload()
    assert page.evaluate(SHOWN)["step"] == middle and _shown(page) == _expected(views[middle])
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    for box in (page.locator("#p0").bounding_box(), page.locator("#row").bounding_box()):
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    shoot(page, f"replay-{lang}-{name}")
    page.keyboard.press("End")
    shoot(page, f"replay-{lang}-{name}-end", full_page=True)
    assert v.messages == []
