"""What every web page of this package shares: its templates, its inlined data, its policy, its write.

The templates (``templates/``, forge's own) render in forge's Jinja sandbox with
autoescaping; styles and scripts are inlined; the page's data is JSON inside a
``<script type="application/json">`` that no ``<`` in a card name can close; the
Content-Security-Policy lets the page load nothing but its own scripts (by hash)
and ``data:`` pictures. A page whose bytes did not change is not written again.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ..findings import Finding

TEMPLATES = Path(__file__).parent / "templates"
_CSP_SLOT = "forge-web-csp-slot"


@dataclass
class PageOutcome:
    """One page written (or found current): where, how big, its hash, and what was found on the way."""

    path: str = ""
    size: int = 0
    sha256: str = ""
    written: bool = False
    unchanged: bool = False
    findings: list[Finding] = field(default_factory=list)
    io_error: str = ""

    @property
    def ready(self) -> bool:
        return self.written or self.unchanged

    def to_json(self) -> dict:
        return {"path": self.path, "bytes": self.size, "sha256": self.sha256, "written": self.written,
                "unchanged": self.unchanged, "findings": [f.to_json() for f in self.findings],
                **({"error": self.io_error} if self.io_error else {})}


def environment():
    """The sandboxed, autoescaping Jinja environment of this package's templates."""
    import jinja2

    from .. import sandbox

    return sandbox.environment(jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                               trim_blocks=True, lstrip_blocks=True)


def asset(name: str) -> Markup:
    """A stylesheet or script of this package, to inline as it is."""
    return Markup((TEMPLATES / name).read_text(encoding="utf-8"))


def json_data(data) -> Markup:
    """JSON for a ``<script type="application/json">``: sorted keys, and no ``<`` that could close it."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render(template: str, context: dict) -> str:
    """The page: ``template`` rendered with ``context`` (plus ``csp``), its policy filled in last."""
    from ..books.webassets import content_policy

    page = environment().get_template(template).render({**context, "csp": Markup(_CSP_SLOT)})
    return page.replace(_CSP_SLOT, content_policy(page), 1)


def write(path: Path, text: str, outcome: PageOutcome | None = None) -> PageOutcome:
    """Write the page atomically unless it already holds these bytes; an I/O failure is the outcome's."""
    from .. import atomic
    from ..render.jobs import differs

    outcome = outcome or PageOutcome()
    data = text.encode("utf-8")
    outcome.path, outcome.size, outcome.sha256 = Path(path).as_posix(), len(data), hashlib.sha256(data).hexdigest()
    if not differs(Path(path), data):
        outcome.unchanged = True
        return outcome
    try:
        atomic.write_bytes(Path(path), data)
    except OSError as exc:
        outcome.io_error = atomic.describe(exc)
        return outcome
    outcome.written = True
    return outcome
