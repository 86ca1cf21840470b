"""Reading input files that may come from a stranger's pull request.

A project file is read only when it is an ordinary file, inside one of the
folders it may come from (the project, or forge's own shipped files), and no
larger than ``MAX_INPUT_BYTES``. Everything else is refused *before* a byte is
read: a FIFO would block forever, ``/dev/zero`` would fill the memory, and a
symlink to ``/proc/self/environ`` would copy the CI's secrets into an output.

The checks run on the opened file descriptor (``fstat``), not on the path, so
a file swapped for a FIFO between the check and the read is still refused.
"""
from __future__ import annotations

import codecs
import errno
import os
import re
import stat
from pathlib import Path
from typing import BinaryIO, Callable
from .limits import MAX_IMAGE_PIXELS

#: Far more than any card file, locale, template or prose file (the largest shipped one is ~40 kB).
MAX_INPUT_BYTES = 10 * 1024 * 1024
#: forge's own shipped files (built-in templates, fonts, icons) live here and may be read too.
FORGE_HOME = Path(__file__).resolve().parents[2]


#: Told the path of each input ``open_input`` opens (see ``on_open``); None: no one listens.
_listener: Callable[[Path], None] | None = None


def on_open(listener: Callable[[Path], None] | None) -> None:
    """Have ``listener(path)`` called as each input is opened, before a byte is read (None: stop).

    forge.core.box listens in a stage of ``forge check``: a stage that runs out of its budget names
    the file it was reading."""
    global _listener
    _listener = listener


class UnsafeInput(Exception):
    """A path that is not a readable ordinary file inside the allowed folders.

    ``rule`` names the kind of refusal (``special-file``, ``outside-project``,
    ``too-large``, ``io``), ``hint`` says what to do about it.
    """

    def __init__(self, path: Path, rule: str, message: str, hint: str = ""):
        super().__init__(f"{path}: {message}")
        self.path, self.rule, self.message, self.hint = Path(path), rule, message, hint


def kind_of(mode: int) -> str:
    """What a file of this mode is, in words: \"a folder\", \"a named pipe (FIFO)\"…"""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not an ordinary file"


def inside(path: Path, folders: tuple[Path, ...]) -> bool:
    """Whether ``path`` (already resolved) lies in one of ``folders``."""
    return any(path == f or path.is_relative_to(f) for f in folders)


def within(path: Path | str, folder: Path | str) -> bool:
    """Whether ``path`` lies in ``folder`` once the links of both are followed."""
    return inside(Path(path).resolve(), (Path(folder).resolve(),))


def allowed_folders(root: Path | str) -> tuple[Path, ...]:
    """Where a project's inputs may come from: the project itself and forge's shipped files."""
    return (Path(root).resolve(), FORGE_HOME)


def check_path(path: Path | str, root: Path | str) -> Path:
    """The resolved path of an input, or UnsafeInput when a link leads outside the allowed folders."""
    path = Path(path)
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise UnsafeInput(path, "io", "no such file" if not path.is_symlink() else "a link to a file that does not exist",
                          "check the path") from None
    except (OSError, RuntimeError) as exc:  # a symlink loop raises RuntimeError on older Pythons
        raise UnsafeInput(path, "io", f"cannot resolve the path ({getattr(exc, 'strerror', None) or exc})",
                          "check the path") from None
    if not inside(real, allowed_folders(root)):
        raise UnsafeInput(path, "outside-project", f"the path leads outside the project (to {real})",
                          "project files must lie inside the project folder; copy the file in instead of linking to it")
    return real


def open_input(path: Path | str, root: Path | str | None, limit: int = MAX_INPUT_BYTES) -> BinaryIO:
    """An ordinary file opened for reading (binary), checked before a byte is read.

    ``root`` None means the user named the path on the command line: it may lie anywhere,
    but must still be an ordinary file of at most ``limit`` bytes. Raises UnsafeInput.
    """
    path = Path(path)
    if _listener is not None:
        _listener(path)
    if root is None:
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            raise UnsafeInput(path, "io", "no such file", "check the path") from None
    else:
        real = check_path(path, root)
    return open_regular(real, limit, shown=path)


def open_regular(path: Path | str, limit: int = MAX_INPUT_BYTES, shown: Path | str | None = None) -> BinaryIO:
    """``path`` itself opened for reading when it is an ordinary file of at most ``limit`` bytes.

    A link is not followed (even to a file), a FIFO does not block: UnsafeInput either way,
    checked on the opened descriptor. ``shown`` is the path named in the message.
    """
    real, path = Path(path), Path(shown if shown is not None else path)
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeInput(path, "outside-project", "the file is a link (or became one while being read)",
                              "replace the link with the file itself, or run forge again") from None
        raise UnsafeInput(path, "io", f"cannot open the file ({exc.strerror})",
                          "check that the file exists and is readable") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeInput(path, "special-file", f"is {kind_of(info.st_mode)}, not an ordinary file",
                              "replace it with an ordinary file; forge never reads pipes, devices or folders as input")
        if info.st_size > limit:
            raise UnsafeInput(path, "too-large", f"is {info.st_size:,} bytes, more than the limit of {limit:,}",
                              "an input this large is a mistake or an attack; split or shrink the file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: Path | str, root: Path | str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of an ordinary file inside the project (or forge), at most ``limit`` of them.

    Raises UnsafeInput for a special file, a folder, a link leaving the project, a
    file over the limit, or one that cannot be opened or read.
    """
    with open_input(path, root, limit) as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise UnsafeInput(Path(path), "io", f"cannot read the file ({exc.strerror})",
                              "check that the file is readable") from None
    if len(data) > limit:  # the file grew while we read it
        raise UnsafeInput(Path(path), "too-large", f"grew past the limit of {limit:,} bytes while being read",
                          "run forge again once the file stops changing")
    return data


def read_text(path: Path | str, root: Path | str, limit: int = MAX_INPUT_BYTES) -> str:
    """Like ``read_bytes``, decoded as UTF-8 (raises UnicodeDecodeError for other encodings)."""
    return read_bytes(path, root, limit).decode("utf-8")


def is_regular_file(path: Path | str, root: Path | str) -> bool:
    """Whether a path is an ordinary file inside the allowed folders (links followed), without reading it."""
    try:
        real = check_path(path, root)
        return stat.S_ISREG(os.stat(real).st_mode)
    except (UnsafeInput, OSError):
        return False


# -- XML ------------------------------------------------------------------------------------------
class XMLRefused(Exception):
    """An XML document forge will not read: ``kind`` is ``doctype``, ``encoding`` or ``syntax``.

    ``line`` is where (1 when unknown), ``hint`` what to do about it.
    """

    def __init__(self, kind: str, message: str, line: int = 1, hint: str = ""):
        super().__init__(message)
        self.kind, self.message, self.line, self.hint = kind, message, line or 1, hint


_BOMS = ((b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe\x00\x00", "utf-32-le"), (b"\xef\xbb\xbf", "utf-8-sig"),
         (b"\xfe\xff", "utf-16-be"), (b"\xff\xfe", "utf-16-le"))
#: The first ``<`` in the wider encodings, when the file has no byte-order mark (XML 1.0, appendix F.1).
_SIGNATURES = ((b"\x00\x00\x00<", "utf-32-be"), (b"<\x00\x00\x00", "utf-32-le"), (b"\x00<", "utf-16-be"),
               (b"<\x00", "utf-16-le"))
_DECLARED = re.compile(rb"""^<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']""")
_DTD_TOKEN = re.compile(r"<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)", re.I)


def xml_text(data: bytes) -> str:
    """The document as text, decoded by its byte-order mark, its first bytes or its declaration.

    Raises XMLRefused (``encoding``) when the encoding is unknown or the bytes do not decode in it.
    """
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), None) or \
        next((enc for sig, enc in _SIGNATURES if data.startswith(sig)), None)
    if encoding is None:
        declared = _DECLARED.match(data[:200])
        encoding = declared.group(1).decode("ascii") if declared else "utf-8"
    try:
        codecs.lookup(encoding)
        return data.decode(encoding)
    except (LookupError, UnicodeDecodeError, ValueError):
        raise XMLRefused("encoding", f"the XML does not decode as {encoding}", 1,
                         "save the file as UTF-8 (or UTF-16) with a matching declaration") from None


def parse_xml(data: bytes, what: str = "the file"):
    """An untrusted XML document as an lxml element: no DTD, no entities, no network, no huge nodes.

    A document with a DOCTYPE (or any other DTD declaration) is refused whatever its encoding:
    it is found once in the text decoded by Python (UTF-8, UTF-16 LE/BE with or without a
    byte-order mark, the declared encoding) and once more in what libxml2 itself parsed, so
    the two can never disagree about an encoding to let one through. Comments and processing
    instructions are dropped. Raises XMLRefused.
    """
    from lxml import etree  # lazy: loads lxml only when needed

    refuse_dtd(data, what)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, dtd_validation=False, load_dtd=False,
                             huge_tree=False, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise XMLRefused("syntax", f"{what} is not well-formed XML: {exc.msg.strip()}",
                         exc.position[0] if exc.position else 1,
                         "open it in the program that made it and save it again") from None
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None or info.externalDTD is not None:
        raise XMLRefused("doctype", f"{what} declares a document type (DTD): refused", 1, _dtd_hint(what))
    return root


def refuse_dtd(data: bytes, what: str = "the file") -> str:
    """The XML document as text (``xml_text``); XMLRefused when it holds a DOCTYPE or another DTD declaration.

    For a document another library parses (openpyxl reads XLSX parts with expat): this
    token scan on the decoded text is then what keeps every DTD out.
    """
    text = xml_text(data)
    match = _DTD_TOKEN.search(text)
    if match:
        raise XMLRefused("doctype", f"{what} declares a document type or entities ({match.group(0)!r}): refused",
                         text.count("\n", 0, match.start()) + 1, _dtd_hint(what))
    return text


def _dtd_hint(what: str) -> str:
    return f"{what} needs no document type; remove the <!DOCTYPE …> declaration (export it again as plain XML)"



# -- rasters ----------------------------------------------------------------------------------------
def pillow():
    """Pillow's ``Image`` module with forge's decompression-bomb limit: the one place that sets it.

    Every image a project provides is opened through this (``forge.carddb.art``, ``forge.core.svgsafe``,
    the books' press images), so Pillow refuses one declaring more than ``MAX_IMAGE_PIXELS``
    (a warning from 1×, an error from 2×; forge turns the warning into an error where it decodes).
    """
    from PIL import Image  # lazy: loads PIL only when needed


    Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
    return Image
