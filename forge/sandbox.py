"""The one way forge makes a Jinja environment: the immutable sandbox, autoescaped, with bounded arithmetic.

Templates (the books' prose, styles and layout) may come from a pull request and
are rendered in CI. A plain ``jinja2.Environment`` lets
``{{ cycler.__init__.__globals__.os.popen('id').read() }}`` run a shell command;
the sandbox refuses attribute paths into Python internals, the immutable one also
refuses calls that would change the data handed to the template, and the
intercepted operators stop ``'x' * 10**12`` or ``9 ** 9 ** 9`` from eating the
machine. Every value is escaped unless a helper returned ``Markup``.
"""
from __future__ import annotations

import operator
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

#: The longest string or list a template may build with ``*``, and the largest integer it may make with ``**``.
MAX_REPEAT = 1_000_000
MAX_POWER_BITS = 4096


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox, with ``*`` and ``**`` refused when their result would be huge."""

    intercepted_binops = frozenset(["*", "**"])

    def call_binop(self, context, operator_name: str, left: Any, right: Any) -> Any:
        if operator_name == "**":
            if _is_int(left) and _is_int(right):
                if right > 0 and abs(left) > 1 and right * max(1, abs(left).bit_length()) > MAX_POWER_BITS:
                    raise SecurityError(f"`{left} ** {right}` is too large for a template")
            elif isinstance(left, (int, float)) and isinstance(right, (int, float)) and abs(right) > MAX_POWER_BITS:
                raise SecurityError(f"`{left} ** {right}` is too large for a template")
            return operator.pow(left, right)
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, (str, bytes, list, tuple)) and _is_int(count) and len(seq) * count > MAX_REPEAT:
                raise SecurityError(f"a template may not build a sequence of more than {MAX_REPEAT:,} items")
        return operator.mul(left, right)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def environment(loader: jinja2.BaseLoader, **options: Any) -> jinja2.Environment:
    """A sandboxed, autoescaping environment; ``options`` are Jinja's (undefined, trim_blocks…)."""
    options.setdefault("autoescape", True)
    if options["autoescape"] is not True:
        raise ValueError("forge's templates are always autoescaped")
    return BoundedSandbox(loader=loader, **options)


#: Exceptions a hostile or broken template raises while rendering, that become findings.
TEMPLATE_ERRORS = (jinja2.TemplateError, SecurityError, OverflowError, MemoryError, RecursionError)
