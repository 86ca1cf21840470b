"""Game records: JSON lines (header, decisions and events, result), replay, readable logs.

A record is everything needed to replay a game: the header says how the game was
dealt (seed, factions, first player, variant, caps), the decisions are replayed
in order, and the result carries a digest of the final state that the replay
must reproduce.
"""
from __future__ import annotations

import hashlib
import json

from ..model import CardDatabase
from ..vocabulary import FACTIONS
from .actions import Action
from .game import Game
from .phrases import FACTION_NAMES, PHRASES, phrase
from .state import State

FORMAT = "rift-commanders-record"
VERSION = 1

#: Fields of each logged event, in order; a field named "card" is a card instance.
FIELDS: dict[str, tuple[str, ...]] = {
    "setup": ("f0", "f1", "first", "expert"),
    "turn": ("turn", "player"),
    "poison_damage": ("player", "n"),
    "essence": ("player", "n"),
    "play": ("player", "card"),
    "summon": ("player", "card"),
    "activate": ("player", "card"),
    "buy": ("player", "card", "n"),
    "trap": ("player", "card"),
    "allegiance": ("player", "faction", "n"),
    "wound": ("player", "target", "n"),
    "prevented": ("player", "n"),
    "guard": ("player", "card", "n"),
    "poison": ("player", "n"),
    "draw": ("player", "n"),
    "reshuffle": ("player", "n"),
    "discard": ("player", "card"),
    "destroy": ("player", "card"),
    "exile": ("player", "card"),
    "bounce": ("player", "card"),
    "rift": ("player", "card"),
    "recover": ("player", "card"),
    "exhaust": ("player", "card"),
    "keep": ("player", "n", "m"),
    "shield": ("player",),
    "protect": ("player",),
    "skip": ("player", "line"),
    "rite": ("player", "rite"),
    "set_aside": ("player", "card"),
    "win": ("player",),
    "capped": ("reason",),
    "decision": ("player", "action"),
}


class ReplayMismatch(AssertionError):
    """A replayed record did not reach the recorded final state."""


def digest(state: State) -> str:
    """A fingerprint of everything a game state holds (zones, counters, owners, outcome)."""
    data = [state.turn, state.active, state.health, state.poison, state.essence, state.alleg,
            state.deck, state.hand, state.discard, state.field, state.played, state.recruit,
            state.row, state.exile, state.owner, state.exhausted,
            [r.id if r else None for r in state.rite_of], state.winner, state.capped, state.decisions]
    return hashlib.sha256(json.dumps(data, separators=(",", ":")).encode()).hexdigest()[:32]


def event_json(state: State, entry: tuple) -> dict:
    """One logged event as a JSON object."""
    kind = entry[0]
    out: dict = {"t": "decision" if kind == "decision" else "event"}
    if kind != "decision":
        out["e"] = kind
    for name, value in zip(FIELDS.get(kind, ()), entry[1:]):
        if name == "card":
            out["card"] = state.defs[value].id
            out["cid"] = value
        elif name == "action":
            out["action"] = value.to_json()
        elif name == "line":
            out["card"], out["section"], out["index"] = value.card_id, value.section, value.index
        else:
            out[name] = value
    return out


def header(state: State, agents: tuple[str, str] = ("", "")) -> dict:
    return {"t": "header", "format": FORMAT, "version": VERSION, "seed": state.seed,
            "factions": list(state.factions), "first": state.first, "expert": state.expert,
            "turn_cap": state.game.turn_cap, "decision_cap": state.game.decision_cap,
            "agents": list(agents)}


def result(state: State) -> dict:
    return {"t": "result", "winner": state.winner, "capped": state.capped, "turns": state.turn,
            "decisions": state.decisions, "health": list(state.health), "digest": digest(state)}


def make_record(state: State, agents: tuple[str, str] = ("", ""), error: str | None = None) -> list[dict]:
    """The record of a game played with ``log=True``."""
    if state.log is None:
        raise ValueError("the state was not created with log=True")
    lines = [header(state, agents)]
    lines += [event_json(state, e) for e in state.log]
    res = result(state)
    if error:
        res["error"] = error
    lines.append(res)
    return lines


def to_jsonl(lines: list[dict]) -> str:
    return "".join(json.dumps(x, ensure_ascii=False, separators=(",", ":")) + "\n" for x in lines)


def from_jsonl(text: str) -> list[dict]:
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def replay(db_or_game: CardDatabase | Game, lines: list[dict], check: bool = True) -> State:
    """Deal the recorded game again and apply its decisions; the final state must match."""
    head = lines[0]
    if head.get("t") != "header" or head.get("format") != FORMAT:
        raise ValueError("not a Rift Commanders game record (no header line)")
    game = db_or_game if isinstance(db_or_game, Game) else \
        Game(db_or_game, turn_cap=head["turn_cap"], decision_cap=head["decision_cap"])
    state = game.new_state(head["seed"], tuple(head["factions"]), first=head["first"],
                           expert=head["expert"], log=True)
    for x in lines:
        if x.get("t") == "decision":
            if state.terminal:
                break
            state.apply(Action.from_json(x["action"]))
    if check:
        res = next((x for x in lines if x.get("t") == "result"), None)
        if res is not None and "error" not in res and res["digest"] != digest(state):
            raise ReplayMismatch(f"replay reached {digest(state)}, the record says {res['digest']}")
    return state


def render(lines: list[dict], db: CardDatabase, lang: str = "en", decisions: bool = False) -> list[str]:
    """A human-readable log of a record, in English or French; ``decisions`` adds each raw decision."""
    table = PHRASES[lang]
    names = {c.id: c.name.get(lang) or c.id for c in db.cards}
    fnames = FACTION_NAMES[lang]

    def who(p) -> str:
        return table["player"].format(n=int(p) + 1)

    out = []
    for x in lines:
        t = x.get("t")
        if t == "header":
            continue
        if t == "result":
            continue
        if t == "decision" and not decisions:
            continue
        kind = "decision" if t == "decision" else x["e"]
        if kind == "setup":
            out.append(table["setup"].format(
                p0=who(0), p1=who(1), f0=fnames.get(x["f0"], x["f0"]), f1=fnames.get(x["f1"], x["f1"]),
                first=who(x["first"]), expert=table["expert"] if x["expert"] else ""))
            continue
        args = dict(x)
        if "player" in x:
            args["player"] = who(x["player"])
        if "target" in x:
            args["target"] = who(x["target"])
        if "card" in x:
            args["card"] = names.get(x["card"], x["card"])
        if "rite" in x:
            args["card"] = names.get(x["rite"], x["rite"])
        if "faction" in x:
            f = FACTIONS[x["faction"]]
            args["faction"] = fnames.get(f, f)
        if "action" in x:
            args["action"] = " ".join(str(v) for v in x["action"] if v != -1)
        out.append(phrase(table[kind], **args))
    return out
