"""Units of rendering work, run in worker processes: each writes its files atomically and returns data.

A job is a small picklable tuple-like dataclass; ``run_job`` dispatches on its
type. Jobs never read the card database: the parent gives them faces.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..core import safeio
from ..core.atomic import write_bytes
from .draft import stamp_pdf
from .face import CardFace, RENDERER_VERSION
from .formcache import FormCache
from .paint import Mark, Painter, text_outside_boxes, is_light
from .pdf import PdfBuffer
from .raster import GAMECRAFTER_SIZE, jpeg_bytes, mpc_crop, png_bytes, render_pages, trim_crop, trim_thumb
from ..core.seal import SealedRecord
from . import aiddocs, preflight
from .aids import Aid, AidSet, draw_aid
from .sheets import PAPERS, Back, Item, calibration_sheet, draw_item, pnp_sheets, pod_document, proof_sheet
from .template import Template, load_template
from .tts import compose_sheet, grid_for
from .assets import assets_hash
from .colour import press_cmyk
from .draw import draw_face
from .pdfscan import ScanMemo

#: Products cached per face (by its key) under <out>/.cache/faces/.
MASTER, MPC, THUMB, TRIM, CHECK = "master.png", "mpc.png", "thumb.png", "trim.png", "check.json"
#: The sha256 of each product a face job wrote: a cached product is used only while it still matches.
HASHES = "products.json"


def item_key(item: Item, tpl: Template) -> str:
    if isinstance(item, Aid):
        return item.key(tpl.digest)
    if isinstance(item, Back):
        text = f"{RENDERER_VERSION}|{tpl.digest}|{assets_hash()}|back|{item.kind}|{item.lang}"
        return hashlib.sha256(text.encode()).hexdigest()
    return item.key(tpl.digest)


def cache_dir(out: Path, key: str) -> Path:
    return out / ".cache" / "faces" / key[:2] / key


#: Where the preflight scan of each PDF output keeps its forms' records (``pdfscan.ScanMemo``).
SCAN_MEMOS = Path(".cache") / "preflight"


def scan_memo_name(rel: str) -> Path:
    """The scan memo of output ``rel`` (a path under the output folder), relative to that folder."""
    return SCAN_MEMOS / f"{rel}.json"


#: No file forge keeps under output/ (a face, a sheet, a record of them) is near this size.
MAX_OWN_FILE = 256 * 1024 * 1024


def own_file(path: Path, limit: int = MAX_OWN_FILE):
    """A file forge wrote under output/, opened for reading; None when it is anything else.

    A link (to /dev/zero, say: git stores links, so a pull request can commit output/), a FIFO,
    a folder or a file over ``limit`` is not read: forge treats it as missing and renders again.
    """
    try:
        return safeio.open_regular(path, limit)
    except safeio.UnsafeInput:
        return None


def read_own(path: Path, limit: int = MAX_OWN_FILE) -> bytes | None:
    """The bytes of a file forge wrote under output/ (see ``own_file``), or None."""
    fh = own_file(path, limit)
    if fh is None:
        return None
    with fh:
        data = fh.read(limit + 1)
    return data if len(data) <= limit else None


def differs(path: Path, data: bytes) -> bool:
    """Whether ``path`` is not an ordinary file holding exactly ``data`` (it is never followed if a link)."""
    fh = own_file(path)
    if fh is None:
        return True
    with fh:
        return os.fstat(fh.fileno()).st_size != len(data) or fh.read(len(data) + 1) != data


def face_record(out: Path, key: str, name: str) -> SealedRecord:
    """One sealed record of a face's cache folder: its check (``CHECK``) or its products' hashes (``HASHES``)."""
    return SealedRecord(cache_dir(out, key) / name, f"face {name}", folder=out)


def product_hashes(out: Path, key: str) -> dict[str, str]:
    """The recorded hash of each product in a face's cache folder ({} when none or unreadable)."""
    return face_record(out, key, HASHES).load() or {}


def sound_products(out: Path, key: str, names) -> set[str]:
    """Which of ``names`` are in the cache as they were written: same bytes as recorded, not a link."""
    recorded = product_hashes(out, key)
    sound = set()
    for name in names:
        path = cache_dir(out, key) / name
        fh = own_file(path) if name in recorded else None
        if fh is not None:
            with fh:
                if hashlib.file_digest(fh, "sha256").hexdigest() == recorded[name]:
                    sound.add(name)
    return sound


def safe_zone_crossings(marks: list[Mark], tpl: Template) -> list[str]:
    """The drawn elements (text, icons, lines, panels, gradients, images) that cross the safe zone.

    Only parts declared full-bleed (``Painter.part(..., bleed=True)``: the background) may.
    """
    x, y, w, h = tpl.safe_rect()
    eps = 0.01
    out = []
    for m in marks:
        if m.bleed or m.kind == "plate":  # a plate is noted, and drawn (and checked) as its shapes
            continue
        x0, y0, x1, y1 = m.box
        if x0 < x - eps or y0 < y - eps or x1 > x + w + eps or y1 > y + h + eps:
            out.append(f"{m.kind} {m.label!r} at ({x0:.1f}, {y0:.1f})–({x1:.1f}, {y1:.1f}) pt")
    return sorted(set(out))


#: Light text smaller than this, on a surface of more total ink than ``REVERSED_TAC`` (%), is reversed
#: out of several plates: a hair of misregistration fills its letters in.
REVERSED_MAX_PT, REVERSED_TAC = 8.0, 200.0


def reversed_small_text(marks: list[Mark]) -> list[str]:
    """Light text under ``REVERSED_MAX_PT`` on a plate (``Painter.plate``) whose colours print with more
    than ``REVERSED_TAC`` % of ink on the press: the plate under a text is the last one drawn before it
    that holds its middle."""
    out = []
    plates: list[Mark] = []
    for m in marks:
        if m.kind == "plate":
            plates.append(m)
            continue
        if m.kind != "text" or not m.color or m.size >= REVERSED_MAX_PT or not is_light(m.color):
            continue
        cx, cy = (m.box[0] + m.box[2]) / 2, (m.box[1] + m.box[3]) / 2
        under = next((pl for pl in reversed(plates)
                      if pl.box[0] <= cx <= pl.box[2] and pl.box[1] <= cy <= pl.box[3]), None)
        if under is None or not under.colours:
            continue
        ink = max(100 * sum(press_cmyk(c)) for c in under.colours)
        if ink > REVERSED_TAC:
            out.append(f"{m.label} {m.text!r} ({m.size:.1f} pt, light) is reversed out of the {under.label} "
                       f"({ink:.0f} % ink): at least {REVERSED_MAX_PT:g} pt, or dark text on a light surface")
    return sorted(set(out))


@dataclass(frozen=True)
class FaceJob:
    """Draw faces (and backs) once: check them, and rasterise them when ``raster``."""

    root: str
    out: str
    items: tuple[Item, ...]
    keys: tuple[str, ...]
    products: tuple[str, ...]  # which of MASTER, MPC, THUMB, TRIM to rasterise (none: check only)
    draft: str = ""  # --force on a refused database: the faces are marked DRAFT before they are rasterised


@dataclass(frozen=True)
class DocJob:
    """A PDF document (kind pnp | calibration | pod | proof | mat | tokens) or an aid's TTS image
    (kind tts-mat | tts-token, ``what`` naming the token)."""

    root: str
    path: str
    kind: str
    lang: str
    faces: tuple[CardFace, ...] = ()
    paper: str = "a4"
    back_offset: tuple[float, float] = (0.0, 0.0)
    flagged: tuple[tuple[str, tuple[str, ...]], ...] = ()
    check: tuple = ()
    aids: AidSet | None = None
    what: str = ""
    layout: str = "gutter"  # print-and-play: gutter | butted
    draft: str = ""  # --force on a refused database: every page is marked DRAFT
    out: str = ""  # the output folder, where the preflight keeps its scan memo ("": none)


@dataclass(frozen=True)
class SheetJob:
    """A Tabletop Simulator face sheet, composed from cached thumbnails."""

    path: str
    thumbs: tuple[str, ...]
    hidden: str
    check: tuple = ()


@dataclass(frozen=True)
class CopyJob:
    """Copy a cached product (or a crop of it) to an output path."""

    path: str
    source: str
    check: tuple = ()


@dataclass
class JobResult:
    written: list[str] = field(default_factory=list)
    checks: dict[str, dict] = field(default_factory=dict)  # face key -> check
    file_checks: dict[str, dict] = field(default_factory=dict)  # output path -> preflight check
    problems: list[str] = field(default_factory=list)  # found while drawing (text out of its box)


def check_output(path: Path, spec: tuple, out: Path | None = None) -> dict:
    """Read an output back and check it against its profile (see ``preflight``); a PDF under ``out``
    is scanned with the records its forms left in earlier runs (``scan_memo_name``)."""
    if not path.exists():
        return {"path": path.as_posix(), "kind": spec[0], "problems": ["was not written"]}
    if spec[0] in ("png", "jpeg"):
        return preflight.check_png(path, spec[1], max_side=spec[2], kind=spec[0])
    _, size, pages, cmyk, lang = spec
    memo = ScanMemo(out, scan_memo_name(path.relative_to(out).as_posix())) if out is not None else None
    return preflight.check_pdf(path, size, pages, cmyk=cmyk, lang=lang, memo=memo)


def _checked(job, result: JobResult) -> JobResult:
    if job.check:
        out = Path(job.out) if getattr(job, "out", "") else None
        check = result.file_checks[job.path] = check_output(Path(job.path), job.check, out)
        check["problems"] = check.get("problems", []) + result.problems
    return result


def run_job(job) -> JobResult:
    if isinstance(job, FaceJob):
        return _run_faces(job)
    if isinstance(job, DocJob):
        return _checked(job, _run_doc(job))
    if isinstance(job, SheetJob):
        return _checked(job, _run_sheet(job))
    if isinstance(job, CopyJob):
        write_bytes(Path(job.path), Path(job.source).read_bytes())
        return _checked(job, JobResult([job.path]))
    raise TypeError(f"unknown job {job!r}")


def cards_pdf(items: list[Item], root: Path, tpl: Template | None = None) -> tuple[bytes, list[dict]]:
    """One page per card at full bleed, and each card's check (overflow, safe-zone crossings)."""
    tpl = tpl or load_template(root)
    doc = PdfBuffer((tpl.full_w, tpl.full_h), "Rift Commanders — cards", None, trim=tpl.trim_rect())
    checks = []
    for item in items:
        p = Painter(doc.canvas)
        problems: list[str] = []
        if isinstance(item, CardFace):
            problems = list(draw_face(p, tpl, item, root).problems)
        elif isinstance(item, Aid):
            problems = draw_aid(p, tpl, item) + text_outside_boxes(p.marks)
        else:
            draw_item(p, tpl, item, root)
        marks = p.marks + p.drawn((0.0, 0.0, tpl.full_w, tpl.full_h))
        doc.canvas.showPage()
        checks.append({"id": item.id, "lang": item.lang, "overflow": problems,
                       "safe_zone": safe_zone_crossings(marks, tpl), "reversed": reversed_small_text(p.marks)})
    return doc.finish(), checks


def card_images(items: list[Item], root: Path) -> list:
    """Cards as 825 × 1125 px RGB images at 300 DPI (bleed included), as the print shops get them."""
    pdf, _ = cards_pdf(items, Path(root))
    return render_pages(pdf, GAMECRAFTER_SIZE)


def _run_faces(job: FaceJob) -> JobResult:
    root, out = Path(job.root), Path(job.out)
    tpl = load_template(root)
    result = JobResult()
    pdf, checks = cards_pdf(list(job.items), root, tpl)
    if job.draft and job.products:
        pdf = stamp_pdf(pdf, job.draft)
    images = render_pages(pdf, GAMECRAFTER_SIZE) if job.products else [None] * len(job.items)
    bleed_px = round(tpl.bleed / 72 * 300)
    for item, key, check, img in zip(job.items, job.keys, checks, images):
        d = cache_dir(out, key)
        if img is not None:
            made = {}
            if MASTER in job.products:
                made[MASTER] = png_bytes(img)
            if MPC in job.products:
                made[MPC] = png_bytes(mpc_crop(img))
            if TRIM in job.products and isinstance(item, (Back, Aid)):
                made[TRIM] = png_bytes(trim_crop(img, bleed_px))
            if THUMB in job.products:
                made[THUMB] = png_bytes(trim_thumb(img, bleed_px), level=1)
            for name, data in made.items():
                write_bytes(d / name, data)
            hashes = {**product_hashes(out, key), **{name: hashlib.sha256(data).hexdigest() for name, data in made.items()}}
            face_record(out, key, HASHES).save(hashes)
        face_record(out, key, CHECK).save(check)
        result.checks[key] = check
    return result


def _run_doc(job: DocJob) -> JobResult:
    root = Path(job.root)
    tpl = load_template(root)
    faces = list(job.faces)
    problems: list[str] = []
    forms = FormCache(Path(job.out) if job.out else None, lambda item: item_key(item, tpl))
    if job.kind == "pnp":
        data = pnp_sheets(tpl, faces, job.lang, job.paper, root, job.back_offset, layout=job.layout, forms=forms)
    elif job.kind == "calibration":
        data = calibration_sheet(tpl, job.paper, job.lang, job.back_offset)
    elif job.kind == "pod":
        data = pod_document(tpl, faces, job.lang, root, forms=forms)
    elif job.kind == "proof":
        data = proof_sheet(tpl, faces, job.lang, root, {k: list(v) for k, v in job.flagged}, forms=forms)
    elif job.kind in ("mat", "tokens", "tts-mat", "tts-token"):
        data = aiddocs.render_document(tpl, job.aids, job.kind, job.paper, PAPERS.get(job.paper), job.what, problems)
    else:
        raise ValueError(f"unknown document kind {job.kind!r}")
    if job.draft and data[:5] == b"%PDF-":
        data = stamp_pdf(data, job.draft)
    write_bytes(Path(job.path), data)
    return JobResult([job.path], problems=problems)


def _run_sheet(job: SheetJob) -> JobResult:
    from PIL import Image  # lazy: loads PIL only when needed

    images = []
    for t in job.thumbs:
        with Image.open(t) as im:
            images.append(im.convert("RGB"))
    with Image.open(job.hidden) as im:
        hidden = im.convert("RGB")
    cols, rows = grid_for(len(images))
    sheet = compose_sheet(images, hidden, cols, rows)
    write_bytes(Path(job.path), jpeg_bytes(sheet))
    return JobResult([job.path])
