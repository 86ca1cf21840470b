"""Keep an import inside a function only where start-up time needs it, and say so (issue 26 §2).

An import inside a function hides a dependency from the reader and from the top of the file.
It is worth that price in one case: it keeps a third-party library (weasyprint, reportlab,
PIL, ray, ...) out of the import of a module that does not otherwise load it, so that
`forge --help`, `forge check` and every command load only what they use. This script reads
every module of forge and, for each import inside a function:

- keeps it, with a trailing ``# lazy: loads X only when needed`` comment, when importing it at
  the top would make the module load a third-party package it does not load yet (directly or
  through the forge modules it names), or when it is guarded by ``except ImportError`` (an
  optional extra);
- hoists it to the module's top-level imports otherwise (a standard-library module, or a forge
  module that brings nothing new), unless that would close an import cycle or clash with a
  name the module already binds; those are listed, for a person to decide.

It reads the source statically (``ast``), so its answer does not depend on this machine. With
``--check`` it changes nothing and exits 1 when a file would change: a CI gate that keeps every
new lazy import justified. A second run after a sweep changes nothing.
"""
from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

MARK = "# lazy:"


@dataclass
class Module:
    """One forge module: its top-level imports, resolved, and its in-function imports."""

    name: str
    path: Path
    tree: ast.Module
    lines: list[str]
    top_forge: set[str] = field(default_factory=set)
    top_third: set[str] = field(default_factory=set)
    bound: set[str] = field(default_factory=set)


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(mod: Module) -> bool:
    return mod.path.name == "__init__.py"


def resolve(mod: Module, node: ast.ImportFrom | ast.Import, known: dict[str, Module]) -> list[str]:
    """The absolute names an import statement loads: forge modules (with their packages) and third-party roots."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = mod.name.split(".")
        if not is_package(mod):
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    names = [target]
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        if sub in known:
            names.append(sub)
    return names


def with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports that run when the module is imported: module level, inside if/try, not under TYPE_CHECKING."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                found.append(stmt)
            elif isinstance(stmt, ast.If):
                if "TYPE_CHECKING" in ast.unparse(stmt.test):
                    visit(stmt.orelse)
                else:
                    visit(stmt.body)
                    visit(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                for block in (stmt.body, stmt.orelse, stmt.finalbody):
                    visit(block)
                for handler in stmt.handlers:
                    visit(handler.body)

    visit(tree.body)
    return found


def bound_names(tree: ast.Module) -> set[str]:
    """Every name the module binds at its top level (defs, classes, assignments, imports)."""
    names: set[str] = set()
    for stmt in [*tree.body, *top_level_imports(tree)]:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def load(root: Path) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for path in sorted((root / "forge").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = module_name(root, path)
        modules[name] = Module(name, path, ast.parse(text), text.splitlines(keepends=True))
    for mod in modules.values():
        for node in top_level_imports(mod.tree):
            for target in resolve(mod, node, modules):
                _record(mod, target, modules)
        mod.bound = bound_names(mod.tree)
    return modules


def _record(mod: Module, target: str, modules: dict[str, Module]) -> None:
    if target.split(".")[0] == "forge":
        mod.top_forge |= {t for t in with_parents(target) if t in modules}
    elif target.split(".")[0] not in sys.stdlib_module_names and target != "__future__":
        mod.top_third.add(target.split(".")[0])


def closure(start: set[str], modules: dict[str, Module]) -> tuple[set[str], set[str]]:
    """The forge modules and third-party packages that importing ``start`` loads."""
    seen: set[str] = set()
    third: set[str] = set()
    todo = [m for s in start for m in with_parents(s) if m in modules]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        mod = modules[name]
        third |= mod.top_third
        todo.extend(mod.top_forge - seen)
    return seen, third


@dataclass
class Decision:
    mod: Module
    node: ast.Import | ast.ImportFrom
    action: str  # "keep", "hoist" or "ask"
    reason: str


def in_function_imports(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Each import inside a function, with whether an ``except ImportError`` guards it."""
    found: list[tuple[ast.Import | ast.ImportFrom, bool]] = []

    def visit(node: ast.AST, in_func: bool, guarded: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and in_func:
                found.append((child, guarded))
                continue
            func = in_func or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            guard = guarded
            if isinstance(child, ast.Try) and any(
                h.type is not None and "ImportError" in ast.unparse(h.type) for h in child.handlers
            ):
                for stmt in child.body:
                    visit_one(stmt, func, True)
                for rest in (*child.handlers, *child.orelse, *child.finalbody):
                    visit_one(rest, func, guarded)
                continue
            visit(child, func, guard)

    def visit_one(node: ast.AST, in_func: bool, guarded: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and in_func:
            found.append((node, guarded))
        else:
            visit(node, in_func or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)), guarded)

    visit(tree, False, False)
    return found


def decide(modules: dict[str, Module]) -> list[Decision]:
    decisions: list[Decision] = []
    # `forge --help` imports forge.cli and every command's module: their top-level imports are its start-up
    startup, _ = closure({m for m in modules if m == "forge.cli" or m.startswith("forge.commands")}, modules)
    startup_std = {t for name in startup for t in _top_roots(modules[name]) if t in sys.stdlib_module_names}
    for mod in modules.values():
        loaded, third = closure({mod.name}, modules)
        for node, guarded in in_function_imports(mod.tree):
            targets = resolve(mod, node, modules)
            roots = {t.split(".")[0] for t in targets}
            forge_targets = {t for t in targets if t.split(".")[0] == "forge"}
            new_third = roots - set(sys.stdlib_module_names) - {"forge", "__future__"}
            brought, brought_third = closure(forge_targets, modules)
            # a stage of forge (forge.engine, forge.render, ...) is a cost like a library: `forge validate --quick`
            # must not load the rules engine because one of validate's functions uses it
            stages = {_stage(m) for m in brought} - {_stage(m) for m in loaded} - {None}
            extra = sorted((new_third | brought_third) - third) + sorted(stages)
            late = sorted((brought - startup) | (roots & set(sys.stdlib_module_names) - startup_std))
            if guarded:
                decisions.append(Decision(mod, node, "keep", "an optional extra, imported when used"))
            elif extra:
                what = ", ".join(extra[:2]) + (" ..." if len(extra) > 2 else "")
                decisions.append(Decision(mod, node, "keep", f"loads {what} only when needed"))
            elif mod.name in startup and late:
                what = ", ".join(late[:2]) + (" ..." if len(late) > 2 else "")
                decisions.append(Decision(mod, node, "keep", f"keeps {what} out of forge's start-up"))
            elif mod.name in brought:
                decisions.append(Decision(mod, node, "ask", "hoisting would close an import cycle"))
            elif _clashes(mod, node, modules):
                decisions.append(Decision(mod, node, "ask", "a name it binds is bound otherwise at the top"))
            else:
                decisions.append(Decision(mod, node, "hoist", "brings no new library"))
                # later decisions see this import at the top, so two hoists cannot close a cycle together
                for target in targets:
                    _record(mod, target, modules)
    return decisions


def _stage(name: str) -> str | None:
    """The forge package a module belongs to (``forge.engine``), or None for forge itself and forge.cli."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (len(parts) == 2 and name != "forge.cli") else None


def _top_roots(mod: Module) -> set[str]:
    """The top-level names of every module this module imports at its top (standard library included)."""
    roots = set()
    for node in top_level_imports(mod.tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif not node.level and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def _clashes(mod: Module, node: ast.Import | ast.ImportFrom, modules: dict[str, Module]) -> bool:
    """True when the name this import binds is already bound at the top to something else."""
    key = _key(mod, node, modules)
    for alias in node.names:
        bound = (alias.asname or alias.name).split(".")[0]
        if bound not in mod.bound:
            continue
        if not any(_binds_same(mod, top, bound, key, modules) for top in top_level_imports(mod.tree)):
            return True
    return False


def _key(mod: Module, node: ast.Import | ast.ImportFrom, modules: dict[str, Module]) -> str:
    return resolve(mod, node, modules)[0]


def _binds_same(mod: Module, top: ast.Import | ast.ImportFrom, name: str, key: str, modules: dict[str, Module]) -> bool:
    return _key(mod, top, modules) == key and any((a.asname or a.name).split(".")[0] == name for a in top.names)


def apply(mod: Module, decisions: list[Decision]) -> str:
    """The module's new text: kept imports commented, hoisted ones moved into the top-level imports."""
    suffix: dict[int, str] = {}
    prefix: dict[int, str] = {}
    drop: set[int] = set()
    hoisted: list[ast.Import | ast.ImportFrom] = []
    for d in decisions:
        first, last = d.node.lineno - 1, d.node.end_lineno - 1
        text = "".join(mod.lines[first : last + 1])
        if d.action == "hoist" and "#" in text:
            d.action, d.reason = ("keep", "justified by hand") if MARK in text else ("ask", "its line has a comment: decide")
        if d.action == "keep":
            if MARK in text or (first and mod.lines[first - 1].strip().startswith(MARK)):
                continue
            if "#" in mod.lines[last]:
                prefix[first] = f"{_indent(mod.lines[first])}{MARK} {d.reason}\n"
            else:
                suffix[last] = f"  {MARK} {d.reason}"
        elif d.action == "hoist" and ";" not in text and "#" not in text and not _only_statement(mod, d.node):
            drop.update(range(first, last + 1))
            hoisted.append(d.node)
    drop |= _orphan_blanks(mod.lines, drop)
    top_edits, additions = _top_edits(mod, hoisted)
    out: list[str] = []
    for i, line in enumerate(mod.lines):
        if i in drop:
            continue
        if i in prefix:
            out.append(prefix[i])
        if i in top_edits:
            line = top_edits[i]
        if i in suffix:
            line = line.rstrip("\n") + suffix[i] + "\n"
        out.append(line)
        out.extend(additions.get(i, []))
    if -1 in additions:
        out[0:0] = additions[-1]
    return "".join(out)


def _orphan_blanks(lines: list[str], drop: set[int]) -> set[int]:
    """Blank lines that only separated removed imports from the code: a body no longer opens on a blank."""
    orphans = set()
    for i in sorted(drop):
        if i + 1 in drop or i + 1 >= len(lines) or lines[i + 1].strip():
            continue
        j = i
        while j in drop:
            j -= 1
        before = lines[j].rstrip() if j >= 0 else ""
        if before.endswith(":") or before.endswith('"""') or before.endswith("'''"):
            orphans.add(i + 1)
    return orphans


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _only_statement(mod: Module, node: ast.stmt) -> bool:
    """True when removing the import would leave its block empty."""
    for parent in ast.walk(mod.tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(parent, name, None)
            if isinstance(body, list) and any(stmt is node for stmt in body):
                return not [s for s in body if s is not node and not _is_docstring(s)]
    return False


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _source(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> tuple[str, str]:
    if isinstance(node, ast.Import):
        return ("import", alias.name)
    return ("from", "." * node.level + (node.module or ""))


def _spelled(alias: ast.alias) -> str:
    return alias.name + (f" as {alias.asname}" if alias.asname else "")


def _kind(source: str) -> int:
    """0 standard library, 1 third-party, 2 forge: the order of the top-level import blocks."""
    if source.startswith(".") or source.split(".")[0] == "forge":
        return 2
    return 0 if source.split(".")[0] in sys.stdlib_module_names or source == "__future__" else 1


def _top_edits(mod: Module, hoisted: list[ast.Import | ast.ImportFrom]) -> tuple[dict[int, str], dict[int, list[str]]]:
    """How the header's imports change: lines rewritten to take more names, and new lines after an index."""
    header = _header_imports(mod)
    wanted: dict[tuple[str, str], list[str]] = {}
    for node in hoisted:
        for alias in node.names:
            key = _source(node, alias)
            already = any(_source(top, a) == key and _spelled(a) == _spelled(alias) for top in header for a in top.names)
            if not already and _spelled(alias) not in wanted.setdefault(key, []):
                wanted[key].append(_spelled(alias))
    rewritten: dict[int, str] = {}
    additions: dict[int, list[str]] = {}
    for (how, source), names in sorted(wanted.items(), key=lambda kv: (_kind(kv[0][1]), kv[0][1])):
        if not names:
            continue
        if how == "from":
            same = [t for t in header if isinstance(t, ast.ImportFrom) and _source(t, t.names[0]) == ("from", source)
                    and t.lineno == t.end_lineno and "#" not in mod.lines[t.lineno - 1]]
            if same:
                top = same[0]
                merged = [_spelled(a) for a in top.names] + sorted(names)
                rewritten[top.lineno - 1] = f"from {source} import {', '.join(merged)}\n"
                continue
            line = f"from {source} import {', '.join(sorted(names))}\n"
            additions.setdefault(_anchor(mod, header, _kind(source)), []).append(line)
        else:
            lines = [f"import {name}\n" for name in names]
            additions.setdefault(_anchor(mod, header, _kind(source)), []).extend(lines)
    return rewritten, additions


def _header_imports(mod: Module) -> list[ast.Import | ast.ImportFrom]:
    """The module's top-level imports before its first def or class."""
    found = []
    for stmt in mod.tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            break
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            found.append(stmt)
    return found


def _anchor(mod: Module, header: list[ast.Import | ast.ImportFrom], kind: int) -> int:
    """The line index after which an import of ``kind`` goes: after the last header import of its kind or before."""
    best = None
    for top in header:
        source = _source(top, top.names[0])[1]
        if _kind(source) <= kind:
            best = top.end_lineno - 1
    if best is not None:
        return best
    if header:
        return header[0].lineno - 2
    body = mod.tree.body
    return body[0].end_lineno - 1 if body and _is_docstring(body[0]) else -1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when a file would change")
    parser.add_argument("--report", action="store_true", help="print every decision")
    args = parser.parse_args(argv)
    modules = load(args.root)
    decisions = decide(modules)
    by_module: dict[str, list[Decision]] = {}
    for d in decisions:
        by_module.setdefault(d.mod.name, []).append(d)
    changed = []
    for name, ds in sorted(by_module.items()):
        mod = modules[name]
        new = apply(mod, ds)
        if new != "".join(mod.lines):
            changed.append(mod.path)
            if not args.check:
                mod.path.write_text(new, encoding="utf-8")
    counts: dict[tuple[str, str], int] = {}
    for d in decisions:
        counts[(d.action, d.reason)] = counts.get((d.action, d.reason), 0) + 1
        if args.report or d.action == "ask":
            where = f"{d.mod.path.relative_to(args.root)}:{d.node.lineno}"
            print(f"{where}: {d.action}: {ast.unparse(d.node)}  ({d.reason})")
    summary: dict[str, int] = {}
    for (action, _), n in counts.items():
        summary[action] = summary.get(action, 0) + n
    print(", ".join(f"{n} {a}" for a, n in sorted(summary.items())) + f"; {len(changed)} files {'to change' if args.check else 'changed'}")
    if args.check and changed:
        for path in changed:
            print(f"{path.relative_to(args.root)}: an import inside a function is not justified (run scripts/hoist_imports.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
