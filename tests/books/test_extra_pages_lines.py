"""Issue 24 §4: the reference's turn-at-a-glance page sets each step's text in full lines.

WeasyPrint set French step 3 "Votre / adversaire peut répondre par / un Piège." (a first word alone on
its line, the words after it on the next): the boxes of the turn's phases and steps, laid out as the
booklet prints them, never have a one-word line followed by a line of several words.
"""
from __future__ import annotations

import pytest

from .conftest import LANGS


def _text(box) -> str:
    return getattr(box, "text", "") + "".join(_text(c) for c in getattr(box, "children", None) or [])


def _flow_lines(result, root) -> list[list[str]]:
    """Each phase's and step's lines of text, as laid out on the reference's extra pages (``result``: the
    reference composed from the project at ``root``)."""
    import weasyprint

    pages = weasyprint.HTML(string=result.tail_html(3), base_url=root.resolve().as_uri() + "/").render().pages
    out, todo = [], [p._page_box for p in pages]
    while todo:
        box = todo.pop()
        element = getattr(box, "element", None)
        classes = (element.get("class") or "").split() if element is not None and hasattr(element, "get") else []
        if {"flow-step", "flow-box"} & set(classes):
            lines = []
            for child in box.children:
                lines += [_text(line).strip() for line in ([child] if type(child).__name__ == "LineBox"
                                                            else getattr(child, "children", []))]
            out.append([line for line in lines if line])
            continue
        todo += list(getattr(box, "children", None) or [])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_no_step_of_the_turn_at_a_glance_leaves_a_word_alone_on_a_line(composed, shipped_root, lang):
    boxes = _flow_lines(composed[("reference", lang)], shipped_root)
    assert len(boxes) >= 9, boxes  # three phases, six steps
    lonely = [lines for lines in boxes for a, b in zip(lines[2:], lines[3:])  # after the number and the title
              if len(a.split()) == 1 and len(b.split()) >= 3]
    assert not lonely, lonely
