"""The check ``forge validate`` runs on the printed texts: every name and rules text fits its card.

Apart from the fitter (``forge.render.fit``) so that a re-validate whose texts the text-fit
record already knows loads neither the fitter nor reportlab's fonts: the faces, their text
classes and what is known of each text come from ``forge.render.face`` and the record.
"""
from __future__ import annotations

from pathlib import Path

from ..core.findings import Finding
from ..carddb.model import CardDatabase, Position
from .face import build_face, face_problems, with_text_classes
from .fitmemo import FitMemo
from .template import TEMPLATE_FILE, TemplateError, load_template


def check_text_fit(db: CardDatabase, phrasebooks: dict, root: Path, memo: FitMemo | None = None) -> list[Finding]:
    """Every card and language whose name or rules text cannot fit at the minimum size.

    The faces get their text classes first, as when they are rendered: each text is measured
    at the size of its type and class, the size it prints at. With a ``memo`` (validate's record,
    ``fitmemo.validate_memo``) what is known of each text is read from it and what is learned kept in it,
    so a re-validate lays out only the texts that changed.
    """
    try:
        tpl = load_template(Path(root))
    except TemplateError as exc:
        return [Finding(Position(TEMPLATE_FILE.as_posix()), "template", str(exc),
                        "fix the card template, or delete it to use forge's own")]
    findings: list[Finding] = []
    faces: dict[str, list] = {lang: [] for lang in sorted(phrasebooks)}
    numbers = db.collector_numbers()
    for card in db.cards:
        for lang in sorted(phrasebooks):
            try:
                faces[lang].append(build_face(card, db, phrasebooks[lang], lang, Path(root), numbers))
            except Exception as exc:  # a phrase problem is the text compiler's finding, not ours
                findings.append(Finding(card.position, "text-overflow",
                                        f"{lang}: the text of `{card.id}` could not be laid out ({exc})",
                                        severity="warning"))
    positions = {card.id: card.position for card in db.cards}
    memo = memo or FitMemo()
    for lang, lang_faces in with_text_classes(faces, tpl, memo).items():
        for face in lang_faces:
            for problem in face_problems(face, tpl, memo):
                findings.append(Finding(positions[face.id], "text-overflow", f"{lang}: {problem}",
                                        "shorten the text, or use a `text:` override with a terser wording"))
    memo.save()
    findings.sort(key=lambda f: (f.position.file, f.position.line, f.position.col, f.message))
    return findings
