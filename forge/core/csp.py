"""The web pages' Content-Security-Policy and script pins, made from forge's own script files.

A page forge writes or serves runs forge's scripts and nothing else. What it may run
is decided from forge's files when the page is built, never read from the page: a
``<script>`` that a contributor's text slipped into a page is not in the policy, so
the browser refuses it.
"""
from __future__ import annotations

import base64
import hashlib
from pathlib import Path


def _sha256(data: bytes) -> str:
    return base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def forge_script(path: Path) -> str:
    """One of forge's own scripts, as a page inlines it (its bytes read as UTF-8, nothing normalised)."""
    return Path(path).read_bytes().decode("utf-8")


def script_hash(text: str) -> str:
    """The CSP hash source of an inline script whose text is ``text``."""
    return f"'sha256-{_sha256(text.encode('utf-8'))}'"


def integrity(script: bytes) -> str:
    """The Subresource Integrity value of a served script's bytes (``<script src integrity=…>``)."""
    return f"sha256-{_sha256(script)}"


def page_policy(*scripts: Path) -> str:
    """A self-contained page's policy: nothing from the network or the disk, and no script but forge's own
    ``scripts``, hashed from their files as the page is built (no script at all without them).

    Styles may be inline (the books' figures place their callouts with ``style=``), which cannot reach
    anything: images and fonts are ``data:`` only, and nothing else may load at all."""
    hashes = sorted({script_hash(forge_script(path)) for path in scripts})
    return "; ".join([
        "default-src 'none'", "img-src data:", "font-src data:", "style-src 'unsafe-inline'",
        "script-src " + (" ".join(hashes) if hashes else "'none'"),
        "base-uri 'none'", "form-action 'none'", "object-src 'none'",
    ])


def served_policy() -> str:
    """A served app's policy (``forge play``, ``forge watch``): its own files only, from its own origin; no frame
    may hold it, no form may post anywhere (the pages' scripts send their requests), no plug-in runs."""
    return "; ".join([
        "default-src 'self'", "img-src 'self'", "style-src 'self'", "script-src 'self'", "connect-src 'self'",
        "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'",
    ])
