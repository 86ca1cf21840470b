"""A real browser for the tests of forge's web pages: Debian's Chromium, headless, driven by Playwright.

``launch()`` yields one browser (skipped on a workstation without Chromium, a failure in CI);
``Visit`` opens a page in a fresh context that records every console message and every request,
and lets nothing leave the machine; ``shoot`` saves a screenshot to ``FORGE_SCREENSHOTS`` (a folder)
when it is set, to be looked at; ``serious_violations`` runs axe-core (tests/data/axe, test-only) on a page.
"""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 900}
#: axe-core, vendored for the tests only (tests/data/README.md says where from, MPL-2.0).
AXE = Path(__file__).parent / "data" / "axe" / "axe.min.js"


def chromium() -> str | None:
    return os.environ.get("FORGE_CHROMIUM") or shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


def launch():
    """One headless Chromium for a module or a session (a generator for a fixture)."""
    executable = chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        executable = None
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("the web pages' tests need Chromium and Playwright: bash scripts/install --test")
        pytest.skip("Chromium or Playwright is not installed (bash scripts/install --test)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield browser
        browser.close()


class Visit:
    """A page opened in a fresh context, recording console messages and requests."""

    def __init__(self, browser, folder: Path, viewport=DESKTOP, touch: bool = False, bypass_csp: bool = False):
        self.folder = folder
        self.context = browser.new_context(viewport=viewport, reduced_motion="reduce", has_touch=touch,
                                           is_mobile=touch, bypass_csp=bypass_csp)
        self.page = self.context.new_page()
        self.messages: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.messages.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.messages.append(f"error: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        # nothing may leave the machine, even if a page asked: the test sees the attempt
        self.context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                           else route.abort())

    def open(self, name: str, anchor: str = ""):
        self.page.goto((self.folder / name).as_uri() + (f"#{anchor}" if anchor else ""))
        self.page.wait_for_load_state("load")
        return self.page

    def close(self):
        self.context.close()


def shoot(page, name: str, full_page: bool = False) -> None:
    folder = os.environ.get("FORGE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)


def serious_violations(page, exclude: tuple[str, ...] = ()) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands, one line each (none: ``[]``).

    The page's context must be made with ``bypass_csp=True``: axe is injected as a script the page's
    Content-Security-Policy would refuse (it is the test's tool, not the page's).
    """
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async (exclude) => {
        const r = await axe.run({exclude: exclude.map((s) => [s])}, {resultTypes: ["violations"]});
        return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}; ${v.nodes[0].html.slice(0, 300)})`);
    }""", list(exclude))
    return found


def until(page, expression: str, seconds: float = 15.0) -> None:
    """Wait until ``expression`` is true in ``page``, polled through the DevTools protocol.

    Playwright's wait_for_function builds its predicate with ``new Function`` in the page, which forge's
    pages refuse (their CSP has no 'unsafe-eval') whenever the predicate is not true at its first try:
    a test using it passes or fails by timing."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true within {seconds} s: {expression}"
        page.wait_for_timeout(50)
