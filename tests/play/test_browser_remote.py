"""Two machines, one game, in a real browser: two Chromium contexts (two people, no shared cookie or storage)
play each other through ``forge play`` served off loopback (127.0.0.2: the CSRF token and the Host check at
work), each seeing the other's moves live, to the end of the game; ``forge replay`` then verifies the record."""
from __future__ import annotations

import pytest

from .conftest import serve_play
from .test_browser import MAX_CLICKS, Tab, _best

#: What a Lost Soul does in the quick game: the shipped one, and a wound that ends games in 4 or 5 turns.
LOST_SOUL = "    effects:\n      - essence: 1\n\n  - id: essence-collector"
QUICK_SOUL = "    effects:\n      - essence: 1\n      - unblockable_wound: 8\n\n  - id: essence-collector"
#: A page's standing in one round trip: over, its decision's number, whether it offers options, their kinds.
STANDING = """() => ({over: document.body.classList.contains('over'), decision: document.body.dataset.decision,
    deciding: document.querySelector('#options button.opt') !== null,
    kinds: [...document.querySelectorAll('#options button')].map(b => b.dataset.kind)})"""


def hasten(project) -> None:
    """Each Lost Soul played also wounds the other player 8: a game both seats click through ends in about 30
    clicks, where the shipped cards' took 150 to 500 (a game against a person is dealt in secret: no seed
    chooses a short one). The test is of the pages and the server, not of the cards."""
    starter = project / "cards" / "starter.yaml"
    text = starter.read_text(encoding="utf-8")
    assert text.count(LOST_SOUL) == 1, "the Lost Soul's effects moved: update LOST_SOUL"
    starter.write_text(text.replace(LOST_SOUL, QUICK_SOUL), encoding="utf-8")


@pytest.fixture(scope="module")
def remote_server(tmp_path_factory):
    """``forge play --host 127.0.0.2``: not a loopback name, so the page works as it does between two machines;
    on a project whose games end quickly (``hasten``)."""
    yield from serve_play(tmp_path_factory, "--host", "127.0.0.2", prepare=hasten)


def _hand_shown(page, where: str) -> bool:
    return page.query_selector(f"{where} .zone.hand") is not None


@pytest.mark.slow
def test_two_browsers_play_one_game_to_the_end_and_the_record_replays(browser, remote_server, cli):
    url, project = remote_server
    host, guest = Tab(browser, url), Tab(browser, url)
    try:
        host.setup("en")
        host.page.check("input[name=mode][value=remote]")
        host.page.check("input[name=spectator]")
        host.page.click("#start")
        host.wait_for_decision()
        gid = host.page.evaluate("view.game")
        invite = host.page.eval_on_selector_all("#live input.link", "xs => xs.map(x => x.value)")
        assert len(invite) == 2 and all(link.startswith(f"{url}/game/{gid}#") for link in invite)
        assert "#" in host.page.url and host.page.url.split("#")[1] not in invite[0]
        guest.page.goto(invite[0])
        guest.wait_for_decision()
        watcher = Tab(browser, url)
        watcher.page.goto(invite[1])
        watcher.wait_for_decision()
        assert host.page.evaluate("view.seat") == 0 and guest.page.evaluate("view.seat") == 1
        host.page.wait_for_selector("#live-state.on")
        guest.page.wait_for_selector("#live-state.on")
        clicks = 0
        while clicks < MAX_CLICKS:
            seen = {t: t.page.evaluate(STANDING) for t in (host, guest)}
            if seen[host]["over"] and seen[guest]["over"]:
                break
            tabs = [t for t in (host, guest) if seen[t]["deciding"]]
            assert len(tabs) == 1, "exactly one page has a decision"
            me = tabs[0]
            other = guest if me is host else host
            before = seen[me]["decision"]
            me.page.locator("#options button").nth(_best(seen[me]["kinds"])[0]).click()
            me.wait_for_decision(before)
            now = me.decision()
            # the other page shows the move without a reload: the live stream brought it
            other.page.wait_for_selector(f'body[data-decision="{now}"]')
            if clicks % 5 == 0:
                assert not _hand_shown(host.page, "#p-them") and not _hand_shown(guest.page, "#p-them")
                assert not _hand_shown(watcher.page, "#p-them") and not _hand_shown(watcher.page, "#p-me")
                running = me.page.eval_on_selector_all("#live .clock.running", "xs => xs.length")
                assert running <= 1
            clicks += 1
        assert host.page.query_selector("body.over") and guest.page.query_selector("body.over"), clicks
        watcher.page.wait_for_selector("body.over")
        assert all("wins the game" in t.page.inner_text("#prompt") for t in (host, guest, watcher))
        # the record on disk is what forge replay verifies, to the same end
        record = project / "output" / "play" / "games" / f"game-{int(gid):06d}.jsonl"

        result = cli(["replay", str(record), "--root", str(project), "--format", "json"])
        assert result.exit_code == 0, result.output
        # the lobby of each browser lists the game, over
        host.page.goto(f"{url}/?lang=en")
        host.page.wait_for_selector(f'#lobby li[data-game="{gid}"][data-status="over"]')
        for tab in (host, guest, watcher):
            assert tab.messages == [] and tab.outside == []
        watcher.close()
    finally:
        host.close()
        guest.close()
