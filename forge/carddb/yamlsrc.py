"""Safe YAML reading that remembers where every value was written.

PyYAML's loaders accept duplicate keys silently and expand aliases without
limit (the "billion laughs" bomb). This module composes the node graph with the
C parser when available, then builds plain Python data itself, so that it can:

- refuse duplicate keys in a mapping,
- bound the number of nodes visited (aliases make a small graph expand into a
  huge tree: we stop counting at ``MAX_NODES`` instead of allocating it),
- record a (line, column) for every path, for ``file:line:col`` findings,
- read values as YAML 1.2 does (``yes``, ``=`` and dates stay text) and refuse
  every other tag, so that hostile input (``!!python/object``, ``!$``, a number
  of a million digits) is a ``YamlError`` at its position, never an exception
  from deep inside PyYAML.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import yaml

from ..core.memo import Memo

try:  # the C parser is ~10x faster; fall back to pure Python where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

#: More nodes than any real card file holds; an alias bomb reaches it at once.
MAX_NODES = 1_000_000

#: Longer numbers are refused before Python converts them: no card needs one, and
#: Python refuses integers past 4,300 digits (and converts base-60 ones in quadratic time).
MAX_NUMBER_CHARS = 100

_TAG = "tag:yaml.org,2002:"
_BOOL, _INT, _FLOAT = _TAG + "bool", _TAG + "int", _TAG + "float"
_YAML12_BOOLS = {"true", "false", "True", "False", "TRUE", "FALSE"}
#: The scalar types of YAML 1.2's core schema: the only ones forge builds.
_CORE_SCALARS = {_TAG + "str", _TAG + "null", _BOOL, _INT, _FLOAT}
#: YAML 1.1 types that YAML 1.2 reads as plain text when written untagged: a date, a bare `=`.
_TEXT_IN_YAML12 = {_TAG + "timestamp", _TAG + "value"}
_COLLECTION_TAGS = {yaml.MappingNode: _TAG + "map", yaml.SequenceNode: _TAG + "seq"}

Path_ = tuple  # a path into the data: keys and list indexes


class YamlError(Exception):
    """A YAML file that cannot be turned into data; carries a 1-based position."""

    def __init__(self, rule: str, message: str, line: int = 0, col: int = 0, hint: str = ""):
        super().__init__(message)
        self.rule, self.message, self.line, self.col, self.hint = rule, message, line, col, hint


@dataclass
class SourceMap:
    """Positions of values (and of keys) by path, 1-based."""

    values: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def at(self, path: Path_, key: bool = False) -> tuple[int, int]:
        """The position of ``path``, or of its nearest ancestor that has one."""
        table = self.keys if key else self.values
        p = tuple(path)
        while p:
            if p in table:
                return table[p]
            if not key and p in self.keys:
                return self.keys[p]
            p = p[:-1]
        return self.values.get((), (1, 1))


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self) -> None:
        self.source = SourceMap()
        self._scalar = yaml.SafeLoader("")  # only used to resolve scalar tags to Python values

    def build(self, node: yaml.Node, path: Path_) -> object:
        self.source.values[path] = _mark(node)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if node.tag != _COLLECTION_TAGS[type(node)]:
                raise _tag_error(node)
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            return [self.build(child, path + (i,)) for i, child in enumerate(node.value)]
        return self._scalar_value(node)

    def _scalar_value(self, node: yaml.ScalarNode) -> object:
        """A scalar as YAML 1.2 reads it; YamlError at the node for anything else."""
        if node.tag in _TEXT_IN_YAML12 and self._implicit(node):
            return node.value
        if node.tag == _BOOL and not node.style and node.value not in _YAML12_BOOLS:
            return node.value  # yes/no/on/off stay text, as in YAML 1.2
        if node.tag not in _CORE_SCALARS:
            raise _tag_error(node)
        if node.tag in (_INT, _FLOAT) and len(node.value) > MAX_NUMBER_CHARS:
            raise YamlError("yaml-number", f"a number of {len(node.value):,} characters "
                            f"(at most {MAX_NUMBER_CHARS} are read)", *_mark(node),
                            "write a shorter number, or quote the value if it is text")
        try:
            return self._scalar.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, TypeError, ArithmeticError, AttributeError):
            kind = node.tag.removeprefix(_TAG)
            raise YamlError("yaml-value", f"cannot read {_excerpt(node.value)} as a YAML {kind}",
                            *_mark(node), "quote the value to make it text, or correct it") from None

    def _implicit(self, node: yaml.ScalarNode) -> bool:
        """Whether an untagged plain scalar was given this tag by YAML 1.1's guessing rules."""
        return not node.style and self._scalar.resolve(yaml.ScalarNode, node.value, (True, False)) == node.tag

    def _mapping(self, node: yaml.MappingNode, path: Path_) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlError("yaml-merge", "merge keys (<<) are not supported in card files",
                                *_mark(key_node), "write the fields out in full")
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError("yaml-key", "a mapping key must be a plain value", *_mark(key_node))
            key = key_node.value  # keys are always text: `on:` must not become True (YAML 1.1)
            if key in out:
                first = self.source.keys[path + (key,)]
                raise YamlError("duplicate-key", f"duplicate key {key!r} (first written at line {first[0]})",
                                *_mark(key_node), "remove or rename one of the two entries")
            self.source.keys[path + (key,)] = _mark(key_node)
            out[key] = self.build(value_node, path + (key,))
        return out


def _tag_error(node: yaml.Node) -> YamlError:
    tag = node.tag.replace(_TAG, "!!")
    return YamlError("yaml-tag", f"the tag `{tag}` is not supported", *_mark(node),
                     "remove the tag: forge reads text, numbers, true/false, null, lists and mappings; "
                     "quote a text that starts with `!`")


def _excerpt(value: str, width: int = 40) -> str:
    return repr(value if len(value) <= width else value[:width] + "…")


def _bad_character(text: str, exc: yaml.reader.ReaderError) -> YamlError:
    """The reader's refusal of a character, with its line and column (the C reader counts bytes)."""
    found = yaml.reader.Reader.NON_PRINTABLE.search(text)
    if found:
        index, char = found.start(), found.group()
    else:  # pragma: no cover - the reader and its own pattern disagree
        index, char = len(text.encode("utf-8")[: exc.position].decode("utf-8", "ignore")), chr(exc.character)
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return YamlError("yaml-character", f"the character U+{ord(char):04X} is not allowed in a YAML file",
                     line, col, "delete it (control characters are invisible in most editors); inside "
                     "double quotes, write it as an escape such as \\t")


#: The texts ``load`` parsed last (each up to 256 KB), their data pickled: a small text whose aliases expand it
#: past 2 MB is parsed each time, not kept.
CACHED_CHARS = 256 * 1024
_parsed: Memo[tuple[bytes, SourceMap]] = Memo(items=64, size_limit=2 * 1024 * 1024, size=lambda kept: len(kept[0]))


def load(text: str) -> tuple[object, SourceMap]:
    """Parse one YAML document into plain data and its source map; raises YamlError.

    A text read before is not parsed again: a run reads the same file from several places (the inventory, the
    database, the phrasebooks), and ``forge watch`` reads every file again after each edit. The caller gets its
    own copy of the data (pickled: copied back in a tenth of a parse's time) and of the map, so that what it
    changes changes nothing for the next caller. A text that does not parse is parsed again each time."""
    if len(text) > CACHED_CHARS:
        return _parse(text)
    kept = _parsed.get(text)
    if kept is None:
        data, source = _parse(text)
        _keep(text, data, source)
        return data, source
    frozen, source = kept
    return pickle.loads(frozen), SourceMap(dict(source.values), dict(source.keys))


def _keep(text: str, data: object, source: SourceMap) -> None:
    try:
        frozen = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    except RecursionError:  # nested deeper than pickle goes: parsed each time
        return
    _parsed.put(text, (frozen, SourceMap(dict(source.values), dict(source.keys))))


def _parse(text: str) -> tuple[object, SourceMap]:
    try:
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as exc:
        raise _bad_character(text, exc) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            problem = f"{problem} ({exc.context})"
        raise YamlError("yaml-syntax", problem, line, col,
                        "check the indentation and quoting near this position") from None
    except yaml.YAMLError as exc:  # pragma: no cover - reader errors without marks
        raise YamlError("yaml-syntax", str(exc)) from None
    if node is None:
        raise YamlError("empty-file", "the file is empty", 1, 1,
                        "add a `cards:` or `factions:` list, or delete the file")
    if "&" in text:  # no anchor, no alias: the graph is the tree the composer built, nothing to expand
        _check_expansion(node)
    builder = _Builder()
    try:
        data = builder.build(node, ())
    except RecursionError:
        raise YamlError("yaml-depth", "the document is nested too deeply", 1, 1) from None
    return data, builder.source


def _check_expansion(root: yaml.Node) -> None:
    """Refuse a graph whose aliases expand it past MAX_NODES, before building anything.

    Sizes are memoised per node, so this is linear in the size of the *graph*
    however large the expanded tree would be: a billion-laughs document is
    refused in microseconds with no memory growth.
    """
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in sizes and sizes[key] >= 0:
            continue
        children = _children(node)
        if not children_done:
            if sizes.get(key) == -1:
                raise YamlError("yaml-aliases", "an alias refers to the node that contains it",
                                *_mark(node), "remove the recursive alias")
            sizes[key] = -1
            stack.append((node, True))
            for child in children:
                if sizes.get(id(child)) == -1:
                    raise YamlError("yaml-aliases", "an alias refers to the node that contains it",
                                    *_mark(child), "remove the recursive alias")
                if id(child) not in sizes:
                    stack.append((child, False))
            continue
        total = 1 + sum(sizes[id(c)] for c in children)
        if total > MAX_NODES:
            raise YamlError("yaml-aliases", f"aliases expand this document past {MAX_NODES:,} values "
                            "(an alias bomb?)", *_mark(node),
                            "remove the anchors (&name) and aliases (*name) that multiply each other")
        sizes[key] = total


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []
