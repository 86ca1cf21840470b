"""Game records: JSON lines (header, decisions and events, result, closing line), replay.

A record is everything needed to replay a game: the header says how the game was
dealt (seed, factions, first player, variant, caps), the decisions are replayed
in order, the events are what the replay must log, the result carries a digest
of the final state the replay must reproduce, and the closing line
``{"t":"end","lines":N,"sha256":H}`` counts and hashes the N lines before it.

Why a closing line, when the result line already comes last: a record cut short
at a line boundary just before the result, or between its events, is still a
well-formed record of a shorter game; the result's digest catches that only when
it is checked, and it is not for a failed game's record (its state is the broken
one). The count and hash catch truncation, removed or edited lines in every
record, and say so before anything is trusted.

Records are read in one streaming pass (``Replayer.lines``): each line is parsed,
checked against the card database, replayed and handed on, so memory stays
bounded however long the file is. Every problem is a ``RecordError`` at a line.

Version 2 (the closing line) refuses version 1 records instead of reading them
with a warning: a v1 record cannot be told apart from a truncated one, and
records are output (``forge simulate --save-replays`` writes them again from the
seed), not hand-kept sources, so nothing is lost by refusing them.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import BinaryIO, Iterator

from ..carddb.model import CardDatabase
from ..carddb.vocabulary import FACTIONS
from .actions import Action
from .game import Game
from .state import State

FORMAT = "rift-commanders-record"
VERSION = 2
#: A record line is at most a few hundred bytes; a longer one is refused before it is held.
MAX_LINE_BYTES = 1 << 20
#: Caps a header may ask for: far above any real game, far below a record nobody can replay.
from ..core.limits import MAX_DECISION_CAP, MAX_TURN_CAP  # part of this module's API
#: Why a game was stopped short (``capped``'s reason): the cap it reached.
CAP_REASONS = ("turns", "decisions")
#: Bound of every count in an event (cards drawn, damage, essence...).
MAX_COUNT = 1_000_000

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
    "resolve": ("player", "line"),  # a card's line is read: the events up to the next one are its effects
    "rite": ("player", "rite"),
    "set_aside": ("player", "card"),
    "win": ("player",),
    "capped": ("reason",),
    "decision": ("player", "action"),
}

_JSON_NAMES = {"card": ("card", "cid"), "line": ("card", "section", "index")}
#: The JSON keys of each event kind (and of a decision), as event_json writes them.
KEYS: dict[str, tuple[str, ...]] = {
    kind: ("t",) + (() if kind == "decision" else ("e",))
    + tuple(k for name in names for k in _JSON_NAMES.get(name, (name,)))
    for kind, names in FIELDS.items()}
HEADER_KEYS = ("t", "format", "version", "seed", "factions", "first", "expert", "turn_cap",
               "decision_cap", "agents")
RESULT_KEYS = ("t", "winner", "capped", "turns", "decisions", "health", "digest")
END_KEYS = ("t", "lines", "sha256")

HINT_DAMAGED = ("the record was edited or damaged after forge wrote it; the `forge simulate --save-replays` "
                "run that wrote it writes it again")
HINT_NOT_RECORD = "is this a game record? forge simulate writes them under output/replays/"
HINT_CUT = "the file was cut short (an interrupted copy or a full disk?); copy or write it again"
HINT_ENGINE = "the rules engine fails on a legal decision: that is the bug this record keeps; fix it and replay"
_WORD = re.compile(r"[a-z_]{1,24}")


class RecordError(ValueError):
    """A record that cannot be replayed, at a 1-based ``line``.

    ``rule`` is ``record`` when the record is malformed, damaged or disagrees with
    its replay, and ``replay`` when the rules engine itself fails on a legal decision.
    """

    def __init__(self, line: int, message: str, hint: str = HINT_DAMAGED, rule: str = "record"):
        super().__init__(f"line {line}: {message}")
        self.line, self.message, self.hint, self.rule = line, message, hint, rule


class ReplayMismatch(RecordError):
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
    """The record of a game played with ``log=True`` (``to_jsonl`` adds the closing line)."""
    if state.log is None:
        raise ValueError("the state was not created with log=True")
    lines = [header(state, agents)]
    lines += [event_json(state, e) for e in state.log]
    res = result(state)
    if error:
        res["error"] = error
    lines.append(res)
    return lines


def _dumps(x: dict) -> str:
    return json.dumps(x, ensure_ascii=False, separators=(",", ":")) + "\n"


def to_jsonl(lines: list[dict]) -> str:
    """The record as JSON lines, closed by the line that counts and hashes them."""
    if any(x.get("t") == "end" for x in lines):
        raise ValueError("the record already has a closing line")
    body = "".join(_dumps(x) for x in lines)
    end = {"t": "end", "lines": len(lines), "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest()}
    return body + _dumps(end)


# -- reading: framing ---------------------------------------------------------------------

def _show(value, width: int = 60) -> str:
    """A value from a record, quoted and cut short (a record may come from anyone)."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= width else text[:width - 1] + "…"


def _parse(n: int, raw: bytes) -> dict:
    hint = HINT_NOT_RECORD if n == 1 else HINT_DAMAGED
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(n, "not UTF-8 text: this is not a game record line", hint) from None
    if not text.strip():
        raise RecordError(n, "an empty line: a record has one JSON object on every line", hint)
    try:
        x = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(n, f"not a JSON line (column {exc.colno}: {exc.msg})", hint) from None
    except (ValueError, RecursionError) as exc:  # a 5000-digit number, nesting too deep
        raise RecordError(n, f"not a JSON line ({str(exc)[:80] or type(exc).__name__})", hint) from None
    if not isinstance(x, dict):
        raise RecordError(n, f"a record line is a JSON object, this one is {_show(x, 30)}", hint)
    return x


def _check_end(n: int, x: dict, sha: "hashlib._Hash") -> None:
    _exact_keys(n, x, END_KEYS, "the closing line")
    if type(x["lines"]) is not int or type(x["sha256"]) is not str:
        raise RecordError(n, "the closing line's `lines` is a count and its `sha256` a hash")
    if x["lines"] != n - 1:
        raise RecordError(n, f"the closing line counts {_show(x['lines'], 20)} lines before it, the file has "
                          f"{n - 1}: lines were removed or added")
    if x["sha256"] != sha.hexdigest():
        raise RecordError(n, "the lines before the closing line do not match its sha256: the record was altered")


def read_lines(stream: BinaryIO, max_bytes: int | None = None) -> Iterator[tuple[int, dict]]:
    """Each ``(line number, object)`` of a record, the closing line last, checked as they stream.

    Reads one line at a time (at most ``MAX_LINE_BYTES``), so a huge file or line is
    refused without being held. The closing line's count and hash are checked when
    it comes, so the lines before it are handed on before the record is known whole:
    a reader may act on them as they come, but only the end makes its verdict final.
    """
    sha, n, total = hashlib.sha256(), 0, 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            if n == 0:
                raise RecordError(1, "the file is empty: not a game record", HINT_CUT)
            raise RecordError(n + 1, f"the record stops after line {n} without its closing `end` line: "
                              "it was cut short", HINT_CUT)
        n += 1
        total += len(raw)
        if len(raw) > MAX_LINE_BYTES:
            raise RecordError(n, f"the line is longer than {MAX_LINE_BYTES:,} bytes: not a game record line",
                              HINT_NOT_RECORD if n == 1 else HINT_DAMAGED)
        if max_bytes is not None and total > max_bytes:
            raise RecordError(n, f"the record grows past {max_bytes:,} bytes", "is something still writing it?")
        complete = raw.endswith(b"\n")
        try:
            x = _parse(n, raw)
        except RecordError:
            if not complete and raw.startswith(b'{"t":'):  # forge's own line, cut: not someone's garbage
                raise RecordError(n, "the last line stops in the middle: the record was cut short",
                                  HINT_CUT) from None
            raise
        if x.get("t") == "end":
            _check_end(n, x, sha)
            yield n, x
            if stream.read(1):
                raise RecordError(n + 1, "there is more after the closing `end` line")
            return
        if not complete:
            raise RecordError(n, "the last line stops in the middle: the record was cut short", HINT_CUT)
        sha.update(raw)
        yield n, x


class _Bytes:
    """The two reads ``read_lines`` makes, over bytes in memory (the engine imports no ``io``)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def readline(self, limit: int) -> bytes:
        end = self.data.find(b"\n", self.pos, self.pos + limit)
        end = min(len(self.data), self.pos + limit) if end < 0 else end + 1
        line, self.pos = self.data[self.pos:end], end
        return line

    def read(self, n: int) -> bytes:
        chunk, self.pos = self.data[self.pos:self.pos + n], min(len(self.data), self.pos + n)
        return chunk


def _stream(record) -> BinaryIO:
    """A binary stream over a record given as a stream, JSONL text or bytes, or make_record's list."""
    if hasattr(record, "readline"):
        return record
    if isinstance(record, list):
        record = to_jsonl(record)
    if isinstance(record, str):
        record = record.encode("utf-8")
    return _Bytes(bytes(record))


def from_jsonl(text: str | bytes) -> list[dict]:
    """The lines of a small record, framing checked (JSON, closing line), without the closing line.

    Holds the whole record: for tests and tools; ``Replayer.lines`` streams.
    """
    return [x for _, x in read_lines(_stream(text)) if x.get("t") != "end"]


# -- reading: content and replay ------------------------------------------------------------

def _exact_keys(n: int, x: dict, keys: tuple[str, ...], what: str) -> None:
    missing = [k for k in keys if k not in x]
    extra = [k for k in x if k not in keys]
    fields = ", ".join(keys[1:])
    if missing:
        raise RecordError(n, f"{what} lacks the field `{missing[0]}` (its fields: {fields})")
    if extra:
        raise RecordError(n, f"{what} has an unknown field {_show(extra[0], 30)} (its fields: {fields})")


def _is_int(v, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


class Replayer:
    """Checks a record line by line against the card database and replays it as it goes.

    Every line is checked for form (known kinds, exactly the right fields, typed and
    in range, cards that exist); while the replay runs, each event must be the one
    the replay logs and each decision must be legal where it stands. A rules-engine
    failure on a legal decision (the failing game a record was saved for) stops the
    replay but not the reading: the rest is checked and handed on, and the failure
    is raised at the end, once the record is known whole.
    """

    def __init__(self, db_or_game: CardDatabase | Game) -> None:
        self.game = db_or_game if isinstance(db_or_game, Game) else None
        self.db = db_or_game.db if isinstance(db_or_game, Game) else db_or_game
        self.card_ids = {c.id for c in self.db.cards}
        self.state: State | None = None
        self.head: dict | None = None
        self.result: dict | None = None
        self.failure: RecordError | None = None
        self._seen = 0  # engine log entries already matched with record lines
        self._causes: bool | None = None  # the record has `resolve` lines (None: not known yet)

    def lines(self, stream: BinaryIO, max_bytes: int | None = None) -> Iterator[dict]:
        """Each checked line of the record (not the closing one), replayed before it is handed on."""
        for n, x in read_lines(stream, max_bytes):
            t = x.get("t")
            if n == 1:
                self._header(n, x)
            elif t == "header":
                raise RecordError(n, "a second header line")
            elif t == "end":
                if self.result is None:
                    raise RecordError(n, "the record has no result line before its closing line")
                continue
            elif self.result is not None:
                raise RecordError(n, "a second result line" if t == "result" else
                                  "a line after the result line (only the closing line may follow it)")
            elif t == "event":
                self._event(n, x)
            elif t == "decision":
                self._decision(n, x)
            elif t == "result":
                self._result(n, x)
            else:
                raise RecordError(n, f"unknown line type {_show(t, 30)} "
                                  "(a record line is a header, event, decision, result or end)")
            yield x
        if self.failure is not None:
            raise self.failure

    # -- the header ------------------------------------------------------------------------

    def _header(self, n: int, x: dict) -> None:
        if x.get("t") != "header":
            raise RecordError(n, "not a game record: the first line is not its header", HINT_NOT_RECORD)
        if x.get("format") != FORMAT:
            if "format" not in x and isinstance(x.get("error"), str):
                raise RecordError(n, f"the game failed before it was dealt ({_show(x['error'], 200)}): "
                                  "there is nothing to replay", HINT_ENGINE, "replay")
            raise RecordError(n, f"not a Rift Commanders game record (format {_show(x.get('format'), 40)})",
                              HINT_NOT_RECORD)
        if x.get("version") == 1:
            raise RecordError(n, "a version 1 record: it has no closing line, so a truncated one cannot be "
                              "told from a whole one; forge reads version 2 only",
                              "write the record again with `forge simulate --seed S --save-replays`")
        if x.get("version") != VERSION:
            raise RecordError(n, f"record version {_show(x.get('version'), 20)} is not one forge reads "
                              f"(version {VERSION})", "write the record again with this forge")
        _exact_keys(n, x, HEADER_KEYS, "the header")
        f = x["factions"]
        checks = (
            ("seed", _is_int(x["seed"], -(1 << 63), (1 << 64) - 1), "an integer of at most 64 bits"),
            ("factions", isinstance(f, list) and len(f) == 2 and all(isinstance(v, str) and v in FACTIONS
                                                                     for v in f) and f[0] != f[1],
             f"two different factions among {', '.join(FACTIONS)}"),
            ("first", _is_int(x["first"], 0, 1), "0 or 1"),
            ("expert", type(x["expert"]) is bool, "true or false"),
            ("turn_cap", _is_int(x["turn_cap"], 1, MAX_TURN_CAP), f"a count from 1 to {MAX_TURN_CAP:,}"),
            ("decision_cap", _is_int(x["decision_cap"], 1, MAX_DECISION_CAP),
             f"a count from 1 to {MAX_DECISION_CAP:,}"),
            ("agents", isinstance(x["agents"], list) and len(x["agents"]) == 2
             and all(isinstance(a, str) and len(a) <= 40 for a in x["agents"]), "two agent names"))
        for name, ok, want in checks:
            if not ok:
                raise RecordError(n, f"the header's `{name}` must be {want}, not {_show(x[name])}")
        game = self.game or Game(self.db, turn_cap=x["turn_cap"], decision_cap=x["decision_cap"])
        try:
            self.state = game.new_state(x["seed"], (f[0], f[1]), first=x["first"], expert=x["expert"], log=True)
        except Exception as exc:  # an engine bug while dealing is reported, not raised
            raise RecordError(n, f"the rules engine fails dealing this game: {type(exc).__name__}: {exc}",
                              HINT_ENGINE, "replay") from None
        self.head = x

    # -- events and decisions --------------------------------------------------------------

    def _value_ok(self, name: str, v, x: dict) -> tuple[bool, str]:
        """Whether field ``name`` of a line holds a value of the right type and range, and what it wants."""
        if name in ("player", "target", "first"):
            return _is_int(v, 0, 1), "0 or 1"
        if name in ("f0", "f1"):
            return isinstance(v, str) and v in FACTIONS, f"a faction ({', '.join(FACTIONS)})"
        if name == "expert":
            return type(v) is bool, "true or false"
        if name == "turn":
            return _is_int(v, 1, self.state.game.turn_cap + 1), "a turn number within the game's turn cap"
        if name in ("n", "m", "index"):
            return _is_int(v, 0, MAX_COUNT), f"a count from 0 to {MAX_COUNT:,}"
        if name == "faction":
            return _is_int(v, 0, len(FACTIONS) - 1), f"a faction index from 0 to {len(FACTIONS) - 1}"
        if name in ("card", "rite"):
            return isinstance(v, str) and v in self.card_ids, "the id of a card of the database"
        if name == "cid":
            defs = self.state.defs
            if not _is_int(v, 0, len(defs) - 1):
                return False, f"a card instance from 0 to {len(defs) - 1}"
            return defs[v].id == x.get("card"), f"the instance of {_show(x.get('card'), 40)} (it is a {defs[v].id})"
        if name == "section":
            return isinstance(v, str) and bool(_WORD.fullmatch(v)), "the name of a card section"
        if name == "reason":
            return v in CAP_REASONS, " or ".join(CAP_REASONS)
        if name == "action":
            ok = isinstance(v, list) and len(v) == 3 and isinstance(v[0], str) and bool(_WORD.fullmatch(v[0])) \
                and _is_int(v[1], -1, MAX_COUNT) and _is_int(v[2], -1, MAX_COUNT)
            return ok, "[kind, a, b]: a word and two integers from -1"
        return False, "nothing (unknown field)"

    def _check_fields(self, n: int, x: dict, kind: str, what: str) -> None:
        keys = KEYS[kind]
        _exact_keys(n, x, keys, what)
        for name in keys[2 if kind != "decision" else 1:]:
            ok, want = self._value_ok(name, x[name], x)
            if not ok:
                raise RecordError(n, f"`{name}` of {what} must be {want}, not {_show(x[name])}")

    def _replaying(self) -> bool:
        return self.failure is None

    def _next_logged(self, line: dict | None = None) -> dict | None:
        """The replay's next logged event not yet matched with record line ``line``, or None.

        A record written before the engine logged causes has no `resolve` lines: its first line
        where the replay logs one decides, and from then on the replay's are passed over (the
        record still replays to its digest) or required, for the whole record."""
        log = self.state.log
        while self._seen < len(log):
            want = event_json(self.state, log[self._seen])
            if want.get("e") != "resolve" or self._causes or (line or {}).get("e") == "resolve":
                return want
            self._causes = False
            self._seen += 1
        return None

    def _event(self, n: int, x: dict) -> None:
        e = x.get("e")
        if not isinstance(e, str) or e not in FIELDS or e == "decision":
            raise RecordError(n, f"unknown event kind {_show(e, 30)}")
        self._check_fields(n, x, e, f"a `{e}` event")
        if not self._replaying():
            return
        if e == "resolve":
            if self._causes is False:
                raise RecordError(n, "a `resolve` line in a record whose earlier lines leave them out")
            self._causes = True
        want = self._next_logged(x)
        if want is None:
            s = self.state
            waits = "the game is over" if s.terminal else f"it waits for player {s.pending + 1}'s decision"
            raise RecordError(n, f"the replay logs no event here ({waits}); the record says {_show(x, 120)}")
        if want != x:
            raise RecordError(n, f"the replay differs from the record here: the record says {_show(x, 120)}, "
                              f"the replay logs {_show(want, 120)}")
        self._seen += 1

    def _decision(self, n: int, x: dict) -> None:
        self._check_fields(n, x, "decision", "a decision")
        if not self._replaying():
            return
        s = self.state
        want = self._next_logged()
        if want is not None:
            raise RecordError(n, f"the record has a decision where the replay logs {_show(want, 120)}")
        if s.terminal:
            raise RecordError(n, f"a decision after the end of the game (turn {s.turn})")
        action = Action.from_json(x["action"])
        shown = " ".join(str(v) for v in action)
        if x["player"] != s.pending:
            raise RecordError(n, f"the decision `{shown}` is player {x['player'] + 1}'s, but the replay waits "
                              f"for player {s.pending + 1}'s")
        if action not in s.options:
            legal = [" ".join(str(v) for v in o if v != -1) for o in s.options]
            more = f" … ({len(legal) - 20} more)" if len(legal) > 20 else ""
            raise RecordError(n, f"the decision `{shown}` is not legal here ({s.decision_kind()}, turn {s.turn}); "
                              f"legal: {', '.join(legal[:20])}{more}")
        s.log.clear()  # every logged event so far was matched: memory stays bounded
        try:
            s.apply(s.options[s.options.index(action)])  # the engine's own object: the history holds no copies
        except Exception as exc:  # the failing game a record keeps replays up to its failure
            self.failure = RecordError(n, f"the replay stops: the rules engine fails on this decision: "
                                       f"{type(exc).__name__}: {exc}", HINT_ENGINE, "replay")
            return
        self._seen = 1  # the engine logs the decision itself first: the line just checked

    def _result(self, n: int, x: dict) -> None:
        keys = RESULT_KEYS + (("error",) if "error" in x else ())
        _exact_keys(n, x, keys, "the result line")
        h = x["health"]
        checks = (
            ("winner", x["winner"] is None or _is_int(x["winner"], 0, 1), "null, 0 or 1"),
            ("capped", x["capped"] in (None, "turns", "decisions"), "null, turns or decisions"),
            ("turns", _is_int(x["turns"], 0, MAX_TURN_CAP + 1), "a turn count"),
            ("decisions", _is_int(x["decisions"], 0, MAX_DECISION_CAP), "a decision count"),
            ("health", isinstance(h, list) and len(h) == 2 and all(_is_int(v, -MAX_COUNT, MAX_COUNT) for v in h),
             "two integers"),
            ("digest", isinstance(x["digest"], str) and re.fullmatch(r"[0-9a-f]{32}", x["digest"]) is not None,
             "32 hexadecimal digits"),
            ("error", isinstance(x.get("error", ""), str), "a message"))
        for name, ok, want in checks:
            if not ok:
                raise RecordError(n, f"the result's `{name}` must be {want}, not {_show(x[name])}")
        self.result = x
        if not self._replaying() or "error" in x:  # a failed game's state is the broken one: nothing to match
            return
        want = self._next_logged()
        if want is not None:
            raise RecordError(n, f"the record ends early: the replay still logs {_show(want, 120)}")
        s = self.state
        actual = {"winner": s.winner, "capped": s.capped, "turns": s.turn, "decisions": s.decisions,
                  "health": list(s.health), "digest": digest(s)}
        for name, value in actual.items():
            if x[name] != value:
                raise ReplayMismatch(n, f"the replay ends with {name} {_show(value)}, the record's result says "
                                     f"{_show(x[name])}")


def replay(db_or_game: CardDatabase | Game, record, on_line=None) -> State:
    """Deal the recorded game again and apply its decisions; the final state must match.

    ``record``: a binary stream, JSONL text or bytes, or ``make_record``'s list.
    ``on_line`` sees each checked line as it streams. Raises RecordError.
    """
    rep = Replayer(db_or_game)
    for x in rep.lines(_stream(record)):
        if on_line is not None:
            on_line(x)
    return rep.state
