"""Two machines, one game, in a real browser: two Chromium contexts (two people, no shared cookie or storage)
play each other through ``forge play`` served off loopback (127.0.0.2: the CSRF token and the Host check at
work), each seeing the other's moves live, to the end of the game; ``forge replay`` then verifies the record."""
from __future__ import annotations

import pytest

from .conftest import serve_play
from .test_browser import MAX_CLICKS, Tab, _best_button


@pytest.fixture(scope="module")
def remote_server(tmp_path_factory):
    """``forge play --host 127.0.0.2``: not a loopback name, so the page works as it does between two machines."""
    yield from serve_play(tmp_path_factory, "--host", "127.0.0.2")


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
            if host.page.query_selector("body.over") and guest.page.query_selector("body.over"):
                break
            tabs = [t for t in (host, guest) if t.page.query_selector("#options button.opt")]
            assert len(tabs) == 1, "exactly one page has a decision"
            me = tabs[0]
            other = guest if me is host else host
            before = me.decision()
            index, _ = _best_button(me.page)
            me.page.query_selector_all("#options button")[index].click()
            me.wait_for_decision(before)
            now = me.decision()
            # the other page shows the move without a reload: the live stream brought it
            other.page.wait_for_selector(f'body[data-decision="{now}"]')
            if clicks % 25 == 0:
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
