"""The private internals of third-party libraries that forge relies on, one module per library.

reportlab, pydyf, pypdf, Typer, WeasyPrint and Ray give forge no public way to do some of what it
needs (a canvas's content operators, a PDF object's bytes, Typer's value coercion, a laid-out
page's boxes, Ray's reading of its multi-machine switch). Each use of a private name is here, and only here, so that an upgrade that
renames one breaks one module and its test (``tests/core/test_compat.py``), with a message that
names the library, the tested versions and the missing name, not a traceback deep in a render.
``tests/core/test_compat.py`` also checks that no module outside this package touches them.
"""
from __future__ import annotations


class MissingInternal(ImportError):
    """A private name forge relies on is gone from the installed library (a version forge was not tested with)."""

    def __init__(self, library: str, name: str, tested: str):
        super().__init__(f"{library} has no {name}: forge relies on it and was tested with {library} {tested}; "
                         f"install a tested version (see constraints.txt) or update forge.core.compat")
        self.library, self.name, self.tested = library, name, tested
