"""forge.core.escape and forge.core.csp: the one way contributor text enters each format, and the pages' policies."""
from __future__ import annotations

import json
from pathlib import Path

import lxml.html

from forge.core.csp import forge_script, integrity, page_policy, script_hash
from forge.core.escape import ZWJ, code_fence, html_text, json_in_html, markdown_text, one_line

TEMPLATES = Path(__file__).resolve().parents[2] / "forge" / "web" / "templates"


def test_the_policy_is_made_from_forge_s_files_only():
    policy = page_policy(TEMPLATES / "gallery.js", TEMPLATES / "replay.js")
    hashes = sorted(script_hash(forge_script(TEMPLATES / name)) for name in ("gallery.js", "replay.js"))
    assert f"script-src {' '.join(hashes)};" in policy
    assert "default-src 'none'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1]
    assert "script-src 'none'" in page_policy()


def test_a_script_pin_is_subresource_integrity():
    assert integrity(b"") == "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="


def test_html_text_escapes_every_markup_character():
    assert html_text('<img src=x onerror="a()"> & \'') == "&lt;img src=x onerror=&#34;a()&#34;&gt; &amp; &#39;"


def test_json_in_html_cannot_end_its_element():
    data = {"n": "</script><script>alert(1)</script><!-- & \u2028"}
    text = str(json_in_html(data))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == data
    page = f'<script type="application/json" id="d">{text}</script><p>after</p>'
    tree = lxml.html.fromstring(page)
    assert json.loads(tree.xpath('//script[@id="d"]')[0].text) == data


def test_one_line_keeps_a_name_on_its_line():
    assert one_line("a\nb\r\nc\x1b[31m\u2028d\u202eevil") == "a b  c [31m d\ufffdevil"


def test_markdown_text_is_inert_on_github():
    text = "@octocat #12 https://evil.example www.evil.example a@b.example [x](javascript:y) ![i](u) <b> *e* _u_ `c` | $m$ &#64;"
    md = markdown_text(text)
    assert f"@{ZWJ}octocat" in md and f"#{ZWJ}12" in md and f"://{ZWJ}evil" in md and f"www{ZWJ}\\." not in md
    assert f"www{ZWJ}.evil" in md and f"a@{ZWJ}b" in md
    for raw in ("[x]", "![i]", "<b>", "*e*", "_u_", "`c`", " | ", "$m$", "&#"):
        assert raw not in md, raw
    assert markdown_text("1. not a list") == "1\\. not a list" and markdown_text("- no") == "\\- no"
    assert "\n" not in markdown_text("a\n# heading")


def test_a_code_fence_outlasts_every_backtick_run():
    assert code_fence(["a", "b"], "diff") == ("```diff", "```")
    assert code_fence(["x ```` y"], "diff") == ("`````diff", "`````")
