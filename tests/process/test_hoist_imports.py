"""scripts/hoist_imports.py: an import stays inside a function only when it keeps a library out (issue 26 §2)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from ..conftest import REPO


def _script():
    spec = importlib.util.spec_from_file_location("hoist_imports", REPO / "scripts" / "hoist_imports.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["hoist_imports"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small forge: a light module, a heavy one (it imports jinja2), and a user of both."""
    package = tmp_path / "forge"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("")
    (package / "core" / "light.py").write_text('"""Light."""\nimport json\n\n\ndef dump(x):\n    return json.dumps(x)\n')
    (package / "core" / "heavy.py").write_text('"""Heavy."""\nimport jinja2\n\n\nENV = jinja2.Environment()\n')
    (package / "core" / "user.py").write_text(
        '"""User."""\nfrom __future__ import annotations\n\nimport os\n\nfrom .light import dump\n\n\n'
        "def a():\n"
        "    from .light import dump as again\n"
        "    import re\n"
        "\n"
        "    return again(re.escape(os.sep))\n\n\n"
        "def b():\n"
        '    """Render."""\n'
        "    from .heavy import ENV\n\n"
        "    return ENV\n\n\n"
        "def c():\n"
        "    try:\n"
        "        import ray\n"
        "    except ImportError:\n"
        "        return None\n"
        "    return ray\n\n\n"
        "def d():\n"
        "    from .light import dump\n\n"
        "    return dump\n"
    )
    return tmp_path


def test_light_imports_are_hoisted_heavy_ones_kept_with_their_reason(tree: Path, capsys):
    hoist = _script()

    assert hoist.main(["--root", str(tree)]) == 0

    text = (tree / "forge" / "core" / "user.py").read_text()
    header, _, body = text.partition("\n\n\ndef a")
    assert "import re\n" in header
    assert header.endswith("from .light import dump, dump as again")
    assert "import re" not in body and "from .light" not in body
    assert "    from .heavy import ENV  # lazy: loads jinja2 only when needed\n" in body
    assert "        import ray  # lazy: an optional extra, imported when used\n" in body
    assert "def a():\n    return again(" in text  # the body does not open on a blank line
    assert 'def b():\n    """Render."""\n    from .heavy' in text
    compile(text, "user.py", "exec")


def test_a_second_run_changes_nothing_and_check_passes(tree: Path, capsys):
    hoist = _script()
    hoist.main(["--root", str(tree)])
    before = (tree / "forge" / "core" / "user.py").read_text()

    assert hoist.main(["--root", str(tree), "--check"]) == 0
    assert hoist.main(["--root", str(tree)]) == 0
    assert (tree / "forge" / "core" / "user.py").read_text() == before


def test_check_fails_on_an_unjustified_lazy_import(tree: Path, capsys):
    hoist = _script()

    assert hoist.main(["--root", str(tree), "--check"]) == 1
    assert "forge/core/user.py: an import inside a function is not justified" in capsys.readouterr().out


def test_an_import_that_would_close_a_cycle_is_left_for_a_person(tree: Path, capsys):
    core = tree / "forge" / "core"
    (core / "light.py").write_text('"""Light."""\nfrom .user import a\n')
    (core / "user.py").write_text('"""User."""\n\n\ndef a():\n    from .light import a as same\n\n    return same\n')
    hoist = _script()

    hoist.main(["--root", str(tree)])

    assert "ask: from .light import a as same  (hoisting would close an import cycle)" in capsys.readouterr().out
    assert "    from .light import a as same\n" in (core / "user.py").read_text()


def test_the_shipped_forge_has_no_unjustified_lazy_import():
    """Every import inside a function of forge keeps a library out of its module's import, and says which."""
    assert _script().main(["--root", str(REPO), "--check"]) == 0
