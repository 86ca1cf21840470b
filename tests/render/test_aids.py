"""Player aids read back: the mat, the token sheet and the card-size aids in print-and-play and
print-on-demand, in both languages, with every rule number taken from the engine."""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from forge.engine import state
from forge.render.aiddocs import mat_pdf, tokens_pdf
from forge.render.aids import aid_cards, aid_set, draw_aid
from forge.render.cards import RenderOptions, render_cards
from forge.render.paint import Painter
from forge.render.pdftext import page_texts
from forge.render.pdf import PdfBuffer
from forge.render.sheets import PAPERS
from forge.render.template import TemplateError, load_template, parse_template

from .helpers import FACTION_NAMES, FakeBook, books, mini_db, physical_count, shop_aid_count

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]
MM = 72 / 25.4


@pytest.fixture
def rendered(mini_print):
    return mini_print


def numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", text)}


def words(lang: str) -> dict:
    return load_template(REPO).labels(lang)["aids"]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_mat_prints_every_track_value_in_its_language(rendered, lang, paper):
    out, result = rendered
    assert result.findings == []
    reader = PdfReader(out / f"pnp/player-mat-{lang}-{paper}.pdf")
    (page,) = reader.pages
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    assert (w, h) == pytest.approx((max(PAPERS[paper]), min(PAPERS[paper])), abs=0.01)  # landscape
    text = page_texts(out / f"pnp/player-mat-{lang}-{paper}.pdf")[0]
    assert set(range(state.START_HEALTH + 1)) <= numbers(text)
    assert text.count(f"{state.MAX_ALLEGIANCE}") >= 1
    label = words(lang)
    flat = " ".join(text.split())  # a zone's name may wrap beside its disc
    for key in ("mat", "health", "allegiance", "deck", "discard", "rite", "poison", "essence"):
        assert label[key] in flat, key
    for name in FACTION_NAMES[lang].values():
        assert name in text
    other = words("fr" if lang == "en" else "en")
    assert other["mat"] not in text and other["discard"] not in text


def _allegiance_rows(text: str, lang: str) -> int:
    """How many 0 … max runs follow a faction name (one per allegiance track)."""
    run = " ".join(str(v) for v in range(state.MAX_ALLEGIANCE + 1))
    return sum(1 for name in FACTION_NAMES[lang].values() if re.search(re.escape(name) + r"\s*" + re.escape(run), text))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_mat_has_one_allegiance_track_per_faction(rendered, lang):
    out, _ = rendered
    text = page_texts(out / f"pnp/player-mat-{lang}-a4.pdf")[0]
    assert _allegiance_rows(text, lang) == len(mini_db().factions)


def _ink_near_edge(pdf: Path, margin_mm: float = 5.0, dpi: int = 72) -> list[tuple[int, int]]:
    """Every page rendered: pages whose band ``margin_mm`` wide along the paper edge is not blank paper."""
    import pypdfium2 as pdfium

    bad = []
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for i in range(len(doc)):
            img = doc[i].render(scale=dpi / 72).to_pil().convert("L")
            w, h = img.size
            band = round(margin_mm / 25.4 * dpi)
            px = img.load()
            dark = sum(1 for x in range(w) for y in range(h)
                       if (x < band or y < band or x >= w - band or y >= h - band) and px[x, y] < 250)
            if dark:
                bad.append((i, dark))
    finally:
        doc.close()
    return bad


@pytest.mark.parametrize("name", ["player-mat", "tokens"])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_is_printed_within_5_mm_of_the_paper_edge(rendered, name, lang, paper):
    out, _ = rendered
    assert _ink_near_edge(out / f"pnp/{name}-{lang}-{paper}.pdf") == []


def test_the_edge_check_sees_ink_at_the_edge(tmp_path):
    """The check above fails for a page that prints a line 3 mm from the edge."""
    doc = PdfBuffer(PAPERS["a4"], "edge", "en")
    doc.canvas.setLineWidth(1)
    doc.canvas.line(3 * MM, 100, 3 * MM, 200)
    doc.canvas.showPage()
    (tmp_path / "edge.pdf").write_bytes(doc.finish())
    assert _ink_near_edge(tmp_path / "edge.pdf") != []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_token_sheet_has_markers_counters_and_cut_lines(rendered, lang):
    out, _ = rendered
    reader = PdfReader(out / f"pnp/tokens-{lang}-a4.pdf")
    (page,) = reader.pages
    text = page_texts(out / f"pnp/tokens-{lang}-a4.pdf")[0]
    assert words(lang)["tokens"] in text and words(lang)["tokens_note"].split()[0] in text
    data = page.get_contents().get_data()
    assert data.count(b" re") >= 100  # a cut box around every token


def test_token_counts_follow_the_players_and_factions():
    from forge.render.aiddocs import draw_tokens

    from forge.render.aids import counters_wanted

    tpl = load_template(REPO)
    a = aid_set(tpl, FakeBook("en"), "en", mini_db().factions)
    assert counters_wanted(a.numbers) == state.START_HEALTH
    for paper in PAPERS:
        doc = PdfBuffer(PAPERS[paper], "t", "en")
        counts = draw_tokens(Painter(doc.canvas), tpl, a, PAPERS[paper])
        assert counts["health"] == state.PLAYERS
        assert counts["allegiance"] == state.PLAYERS * len(mini_db().factions)
        assert counts["poison"] >= state.START_HEALTH and counts["essence"] >= state.START_HEALTH, paper


@functools.cache
def _pod_aid_pages(out: Path, lang: str) -> tuple[tuple[str, str, str], ...]:
    """The print-on-demand file's aid pages after the game's cards: (front form, back form, their text).

    Read once per file: ``out`` is the session's read-only render (``mini_print``), which two tests read."""
    from .pdfread import placements

    tpl = load_template(REPO)
    reader = PdfReader(out / f"pod/rift-commanders-{lang}-pod.pdf")
    cards = physical_count(mini_db())
    assert len(reader.pages) == 2 * (cards + shop_aid_count(lang))
    pages, texts = reader.pages[2 * cards:], page_texts(out / f"pod/rift-commanders-{lang}-pod.pdf")[2 * cards:]
    out_pages = []
    for front, back, front_text, back_text in zip(pages[::2], pages[1::2], texts[::2], texts[1::2]):
        (f,), (b,) = placements(front, tpl), placements(back, tpl)
        out_pages.append((f["name"], b["name"], front_text + "\n" + back_text))
    return tuple(out_pages)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_print_on_demand_file_ends_with_the_aids_both_sides(rendered, lang):
    out, _ = rendered
    pages = _pod_aid_pages(out, lang)
    label = words(lang)
    kw = FakeBook(lang).keyword
    for front, back, text in pages:
        if front == f"aid-turn.{lang}":
            assert back == f"aid-wound.{lang}"
            # the phases in the engine's order: Initiation and Strategy on the front, Cleanup on the back
            flat = " ".join(text.split())
            assert [flat.index(label[k]) for k in state.TURN_PHASES] == sorted(flat.index(label[k])
                                                                               for k in state.TURN_PHASES)
            # then the Wound protection order: Aegis, then Divine Shield, then Guard
            wound = flat[flat.index(kw("aegis")):]  # ("Gardez 2 cartes" in the Cleanup is no Guard)
            order = [wound.index(kw(k)) for k in state.WOUND_PROTECTION]
            assert flat.index(label["cleanup"]) < flat.index(kw("aegis")) and order == sorted(order), flat
            assert str(state.KEEP_AT_CLEANUP) in text and str(state.HAND_SIZE) in text
        elif front == f"aid-health.{lang}":
            assert set(range(state.START_HEALTH + 1)) <= numbers(text) and label["player_aid"].upper() in text
        elif front == f"aid-allegiance.{lang}":
            assert label["allegiance"] in text and _allegiance_rows(text, lang) == len(mini_db().factions)
    fronts = [f for f, _, _ in pages]
    for kind in ("turn", "health", "allegiance"):
        assert fronts.count(f"aid-{kind}.{lang}") == state.PLAYERS


def _drawn(kind: str, lang: str = "en", doc: PdfBuffer | None = None):
    """Draw one side of a card-size aid (the print shops' included): its painter and its problems."""
    from forge.render.aids import shop_aid_cards

    tpl = load_template(REPO)
    a = aid_set(tpl, FakeBook(lang), lang, mini_db().factions)
    side = next(s for f in aid_cards(a) + shop_aid_cards(tpl, a) for s in (f, f.reverse()) if s.kind == kind)
    doc = doc or PdfBuffer((tpl.full_w, tpl.full_h), "aid", lang)
    p = Painter(doc.canvas)
    problems = draw_aid(p, tpl, side)
    return p, problems


def _pieces(p: Painter, label: str) -> list:
    return [m for m in p.marks if m.kind == "icon" and m.label == label]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_print_on_demand_file_carries_the_rite_slot_and_the_tokens(rendered, lang):
    """Issue 8 §5: the print shops print no mat nor token sheet, so their file carries a Rite slot per
    player and cards of track markers, poison counters and soul essence, both sides, in its language."""
    out, result = rendered
    pages = _pod_aid_pages(out, lang)
    label, other = words(lang), words("fr" if lang == "en" else "en")
    by_front: dict[str, list] = {}
    for front, back, text in pages:
        by_front.setdefault(front, []).append((back, text))
    rite = by_front[f"aid-rite.{lang}"]
    assert len(rite) == state.PLAYERS
    for back, text in rite:
        flat = " ".join(text.split())
        take = label["rite_steps"][0].replace("{max_allegiance}", str(state.MAX_ALLEGIANCE))
        assert back == f"aid-back.{lang}" and label["rite"] in flat and take in flat, flat
        assert other["rite"] not in flat
    markers = by_front[f"aid-markers.{lang}"]
    assert [b for b, _ in markers] == [f"aid-markers-back.{lang}"]
    assert label["markers"] in markers[0][1] and str(state.START_HEALTH) in markers[0][1]
    piece = {"poison": "poison counter", "essence": "soul essence"}
    per_card = {k: len(_pieces(_drawn(k, lang)[0], piece[k])) for k in piece}
    for kind, title in (("poison", label["poison"]), ("essence", label["essence"])):
        cards = by_front[f"aid-{kind}.{lang}"]
        assert all(b == f"aid-{kind}.{lang}" for b, _ in cards)  # the same counters on the back
        assert all(title in " ".join(t.split()) and label["cut_note"] in " ".join(t.split()) for _, t in cards)
        total = len(cards) * per_card[kind]
        assert state.START_HEALTH <= total < state.START_HEALTH + per_card[kind], (kind, total)
    # every side passed the card checks (safe zone, fit) and the file the print shop's preflight
    assert result.findings == [] and result.preflight["pod"]["ok"]
    assert not [c for c in result.preflight["pod"]["card_problems"] if c["id"].startswith("aid-")]


def test_the_markers_card_holds_each_players_markers_and_its_back_lies_behind_them():
    tpl = load_template(REPO)
    front, problems = _drawn("markers")
    back, back_problems = _drawn("markers-back")
    assert problems == back_problems == []
    factions = [f.id for f in mini_db().factions]
    assert len(_pieces(front, "health marker")) == state.PLAYERS
    for fid in factions:
        assert len(_pieces(front, f"{fid} marker")) == state.PLAYERS
    # each piece has itself on its back: the back's columns are the front's, mirrored
    def centres(p, label):
        return sorted((round((m.box[0] + m.box[2]) / 2, 2), round((m.box[1] + m.box[3]) / 2, 2))
                      for m in _pieces(p, label))
    for label in ["health marker"] + [f"{fid} marker" for fid in factions]:
        assert centres(back, label) == sorted((round(tpl.full_w - x, 2), y) for x, y in centres(front, label)), label


def test_the_print_shop_aids_follow_the_engine(monkeypatch):
    """More players, less health: more Rite slots and marker rows, fewer counter cards (nothing typed twice)."""
    from forge.render.aids import counters_wanted, shop_aid_cards

    monkeypatch.setattr(state, "PLAYERS", 3)
    monkeypatch.setattr(state, "START_HEALTH", 25)
    tpl = load_template(REPO)
    a = aid_set(tpl, FakeBook("en"), "en", mini_db().factions)
    copies = {f.kind: f.copies for f in shop_aid_cards(tpl, a)}
    p, problems = _drawn("poison")
    per_card = len(_pieces(p, "poison counter"))
    assert problems == [] and per_card > 0 and counters_wanted(a.numbers) == 25
    assert copies == {"rite": 3, "markers": 1, "poison": -(-25 // per_card), "essence": -(-25 // per_card)}
    markers, problems = _drawn("markers")
    assert problems == [] and len(_pieces(markers, "health marker")) == 3


def test_the_pieces_show_their_own_icons_not_the_neutral_one():
    """Poison counters and the health marker once fell back to the neutral ghost (their icons were not
    vendored); soul essence is the cards' Soul drop, never a disc like the Blue faction's."""
    from forge.render.assets import SYMBOL_ICONS

    def icons(kind):
        p, _ = _drawn(kind)
        return {part.label for part in p.parts if part.label.startswith("icon ")}

    neutral = f"icon {SYMBOL_ICONS['neutral']}"
    assert "icon poison-bottle" in icons("poison") and neutral not in icons("poison")
    markers = icons("markers")
    assert "icon glass-heart" in markers and neutral not in markers
    essence, _ = _drawn("essence")
    assert _pieces(essence, "soul") == [] and len(_pieces(essence, "soul essence")) > 0
    assert neutral not in {part.label for part in essence.parts}


def test_the_turn_summary_follows_the_engines_phases(monkeypatch):
    """Reordered, the phases reorder on the card (they may then no longer fit it: not this test's point)."""
    monkeypatch.setattr(state, "TURN_PHASES", ("initiation", "cleanup", "strategy"))
    label = words("en")

    def text(kind):
        tpl = load_template(REPO)
        doc = PdfBuffer((tpl.full_w, tpl.full_h), "aid", "en")
        _drawn(kind, doc=doc)
        doc.canvas.showPage()
        return " ".join(page_texts(doc.finish())[0].split())

    front, back = text("turn"), text("wound")
    assert label["initiation"] in front and label["cleanup"] in front and label["strategy"] not in front
    assert label["strategy"] in back and label["cleanup"] not in back
    # the headings' numbers are the phases' places in the engine's turn, never typed in the labels
    assert f"1 · {label['initiation']}" in front and f"2 · {label['cleanup']}" in front
    assert f"3 · {label['strategy']}" in back
    assert not any(label[k][0].isdigit() for k in state.TURN_PHASES)


def test_aid_cards_are_placed_on_the_print_and_play_sheets_with_their_backs(rendered):
    from .pdfread import placements

    out, _ = rendered
    tpl = load_template(REPO)
    reader = PdfReader(out / "pnp/rift-commanders-en-a4.pdf")
    fronts = [f["name"] for i in range(0, len(reader.pages), 2) for f in placements(reader.pages[i], tpl)]
    backs = [f["name"] for i in range(1, len(reader.pages), 2) for f in placements(reader.pages[i], tpl)]
    assert fronts.count("aid-turn.en") == state.PLAYERS and backs.count("aid-wound.en") == state.PLAYERS
    assert fronts.count("aid-health.en") == fronts.count("aid-allegiance.en") == state.PLAYERS
    assert backs.count("aid-back.en") == 2 * state.PLAYERS


def _aid_text(kind: str, lang: str = "en") -> str:
    tpl = load_template(REPO)
    a = aid_set(tpl, FakeBook(lang), lang, mini_db().factions)
    doc = PdfBuffer((tpl.full_w, tpl.full_h), "aid", lang)
    side = next(s for f in aid_cards(a) for s in (f, f.reverse()) if s.kind == kind)
    assert draw_aid(Painter(doc.canvas), tpl, side) == []
    doc.canvas.showPage()
    return page_texts(doc.finish())[0]


def test_the_numbers_come_from_the_engine(monkeypatch):
    """Change the engine's constants: the aids change with them (nothing is typed twice)."""
    assert max(numbers(_aid_text("health"))) == 40 and 6 in numbers(_aid_text("allegiance"))
    monkeypatch.setattr(state, "START_HEALTH", 30)
    monkeypatch.setattr(state, "MAX_ALLEGIANCE", 5)
    monkeypatch.setattr(state, "KEEP_AT_CLEANUP", 3)
    monkeypatch.setattr(state, "HAND_SIZE", 7)
    assert numbers(_aid_text("health")) == set(range(31))
    assert numbers(_aid_text("allegiance")) == set(range(6))
    cleanup = " ".join(_aid_text("wound").split())
    assert "up to 3 cards" in cleanup and "up to 7 cards" in cleanup
    tpl = load_template(REPO)
    a = aid_set(tpl, FakeBook("en"), "en", mini_db().factions)
    mat = page_texts(mat_pdf(tpl, a, "a4", PAPERS["a4"]))[0]
    assert max(numbers(mat)) == 30


def test_the_mat_follows_the_engine_through_a_render(monkeypatch, tmp_path):
    monkeypatch.setattr(state, "START_HEALTH", 25)
    out = tmp_path / "output"
    render_cards(mini_db(), books(), REPO, RenderOptions(out=out, workers=1, profiles=("pnp",), langs=("en",),
                                                          papers=("a4",)))
    assert max(numbers(page_texts(out / "pnp/player-mat-en-a4.pdf")[0])) == 25


@pytest.mark.parametrize("old,new,error", [
    # an unknown placeholder
    ("Draw up to {hand} cards.", "Draw up to {hand_size} cards.", r"labels\.en\.aids\.cleanup_steps.*hand_size"),
    # the Wound protections named in another order than the engine applies them
    ("- \"{aegis} reduces", "- \"{guard} first; {aegis} reduces",
     r"labels\.en\.aids\.wound_steps.*\{aegis\}, \{divine_shield\}, \{guard\}"),
])
def test_aid_labels_the_aids_cannot_print_are_a_template_error(old, new, error):
    text = (REPO / "templates/cards/card.yaml").read_text(encoding="utf-8")
    bad = text.replace(old, new, 1)
    assert bad != text
    with pytest.raises(TemplateError, match=error):
        aid_set(parse_template(bad), FakeBook("en"), "en", mini_db().factions)


def test_the_token_sheet_and_mat_are_single_pages_per_paper():
    tpl = load_template(REPO)
    a = aid_set(tpl, FakeBook("fr"), "fr", mini_db().factions)
    import io

    for paper in PAPERS:
        assert len(PdfReader(io.BytesIO(tokens_pdf(tpl, a, paper, PAPERS[paper]))).pages) == 1
        assert len(PdfReader(io.BytesIO(mat_pdf(tpl, a, paper, PAPERS[paper]))).pages) == 1


def test_a_card_change_does_not_redraw_the_mat_or_the_tokens(tmp_path):
    from dataclasses import replace

    out = tmp_path / "output"
    opts = RenderOptions(out=out, workers=1, profiles=("pnp", "tts"), langs=("en",), papers=("a4",))
    render_cards(mini_db(), books(), REPO, opts)
    db = mini_db()
    db.cards[1] = replace(db.cards[1], flavor={"en": "The sea takes back what it gave."})
    written = set(render_cards(db, books(), REPO, opts).written)
    from forge.render.tts import image_rel

    assert "pnp/rift-commanders-en-a4.pdf" in written and image_rel("en", "recruit-1", "jpg") in written
    assert not {"pnp/player-mat-en-a4.pdf", "pnp/tokens-en-a4.pdf", image_rel("en", "mat", "jpg"),
                image_rel("en", "aid-turn", "png")} & written


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_aid_text_is_at_least_7_pt_and_card_footers_at_least_5(rendered, lang):
    """Print shops advise 7 pt for text read at the table and 5 pt for fine print: the aids' smallest
    text (the turn summary once fitted at 6.25 pt) and the cards' (the footer, once 4.1 pt), read back."""
    from forge.render.aids import AID_MIN_TEXT
    from forge.render.pdfscan import scan

    out, _ = rendered
    texts = scan(PdfReader(out / f"pod/rift-commanders-{lang}-pod.pdf")).texts
    card_pages = 2 * physical_count(mini_db())
    aid_sizes = [t.size for t in texts if t.page > card_pages]
    card_sizes = [t.size for t in texts if t.page <= card_pages]
    assert AID_MIN_TEXT >= 7.0 and aid_sizes and min(aid_sizes) >= AID_MIN_TEXT - 0.01
    assert card_sizes and min(card_sizes) >= 5.0
    for doc in ("player-mat", "tokens"):
        sizes = [t.size for t in scan(PdfReader(out / f"pnp/{doc}-{lang}-a4.pdf")).texts]
        assert min(sizes) >= AID_MIN_TEXT - 0.01, doc


def test_both_sides_of_the_turn_summary_share_one_size_and_fit():
    from forge.render import aids

    tpl = load_template(REPO)
    for lang in ("en", "fr"):
        a = aid_set(tpl, FakeBook(lang), lang, mini_db().factions)
        size, ok = aids.turn_text_size(tpl, a)
        assert ok and size >= aids.AID_MIN_TEXT
    # a summary too long for its card at 7 pt is reported, not shrunk below it
    long = ["A step far too long to fit, said again and again and again and again and again."] * 12
    a = aid_set(tpl, FakeBook("en"), "en", mini_db().factions)
    a = aids.AidSet(a.lang, a.game, tuple((k, tuple(long) if k == "strategy_steps" else v) for k, v in a.words),
                    a.numbers, a.factions)
    doc = PdfBuffer((tpl.full_w, tpl.full_h), "aid", "en")
    problems = draw_aid(Painter(doc.canvas), tpl, aids.Aid("turn", a))
    assert problems and "7.0 pt" in problems[0]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_mats_allegiance_tracks_sit_halfway_between_the_health_track_and_the_card_slots(paper):
    """The free room of the page goes above and below the allegiance tracks alike (it once all went
    below them: 8 mm above, 21 mm below on Letter)."""
    from forge.render.aiddocs import draw_mat, mat_size

    tpl = load_template(REPO)
    a = aid_set(tpl, FakeBook("en"), "en", mini_db().factions)
    page = mat_size(PAPERS[paper])
    p = Painter(PdfBuffer(page, "mat", "en").canvas)
    draw_mat(p, tpl, a, page)
    texts = [m for m in p.marks if m.kind == "text"]
    cells = [(int(m.label.removeprefix("track ")), m.box) for m in texts if m.label.startswith("track ")]
    health_low = min(box[1] for v, box in cells if v > state.MAX_ALLEGIANCE)  # the health track's last row
    allegiance_low = min(box[1] for v, box in cells if box[3] < health_low)
    heading_top = next(m.box[3] for m in texts if m.label == "mat allegiance")
    slots_top = max(m.box[3] for m in texts if m.label.startswith("zone "))
    above, below = (health_low - heading_top) / MM, (allegiance_low - slots_top) / MM
    assert above > 5 and abs(above - below) < 1.5, (above, below)
