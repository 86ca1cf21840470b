"""Is a card file's data valid against the card schema? A yes/no answer, compiled once into closures.

Importing jsonschema and walking the schema with it is the larger part of a ``forge validate``
on a valid project; a valid file needs no error detail. So ``database.check_schema`` asks this
check first, and asks jsonschema (for its errors, their paths and its best match among
branches) only for data this check does not pass: the findings are jsonschema's either way.

The compiler knows the keywords forge's schema uses, with jsonschema's meaning (Draft 2020-12,
forge's integer that is no float and no bool; ``_keywords.py`` of jsonschema 4). A keyword or a
value it does not know makes ``compile_schema`` raise ``Unsupported``, and every file goes to
jsonschema; so does a value it cannot judge exactly the way jsonschema does (``Undecided``: a
list of non-texts under ``uniqueItems``; a structure too deep to walk).
"""
from __future__ import annotations

import re
from numbers import Number
from typing import Callable

Check = Callable[[object], bool]

#: Keywords that say nothing about validity (annotations), as for jsonschema.
ANNOTATIONS = frozenset({"$schema", "$comment", "title", "description", "examples", "default", "$defs"})


class Unsupported(Exception):
    """The schema uses a keyword, or a form of one, this compiler does not implement."""


class Undecided(Exception):
    """This value is not one the check can judge exactly as jsonschema does; ask jsonschema."""


def _is_number(x) -> bool:
    return isinstance(x, Number) and not isinstance(x, bool)


#: JSON Schema's types as jsonschema checks them; forge's integer is a Python int, never a bool or a float.
TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": _is_number,
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
}


def compile_schema(schema: dict) -> Check:
    """A function that tells whether a value is valid against ``schema`` (raises Undecided when unsure)."""
    refs: dict[str, Check] = {}

    def resolve(ref: str) -> Check:
        if ref in refs:
            return refs[ref]
        if not ref.startswith("#/$defs/") or "/" in ref[len("#/$defs/"):] or "~" in ref:
            raise Unsupported(f"$ref {ref!r}")
        target = schema.get("$defs", {}).get(ref[len("#/$defs/"):])
        if target is None:
            raise Unsupported(f"$ref {ref!r} names nothing")
        slot: list[Check] = []
        refs[ref] = lambda x: slot[0](x)  # a reference to itself (a recursive definition) waits for the slot
        slot.append(build(target))
        return refs[ref]

    def build(node) -> Check:
        if node is True:
            return lambda x: True
        if node is False:
            return lambda x: False
        if not isinstance(node, dict):
            raise Unsupported(f"schema {node!r}")
        checks = [_keyword(key, value, node, build, resolve) for key, value in node.items()
                  if key not in ANNOTATIONS and key not in ("then", "else") and not (key == "$id" and node is schema)]
        checks = [c for c in checks if c is not None]
        if len(checks) == 1:
            return checks[0]
        return lambda x: all(c(x) for c in checks)

    return build(schema)


def _keyword(key: str, value, node: dict, build, resolve) -> Check | None:
    """One keyword's check (None when it constrains nothing by itself, like ``then``)."""
    if key == "type":
        names = value if isinstance(value, list) else [value]
        if not names or any(n not in TYPES for n in names):
            raise Unsupported(f"type {value!r}")
        tests = [TYPES[n] for n in names]
        return tests[0] if len(tests) == 1 else (lambda x: any(t(x) for t in tests))
    if key == "enum":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise Unsupported("enum of values other than texts")
        choices = frozenset(value)
        return lambda x: isinstance(x, str) and x in choices
    if key == "const":
        if isinstance(value, str):
            return lambda x: isinstance(x, str) and x == value
        if value is True or value is False or value is None:
            return lambda x: x is value
        raise Unsupported(f"const {value!r}")
    if key == "properties":
        props = [(name, build(sub)) for name, sub in value.items()]
        return lambda x: not isinstance(x, dict) or all(c(x[n]) for n, c in props if n in x)
    if key == "additionalProperties":
        if "patternProperties" in node:
            raise Unsupported("patternProperties")
        known = frozenset(node.get("properties", {}))
        extra = build(value)
        return lambda x: not isinstance(x, dict) or all(extra(x[k]) for k in x if k not in known)
    if key == "required":
        names = list(value)
        return lambda x: not isinstance(x, dict) or all(n in x for n in names)
    if key in ("minProperties", "maxProperties", "minItems", "maxItems", "minLength"):
        return _size(key, value)
    if key == "items":
        if "prefixItems" in node:
            raise Unsupported("prefixItems")
        each = build(value)
        return lambda x: not isinstance(x, list) or all(each(v) for v in x)
    if key == "contains":
        if "minContains" in node or "maxContains" in node:
            raise Unsupported("minContains / maxContains")
        some = build(value)
        return lambda x: not isinstance(x, list) or any(some(v) for v in x)
    if key == "uniqueItems":
        return _unique if value else None
    if key in ("minimum", "maximum"):
        if not _is_number(value):
            raise Unsupported(f"{key} {value!r}")
        if key == "minimum":
            return lambda x: not _is_number(x) or not x < value
        return lambda x: not _is_number(x) or not x > value
    if key == "pattern":
        regex = re.compile(value)
        return lambda x: not isinstance(x, str) or regex.search(x) is not None
    if key in ("allOf", "anyOf", "oneOf"):
        subs = [build(s) for s in value]
        if key == "allOf":
            return lambda x: all(s(x) for s in subs)
        if key == "anyOf":
            return lambda x: any(s(x) for s in subs)
        return lambda x: sum(1 for s in subs if s(x)) == 1
    if key == "not":
        sub = build(value)
        return lambda x: not sub(x)
    if key == "if":
        test = build(value)
        then = build(node["then"]) if "then" in node else None
        else_ = build(node["else"]) if "else" in node else None
        return lambda x: (then is None or then(x)) if test(x) else (else_ is None or else_(x))
    if key == "$ref":
        return resolve(value)
    raise Unsupported(f"keyword {key!r}")


def _size(key: str, limit) -> Check:
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise Unsupported(f"{key} {limit!r}")
    kind = {"minProperties": dict, "maxProperties": dict, "minItems": list, "maxItems": list, "minLength": str}[key]
    if key.startswith("min"):
        return lambda x: not isinstance(x, kind) or len(x) >= limit
    return lambda x: not isinstance(x, kind) or len(x) <= limit


def _unique(x) -> bool:
    """uniqueItems for a list of texts (what forge's schema lists); anything else is jsonschema's to judge."""
    if not isinstance(x, list):
        return True
    if not all(isinstance(v, str) for v in x):
        raise Undecided("uniqueItems over values other than texts")
    return len(set(x)) == len(x)


def is_valid(check: Check, data) -> bool | None:
    """The check's verdict, or None when it cannot say (Undecided, or a structure too deep to walk)."""
    try:
        return check(data)
    except (Undecided, RecursionError):
        return None
