"""What every web page of this package shares: its templates, its inlined data, its policy, its write.

The templates (``templates/``, forge's own) render in forge's Jinja sandbox with
autoescaping; styles and the page's one script are inlined; the page's data is JSON
inside a ``<script type="application/json">`` that no ``</script>`` in a card name can
close (``forge.core.escape.json_in_html``); the Content-Security-Policy lets the page run
nothing but that script, by the hash of forge's file (never of what the page holds),
and load nothing but ``data:`` pictures. A page whose bytes did not change is not written again.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ..core.csp import forge_script, page_policy
from ..core.findings import Finding
from ..core import atomic

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
    import jinja2  # lazy: loads jinja2 only when needed

    from ..core import sandbox  # lazy: loads jinja2 only when needed

    return sandbox.environment(jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                               trim_blocks=True, lstrip_blocks=True)


def asset(name: str) -> Markup:
    """A stylesheet of this package, to inline as it is."""
    return Markup((TEMPLATES / name).read_bytes().decode("utf-8"))


def render(template: str, context: dict, script: str) -> str:
    """The page: ``template`` rendered with ``context``, plus ``script`` (this package's script of that name,
    inlined) and ``csp`` (the policy that lets only that script run, hashed from its file)."""
    page = environment().get_template(template).render(
        {**context, "script": Markup(forge_script(TEMPLATES / script)), "csp": Markup(_CSP_SLOT)})
    return page.replace(_CSP_SLOT, page_policy(TEMPLATES / script), 1)


def write(path: Path, text: str, outcome: PageOutcome | None = None) -> PageOutcome:
    """Write the page atomically unless it already holds these bytes; an I/O failure is the outcome's."""
    from ..render.jobs import differs  # lazy: loads reportlab, yaml ... only when needed

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
