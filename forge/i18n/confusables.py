"""Which characters a contributor's name or translation may hold, and which strings look alike.

A card named "Кindle" (a Cyrillic К) beside the real "Kindle", a name whose letters come from two
scripts, or a right-to-left override that makes a text read in another order than it is stored
in: each passes for something it is not. Unicode's Technical Standard #39 (Unicode Security
Mechanisms) defines the tests used here, from Unicode's own data:

- ``skeleton``: two strings are confusable when their skeletons are equal (UTS #39 §4: NFD,
  default-ignorable code points removed, each character replaced by its prototype in
  ``confusables.txt``, NFD again). The data is Unicode's ``confusables.txt``, vendored unmodified
  in ``forge/assets/unicode`` with its licence.
- ``mixed_script``: a string is mixed-script when its resolved script set is empty (UTS #39 §5.1:
  the intersection of each character's augmented Script_Extensions; Common and Inherited
  characters count as every script). Script_Extensions come from fontTools' copy of Unicode's
  ``ScriptExtensions.txt``.
- ``invisible``: controls, format characters (the bidirectional controls among them), line and
  paragraph separators and the other default-ignorable code points: nothing a reader sees.
"""
from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

#: Unicode's confusables.txt (UTS #39 data), shipped with forge.
DATA = Path(__file__).resolve().parent.parent / "assets" / "unicode" / "confusables.txt"

#: Default_Ignorable_Code_Point as DerivedCoreProperties.txt derives it: Other_Default_Ignorable_Code_Point
#: and Variation_Selector (PropList.txt), plus every format character (Cf, below), less the Cf ranges
#: the derivation removes (interlinear annotations, Egyptian format controls, prepended concatenation marks).
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180D), (0x180F, 0x180F),
              (0x2065, 0x2065), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
              (0xE0000, 0xE0FFF))
_NOT_IGNORABLE_FORMAT = ((0x0600, 0x0605), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891),
                         (0x08E2, 0x08E2), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
                         (0x13430, 0x1343F))
#: The bidirectional controls (UAX #9): embeddings, overrides, isolates and the implicit marks.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: The end of Latin Extended-B: every character before it is Latin, Common or Inherited.
_LATIN_END = "\u0250"
#: Scripts that count as every script in a resolved script set.
_ANY_SCRIPT = frozenset({"Zyyy", "Zinh"})


def _within(cp: int, ranges) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def default_ignorable(ch: str) -> bool:
    """Whether ``ch`` has Unicode's Default_Ignorable_Code_Point property (drawn as nothing)."""
    cp = ord(ch)
    if unicodedata.category(ch) == "Cf":
        return not _within(cp, _NOT_IGNORABLE_FORMAT)
    return _within(cp, _IGNORABLE)


def invisible(ch: str) -> bool:
    """A character a reader cannot see: a control, a format character, a line or paragraph separator,
    or another default-ignorable code point."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") or default_ignorable(ch)


def describe(ch: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)``: a character as a finding names it."""
    return f"U+{ord(ch):04X} ({unicodedata.name(ch, 'a control character')})"


#: A mapping line of confusables.txt: the source code point, then its prototype's code points.
_MAPPING = re.compile(rb"^([0-9A-F]+)[ \t]*;[ \t]*([0-9A-F ]+?)[ \t]*;", re.M)


@cache
def _prototypes() -> dict[str, str]:
    """Each source character of confusables.txt and the prototype it maps to."""
    return {chr(int(source, 16)): "".join(chr(int(cp, 16)) for cp in target.split())
            for source, target in _MAPPING.findall(DATA.read_bytes())}


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: equal skeletons mean the two strings are confusable."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in decomposed
                                                if not default_ignorable(ch)))


@cache
def _ucd():
    """fontTools' Unicode tables (Script, Script_Extensions), imported when a name needs them."""
    from fontTools import unicodedata  # lazy: loads fontTools only when needed

    return unicodedata


@cache
def _augmented(ch: str) -> frozenset[str] | None:
    """UTS #39's augmented script set of ``ch``; None for Common and Inherited (every script)."""
    scripts = set(_ucd().script_extension(ch))
    if scripts & _ANY_SCRIPT:
        return None
    if "Hani" in scripts:
        scripts |= {"Hanb", "Jpan", "Kore"}
    if scripts & {"Hira", "Kana"}:
        scripts.add("Jpan")
    if "Hang" in scripts:
        scripts.add("Kore")
    if "Bopo" in scripts:
        scripts.add("Hanb")
    return frozenset(scripts)


def scripts_of(text: str) -> list[str]:
    """The scripts the letters of ``text`` are written in, in order of appearance (Common and Inherited left out)."""
    ucd = _ucd()
    seen: dict[str, None] = {}
    for ch in text:
        if _augmented(ch) is not None:
            seen.setdefault(ucd.script_name(ucd.script(ch)), None)
    return list(seen)


def mixed_script(text: str) -> bool:
    """Whether ``text`` is mixed-script: no one script (UTS #39 §5.1, resolved script set empty)."""
    if all(ch < _LATIN_END for ch in text):
        return False  # Basic Latin to Latin Extended-B: Latin letters, and Common signs that go with any script
    resolved: frozenset[str] | None = None
    for ch in text:
        scripts = _augmented(ch)
        if scripts is None:
            continue
        resolved = scripts if resolved is None else resolved & scripts
        if not resolved:
            return True
    return False


__all__ = ["BIDI_CONTROLS", "default_ignorable", "invisible", "describe", "skeleton", "mixed_script", "scripts_of"]
