"""Before and after a change: the same N games on both card databases, and what moved (``forge diff --simulate``).

Game ``i`` has the same seed, the same ordered pairing and the same agents' seeds on
both sides (common random numbers), so the two runs differ only by the change and by
what it sets in motion. Each faction's (pairing's, seat's) outcome is then a pair per
game, and its change is measured on the pairs: McNemar's test and Newcombe's paired
interval, far tighter than comparing two independent batches. A change is called
significant after Holm's correction over every rate compared.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from ..core.escape import markdown_text
from ..carddb.model import CardDatabase
from ..carddb.vocabulary import FACTIONS
from .analysis import length_summary
from .stats import difference, holm, paired_difference, wilson


@dataclass
class Paired:
    """Per rate (a faction, a pairing, the first seat): counts of (won before, won after) over games."""

    pairs: dict[str, Counter] = field(default_factory=dict)

    def add(self, key: str, before: bool, after: bool) -> None:
        self.pairs.setdefault(key, Counter())[(before, after)] += 1

    def difference(self, key: str):
        c = self.pairs.get(key, Counter())
        return paired_difference(c[(True, True)], c[(True, False)], c[(False, True)], c[(False, False)])


@dataclass
class Comparison:
    """Both sides' reports (forge.sim.simulate.Report) and the paired rates."""

    before: object
    after: object
    paired: Paired
    compared: int = 0  # games decided on both sides: the pairs


def _keys() -> list[str]:
    from .simulate import PAIRINGS  # lazy: loads forge.engine only when needed

    return list(FACTIONS) + [f"{a}-{b}" for a, b in PAIRINGS] + ["first seat"]


def simulate_both(before: CardDatabase, after: CardDatabase, settings,
                  progress: Callable[[int], None] | None = None) -> Comparison:
    """Play the same games on both databases (forge.sim.simulate.Settings) and pair their outcomes.

    The sides run one after the other (one worker pool at a time); the first side keeps one byte
    per game (its winner), so memory stays small for large N."""
    from .simulate import Report, play_games  # lazy: loads forge.engine only when needed

    reports = (Report(settings), Report(settings))
    paired = Paired()
    comparison = Comparison(reports[0], reports[1], paired)
    winners = bytearray()
    for old in play_games(before, settings, progress):
        reports[0].add(old)
        winners.append(2 if old.winner is None else old.winner)
    for new in play_games(after, settings, progress):
        reports[1].add(new)
        old_winner = winners[new.index]
        if old_winner == 2 or new.winner is None:
            continue  # a failed or capped game on either side has no pair
        comparison.compared += 1
        for seat, faction in enumerate(new.factions):
            paired.add(faction, old_winner == seat, new.winner == seat)
        paired.add(f"{new.factions[0]}-{new.factions[1]}", old_winner == 0, new.winner == 0)
        paired.add("first seat", old_winner == 0, new.winner == 0)
    return comparison


def moved(comparison: Comparison, db_before: CardDatabase, db_after: CardDatabase,
          cards: list[str] | None = None) -> dict:
    """What moved, as data: every paired rate with its change and Holm-corrected significance, the
    game length, and for the ``cards`` named (the changed ones) their purchase and use rates."""
    keys = _keys()
    diffs = [comparison.paired.difference(k) for k in keys]
    flags = holm([d.p_value for d in diffs])
    rates = {k: {**d.to_json(), "significant": flag} for k, d, flag in zip(keys, diffs, flags)}
    out = {
        "games": comparison.before.games, "compared": comparison.compared,
        "errors": [len(comparison.before.errors), len(comparison.after.errors)],
        "capped": [len(comparison.before.capped), len(comparison.after.capped)],
        "factions": {k: rates[k] for k in FACTIONS},
        "pairings": {k: rates[k] for k in keys if "-" in k},
        "first_seat": rates["first seat"],
        "lengths": [length_summary(comparison.before.lengths), length_summary(comparison.after.lengths)],
        "cards": {},
    }
    sets = {c.id: c.set for c in db_before.cards} | {c.id: c.set for c in db_after.cards}
    for card in cards or []:
        if card in sets:
            uses = ("bought", "in_hand") if sets[card] == "recruit" else ("in_hand",)
            out["cards"][card] = {use: _card_use(comparison, card, use) for use in uses}
    return out


def _card_use(comparison: Comparison, card: str, use: str) -> dict:
    """A card's use rate per player-game on both sides (unpaired: who uses it is not a matched pair)."""
    sides = []
    for report in (comparison.before, comparison.after):
        tally = report.cards
        sides.append(wilson(tally.used[use][card], tally.player_games))
    return difference(sides[1], sides[0]).to_json()


# -- reporting ----------------------------------------------------------------------------------

def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def _pts(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:+.1f}".replace("-", "−")


def _change(d: dict) -> str:
    if d["value"] is None:
        return "–"
    return f"{_pts(d['value'])} [{_pts(d['low'])}, {_pts(d['high'])}]"


def _rows(result: dict, names: dict[str, str]) -> list[tuple[str, dict]]:
    rows = [(names.get(f, f), d) for f, d in result["factions"].items()]
    rows.append(("first seat", result["first_seat"]))
    rows += [("{} (first) vs {}".format(*(names.get(f, f) for f in k.split("-"))), d)
             for k, d in result["pairings"].items()]
    return rows


def _intro(result: dict, settings: dict) -> str:
    return (f"{result['games']} games a side ({settings['agents']} agents, seed {settings['seed']}), the same seeds "
            f"before and after; {result['compared']} pairs of decided games compared. Changes in points with "
            f"their 95 % paired interval (Newcombe); significant after Holm's correction over "
            f"{len(result['factions']) + len(result['pairings']) + 1} rates.")


def render_text(result: dict, settings: dict, changes: list[str], names: dict[str, str]) -> str:
    """For people in a terminal: each rate before → after, its change, and whether it is significant."""
    out = ["simulated: " + _intro(result, settings)]
    out += [f"  change: {c}" for c in changes]
    for label, d in _rows(result, names):
        flag = "  significant" if d["significant"] else ""
        out.append(f"  {label:<40} {_pct(d['before']['value']):>7} → {_pct(d['after']['value']):>7}  "
                   f"{_change(d)}{flag}")
    (b, a) = result["lengths"]
    out.append(f"  median game turns: {b['median']} → {a['median']}")
    for card, uses in result["cards"].items():
        for use, d in uses.items():
            out.append(f"  {card} {use.replace('_', ' ')}: {_pct(d['b']['value'])} → {_pct(d['a']['value'])} "
                       f"of player-games, {_change(d)}")
    if any(result["errors"]) or any(result["capped"]):
        out.append(f"  failed games before/after: {result['errors']}; capped: {result['capped']}")
    return "\n".join(out)


def render_markdown(result: dict, settings: dict, changes: list[str], names: dict[str, str]) -> str:
    """For a pull-request comment: the changes, then one table of every rate before and after."""
    out = ["### Simulated balance", "", _intro(result, settings), ""]
    out += [f"- {markdown_text(c)}" for c in changes] + ([""] if changes else [])
    out += ["| | before | after | change, points | |", "|---|---:|---:|---:|---|"]
    for label, d in _rows(result, names):
        out.append(f"| {markdown_text(label)} | {_pct(d['before']['value'])} | {_pct(d['after']['value'])} | "
                   f"{_change(d)} | {'**significant**' if d['significant'] else ''} |")
    (b, a) = result["lengths"]
    out += ["", f"Median game: {b['median']} → {a['median']} turns (both players')."]
    if result["cards"]:
        out += ["", "| changed card | use | before | after | change, points |", "|---|---|---:|---:|---:|"]
        for card, uses in result["cards"].items():
            for use, d in uses.items():
                out.append(f"| {markdown_text(card)} | {use.replace('_', ' ')} | {_pct(d['b']['value'])} | "
                           f"{_pct(d['a']['value'])} | {_change(d)} |")
    if any(result["errors"]) or any(result["capped"]):
        out += ["", f"Failed games before/after: {result['errors']}; capped: {result['capped']}."]
    return "\n".join(out) + "\n"
