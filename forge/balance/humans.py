"""The games people played (``forge play``'s records) read into the balance lab's report, by its code path.

Each record is replayed by the engine with coverage on, as ``forge simulate`` plays a game, and
becomes the same ``GameOutcome`` added to the same ``Report``: every figure of the balance report
(win rates, per-card effects, lengths, endings) comes out of ``forge.sim.simulate.to_json`` and its
Wilson intervals unchanged. What only people's games have is the seats: per card, how often the
human seats bought it against the AI seats of the same games, each with its interval, their
difference with its interval and Holm's correction (``card_effects`` over each side's tally).

A record still being played (no closing line) is left out and counted; a damaged one is a finding
at its file and line, never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
import io
import json

from ..engine import Game
from ..engine.record import HINT_CUT, RecordError, Replayer
from ..core.findings import Finding
from ..core.limits import MAX_DECISION_CAP, MAX_TURN_CAP
from ..carddb.model import CardDatabase, Position
from ..core.safeio import UnsafeInput, open_regular
from ..sim.analysis import CardTally, HealthTrack, card_effects, ending, length_summary
from ..sim.stats import difference, holm, wilson
from ..sim.simulate import GameOutcome, Report, Settings

#: A seat a person played (forge.play.session.HUMAN): the record's header names it in ``agents``.
HUMAN = "human"
#: The largest record read (a game of 20,000 decisions is well under it), and its header line.
MAX_RECORD_BYTES = 64 * 1024 * 1024
MAX_HEADER_BYTES = 4096


@dataclass
class Played:
    """The people's games of a folder: the simulate report over them, and the seats' own tallies."""

    report: object  # forge.sim.simulate.Report
    humans: CardTally = field(default_factory=CardTally)
    machines: CardTally = field(default_factory=CardTally)
    unfinished: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


class _CoveredGame(Game):
    """A game whose states count coverage (the per-player uses the balance lab reads), as simulate's do."""

    def new_state(self, *args, **kwargs):
        kwargs["coverage"] = True
        return super().new_state(*args, **kwargs)


def read_played(folder: Path, db: CardDatabase, rel: str) -> Played:
    """Every ``*.jsonl`` record in ``folder`` (``rel``: how findings name it), in name order."""
    played = Played(Report(Settings(games=0, agents=HUMAN, check=False)))
    games: dict[tuple[int, int], Game] = {}
    for index, path in enumerate(sorted(folder.glob("*.jsonl"))):
        where = f"{rel}/{path.name}"
        try:
            with open_regular(path, MAX_RECORD_BYTES) as fh:
                data = fh.read(MAX_RECORD_BYTES + 1)
        except (OSError, UnsafeInput) as exc:
            played.findings.append(Finding(Position(where, 1, 1), "record", f"cannot be read: {exc}",
                                           "a record is a forge play game file (JSON lines)"))
            continue
        outcome = _replay(data, db, games, index)
        if isinstance(outcome, RecordError):
            if outcome.hint == HINT_CUT and outcome.line > 1:
                played.unfinished.append(path.name)  # a game still being played: no closing line yet
            else:
                played.findings.append(Finding(Position(where, outcome.line, 1), outcome.rule, outcome.message,
                                               outcome.hint))
            continue
        o, seats = outcome
        played.report.add(GameOutcome(**o))
        if o["winner"] is not None and o["capped"] is None and HUMAN in seats:
            for tally, side in ((played.humans, HUMAN), (played.machines, None)):
                players = tuple(p for p in (0, 1) if (seats[p] == HUMAN) == (side == HUMAN))
                if players:
                    tally.add_game(o["coverage"], o["winner"], players)
    played.report.settings.games = played.report.games
    return played


def _replay(data: bytes, db: CardDatabase, games: dict, index: int):
    """One record replayed with coverage: (GameOutcome's fields, the seats), or the RecordError."""
    first = data.split(b"\n", 1)[0]
    try:  # the header is read first for its caps (the game to replay it with): small, flat, caps in range
        head = json.loads(first) if len(first) <= MAX_HEADER_BYTES else None
        caps = (head["turn_cap"], head["decision_cap"])
        if not (type(caps[0]) is int and 1 <= caps[0] <= MAX_TURN_CAP
                and type(caps[1]) is int and 1 <= caps[1] <= MAX_DECISION_CAP):
            raise ValueError(caps)
    except (ValueError, KeyError, TypeError, RecursionError):
        return RecordError(1, "the first line is not a record's header (with its turn and decision caps)",
                           rule="record")
    if caps not in games:
        games[caps] = _CoveredGame(db, turn_cap=caps[0], decision_cap=caps[1])
    rep, track = Replayer(games[caps]), None
    try:
        for _ in rep.lines(io.BytesIO(data), MAX_RECORD_BYTES):
            if track is None:
                track = HealthTrack(rep.state)
            else:
                track(rep.state)
    except RecordError as exc:
        return exc
    s = rep.state
    return {"index": index, "seed": head["seed"], "factions": tuple(head["factions"]), "winner": s.winner,
            "turns": s.turn, "decisions": s.decisions, "capped": s.capped, "coverage": s.cov or {},
            "ending": ending(s.winner, s.capped, s.lost_in), "health": track.finish(s),
            "no_cards": any(not s.deck[p] and not s.discard[p] for p in (0, 1)),
            "market_empty": not s.recruit}, tuple(head.get("agents") or ("", ""))


def human_figures(played: Played, db: CardDatabase) -> dict:
    """Per card: how often the human seats and the AI seats bought it, the human seats' win difference
    when they did, and the human-minus-AI purchase difference (Holm over the cards); the game lengths."""
    ids = [c.id for c in db.cards]
    buyable = {c.id for c in db.of_set("recruit")}
    human = {e["card"]: e for e in card_effects(played.humans, ids, buyable)}
    machine = {e["card"]: e for e in card_effects(played.machines, ids, buyable)}
    h, m = played.humans, played.machines
    gaps = {c: difference(wilson(h.used["bought"][c], h.player_games), wilson(m.used["bought"][c], m.player_games))
            for c in ids}
    flags = holm([d.p_value if h.player_games >= 10 and m.player_games >= 10 else None for d in gaps.values()])
    cards = []
    for (c, gap), flag in zip(gaps.items(), flags):
        if c not in buyable:
            continue
        cards.append({"card": c, "human_bought": human[c]["rate"]["bought"], "ai_bought": machine[c]["rate"]["bought"],
                      "human_win_diff": human[c]["bought"], "bought_diff": {**gap.to_json(), "significant": flag}})
    only = [c["card"] for c in cards if h.used["bought"][c["card"]] and not m.used["bought"][c["card"]]]
    return {"games": played.report.games, "human_player_games": h.player_games, "human_wins": h.player_wins,
            "human_win_rate": wilson(h.player_wins, h.player_games).to_json(),
            "unfinished": played.unfinished, "cards": cards, "humans_only": only,
            "lengths": length_summary(played.report.lengths)}


def render_humans(figures: dict) -> str:
    """``human_figures`` for people: the human seats' record, the cards bought differently from the AI."""
    def rate(r: dict) -> str:
        return "-" if r["value"] is None else f"{100 * r['value']:.1f}% [{100 * r['low']:.1f}-{100 * r['high']:.1f}] n={r['n']}"

    unfinished = f" ({len(figures['unfinished'])} unfinished left out)" if figures["unfinished"] else ""
    out = [f"people against the AI: {figures['games']} games{unfinished}",
           f"  human seats win {rate(figures['human_win_rate'])}",
           (f"  game length (turns): median {figures['lengths']['median']}, "
            f"quartiles {figures['lengths']['q1']}-{figures['lengths']['q3']}")]
    if figures["humans_only"]:
        out.append("  bought by people, never by the AI: " + ", ".join(figures["humans_only"]))
    gaps = sorted((c for c in figures["cards"] if c["bought_diff"]["value"]),
                  key=lambda c: -abs(c["bought_diff"]["value"]))
    out.append("  purchase rate, people vs the AI (largest differences):")
    for c in gaps[:10]:
        d = c["bought_diff"]
        out.append(f"    {c['card']:<24} {rate(c['human_bought'])} vs {rate(c['ai_bought'])}: "
                   f"{100 * d['value']:+.1f} points [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]"
                   + (" significant" if d["significant"] else ""))
    return "\n".join(out)
