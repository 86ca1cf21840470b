"""Proportions with their uncertainty: Wilson intervals, differences (Newcombe), and honest significance.

A win rate from 120 games is not a number but a range. Every figure forge reports
comes with its sample size and a 95 % interval. A difference is called
significant only when its interval excludes zero after correcting for how many
differences were tested at once (Holm's method): 64 cards tested at 5 % would
otherwise flag about three by chance alone.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95 % quantile of the normal distribution


@dataclass(frozen=True)
class Rate:
    """``k`` successes out of ``n``, its value and its Wilson 95 % interval."""

    k: int
    n: int
    value: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict:
        r = lambda x: None if x is None else round(x, 4)
        return {"k": self.k, "n": self.n, "value": r(self.value), "low": r(self.low), "high": r(self.high)}

    def text(self) -> str:
        if self.value is None:
            return "– (n=0)"
        return f"{100 * self.value:.1f}% [{100 * self.low:.1f}–{100 * self.high:.1f}] (n={self.n})"


def wilson(k: int, n: int, z: float = Z95) -> Rate:
    """The Wilson score interval: right near 0 % and 100 % and for small ``n``, where the usual ± is not."""
    if n <= 0:
        return Rate(k, n, None, None, None)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Rate(k, n, p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Difference:
    """``a - b`` of two independent rates, its 95 % interval (Newcombe's hybrid score) and p-value."""

    a: Rate
    b: Rate
    value: float | None
    low: float | None
    high: float | None
    p_value: float | None
    significant: bool = False  # set after the multiple-comparison correction

    def to_json(self) -> dict:
        r = lambda x: None if x is None else round(x, 4)
        return {"a": self.a.to_json(), "b": self.b.to_json(), "value": r(self.value), "low": r(self.low),
                "high": r(self.high), "p_value": r(self.p_value), "significant": self.significant}


def difference(a: Rate, b: Rate) -> Difference:
    if a.value is None or b.value is None:
        return Difference(a, b, None, None, None, None)
    d = a.value - b.value
    low = d - math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    high = d + math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    return Difference(a, b, d, low, high, two_proportion_p(a.k, a.n, b.k, b.n))


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float | None:
    """The two-sided p-value of the pooled two-proportion z test."""
    if not n1 or not n2:
        return None
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return math.erfc(abs(z) / math.sqrt(2))


def one_proportion_p(k: int, n: int, p0: float = 0.5) -> float | None:
    """The two-sided p-value that ``k`` of ``n`` comes from a rate of ``p0`` (normal approximation)."""
    if not n:
        return None
    se = math.sqrt(p0 * (1 - p0) / n)
    return math.erfc(abs(k / n - p0) / se / math.sqrt(2))


def holm(p_values: list[float | None], alpha: float = 0.05) -> list[bool]:
    """Which of the tests are significant at ``alpha`` overall (Holm–Bonferroni step-down)."""
    ranked = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    significant = [False] * len(p_values)
    m = len(ranked)
    for rank, (p, i) in enumerate(ranked):
        if p > alpha / (m - rank):
            break
        significant[i] = True
    return significant


@dataclass(frozen=True)
class PairedDifference:
    """``after - before`` of one rate measured twice on the same units (the same games, seeds matched).

    ``both``, ``lost`` (before only), ``gained`` (after only) and ``neither`` count the units; the
    interval is Newcombe's (1998, method 10) for paired proportions and the p-value McNemar's. Common
    random numbers make most pairs agree, so the interval is far narrower than two independent ones.
    """

    before: Rate
    after: Rate
    both: int
    lost: int
    gained: int
    neither: int
    value: float | None
    low: float | None
    high: float | None
    p_value: float | None
    significant: bool = False

    def to_json(self) -> dict:
        r = lambda x: None if x is None else round(x, 4)
        return {"before": self.before.to_json(), "after": self.after.to_json(),
                "pairs": {"both": self.both, "before_only": self.lost, "after_only": self.gained,
                          "neither": self.neither},
                "value": r(self.value), "low": r(self.low), "high": r(self.high), "p_value": r(self.p_value),
                "significant": self.significant}


def paired_difference(both: int, lost: int, gained: int, neither: int) -> PairedDifference:
    """The change of a rate between two paired measurements, with its 95 % interval and McNemar p-value."""
    n = both + lost + gained + neither
    before, after = wilson(both + lost, n), wilson(both + gained, n)
    if not n:
        return PairedDifference(before, after, both, lost, gained, neither, None, None, None, None)
    p1, p2 = before.value, after.value
    d = p2 - p1
    denom = (both + lost) * (gained + neither) * (both + gained) * (lost + neither)
    phi = (both * neither - lost * gained) / math.sqrt(denom) if denom else 0.0
    dl2, du2 = p2 - after.low, after.high - p2
    dl1, du1 = p1 - before.low, before.high - p1
    low = d - math.sqrt(max(0.0, dl2 ** 2 - 2 * phi * dl2 * du1 + du1 ** 2))
    high = d + math.sqrt(max(0.0, du2 ** 2 - 2 * phi * du2 * dl1 + dl1 ** 2))
    discordant = lost + gained
    p = 1.0 if not discordant else math.erfc(abs(gained - lost) / math.sqrt(discordant) / math.sqrt(2))
    return PairedDifference(before, after, both, lost, gained, neither, d, max(-1.0, low), min(1.0, high), p)
