"""Reading the translated files once, with positions: YAML with its source map, prose as text.

A file that cannot be read or parsed is a finding, never a silent gap: the caller
knows which files were left out of the comparison (``Sources.failed``).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path

from ..core import safeio
from ..carddb import yamlsrc
from ..carddb.database import unsafe_finding
from ..core.findings import Finding
from ..carddb.model import Position


@dataclass
class Doc:
    """One file's text, its parsed data (YAML) and a way from (line, col) to a character offset."""

    rel: str
    text: str
    data: object = None
    source: yamlsrc.SourceMap | None = None
    _starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        starts = [0]
        find = self.text.find
        i = find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self._starts = starts

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    def offset(self, line: int, col: int) -> int:
        """The character offset of a 1-based line and column."""
        return self._starts[max(line, 1) - 1] + col - 1 if line <= len(self._starts) else len(self.text)

    def position(self, offset: int) -> Position:
        """The 1-based line and column of a character offset."""
        line = bisect_right(self._starts, offset)
        return Position(self.rel, line, offset - self._starts[line - 1] + 1)

    def at(self, path: tuple, key: bool = False) -> Position:
        """Where a YAML value (or its key) was written; the file's start if not known."""
        if self.source is None:
            return Position(self.rel, 1, 1)
        return Position(self.rel, *self.source.at(path, key=key))

    def verbatim(self, path: tuple, value: str) -> int | None:
        """The offset of ``value`` in the file when it is written there character for character.

        True of a one-line plain scalar, or a quoted one without escapes; then a finding can
        point at a column inside it and ``--fix`` can edit it in place. None otherwise.
        """
        if self.source is None or path not in self.source.values:
            return None
        start = self.offset(*self.source.values[path])
        if start < len(self.text) and self.text[start] in "'\"":
            quote = self.text[start]
            start += 1
            if quote == "'" and "'" in value or quote == '"' and ("\\" in self.text[start:start + len(value) + 1]):
                return None
        return start if self.text[start:start + len(value)] == value and "\n" not in value else None


@dataclass
class Sources:
    """The files read so far, and the findings met reading them.

    ``given``: texts read instead of the files they name (an edit not written yet: a test's
    mistake, kept after a parse failure so that every reader meets the same text).
    """

    root: Path
    docs: dict[str, Doc] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    failed: set[str] = field(default_factory=set)
    io_error: bool = False
    given: dict[str, str] = field(default_factory=dict)

    def text(self, rel: str) -> Doc | None:
        """A text file of the project, or None (with a finding) when it cannot be read."""
        if rel in self.docs:
            return self.docs[rel]
        try:
            text = self.given[rel] if rel in self.given else safeio.read_text(self.root / rel, self.root)
            text = text.removeprefix("\ufeff")
        except safeio.UnsafeInput as exc:
            self.io_error |= exc.rule == "io"
            return self._fail(rel, unsafe_finding(exc, rel))
        except UnicodeDecodeError:
            return self._fail(rel, Finding(Position(rel), "encoding", "the file is not UTF-8", "save it as UTF-8"))
        self.docs[rel] = Doc(rel, text)
        return self.docs[rel]

    def yaml(self, rel: str) -> Doc | None:
        """A YAML file parsed with its positions, or None (with a finding at the fault)."""
        doc = self.text(rel)
        if doc is None or doc.source is not None:
            return doc
        try:
            doc.data, doc.source = yamlsrc.load(doc.text)
        except yamlsrc.YamlError as exc:
            del self.docs[rel]
            return self._fail(rel, Finding(Position(rel, exc.line, exc.col), exc.rule, exc.message, exc.hint))
        if not isinstance(doc.data, dict):
            del self.docs[rel]
            return self._fail(rel, Finding(Position(rel, 1, 1), "shape", "the top level must be a mapping",
                                           "start the file with `key: value` entries"))
        return doc

    def texts(self) -> dict[str, str]:
        """The text of every file read or given, by its path: what another reader of the project
        (the card loader) reads instead of the disk, so that both compare the same files."""
        return {**{rel: doc.text for rel, doc in self.docs.items()}, **self.given}

    def _fail(self, rel: str, finding: Finding) -> None:
        self.failed.add(rel)
        self.findings.append(finding)
        return None
