"""forge.core.compat: each library's private internals forge relies on are there, and used nowhere else.

An upgrade of reportlab, pydyf, pypdf, Typer, WeasyPrint or Ray that drops one fails here with a message
naming the library, the tested version and the missing name; and a module outside forge/core/compat
that reaches into one of those libraries' privates fails ``test_no_module_outside_compat_...``.
"""
from __future__ import annotations

import ast
import importlib
import io
from pathlib import Path

import pytest

from forge.core.compat import MissingInternal

FORGE = Path(__file__).resolve().parents[2] / "forge"
COMPAT = FORGE / "core" / "compat"
LIBRARIES = ("reportlab", "pydyf", "pypdf", "typer", "click", "weasyprint", "ray")
MODULES = ("reportlab", "pydyf", "pypdf", "typer", "weasyprint", "ray")


@pytest.mark.parametrize("name", MODULES)
def test_the_internals_forge_relies_on_are_present(name):
    importlib.import_module(f"forge.core.compat.{name}").check()


def _missing(monkeypatch, name: str) -> None:
    """Take away one internal of library ``name``, as an upgrade might."""
    if name == "reportlab":
        from reportlab.pdfgen import canvas

        monkeypatch.delattr(canvas, "_buildColorFunction")
    elif name == "pydyf":
        from forge.core.compat import pydyf

        monkeypatch.setattr(pydyf, "to_bytes", pydyf._missing)
    elif name == "pypdf":
        from pypdf.generic import StreamObject

        monkeypatch.setattr(StreamObject, "set_data", lambda self, data: setattr(self, "_payload", data))
    elif name == "typer":
        from typer import core

        monkeypatch.delattr(core, "_TyperParameter")
    elif name == "ray":
        from ray._private import ray_constants

        monkeypatch.delattr(ray_constants, "ENABLE_RAY_CLUSTER")
    else:
        from weasyprint.formatting_structure import boxes

        monkeypatch.delattr(boxes, "LineBox")


@pytest.mark.parametrize("name", MODULES)
def test_a_missing_internal_fails_loudly_naming_the_library_and_its_tested_version(name, monkeypatch):
    module = importlib.import_module(f"forge.core.compat.{name}")
    _missing(monkeypatch, name)
    with pytest.raises(MissingInternal) as raised:
        module.check()
    message = str(raised.value)
    assert message.startswith(f"{name} has no ") and f"tested with {name} {module.TESTED}" in message


def _library_privates() -> set[str]:
    """The private names (``_x``, not ``__x__``) of the library objects forge handles, and those compat uses."""
    import pydyf
    import typer.core
    import weasyprint
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DictionaryObject, StreamObject
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(io.BytesIO())
    stream = StreamObject()
    stream.set_data(b"x")
    buffer = io.BytesIO()
    PdfWriter().write(buffer)
    objects = [c, c._doc, pdfdoc.PDFFormXObject(0, 0, 1, 1), pydyf.Stream(), stream, DictionaryObject(),
               PdfReader(buffer), typer.core.TyperOption, weasyprint.Page]  # modules: see ``_touches``
    names = {n for obj in objects for n in [*dir(obj), *getattr(obj, "__dict__", {})]}
    names |= _used_in_compat()
    return {n for n in names if n.startswith("_") and not n.endswith("__")}


def _used_in_compat() -> set[str]:
    names = set()
    for path in COMPAT.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                names.add(node.value)  # getattr(canvas, "_currentMatrix", …)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
                names |= {a.name for a in node.names}
    return names


def _private_module(module: str) -> bool:
    parts = module.split(".")
    return parts[0] in LIBRARIES and any(p.startswith("_") for p in parts[1:])


def _touches(tree: ast.AST, privates: set[str]) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (node.attr in privates or node.attr.startswith("_") and not
                                                 node.attr.endswith("__") and isinstance(node.value, ast.Name)
                                                 and node.value.id in LIBRARIES):
            found.append((node.lineno, f".{node.attr}"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in privates:
            found.append((node.lineno, f"def {node.name} (overrides a library's private method)"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) > 1 \
                and isinstance(node.args[1], ast.Constant) and node.args[1].value in privates:
            found.append((node.lineno, f"{node.func.id}(…, {node.args[1].value!r})"))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if _private_module(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if _private_module(node.module):
                found.append((node.lineno, f"from {node.module} import"))
            elif node.module.split(".")[0] in LIBRARIES:
                found += [(node.lineno, f"from {node.module} import {a.name}") for a in node.names
                          if a.name.startswith("_")]
    return found


def _own_names(tree: ast.AST) -> set[str]:
    """The names a module defines itself (functions, methods, ``self._x = …``): a library's name they
    happen to share is the module's own there (``engine.agents``'s ``_info`` is not pypdf's)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in getattr(node, "targets", None) or [node.target]:
                if isinstance(target, ast.Attribute):
                    names.add(target.attr)
                elif isinstance(target, ast.Name):
                    names.add(target.id)
    return names


def test_no_module_outside_compat_touches_a_librarys_privates():
    privates, known = _library_privates(), _used_in_compat()
    offenders = []
    for path in sorted(FORGE.rglob("*.py")):
        if COMPAT in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, what in _touches(tree, privates - (_own_names(tree) - known)):
            offenders.append(f"{path.relative_to(FORGE.parent)}:{line}: {what}")
    assert offenders == [], "use forge.core.compat instead:\n" + "\n".join(offenders)


def test_the_guard_finds_what_it_is_for():
    privates = _library_privates()
    bad = ast.parse("import typer._click\nfrom reportlab.pdfgen.canvas import _normalizeColors\n"
                    "x = canvas._code\ny = getattr(doc, '_pdfVersion')\nz = pydyf._to_bytes(1)\n"
                    "class C:\n    def _setFillAlpha(self, v): pass\n")
    assert sorted(line for line, _ in _touches(bad, privates)) == [1, 2, 3, 4, 5, 7]
