"""What a PDF's pages really draw, read back from their content streams: colours, ink, text sizes, images.

Preflight needs figures a print shop measures, not what the renderer meant to draw:
every colour operator, gradient and image (in the pages and in every form they place,
nested forms included), the colour spaces they use, the total ink of each, the size
each text is shown at on the page, and the colour of that text.

Total area coverage is measured on the colours themselves: the highest C+M+Y+K of any
colour operator, gradient stop and image pixel. Alpha blending and gradients in a CMYK
page group mix those colours linearly, and a mix never has more ink than the most inked
of the colours it mixes, so this maximum bounds what any spot of the printed page gets.

The content-stream tokeniser is a small regular-expression one, about ten times faster
than pypdf's object parser on reportlab's streams (the print-on-demand file has ~100 forms).

Each form (a card, placed on many pages) is scanned once per document into a record of
what it does to the figures (colour spaces, the ink peaks, its images, its texts), then
the record is replayed where the form is first placed. With a ``ScanMemo`` the records
are kept between runs, keyed by a digest of the form's own bytes and of the scanning code,
and each record lists the resources its scan looked up (by name, with a digest of what
they were): a record is used only while every one of them is still the same. reportlab
gives each form every gradient and graphics state the document defined so far, so the
resources the scan did not use must not count, or one new gradient would change every
later form's key. After one card changed, only that card's forms are scanned again. A
record gives exactly the figures a fresh scan gives (see ``_Recording``), and a memo this
machine did not seal is not read (``fitmemo``).
"""
from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.compat import pypdf as pypdf_internals
from .colour import image_max_ink
from .fitmemo import FitMemo

_WS = rb"[\x00\t\n\f\r ]"
_NUM = rb"[+-]?(?:\d+\.?\d*|\.\d+)"
#: Operators preflight never reads, with their numbers: path construction and painting, line
#: styles, text spacing. A whole run of them (a path of hundreds of points) is one match.
_UNREAD = (rb"(?:(?:" + _NUM + _WS + rb"+)+(?:[mlcvywMijJ]|re|TL|Tc|Tw|Tz|Ts)|[nhSsFW]|[fBb]\*?|W\*|ET)"
           rb"(?=" + _WS + rb"|$)")
_TOKEN = re.compile(rb"(?:" + _WS + rb"|%[^\r\n]*)*(?:"
                    rb"(?P<skip>(?:" + _UNREAD + _WS + rb"*)+)"
                    rb"|(?P<nums>(?:" + _NUM + _WS + rb"+)+)"
                    rb"|(?P<num>" + _NUM + rb")"
                    rb"|(?P<name>/[^\x00\t\n\f\r ()<>\[\]{}/%]*)"
                    rb"|(?P<dict><<|>>)"
                    rb"|(?P<hex><[0-9A-Fa-f\x00\t\n\f\r ]*>)"
                    rb"|(?P<open>\[)"
                    rb"|(?P<close>\])"
                    rb"|(?P<str>\()"
                    rb"|(?P<op>[^\x00\t\n\f\r ()<>\[\]{}/%]+)"
                    rb"|(?P<end>$))")
_PAREN = re.compile(rb"\\.|[()]", re.S)
_INLINE_END = re.compile(rb"\sEI(?=[\x00\t\n\f\r ]|$)")
_SHOW = {b"Tj", b"TJ", b"'", b'"'}
#: Operand count and colour space of the device colour operators.
_DEVICE = {b"g": "DeviceGray", b"G": "DeviceGray", b"rg": "DeviceRGB", b"RG": "DeviceRGB",
           b"k": "DeviceCMYK", b"K": "DeviceCMYK"}
#: The Separation "All" (registration colour), which printer's marks use.
REGISTRATION = "Separation(All)"
_INLINE_CS = {"/G": "DeviceGray", "/RGB": "DeviceRGB", "/CMYK": "DeviceCMYK", "/DeviceGray": "DeviceGray",
              "/DeviceRGB": "DeviceRGB", "/DeviceCMYK": "DeviceCMYK"}

#: The operators preflight reads; the others (paths, line styles) only drop their operands.
_READ = {b"q", b"Q", b"cm", *_DEVICE, b"cs", b"CS", b"sc", b"scn", b"SC", b"SCN", b"sh", b"gs", b"BT", b"Tm",
         b"Td", b"TD", b"Tf", *_SHOW, b"Do", b"ID"}


class _Run(bytes):
    """A run of numbers as written (parsed only when read)."""


def _numbers(operands: list) -> list[float]:
    out: list[float] = []
    for v in operands:
        if isinstance(v, float):
            out.append(v)
        elif isinstance(v, _Run):
            out += [float(x) for x in v.split()]
    return out


Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _mul(a: Matrix, b: Matrix) -> Matrix:
    """a × b, PDF order (a applied first)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def scale_of(m: Matrix) -> float:
    """How much a matrix scales lengths (the geometric mean of its two axes)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def tokens(data: bytes):
    """(kind, value) pairs of a content stream; strings and inline image data are skipped, not decoded.

    A run of numbers is one "nums" token, split only when its operator is one preflight reads;
    path construction and painting, line styles and text spacing, with their numbers (most of a
    card's stream), are skipped whole.
    """
    pos, n = 0, len(data)
    while pos < n:
        m = _TOKEN.match(data, pos)
        if m is None:
            pos += 1
            continue
        kind = m.lastgroup
        if kind == "end":
            return
        pos = m.end()
        if kind == "skip":
            continue
        if kind == "str":
            depth = 1
            for e in _PAREN.finditer(data, pos):
                t = e.group()
                if t == b"(":
                    depth += 1
                elif t == b")":
                    depth -= 1
                    if depth == 0:
                        pos = e.end()
                        break
            else:
                pos = n
            yield "str", b""
        elif kind == "op" and m.group(kind) == b"ID":
            end = _INLINE_END.search(data, pos)
            pos = end.end() if end else n
            yield "op", b"ID"
        else:
            yield kind, m.group(kind)


@dataclass
class Colour:
    """Where a colour was used, its space and, when it is CMYK or grey, its total ink (1.0 = 100 %)."""

    space: str
    values: tuple[float, ...]

    @property
    def ink(self) -> float | None:
        if self.space == "DeviceCMYK" or self.space == "ICCBased(4)":
            return sum(self.values)
        if self.space == "DeviceGray":
            return 1 - self.values[0] if self.values else 1.0
        return None


@dataclass
class TextShow:
    """A text shown: its size on the page (points), its fill colour, on which page."""

    size: float
    colour: Colour
    page: int


@dataclass
class Scan:
    """Everything a PDF draws that preflight judges (see the module doc)."""

    colour_spaces: set[str] = field(default_factory=set)
    max_ink: float = 0.0
    max_ink_where: str = ""
    texts: list[TextShow] = field(default_factory=list)
    images: list[dict] = field(default_factory=list)
    transparent_pages: list[int] = field(default_factory=list)
    fonts: dict[str, bool] = field(default_factory=dict)  # every font the pages and forms name -> embedded

    def ink(self, value: float | None, where: str) -> None:
        if value is not None and value > self.max_ink + 1e-9:
            self.max_ink, self.max_ink_where = value, where

    @property
    def min_text(self) -> float | None:
        return min((t.size for t in self.texts), default=None)


@dataclass
class _Form:
    """What one form draws, in its own space: shown once, placed at any scale."""

    texts: list[tuple[float, Colour]] = field(default_factory=list)  # (size in form space, colour)
    transparent: bool = False


@dataclass
class _Recording(Scan):
    """A form's scan on its own, as a record to replay into a document's ``Scan``.

    Only the ink values that raise the form's own peak are kept: replayed in order into a
    document whose peak is at least the form's peak so far, a value that did not raise the
    latter cannot raise the former. Colour spaces are a set and images are keyed by their
    object number, so replaying what the document already saw (a nested form or a gradient
    met before) changes nothing, as a fresh scan that skips them.
    """

    events: list = field(default_factory=list)  # [ink, where-suffix] in order

    def ink(self, value: float | None, where: str) -> None:
        if value is not None and value > self.max_ink + 1e-9:
            self.events.append([value, where])
        super().ink(value, where)


#: The kind of sealed record (``forge.core.seal``) a scan memo is.
MEMO_KIND = "preflight scan"


class ScanMemo:
    """Form records kept between runs in a sealed file under the output folder (see the module doc)."""

    def __init__(self, out: Path, name: Path):
        self._facts = FitMemo(out, name, kind=MEMO_KIND)

    def get(self, digest: str) -> tuple[dict, dict] | None:
        """A kept record of the form with this digest and the resources it used ({key: digest})."""
        entry = self._facts.entry(digest)
        record, deps = entry.get("record"), entry.get("deps")
        if not (_sound(record) and isinstance(deps, dict) and all(isinstance(v, str) for v in deps.values())):
            return None
        return record, deps

    def put(self, digest: str, record: dict, deps: dict) -> None:
        self._facts.put(digest, "record", record)
        self._facts.put(digest, "deps", deps)

    def save(self) -> None:
        self._facts.save()


def _sound(record) -> bool:
    """Whether a kept record has the shape ``Scanner._record`` gives (a sealed one always has)."""
    try:
        return (isinstance(record, dict) and isinstance(record["transparent"], bool)
                and all(isinstance(s, str) for s in record["spaces"])
                and all(isinstance(v, (int, float)) and isinstance(w, str) for v, w in record["ink"])
                and all((k is None or isinstance(k, int)) and isinstance(i, dict) for k, i in record["images"])
                and all(isinstance(z, (int, float)) and isinstance(sp, str)
                        and all(isinstance(x, (int, float)) for x in vals) for z, sp, vals in record["texts"])
                and all(isinstance(n, str) and isinstance(e, bool) for n, e in record["fonts"]))
    except (KeyError, TypeError, ValueError):
        return False


_CODE: list[bytes] = []


def _code_digest() -> bytes:
    """The scanning code itself: a record made by other code is another record."""
    if not _CODE:
        here = Path(__file__).resolve().parent
        _CODE.append(hashlib.sha256(b"".join((here / f).read_bytes() for f in ("pdfscan.py", "colour.py"))).digest())
    return _CODE[0]


def _number(obj) -> int | None:
    """The object number of an object read from a file (pypdf resolves references as it reads)."""
    ref = getattr(obj, "indirect_reference", None)
    return getattr(ref, "idnum", None)


#: Deeper than any resource tree reportlab writes; a deeper one is not memoised.
_MAX_DEPTH = 32
_REF = re.compile(rb"(\d+)\s+(\d+)\s+R(?![A-Za-z])")
_STREAM = re.compile(rb">>\s*stream\r?\n")


class _Digests:
    """Digests of a document's objects, by what they hold and what they refer to (see ``fingerprint``).

    An object referred to is digested from its bytes in the file (between its offset and the
    next object's, in a file with a plain cross-reference table as reportlab writes), following
    the references in its dictionary: no parsing, and the 40 gradients a card draws cost a hash
    each. Elsewhere (object streams), it is read with pypdf.
    """

    def __init__(self, reader=None):
        self.reader = reader
        self.done: dict[int, bytes] = {}
        self.wholes: dict[int, bytes | None] = {}
        self.font_tables: dict[int, dict[str, bool]] = {}  # a font dictionary read once per document
        self.bounds: dict[int, tuple[int, int]] | None = None
        self.data = b""

    def _spans(self) -> dict[int, tuple[int, int]]:
        if self.bounds is None:
            self.bounds = {}
            reader = self.reader
            table = getattr(reader, "xref", None)
            stream = getattr(reader, "stream", None)
            if isinstance(table, dict) and list(table) in ([0], [0, 65535], [65535, 0]) \
                    and not getattr(reader, "xref_objStm", None) and hasattr(stream, "getvalue"):
                self.data = stream.getvalue()
                starts = sorted((off, n) for n, off in table.get(0, {}).items() if isinstance(off, int) and off > 0)
                end = self.data.rfind(b"xref")
                for (off, n), nxt in zip(starts, [o for o, _ in starts[1:]] + [end]):
                    if off < nxt and self.data.startswith(b"%d 0 obj" % n, off):
                        self.bounds[n] = (off, nxt)
        return self.bounds

    def ref(self, value, depth: int) -> bytes:
        n = value.idnum
        if n not in self.done:
            self.done[n] = b"cycle %d" % n
            span = self._spans().get(n) if value.generation == 0 else None
            if span is None and isinstance(value, _Ref):  # no such object in the table: nothing to follow
                body = b"missing %d %d" % (n, value.generation)
            elif span is None:
                body = b"R%d " % n + self.of(value.get_object(), depth + 1)
            else:
                raw = self.data[span[0]:span[1]]
                m = _STREAM.search(raw)
                head = raw[:m.start() + 2] if m else raw
                body = b"raw %d " % n + hashlib.sha256(raw).digest() + b"".join(
                    b"@" + self.ref(_Ref(int(a), int(b)), depth + 1) for a, b in _REF.findall(head))
            self.done[n] = hashlib.sha256(body).digest()
        return self.done[n]

    def whole(self, n: int, depth: int = 0) -> bytes | None:
        """A digest of object ``n`` and of everything it refers to, from the file's bytes and without the
        object numbers (they shift when an earlier card changes); None where the file is not plainly laid
        out. No parsing: a form placed as it was in the last run is recognised for a few hashes."""
        if n in self.wholes:
            return self.wholes[n]
        span = self._spans().get(n)
        if span is None or depth > _MAX_DEPTH:
            return None
        self.wholes[n] = None  # a cycle: not memoised
        raw = self.data[span[0]:span[1]]
        raw = raw[raw.index(b"obj") + 3:]
        m = _STREAM.search(raw)
        head, body = (raw[:m.start() + 2], raw[m.end():]) if m else (raw, b"")
        parts, at = [b"whole ", hashlib.sha256(body).digest()], 0
        for ref in _REF.finditer(head):
            inner = self.whole(int(ref.group(1)), depth + 1) if ref.group(2) == b"0" else None
            if inner is None:
                return None
            parts += [head[at:ref.start()], b"@", inner]
            at = ref.end()
        parts.append(head[at:])
        self.wholes[n] = hashlib.sha256(b"".join(parts)).digest()
        return self.wholes[n]

    def of(self, value, depth: int = 0, skip: tuple[str, ...] = ("/Font",)) -> bytes:
        """Canonical bytes of a PDF object and everything it refers to (fonts left out: a scan never reads
        them; at the top, the keys in ``skip`` too). Referenced objects are named by number too: images
        are told apart by it."""
        from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, StreamObject  # lazy: loads pypdf only when needed

        if depth > _MAX_DEPTH:
            raise RecursionError("resource tree too deep to memoise")
        if isinstance(value, (IndirectObject, _Ref)):
            return b"R" + self.ref(value, depth)
        if isinstance(value, DictionaryObject):
            parts = [b"<<"]
            for k in sorted(value):
                if k not in skip:
                    parts += [k.encode("utf-8", "replace"), b" ", self.of(value.raw_get(k), depth + 1), b";"]
            if isinstance(value, StreamObject):
                parts += [b"stream ", hashlib.sha256(pypdf_internals.raw_stream_data(value)).digest()]
            return b"".join(parts) + b">>"
        if isinstance(value, ArrayObject):
            return b"[" + b",".join(self.of(v, depth + 1) for v in value) + b"]"
        return type(value).__name__.encode() + b":" + repr(value).encode("utf-8", "replace")

    def entry(self, resources, category: str, name) -> str:
        """A digest of what ``name`` is in a form's resource ``category`` ("-" when it is not there);
        the category "/ColorSpace" with the name "*": the whole table of named colour spaces."""
        res = _resolve(resources) or {}
        if name == "*":
            entry = res.raw_get(category) if hasattr(res, "raw_get") and category in res else None
        else:
            table = _resolve(res.get(category)) or {}
            entry = table.raw_get(name) if hasattr(table, "raw_get") and name in table else None
        return "-" if entry is None else hashlib.sha256(self.of(entry)).hexdigest()


@dataclass(frozen=True)
class _Ref:
    """A reference found in an object's bytes, followed through the file's table (``_Digests.ref``)."""

    idnum: int
    generation: int


def _resolve(obj):
    return obj.get_object() if hasattr(obj, "get_object") else obj


def _space_name(cs, resources) -> str:
    """A readable name of a colour space given by name or array (DeviceCMYK, ICCBased(4), Pattern...)."""
    cs = _resolve(cs)
    if isinstance(cs, str) and not isinstance(cs, bytes):
        name = str(cs).lstrip("/")
        if name in ("DeviceGray", "DeviceRGB", "DeviceCMYK", "Pattern"):
            return name
        if name in ("G", "RGB", "CMYK"):
            return _INLINE_CS["/" + name]
        spaces = _resolve((resources or {}).get("/ColorSpace")) or {}
        if "/" + name in spaces:
            return _space_name(spaces["/" + name], resources)
        return name
    if isinstance(cs, list) and cs:
        family = str(_resolve(cs[0])).lstrip("/")
        if family == "ICCBased":
            return f"ICCBased({int(_resolve(cs[1]).get('/N', 0))})"
        if family == "Indexed":
            return f"Indexed({_space_name(cs[1], resources)})"
        if family == "Separation" and len(cs) > 1 and str(_resolve(cs[1])) == "/All":
            return REGISTRATION  # the colour of printer's marks: every plate, no ink of the page's own
        return family
    return str(cs)


def _function_ends(fn) -> list[list[float]]:
    """The colours a gradient's function reaches at its ends and stops (linear between them)."""
    fn = _resolve(fn)
    if isinstance(fn, list):  # one function per component
        parts = [_function_ends(f) for f in fn]
        return [[p[0] for p in parts]] if parts else []
    kind = int(fn.get("/FunctionType", -1))
    if kind == 2:
        c0 = [float(v) for v in fn.get("/C0", [0.0])]
        c1 = [float(v) for v in fn.get("/C1", [1.0])]
        return [c0, c1]
    if kind == 3:
        return [c for f in fn.get("/Functions", []) for c in _function_ends(f)]
    if kind == 0:  # sampled: every sample
        n_out = len(fn.get("/Range", [])) // 2
        bits = int(fn.get("/BitsPerSample", 8))
        data = fn.get_data()
        if bits != 8 or not n_out:
            return []
        return [[b / 255 for b in data[i:i + n_out]] for i in range(0, len(data) - n_out + 1, n_out)]
    return []


class Scanner:
    """Walks the pages of a pypdf reader, visiting each form and image once (see ``scan``)."""

    def __init__(self, memo: ScanMemo | None = None, out: Scan | None = None, digests: _Digests | None = None,
                 deps: dict | None = None):
        self.out = out if out is not None else Scan()
        self.memo = memo
        self.digests = digests if digests is not None else _Digests()
        self.deps = deps  # recording a form for the memo: "category name" -> digest of each resource used
        self.forms: dict = {}
        self.images_seen: set = set()
        self.shadings_seen: set = set()

    # -- resources ------------------------------------------------------------------------
    def _shading(self, ref, resources, where: str) -> None:
        key = _number(_resolve(ref)) or id(ref)
        if key in self.shadings_seen:
            return
        self.shadings_seen.add(key)
        sh = _resolve(ref)
        space = _space_name(sh.get("/ColorSpace"), resources)
        self.out.colour_spaces.add(space)
        for stop in _function_ends(sh.get("/Function")):
            self.out.ink(Colour(space, tuple(stop)).ink, f"{where}: a gradient")

    def _image(self, obj, ref, where: str) -> bool:
        """Record an image; whether it is transparent (a soft mask)."""
        key = _number(obj) or id(obj)
        transparent = "/SMask" in obj
        if key in self.images_seen:
            return transparent
        self.images_seen.add(key)
        space = _space_name(obj.get("/ColorSpace"), {})
        self.out.colour_spaces.add(space)
        info = {"where": where, "colour_space": space, "size_px": [int(obj.get("/Width", 0)),
                                                                    int(obj.get("/Height", 0))],
                "object": _number(obj)}
        if space == "DeviceCMYK":
            try:
                im = obj.decode_as_image()
            except Exception:  # an image pypdf cannot decode is reported, not a crash
                im = None
            if im is not None and im.mode == "CMYK":
                info["max_ink"] = image_max_ink(im)
                self.out.ink(info["max_ink"], f"{where}: an image")
        self.out.images.append(info)
        return transparent

    @staticmethod
    def _gs_transparent(gs) -> bool:
        gs = _resolve(gs)
        if gs is None:
            return False
        soft = gs.get("/SMask")
        blend = str(gs.get("/BM", "/Normal"))
        return (float(gs.get("/ca", 1)) < 1 or float(gs.get("/CA", 1)) < 1
                or (soft is not None and str(soft) != "/None") or blend not in ("/Normal", "/Compatible"))

    # -- content -------------------------------------------------------------------------------
    def _run(self, data: bytes, resources, where: str, form: _Form) -> None:
        """Interpret one content stream; texts go into ``form`` in the stream's own space."""
        res = _resolve(resources) or {}
        xobjects = _resolve(res.get("/XObject")) or {}
        shadings = _resolve(res.get("/Shading")) or {}
        patterns = _resolve(res.get("/Pattern")) or {}
        states = _resolve(res.get("/ExtGState")) or {}
        self._fonts(res)
        if self.deps is not None:  # recording: note each resource looked up, the named colour spaces and fonts
            used = self.deps
            self._note("/ColorSpace", "*", res)
            self._note("/Font", "*", res)

            def note(category: str, name) -> None:
                if isinstance(name, str) and f"{category} {name}" not in used:
                    self._note(category, name, res)
        else:
            def note(category: str, name) -> None:
                pass
        ctm, stack = IDENTITY, []
        fill_space, stroke_space = "DeviceGray", "DeviceGray"
        fill = Colour("DeviceGray", (0.0,))
        tm, size = IDENTITY, 0.0
        operands: list = []
        arrays: list[list] = []
        for kind, value in tokens(data):
            if kind != "op":
                if kind == "open":
                    arrays.append([])
                    continue
                if kind == "close":
                    done = arrays.pop() if arrays else []
                    (arrays[-1] if arrays else operands).append(done)
                    continue
                if kind == "nums":
                    item = _Run(value)
                else:
                    item = float(value) if kind == "num" else value.decode("latin-1") if kind == "name" else value
                (arrays[-1] if arrays else operands).append(item)
                continue
            op = value
            if op not in _READ:
                operands = []
                continue
            nums = _numbers(operands)
            if op == b"q":
                stack.append((ctm, fill_space, stroke_space, fill))
            elif op == b"Q":
                if stack:
                    ctm, fill_space, stroke_space, fill = stack.pop()
            elif op == b"cm" and len(nums) == 6:
                ctm = _mul(tuple(nums), ctm)  # type: ignore[arg-type]
            elif op in _DEVICE:
                space = _DEVICE[op]
                colour = Colour(space, tuple(nums))
                self.out.colour_spaces.add(space)
                self.out.ink(colour.ink, f"{where}: a colour")
                if op.islower():
                    fill_space, fill = space, colour
                else:
                    stroke_space = space
            elif op in (b"cs", b"CS") and operands:
                space = _space_name(operands[-1], res)
                self.out.colour_spaces.add(space)
                if op == b"cs":
                    fill_space, fill = space, Colour(space, ())
                else:
                    stroke_space = space
            elif op in (b"sc", b"scn", b"SC", b"SCN"):
                space = fill_space if op.islower() else stroke_space
                names = [v for v in operands if isinstance(v, str)]
                if names and space == "Pattern":
                    note("/Pattern", names[-1])
                    pattern = _resolve(patterns.get(names[-1]))
                    if pattern is not None and "/Shading" in pattern:
                        self._shading(pattern["/Shading"], res, where)
                    elif pattern is not None and int(pattern.get("/PatternType", 0)) == 1:
                        self._tile(patterns[names[-1]], where, form)
                else:
                    colour = Colour(space, tuple(nums))
                    self.out.ink(colour.ink, f"{where}: a colour")
                    if op.islower():
                        fill = colour
            elif op == b"sh" and operands and (note("/Shading", operands[-1]) or operands[-1] in shadings):
                self._shading(shadings[operands[-1]], res, where)
            elif op == b"gs" and operands:
                note("/ExtGState", operands[-1])
                form.transparent |= self._gs_transparent(states.get(operands[-1]))
            elif op == b"BT":
                tm = IDENTITY
            elif op == b"Tm" and len(nums) == 6:
                tm = tuple(nums)  # type: ignore[assignment]
            elif op in (b"Td", b"TD") and len(nums) == 2:
                tm = _mul((1.0, 0.0, 0.0, 1.0, nums[0], nums[1]), tm)
            elif op == b"Tf" and nums:
                size = nums[-1]
            elif op in _SHOW:
                form.texts.append((abs(size) * scale_of(_mul(tm, ctm)), fill))
            elif op == b"Do" and operands and (note("/XObject", operands[-1]) or operands[-1] in xobjects):
                self._do(xobjects.raw_get(operands[-1]) if hasattr(xobjects, "raw_get") else xobjects[operands[-1]],
                         ctm, where, form)
            elif op == b"ID":  # an inline image: BI <key value pairs> ID <data> EI
                self._inline_image(operands, where)
            operands = []

    def _inline_image(self, keys: list, where: str) -> None:
        for i, k in enumerate(keys[:-1]):
            if k in ("/CS", "/ColorSpace"):
                space = _INLINE_CS.get(keys[i + 1], str(keys[i + 1]).lstrip("/"))
                self.out.colour_spaces.add(space)
                self.out.images.append({"where": where, "colour_space": space, "inline": True})

    def _do(self, ref, ctm: Matrix, where: str, into: _Form) -> None:
        inner = self._known_form(ref, where)
        if inner is None:
            obj = _resolve(ref)
            subtype = obj.get("/Subtype")
            if subtype == "/Image":
                into.transparent |= self._image(obj, ref, where)
                return
            if subtype != "/Form":
                return
            key = _number(obj) or id(obj)
            inner = self.forms.get(key)
            if inner is None:
                record = self._record(ref, obj)
                whole = self._whole(ref)
                if whole and not record["images"]:  # images are told apart by their object number
                    self.memo.put(whole, record, {})
                inner = self.forms[key] = self._replay(record, where)
        placed = scale_of(ctm)
        into.texts += [(s * placed, c) for s, c in inner.texts]
        into.transparent |= inner.transparent

    def _whole(self, ref) -> str | None:
        """The memo key of a form taken whole (``_Digests.whole``), when there is a memo."""
        from pypdf.generic import IndirectObject  # lazy: loads pypdf only when needed

        if self.memo is None or not isinstance(ref, IndirectObject) or ref.generation != 0:
            return None
        whole = self.digests.whole(ref.idnum)
        return None if whole is None else "whole:" + hashlib.sha256(_code_digest() + whole).hexdigest()

    def _known_form(self, ref, where: str) -> _Form | None:
        """A form met before in this scan, or one the memo knows whole: no need to read it."""
        from pypdf.generic import IndirectObject  # lazy: loads pypdf only when needed

        if not isinstance(ref, IndirectObject):
            return None
        if ref.idnum in self.forms:
            return self.forms[ref.idnum]
        whole = self._whole(ref)
        found = self.memo.get(whole) if whole else None
        if found is None or found[0]["images"]:
            return None
        inner = self.forms[ref.idnum] = self._replay(found[0], where)
        return inner

    def _tile(self, ref, where: str, into: _Form) -> None:
        """A tiling pattern's cell, read once like a form (WeasyPrint paints SVG gradients through them)."""
        obj = _resolve(ref)
        key = ("tile", getattr(ref, "idnum", None) or id(obj))
        inner = self.forms.get(key)
        if inner is None:
            inner = self.forms[key] = _Form()
            # a form being recorded depends on the pattern as a whole (``_Digests`` follows its cell's
            # resources): the cell's own names are not the form's
            deps, self.deps = self.deps, None
            try:
                self._run(obj.get_data(), obj.get("/Resources"), where, inner)
            finally:
                self.deps = deps
        into.transparent |= inner.transparent

    def _fonts(self, res) -> None:
        """Note the fonts a resource dictionary names, and whether each is embedded."""
        from pypdf.generic import IndirectObject  # lazy: loads pypdf only when needed

        fonts = res.raw_get("/Font") if hasattr(res, "raw_get") and "/Font" in res else None
        if fonts is None:
            return
        key = fonts.idnum if isinstance(fonts, IndirectObject) else None
        table = self.digests.font_tables.get(key) if key is not None else None
        if table is None:
            table = {}
            for ref in (_resolve(fonts) or {}).values():
                font = _resolve(ref)
                desc = font.get("/FontDescriptor")
                if desc is None and "/DescendantFonts" in font:
                    desc = _resolve(_resolve(font["/DescendantFonts"])[0]).get("/FontDescriptor")
                desc = _resolve(desc) if desc is not None else {}
                table[str(font.get("/BaseFont", "?"))] = any(k in desc for k in ("/FontFile", "/FontFile2",
                                                                                  "/FontFile3"))
            if key is not None:
                self.digests.font_tables[key] = table
        self.out.fonts.update(table)

    def _note(self, category: str, name: str, resources) -> None:
        self.deps[f"{category} {name}"] = self.digests.entry(resources, category, name)

    def _record(self, ref, obj) -> dict:
        """What a form does to the figures, scanned on its own or taken from the memo."""
        digest = None
        if self.memo is not None:
            try:
                own = self.digests.of(obj, skip=("/Font", "/Resources"))
                digest = hashlib.sha256(_code_digest() + own).hexdigest()
                found = self.memo.get(digest)
                if found is not None and all(self.digests.entry(obj.get("/Resources"), *key.split(" ", 1)) == value
                                             for key, value in found[1].items()):
                    return found[0]
            except RecursionError:
                digest = None
        # the resources a form's scan looked up matter only to a record kept in the memo: without one,
        # digesting them (every gradient and state a form names) was a third of a book print file's scan
        sub = Scanner(self.memo, _Recording(), self.digests, {} if digest else None)
        inner = _Form()
        matrix = tuple(float(v) for v in obj.get("/Matrix", IDENTITY))
        sub._run(obj.get_data(), obj.get("/Resources"), "", inner)
        rec = sub.out
        images = [[im.pop("object", None), {k: v for k, v in im.items() if k != "where"}] for im in rec.images]
        record = {"spaces": sorted(rec.colour_spaces), "ink": rec.events, "images": images,
                  "fonts": sorted([name, embedded] for name, embedded in rec.fonts.items()),
                  "texts": [[s * scale_of(matrix), c.space, list(c.values)] for s, c in inner.texts],  # type: ignore
                  "transparent": inner.transparent}
        if digest:
            self.memo.put(digest, record, sub.deps)
        return record

    def _replay(self, record: dict, where: str) -> _Form:
        """Apply a form's record where it is first placed; its texts, to place at any scale."""
        out = self.out
        out.colour_spaces.update(record["spaces"])
        out.fonts.update(dict(record["fonts"]))
        for value, suffix in record["ink"]:
            out.ink(value, where + suffix)
        for key, info in record["images"]:
            if key is not None and key in self.images_seen:
                continue
            self.images_seen.add(key)
            out.images.append({"where": where, **info})
        return _Form([(size, Colour(space, tuple(values))) for size, space, values in record["texts"]],
                     record["transparent"])

    def page(self, page, number: int) -> None:
        where = f"page {number}"
        form = _Form()
        contents = page.get_contents()
        self._run(contents.get_data() if contents is not None else b"", page.get("/Resources"), where, form)
        # a page places a few forms: keep every distinct text once per page (size, colour)
        seen = set()
        for size, colour in form.texts:
            key = (round(size, 3), colour.space, colour.values)
            if key not in seen:
                seen.add(key)
                self.out.texts.append(TextShow(size, colour, number))
        if form.transparent:
            self.out.transparent_pages.append(number)


def scan(reader, memo: ScanMemo | None = None) -> Scan:
    """Scan every page of a pypdf ``PdfReader`` (with the form records of ``memo``, kept up to date)."""
    s = Scanner(memo, digests=_Digests(reader))
    for i, page in enumerate(reader.pages, 1):
        s.page(page, i)
    for im in s.out.images:
        im.pop("object", None)
    return s.out
