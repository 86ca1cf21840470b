"""``render_cards``: plan every output of every profile, render only what changed, preflight it all.

The run first gathers everything (faces in each language, their cache keys),
then plans outputs, then renders the ones whose key changed on both cores, then
reads the outputs back for the preflight reports. Nothing is written from
half-read input; each file is written atomically.

Incremental: each output's key (a hash of the faces it shows, the template and
the assets) is kept in ``<out>/.cache/manifest.json``; an output whose key did
not change is left alone, once it is verified: the manifest also keeps each
output's size and sha256, and a file changed, truncated or deleted behind
forge's back is rendered again, and the report says so.

Every output is hashed on every run, not only those whose size or mtime changed:
an edit in place that keeps the size and restores the mtime is still caught, and
it is cheap: the 310 output files of the shipped game (81 MB) hash in 0.05 s
from the page cache (sha256 at ~1.6 GB/s on the 2-core CI machine), within a
"nothing changed" run of 0.1-0.2 s, so a size-and-mtime shortcut would buy nothing.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from concurrent.futures import FIRST_COMPLETED, wait, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Callable
import shutil

from reportlab.lib.units import mm

from ..core.atomic import sweep_orphans, write_bytes
from ..core.escape import neutralise
from ..core.findings import WARNING, Finding
from ..carddb.model import CardDatabase, ImageArt, Position
from ..core.safeio import within
from ..core.workers import cap, cpus, process_pool
from .aiddocs import mat_size, token_kinds
from .aids import aid_cards, aid_set, shop_aid_cards
from .assets import assets_hash, has_icon
from .face import BACK_DESIGNS, build_faces
from .formcache import prune as prune_forms
from .jobs import (CHECK, MASTER, MPC, SCAN_MEMOS, THUMB, TRIM, CopyJob, DocJob, FaceJob, JobResult, SheetJob,
                   cache_dir, check_output, differs, face_record, item_key, run_job, scan_memo_name, sound_products)
from .preflight import shop_verdict
from .raster import GAMECRAFTER_SIZE, MPC_SIZE
from ..core.seal import SealedRecord, key as seal_key
from .sheets import PAPERS, SHEET_BLEED, Back, back_of, sheet_layout
from .template import Template, load_template
from .tts import decks_for, image_rel, save_rel, saved_object, table_objects

PROFILES: tuple[str, ...] = ("pnp", "gamecrafter", "mpc", "pod", "tts", "proof")
LANGS: tuple[str, ...] = ("en", "fr")
MANIFEST = Path(".cache") / "manifest.json"


def manifest_record(out: Path) -> SealedRecord:
    """The last run's record of each output (``MANIFEST``): its key, check, scope and figures."""
    return SealedRecord(Path(out) / MANIFEST, "render manifest", folder=out)
FACE_BATCH = 6

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class RenderOptions:
    """What to render: languages, papers, profiles, the duplex back offset (mm), where, on how many cores."""

    langs: tuple[str, ...] = LANGS
    papers: tuple[str, ...] = ("a4", "letter")
    profiles: tuple[str, ...] = PROFILES
    back_offset: tuple[float, float] = (0.0, 0.0)
    pnp_layout: str = "gutter"  # gutter (each card with its own bleed) | butted (3 × 3, edge to edge)
    out: Path = Path("output")
    workers: int = 2
    tts_base_url: str | None = None
    draft: str = ""  # why the database is refused (--force): every card and document is then marked DRAFT  # where TTS finds the images; default: bare names (see ``tts_url``)


@dataclass
class RenderResult:
    """What a run did: files written and left unchanged, findings, and the preflight report per profile."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # outputs of cards no longer in the game
    outside: dict[str, str] = field(default_factory=dict)  # output -> "changed" | "deleted" behind forge's back
    out: Path = Path("output")  # where the outputs (named relative to it above) are
    findings: list[Finding] = field(default_factory=list)
    preflight: dict[str, dict] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> dict:
        return {"written": len(self.written), "unchanged": len(self.unchanged), "removed": len(self.removed),
                "changed_outside": len(self.outside),
                "errors": sum(f.severity == "error" for f in self.findings),
                "warnings": sum(f.severity == WARNING for f in self.findings),
                "seconds": round(self.seconds, 2),
                "profiles": {k: v["ok"] for k, v in sorted(self.preflight.items())}}


@dataclass
class _Planned:
    """An output file, its key, the job that makes it and how to check it."""

    path: Path
    key: str
    job: object
    check: tuple
    phase: int = 1  # 1: needs nothing; 2: needs the face jobs' products
    scope: tuple = ()  # (profile, language, paper or "") it belongs to, to find stale outputs


def _hash(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


# -- planning -----------------------------------------------------------------------
class _Plan:
    def __init__(self, db: CardDatabase, books: dict, root: Path, opts: RenderOptions, tpl: Template):
        self.db, self.books, self.root, self.opts, self.tpl = db, books, root, opts, tpl
        self.out = opts.out
        self.faces = build_faces(db, books, list(opts.langs), root, self.out)
        self.backs = {lang: [Back(k, lang) for k in BACK_DESIGNS] for lang in opts.langs}
        self.aids = {lang: aid_set(tpl, books[lang], lang, db.factions) for lang in opts.langs}
        self.aid_fronts = {lang: aid_cards(self.aids[lang]) for lang in opts.langs}
        self.aid_sides = {lang: _sides(self.aid_fronts[lang]) for lang in opts.langs}
        # the print shops print no mat nor token sheet: their aids add a Rite slot and pieces cut out of cards
        self.shop_fronts = {lang: self.aid_fronts[lang] + shop_aid_cards(tpl, self.aids[lang]) for lang in opts.langs}
        self.shop_sides = {lang: _sides(self.shop_fronts[lang]) for lang in opts.langs}
        self.keys: dict[tuple[str, str], str] = {}
        self.form_keys: set[str] = set()  # the keys of the items' kept forms (``formcache``): never a draft's
        for lang in opts.langs:
            for item in self.items(lang):
                key = item_key(item, tpl)
                self.form_keys.add(key)
                self.keys[(lang, item.id)] = _hash(key, "draft", opts.draft) if opts.draft else key
        self.outputs: list[_Planned] = []
        self._products: dict[str, dict[str, tuple]] = {}
        self._lang = ""
        self.raster = bool({"gamecrafter", "mpc", "tts"} & set(opts.profiles))

    def items(self, lang: str) -> list:
        """Everything drawn card-size in ``lang``: faces, backs, and both sides of the player aids (the
        print shops' included)."""
        return self.faces.get(lang, []) + self.backs.get(lang, []) + self.shop_sides.get(lang, [])

    def key(self, item) -> str:
        return self.keys[(item.lang, item.id)]

    def product(self, item, name: str) -> Path:
        return cache_dir(self.out, self.key(item)) / name

    def products_of(self, lang: str) -> dict[str, tuple]:
        """Each cached product path of ``lang``'s items -> (item, product name); made once per run."""
        if lang not in self._products:
            self._products[lang] = {str(self.product(item, name)): (item, name)
                                    for item in self.items(lang) for name in (MASTER, MPC, THUMB, TRIM)}
        return self._products[lang]

    def add(self, rel: str, key: str, job, check: tuple, phase: int = 1, paper: str = "") -> None:
        scope = (rel.split("/", 1)[0], self._lang, paper)
        if isinstance(job, DocJob):
            job = replace(job, out=str(self.out))
        if self.opts.draft:  # a draft is another output: rendered, marked, and rendered again once fixed
            key = _hash(key, "draft", self.opts.draft)
            if isinstance(job, DocJob):
                job = replace(job, draft=self.opts.draft)
        self.outputs.append(_Planned(self.out / rel, key, job, check, phase, scope))

    def plan(self) -> None:
        profiles = self.opts.profiles
        for lang in self.opts.langs:
            self._lang = lang
            if "pnp" in profiles:
                self._pnp(lang)
            for shop, name, size in (("gamecrafter", MASTER, GAMECRAFTER_SIZE), ("mpc", MPC, MPC_SIZE)):
                if shop in profiles:
                    self._shop(lang, shop, name, size)
            if "pod" in profiles:
                faces = self.faces[lang] + self.shop_fronts[lang]
                key = _hash("pod", [self.key(f) for f in faces], [self.key(b) for b in self.items(lang)])
                pages = 2 * sum(f.copies for f in faces)
                self.add(f"pod/rift-commanders-{lang}-pod.pdf", key,
                         DocJob(str(self.root), "", "pod", lang, tuple(faces)),
                         ("pdf", (self.tpl.full_w, self.tpl.full_h), pages, True, lang))
            if "tts" in profiles:
                self._tts(lang)
            if "proof" in profiles:
                faces = self.faces[lang] + self.shop_sides[lang]
                key = _hash("proof", [self.key(f) for f in faces], [self.key(b) for b in self.backs[lang]])
                self.add(f"proof/rift-commanders-{lang}-proof.pdf", key,
                         DocJob(str(self.root), "", "proof", lang, tuple(faces)),
                         ("pdf", PAPERS["a4"], None, False, lang), phase=2)

    def _pnp(self, lang: str) -> None:
        faces = self.faces[lang] + self.aid_fronts[lang]
        n_cards = sum(f.copies for f in faces)
        layout = self.opts.pnp_layout
        aids = self.aids[lang]
        aid_keys = [self.key(a) for a in self.aid_sides[lang]]
        for paper in self.opts.papers:
            pages = 2 * -(-n_cards // sheet_layout(self.tpl, paper, layout).per_page)
            for kind, pdf_size in (("mat", mat_size(PAPERS[paper])), ("tokens", PAPERS[paper])):
                self.add(f"pnp/{'player-mat' if kind == 'mat' else 'tokens'}-{lang}-{paper}.pdf",
                         _hash(kind, paper, aid_keys), DocJob(str(self.root), "", kind, lang, (), paper, aids=aids),
                         ("pdf", pdf_size, 1, False, lang), paper=paper)
            key = _hash("pnp", paper, layout, self.opts.back_offset, [self.key(f) for f in faces],
                        [self.key(b) for b in self.items(lang)])
            self.add(pnp_rel(lang, paper, layout), key,
                     DocJob(str(self.root), "", "pnp", lang, tuple(faces), paper, self.opts.back_offset, layout=layout),
                     ("pdf", PAPERS[paper], pages, False, lang), paper=f"{paper}/{layout}")
            ckey = _hash("calibration", paper, lang, self.opts.back_offset, self.tpl.digest, assets_hash())
            self.add(f"pnp/duplex-calibration-{lang}-{paper}.pdf", ckey,
                     DocJob(str(self.root), "", "calibration", lang, (), paper, self.opts.back_offset),
                     ("pdf", PAPERS[paper], 2, False, lang), paper=paper)

    def _shop(self, lang: str, shop: str, product: str, size: tuple[int, int]) -> None:
        for item in self.items(lang):
            self.add(f"{shop}/{lang}/{item.id}.png", _hash(shop, self.key(item)),
                     CopyJob("", str(self.product(item, product))), ("png", size, None), phase=2)

    def _tts(self, lang: str) -> None:
        labels = self.tpl.labels(lang)
        names = {f.id: self.books[lang].faction_name(f.id) for f in self.db.factions}
        for deck in decks_for(self.faces[lang], names, labels["backs"]):
            back = Back(deck.back, lang)
            for si, sheet in enumerate(deck.sheets()):
                key = _hash("tts", [self.key(f) for f in sheet], self.key(back))
                job = SheetJob("", tuple(str(self.product(f, THUMB)) for f in sheet), str(self.product(back, THUMB)))
                self.add(image_rel(lang, f"{deck.key}-{si + 1}", "jpg"), key, job,
                         ("jpeg", None, 4096), phase=2)
        for back in self.backs[lang] + self.aid_sides[lang]:
            self.add(image_rel(lang, back.id, "png"), _hash("tts-back", self.key(back)),
                     CopyJob("", str(self.product(back, TRIM))), ("png", None, 4096), phase=2)
        for back in self.backs[lang][:1]:  # the saved object's picture in TTS's Objects menu: the first back
            self.add(save_rel(lang, "png"), _hash("tts-thumb", self.key(back)),
                     CopyJob("", str(self.product(back, TRIM))), ("png", None, 4096), phase=2)
        aids = self.aids[lang]
        aid_keys = [self.key(a) for a in self.aid_sides[lang]]
        self.add(image_rel(lang, "mat", "jpg"), _hash("tts-mat", aid_keys),
                 DocJob(str(self.root), "", "tts-mat", lang, (), "a4", aids=aids), ("jpeg", None, 4096))
        for kind in token_kinds(aids):
            self.add(image_rel(lang, kind, "png"), _hash("tts-token", kind, aid_keys),
                     DocJob(str(self.root), "", "tts-token", lang, (), "a4", aids=aids, what=kind),
                     ("png", None, 4096))


def pnp_rel(lang: str, paper: str, layout: str) -> str:
    """The print-and-play sheets' file: the butted layout's named apart (it overwrote the gutter one's)."""
    return f"pnp/rift-commanders-{lang}-{paper}{'' if layout == 'gutter' else '-' + layout}.pdf"


def _sides(fronts: list) -> list:
    """Both sides of each aid, once each (a counter card's back is its front)."""
    return list({a.id: a for f in fronts for a in (f, f.reverse())}.values())


def _bind(planned: _Planned):
    """The job with its output path and its preflight check filled in."""
    job = planned.job
    return type(job)(**{**job.__dict__, "path": str(planned.path), "check": planned.check})


# -- running ---------------------------------------------------------------------------
class _Scheduler:
    """Runs jobs on a process pool, biggest first, at most one queued per free worker.

    Jobs that need the faces' products (TTS sheets, the proof) become ready when the
    face jobs are done; keeping the queue short lets them start at once instead of
    waiting behind every document.
    """

    def __init__(self, workers: int, progress: Progress | None, total: int):
        self.workers, self.progress, self.total = workers, progress, total
        self.done = 0
        self.results: list[JobResult] = []

    def _finished(self, job, result: JobResult) -> None:
        self.results.append(result)
        self.done += 1
        if self.progress:
            self.progress(self.done, self.total, _describe(job))

    def run(self, first: list, then: list, after_first) -> list[JobResult]:
        """Run ``first`` and ``then``; when every ``first`` job is done, ``after_first()`` gives more."""
        if self.workers <= 1:
            for job in sorted(first, key=_weight) + sorted(then, key=_weight):
                self._finished(job, run_job(job))
            for job in sorted(after_first(), key=_weight):
                self._finished(job, run_job(job))
            return self.results
        ready = sorted(first, key=_weight) + sorted(then, key=_weight)
        first_left = len(first)
        released = False
        running: dict = {}
        with process_pool(self.workers) as pool:
            while True:
                if not released and first_left == 0:  # at once when no face is drawn (outputs made of cached ones)
                    released = True
                    ready = sorted(ready + after_first(), key=_weight)
                if not (ready or running):
                    break
                while ready and len(running) < self.workers:
                    job = ready.pop(0)
                    running[pool.submit(run_job, job)] = job
                finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for fut in finished:
                    job = running.pop(fut)
                    self._finished(job, fut.result())
                    first_left -= isinstance(job, FaceJob)
        return self.results


def _describe(job) -> str:
    if isinstance(job, FaceJob):
        return f"cards {', '.join(i.id for i in job.items[:2])}{'…' if len(job.items) > 2 else ''}"
    return Path(getattr(job, "path", "")).name


def _weight(job) -> int:
    """Faces first (others wait for them), then the biggest jobs, so both cores stay busy to the end."""
    if isinstance(job, FaceJob):
        return 0
    if isinstance(job, DocJob):
        return {"pod": 1, "pnp": 3, "proof": 4, "calibration": 6}.get(job.kind, 6)
    if isinstance(job, SheetJob):
        return 2
    return 5


def _read_manifest(out: Path) -> dict:
    """The last run's record; anything unreadable or malformed counts as no record (everything is rendered)."""
    record = manifest_record(out).load() or {}  # a record this machine did not write is no record
    files = record.get("files")
    if not isinstance(files, dict):
        return {"files": {}}
    return {"files": {rel: entry for rel, entry in files.items() if isinstance(entry, dict) and _own_rel(rel)
                      and (entry.get("scope") is None or _is_scope(entry.get("scope")))}}


def _own_rel(rel) -> bool:
    """Whether a manifest entry names a file forge may have written: a relative path down into output/.

    The manifest may come from a pull request: `../../home/ci/.ssh/id_rsa` or `/etc/x` would otherwise
    be deleted as "an output of a card removed since".
    """
    if not isinstance(rel, str) or not rel or "\\" in rel or "\0" in rel:
        return False
    parts = PurePosixPath(rel).parts
    return not PurePosixPath(rel).is_absolute() and ".." not in parts and "." not in rel.split("/")


def _is_scope(scope) -> bool:
    return isinstance(scope, list) and len(scope) in (0, 3) and all(v is None or isinstance(v, str) for v in scope)


def render_cards(db: CardDatabase, phrasebooks: dict, root: Path, options: RenderOptions = RenderOptions(),
                 progress: Progress | None = None) -> RenderResult:
    """Render every asked profile and language of the game into ``options.out``; see the module doc."""
    start = time.perf_counter()
    root, out = Path(root), Path(options.out)
    sweep_orphans(out)  # what a killed forge was writing
    seal_key()  # read (or made) before the workers start, so that they seal with the same key
    tpl = load_template(root)
    plan = _Plan(db, phrasebooks, root, options, tpl)
    plan.plan()
    manifest = _read_manifest(out)
    old = manifest.get("files", {})

    # 1. which outputs changed (or were changed behind forge's back), which faces they need drawn
    result = RenderResult(out=out)
    todo, prints = [], {}
    kept_as_is = [o.path for o in plan.outputs if old.get(_rel(o.path, out), {}).get("key") == o.key]
    found = dict(zip(kept_as_is, fingerprints(kept_as_is)))
    for o in plan.outputs:
        rel = _rel(o.path, out)
        entry = old.get(rel, {})
        if entry.get("key") != o.key:
            todo.append(o)
            continue
        prints[rel] = found[o.path]
        state = _verify(entry, prints[rel])
        if state:
            todo.append(o)
            if state != "unverified":
                result.outside[rel] = state
    need: dict[str, set[str]] = {}  # face key -> cached products the outputs to write need
    for o in todo:
        if o.phase == 2 and not isinstance(o.job, DocJob):
            for item, product in _items_of(plan, o):
                need.setdefault(plan.key(item), set()).add(product)
    known: dict[str, dict] = {}  # the checks of the faces cached as they are, read once
    face_jobs = _face_jobs(plan, need, known)
    total = len(face_jobs) + len(todo)
    if progress:
        progress(0, total, "planning")

    # 2. faces (checks and rasters) and the documents that need nothing else; then, once the faces
    #    are done, the outputs made from their products (TTS sheets, copies, the proof with its flags)
    collected: dict[str, dict] = {}  # the faces' checks: final once every face job is done

    def after_faces() -> list:
        checks = collected["checks"] = _collect_checks(plan, known)
        jobs = []
        for o in todo:
            if o.phase != 2:
                continue
            job = _bind(o)
            if isinstance(job, DocJob) and job.kind == "proof":
                flagged = tuple(sorted((c["id"], tuple(c["overflow"] + c["safe_zone"] + c.get("reversed", [])))
                                       for c in checks.values() if c["lang"] == job.lang
                                       and (c["overflow"] or c["safe_zone"] or c.get("reversed"))))
                job = DocJob(**{**job.__dict__, "flagged": flagged})
            jobs.append(job)
        return jobs

    scheduler = _Scheduler(cap(options.workers, total), progress, total)
    results = scheduler.run(face_jobs, [_bind(o) for o in todo if o.phase == 1], after_faces)
    file_checks: dict[str, dict] = {}
    for r in results:
        file_checks.update(r.file_checks)
    checks = collected["checks"] if "checks" in collected else _collect_checks(plan, known)

    # 3. files computed in this process: TTS saved objects and print-shop quantity lists
    extra = _small_files(plan, options)
    for rel, data in extra.items():
        path = out / rel
        if differs(path, data):
            write_bytes(path, data)
            result.written.append(rel)
        else:
            result.unchanged.append(rel)

    # 4. preflight: read outputs back (only the rewritten ones; the others keep their last check)
    files = {}
    todo_paths = {o.path for o in todo}
    redone = [o.path for o in plan.outputs if o.path in todo_paths or "check" not in old.get(_rel(o.path, out), {})]
    found = dict(zip(redone, fingerprints(redone)))
    for o in plan.outputs:
        rel = _rel(o.path, out)
        if o.path in todo_paths or "check" not in old.get(rel, {}):
            check = file_checks.get(str(o.path)) or check_output(o.path, o.check, out)
            result.written.append(rel)
            prints[rel] = found[o.path]
        else:
            check = old[rel]["check"]
            result.unchanged.append(rel)
        check["path"] = rel
        files[rel] = {"key": o.key, "check": check, "scope": list(o.scope), **(prints.get(rel) or {})}
    kept = {}
    for rel, entry in old.items():
        if rel in files or not (out / rel).exists():
            continue
        if _in_scope(entry.get("scope"), options) and within((out / rel).parent, out):
            (out / rel).unlink()  # e.g. the PNG of a card deleted since (a link is removed, not followed)
            result.removed.append(rel)
        else:
            kept[rel] = entry
    manifest_record(out).save({"files": {**kept, **files}})
    result.findings = _findings(db, plan, checks, files)
    result.preflight = _reports(plan, checks, files, options)
    for profile, report in result.preflight.items():
        data = (json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
        path = out / profile / "preflight.json"
        if differs(path, data):
            write_bytes(path, data)
    if set(options.langs) == set(LANGS):  # a partial run keeps the other languages' cache
        _prune_cache(out, set(plan.keys.values()), set(kept) | set(files))
        prune_forms(out, plan.form_keys)
    result.written.sort()
    result.unchanged.sort()
    result.seconds = time.perf_counter() - start
    return result


def fingerprints(paths: list[Path]) -> list[dict | None]:
    """``fingerprint`` of each path, on every core: hashing (sha256 lets go of the GIL) and reading
    the 300 outputs of the shipped game is the biggest part of a run where nothing changed."""
    if len(paths) < 8:
        return [fingerprint(p) for p in paths]

    with ThreadPoolExecutor(max_workers=max(2, cpus())) as pool:
        return list(pool.map(fingerprint, paths))


def fingerprint(path: Path) -> dict | None:
    """An output's size and sha256; None when it is missing.

    Something that is not an ordinary file where an output was (a link, a folder, a FIFO)
    gets a fingerprint no output has, so it is rendered again; it is never followed or read.
    """
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    unlike_any = {"size": -1, "sha256": ""}
    if not stat.S_ISREG(st.st_mode):
        return unlike_any
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:  # unreadable, or swapped for a link since the lstat
        return unlike_any
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # swapped since the lstat
            return unlike_any
        digest = hashlib.file_digest(fh, "sha256").hexdigest()
        return {"size": os.fstat(fh.fileno()).st_size, "sha256": digest}


def _verify(entry: dict, found: dict | None) -> str:
    """"" when the output is as forge wrote it; else "deleted", "changed", or "unverified" (no hash kept)."""
    if found is None:
        return "deleted"
    if "sha256" not in entry:  # a manifest from before outputs were hashed
        return "unverified"
    if (found["size"], found["sha256"]) != (entry.get("size"), entry["sha256"]):
        return "changed"
    return ""


def _in_scope(scope, options: RenderOptions) -> bool:
    """Whether this run renders the profile, language (and paper, and print-and-play layout: "a4/butted")
    an earlier output belonged to: a run of one layout leaves the other's sheets alone."""
    if not scope:
        return False
    profile, lang, paper = scope
    paper, _, layout = (paper or "").partition("/")
    return (profile in options.profiles and lang in options.langs and (not paper or paper in options.papers)
            and (not layout or layout == options.pnp_layout))


def _rel(path: Path, out: Path) -> str:
    return path.relative_to(out).as_posix()


def _items_of(plan: _Plan, o: _Planned) -> list[tuple]:
    """The faces and backs a raster output is made from, with the cached product it reads."""
    by_product = plan.products_of(o.path.relative_to(plan.out).parts[1])
    sources = [o.job.source] if isinstance(o.job, CopyJob) else list(o.job.thumbs) + [o.job.hidden]
    return [by_product[s] for s in sources if s in by_product]


def _face_jobs(plan: _Plan, need: dict[str, set[str]], known: dict[str, dict]) -> list[FaceJob]:
    """Faces whose check is not cached, or whose rasters an output needs and the cache lacks;
    the checks found in the cache go into ``known``."""
    todo = []
    for lang in plan.opts.langs:
        for item in plan.items(lang):
            key = plan.key(item)
            wanted = need.get(key, ())
            missing = tuple(sorted(set(wanted) - sound_products(plan.out, key, wanted)))
            check = _read_check(plan.out, key)
            if check is not None:
                known[key] = check
            if missing or check is None:
                todo.append((item, key, missing))
    jobs = []
    # small batches when few faces changed, so both cores share them
    batch = max(1, min(FACE_BATCH, -(-len(todo) // (2 * max(1, min(plan.opts.workers, cpus()))))))
    for products in sorted({t[2] for t in todo}):
        group = [t for t in todo if t[2] == products]
        for i in range(0, len(group), batch):
            chunk = group[i:i + batch]
            jobs.append(FaceJob(str(plan.root), str(plan.out), tuple(t[0] for t in chunk),
                                tuple(t[1] for t in chunk), products, plan.opts.draft))
    return jobs


def _read_check(out: Path, key: str) -> dict | None:
    """A cached face's check record, or None when it is missing, not an ordinary file, or not sealed here."""
    return face_record(out, key, CHECK).load()


def _collect_checks(plan: _Plan, known: dict[str, dict]) -> dict[str, dict]:
    """Every face's check: those ``known`` from before the face jobs, the others read from the cache."""
    checks = {}
    for lang in plan.opts.langs:
        for item in plan.items(lang):
            key = plan.key(item)
            checks[key] = known.get(key) or _read_check(plan.out, key) or {}
    return checks


def _quantities_csv(faces) -> bytes:
    """A print shop's quantity list. The name is quoted as RFC 4180 says (a quote inside is doubled):
    card names come from pull requests, and one holding `",` must not add a column or a row; one
    starting like a formula (`=WEBSERVICE(…)`) gets a ``'`` in front (OWASP)."""
    rows = ["file,id,name,set,back,quantity"]
    rows += [f'{f.id}.png,{f.id},"{neutralise(f.name).replace(chr(34), chr(34) * 2)}",{getattr(f, "set", "aid")},'
             f'{back_of(f).id}.png,{f.copies}' for f in faces]
    return ("\n".join(rows) + "\n").encode("utf-8")


def _small_files(plan: _Plan, opts: RenderOptions) -> dict[str, bytes]:
    """TTS saved objects and the print shops' quantity lists, made here from the plan."""
    out: dict[str, bytes] = {}
    for lang in opts.langs:
        faces = plan.faces[lang]
        for shop in ("gamecrafter", "mpc"):
            if shop in opts.profiles:
                out[f"{shop}/{lang}/quantities.csv"] = _quantities_csv(faces + plan.shop_fronts[lang])
        if "tts" in opts.profiles:
            labels = plan.tpl.labels(lang)
            names = {f.id: plan.books[lang].faction_name(f.id) for f in plan.db.factions}
            decks = decks_for(faces, names, labels["backs"])
            url = tts_url(opts.tts_base_url, lang)
            table = table_objects(plan.aids[lang], {f: f.reverse() for f in plan.aid_fronts[lang]}, lang, url)
            obj = saved_object(decks, lang, url, table)
            out[save_rel(lang)] = (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode()
            save = save_rel(lang).rsplit("/", 1)[1]
            help_lines = [line.replace("{save}", save) for line in labels.get("tts_help", [])]
            out[f"tts/{lang}/README.txt"] = ("\n".join(help_lines) + "\n").encode()
    return out


def tts_url(base: str | None, lang: str):
    """Where TTS finds an image: under ``base`` when the images are hosted (``--tts-url``); else by its bare
    name, the same on every machine, for images copied into TTS's Mods/Images folder (never a path of
    the machine that rendered it)."""
    if base:
        return lambda name: f"{base.rstrip('/')}/{lang}/{name}"
    return lambda name: name


# -- reporting --------------------------------------------------------------------------------
def _findings(db: CardDatabase, plan: _Plan, checks: dict, files: dict) -> list[Finding]:
    positions = {c.id: c.position for c in db.cards}
    findings = []
    for faction in db.factions:
        if not has_icon(faction.icon):
            findings.append(Finding(faction.position, "icon-missing",
                                    f"faction `{faction.id}`: icon `{faction.icon}` is not vendored; "
                                    "its cards show the neutral icon",
                                    "pick a game-icons.net name and run python -m forge.render.vendor, "
                                    "or map it in ICON_ALIASES (forge/render/assets.py)", severity=WARNING))
    for card, face in zip(db.cards, plan.faces[plan.opts.langs[0]]):  # faces are in database order
        if isinstance(card.art, ImageArt) and not face.art:
            findings.append(Finding(card.position, "art-missing",
                                    f"`{card.id}`: art `{card.art.image}` cannot be printed (missing, outside the "
                                    "project or not a sound PNG, JPEG, WebP or SVG image); the default art is printed",
                                    "forge validate says why",
                                    severity=WARNING))
    for lang in plan.opts.langs:
        for item in plan.items(lang):
            check = checks[plan.key(item)]
            pos = positions.get(item.id, Position("templates/cards/card.yaml"))
            for problem in check["overflow"]:
                findings.append(Finding(pos, "text-overflow", f"{lang}: {problem}",
                                        "shorten the text, or give the line a terser `text:` override"))
            for mark in check["safe_zone"]:
                findings.append(Finding(pos, "safe-zone", f"{lang}: `{item.id}`: {mark} crosses the safe zone",
                                        "move or shrink it in templates/cards/card.yaml"))
            for text in check.get("reversed", []):
                findings.append(Finding(pos, "reversed-text", f"{lang}: `{item.id}`: {text}",
                                        "print small text dark on a light surface (black ink only), or larger, "
                                        "in templates/cards/card.yaml"))
    for rel, entry in sorted(files.items()):
        for problem in entry["check"]["problems"]:
            findings.append(Finding(Position(f"output/{rel}"), "preflight", f"{rel} {problem}"))
    return sorted(findings)


_PROFILE_SPEC = {
    "pnp": {"paper": "A4 and Letter", "duplex": "long edge, backs mirrored", "margin_mm": 5},
    "gamecrafter": {"size_px": list(GAMECRAFTER_SIZE), "dpi": 300, "colour_space": "RGB"},
    "mpc": {"size_px": list(MPC_SIZE), "dpi": 300, "colour_space": "RGB"},
    "pod": {"page": "card with 1/8 in bleed", "colour_space": "CMYK", "standard": "PDF/X-4",
            "output_intent": "FOGRA39 (ISO Coated v2 300%, basICColor)"},
    "tts": {"max_side_px": 4096, "grid": "at most 10×7, last slot hidden", "colour_space": "RGB",
            "sheets": "JPEG, quality 92, no chroma subsampling"},
    "proof": {"paper": "A4"},
}


def _spec(profile: str, tpl: Template, opts: RenderOptions) -> dict:
    """What a profile's files are made to; print-and-play says its layout and cards per page on each paper."""
    spec = dict(_PROFILE_SPEC[profile])
    if profile == "pnp":
        sheets = {paper: sheet_layout(tpl, paper, opts.pnp_layout) for paper in opts.papers}
        spec.update(layout=opts.pnp_layout,
                    cards_per_page={paper: s.per_page for paper, s in sheets.items()},
                    cards_on_their_side={paper: s.rotated for paper, s in sheets.items()},
                    card_bleed_mm=round(SHEET_BLEED / mm, 2) if opts.pnp_layout == "gutter" else 0)
    return spec


def _reports(plan: _Plan, checks: dict, files: dict, opts: RenderOptions) -> dict[str, dict]:
    reports = {}
    card_issues = []
    for lang in opts.langs:
        for item in plan.items(lang):
            c = checks[plan.key(item)]
            if c["overflow"] or c["safe_zone"] or c.get("reversed"):
                card_issues.append({"lang": lang, "id": item.id, "overflow": c["overflow"], "safe_zone": c["safe_zone"],
                                    "reversed": c.get("reversed", [])})
    n_cards = sum(len(plan.items(lang)) for lang in opts.langs)
    for profile in opts.profiles:
        entries = [e["check"] for rel, e in sorted(files.items()) if rel.startswith(profile + "/")]
        verdict = shop_verdict(profile, entries, card_issues)
        reports[profile] = {
            "profile": profile, "ok": verdict["pass"], "shop": verdict, "languages": list(opts.langs),
            "spec": _spec(profile, plan.tpl, opts),
            "cards_checked": n_cards, "card_problems": card_issues,
            "files": entries,
            "safe_zone_mm": plan.tpl.data["card"]["safe"], "bleed_mm": plan.tpl.data["card"]["bleed"],
        }
    return reports


def _prune_cache(out: Path, keep: set[str], outputs: set[str]) -> None:
    """Drop cached face products no current face uses, and the scan memos of PDFs not among the
    ``outputs`` the manifest keeps, so the cache does not grow forever."""
    base = out / ".cache" / "faces"
    for d in sorted(base.glob("*/*")) if base.is_dir() else ():
        if d.is_dir() and d.name not in keep and not d.is_symlink() and within(d, out):
            shutil.rmtree(d, ignore_errors=True)
    memos = out / SCAN_MEMOS
    wanted = {out / scan_memo_name(rel) for rel in outputs}
    for f in sorted(memos.rglob("*.json")) if memos.is_dir() and not memos.is_symlink() else ():
        if f not in wanted and not f.is_symlink() and within(f.parent, out):
            f.unlink(missing_ok=True)
