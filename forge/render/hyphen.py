"""Hyphenation points from pyphen's dictionaries, with the patterns parsed only when a word needs them.

``pyphen.Pyphen`` parses every pattern of a dictionary when it is made (about 11,000 for
en_US), which was a fifth of a first ``forge validate``: the fitter only ever looks up the
patterns found inside the few words it hyphenates. ``LazyHyphDict`` indexes each pattern line
by its letters (the digits are taken out of the whole file in one pass) and parses a line, exactly
as pyphen does, on its first lookup. The word-splitting algorithm is pyphen's own (``HyphDict.positions``), so the
points are pyphen's to the letter (``tests/validate/test_hyphen.py`` compares them).
"""
from __future__ import annotations

import re
from pathlib import Path

import pyphen

_DIGIT = re.compile(r"\d")


def _letters(text: str) -> str:
    """Pattern lines' keys, as pyphen's parser joins them: the lines without their digits."""
    letters = text.encode("utf-8", "surrogatepass").translate(None, b"0123456789").decode("utf-8", "surrogatepass")
    if not letters.isascii() and _DIGIT.search(letters):  # a digit other than 0-9: pyphen's ``\d`` takes it too
        return _DIGIT.sub("", text)
    return letters


class _Patterns(dict):
    """Pattern key → its lines as written; ``get`` parses them on first use, as ``pyphen.HyphDict`` would.

    A key written more than once keeps pyphen's rule: the last line with a non-zero value wins.
    """

    def __init__(self, lines: dict[str, str | tuple[str, ...]]):
        super().__init__()
        self.lines = lines

    def get(self, key, default=None):
        try:
            return dict.__getitem__(self, key)
        except KeyError:
            pass
        written = self.lines.get(key)
        if written is None:
            return default
        parsed = None
        for line in (written,) if isinstance(written, str) else written:
            parsed = _parse(line) or parsed
        self[key] = parsed
        return parsed


def _parse(pattern: str):
    """One pattern line as ``pyphen.HyphDict.__init__`` stores it: (start, values), or None if all zero."""
    tags, values = zip(*[(string, int(i or "0")) for i, string in pyphen.parse(pattern)])
    if max(values) == 0:
        return None
    start, end = 0, len(values)
    while not values[start]:
        start += 1
    while not values[end - 1]:
        end -= 1
    return start, values[start:end]


class LazyHyphDict(pyphen.HyphDict):
    """A ``pyphen.HyphDict`` whose patterns are parsed on first lookup (``positions`` is pyphen's)."""

    def __init__(self, lines: dict[str, str | tuple[str, ...]]):  # not super().__init__: that is the eager parse
        self.patterns = _Patterns(lines)
        self.cache = {}
        # every key, zero-valued lines included: a longer maxlen only looks up more keys that hold nothing
        self.maxlen = max(map(len, lines))


def load(path: Path) -> pyphen.HyphDict:
    """The patterns of a ``hyph_*.dic``: lazy, or pyphen's own parse for a file that uses pyphen's
    extensions (``^^hh`` escapes, nonstandard hyphens; no shipped en or fr file does)."""
    with path.open("rb") as fd:
        encoding = fd.readline().decode()
    if encoding.lower() == "microsoft-cp1251":
        encoding = "cp1251"
    kept = [line for line in (raw.strip() for raw in path.read_text(encoding).split("\n")[1:])
            if line and not line.startswith(pyphen.ignored)]
    joined = "\n".join(kept)
    if "^^" in joined or "/" in joined:
        return pyphen.HyphDict(path)
    keys = _letters(joined).split("\n")  # one pass over the file, not one call a line
    lines: dict = dict(zip(keys, kept))
    if len(lines) < len(kept):  # a key written twice: keep its lines, in the file's order
        twice: dict[str, list[str]] = {}
        for key, line in zip(keys, kept):
            twice.setdefault(key, []).append(line)
        lines.update({key: tuple(written) for key, written in twice.items() if len(written) > 1})
    return LazyHyphDict(lines)


class _Pyphen(pyphen.Pyphen):
    """``pyphen.Pyphen`` over given patterns (pyphen's own cache, which WeasyPrint shares, is left alone)."""

    def __init__(self, hd: pyphen.HyphDict, left: int, right: int):  # no super(): it would parse
        self.left, self.right, self.hd = left, right, hd


_LOADED: dict[Path, pyphen.HyphDict] = {}


def hyphenator(lang: str, left: int, right: int) -> pyphen.Pyphen:
    """A ``pyphen.Pyphen`` for ``lang`` (a pyphen language code) whose patterns are parsed lazily."""
    path = Path(pyphen.LANGUAGES[pyphen.language_fallback(lang)])
    if path not in _LOADED:
        _LOADED[path] = load(path)
    return _Pyphen(_LOADED[path], left, right)
