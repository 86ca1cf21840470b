"""Every printed card resolves, by construction.

For each card, ``prove_cards`` builds hand-made positions in which the card is
played, summoned, activated, destroyed, reaches the end of a turn, sees its
trigger's event, or (for a Rite) is owned, and drives the engine through it with
a scripted chooser. Each position is run twice: with every threshold of the card
met, and with every threshold missed. A line that raises, is never read, or is
read against its threshold becomes a ``ProofFailure`` naming the card, the
section and the line index.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..carddb.model import Card, CardDatabase, Keywords
from ..carddb.vocabulary import FACTIONS, EffectLine
from .actions import Action
from .builder import build
from .game import Game
from .state import State
from .tasks import DRAIN, IDLE_WINDOWS, MAIN, MAIN_OFFERED, Armed, Lines

#: Cards every proof position uses, added to the database under test.
_PROOF_CARDS = [
    Card(id="__proof-creature", type="creature", set="recruit", factions=("red",), cost=1,
         name={"en": "Proof creature", "fr": "Créature de preuve"}),
    Card(id="__proof-spell", type="spell", set="recruit", factions=("red",), cost=1,
         name={"en": "Proof spell", "fr": "Magie de preuve"}),
    Card(id="__proof-trap", type="trap", set="recruit", factions=("red",), cost=1,
         name={"en": "Proof trap", "fr": "Piège de preuve"}),
    Card(id="__proof-soul", type="soul", set="recruit", factions=(), cost=1,
         name={"en": "Proof soul", "fr": "Âme de preuve"}),
]
_FILL = ["__proof-soul", "__proof-spell", "__proof-creature", "__proof-trap"]
_MAX_STEPS = 2_000


@dataclass(frozen=True)
class ProofFailure:
    """A line of a card that did not resolve as printed."""

    card_id: str
    section: str  # effects | activate | demise | end_of_turn | triggers
    index: int  # the line's index in its section (triggers: counted across all triggers)
    message: str
    path: tuple = ()  # where the line sits in the card's YAML mapping, e.g. ("triggers", 1, "effects", 0)


@dataclass
class CardProof:
    """The outcome of proving one card: ok when every line resolved in every position."""

    card_id: str
    failures: list[ProofFailure] = field(default_factory=list)
    positions: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures


def prove_cards(db: CardDatabase) -> list[CardProof]:
    """Prove every card of ``db`` (in database order)."""
    proof_db = CardDatabase(factions=list(db.factions), cards=list(db.cards) + _PROOF_CARDS)
    game = Game(proof_db, turn_cap=10_000, decision_cap=10_000_000)
    return [prove_card(game, card) for card in db.cards]


def prove_card(game: Game, card: Card) -> CardProof:
    proof = CardProof(card.id)
    for met in (True, False):
        for section, runner in _runners(card):
            expected = _expected_lines(card, section)
            if not expected:
                continue
            proof.positions += 1
            try:
                state = runner(game, card, met)
            except _Stuck as exc:
                proof.failures.append(ProofFailure(card.id, section, exc.index, str(exc)))
                continue
            except Exception as exc:  # every failure is reported, not raised
                index = _current_line()
                proof.failures.append(ProofFailure(card.id, section, index,
                                                   f"{type(exc).__name__}: {exc} (thresholds {'met' if met else 'missed'})"))
                continue
            proof.failures += _check_coverage(card, section, expected, state.cov or {}, met)
    # De-duplicate (a broken line fails the same way in both positions).
    seen, unique = set(), []
    for f in proof.failures:
        key = (f.section, f.index, f.message.split(" (thresholds")[0])
        if key not in seen:
            seen.add(key)
            unique.append(f)
    proof.failures = [ProofFailure(f.card_id, f.section, f.index, f.message, _yaml_path(card, f.section, f.index))
                      for f in unique]
    return proof


def _yaml_path(card: Card, section: str, index: int) -> tuple:
    """The card-file path of a line: (section, index), or (triggers, k, effects, j) for a trigger line."""
    if index < 0:
        return (section,)
    if section != "triggers":
        return (section, index)
    for k, t in enumerate(card.triggers):
        if index < len(t.lines):
            return ("triggers", k, "effects", index)
        index -= len(t.lines)
    return ("triggers",)


def _expected_lines(card: Card, section: str) -> list[tuple[int, EffectLine]]:
    if section == "triggers":
        return list(enumerate(ln for t in card.triggers for ln in t.lines))
    return list(enumerate(getattr(card, section)))


def _check_coverage(card: Card, section: str, expected, cov: dict, met: bool) -> list[ProofFailure]:
    out = []
    for i, ln in expected:
        key = ("line", card.id, section, i)
        if ln.threshold is None or (ln.verb == "sacrifice" and section in ("effects", "activate")):
            if not cov.get(key + ("resolved",)) and not cov.get(key + ("met",)):
                out.append(ProofFailure(card.id, section, i, f"line `{ln.verb}` was never resolved"))
        elif met:
            if not cov.get(key + ("met",)):
                out.append(ProofFailure(card.id, section, i,
                                        f"conditional line `{ln.verb}` did not resolve with its threshold met"))
        elif not cov.get(key + ("not_met",)) and _can_miss(card, ln) and not _gains_allegiance(card):
            out.append(ProofFailure(card.id, section, i,
                                    f"conditional line `{ln.verb}` was not skipped with its threshold missed"))
    return out


def _gains_allegiance(card: Card) -> bool:
    """Allegiance gained while the card resolves may meet a threshold on the way (Chains 6)."""
    return any(ln.verb == "allegiance" for _, ln in card.all_lines())


def _can_miss(card: Card, ln: EffectLine) -> bool:
    """A threshold at or below the card's own requirement can never be missed when it is played."""
    return ln.threshold.n > card.allegiance.get(ln.threshold.faction, 0)


# -- positions ------------------------------------------------------------------------------

def _allegiance(card: Card, met: bool) -> dict[str, int]:
    al = {f: 0 for f in FACTIONS}
    for f, n in card.allegiance.items():
        al[f] = max(al[f], n)
    if met:
        for _, ln in card.all_lines():
            if ln.threshold:
                al[ln.threshold.faction] = max(al[ln.threshold.faction], ln.threshold.n)
    if card.faction and al[card.faction] == 0:
        al[card.faction] = 1
    return al


def _player(card: Card, met: bool, **extra) -> dict:
    spec = dict(faction=card.faction or "red", allegiance=_allegiance(card, met),
                hand=["__proof-soul", "__proof-spell"], deck=list(_FILL) * 3,
                discard=list(_FILL), field=["__proof-creature", "__proof-creature"], essence=2)
    spec.update(extra)
    return spec


def _opponent(card: Card, **extra) -> dict:
    faction = next(f for f in FACTIONS if f != (card.faction or "red"))
    spec = dict(faction=faction, allegiance={faction: 1}, hand=["__proof-soul", "__proof-spell", "__proof-creature"],
                deck=list(_FILL) * 3, discard=list(_FILL), field=["__proof-creature"] * 3)
    spec.update(extra)
    return spec


_CURRENT: list[State] = []


def _position(game: Game, card: Card, met: bool, me: dict, opp: dict, active: int = 0) -> State:
    _CURRENT.clear()
    _CURRENT.append(build(game, players=[_player(card, met, **me), _opponent(card, **opp)], active=active,
                 exile=["__proof-creature", "__proof-spell"], row=["__proof-soul"] * 8, start=None))
    return _CURRENT[0]


def _start(state: State, stack: list) -> State:
    state.phase = "strategy"
    state.stack = stack
    state._advance()
    return state


def _run_played(game: Game, card: Card, met: bool) -> State:
    """A Soul or spell played from hand, or a trap sprung in the opponent's turn."""
    if card.type == "trap":
        return _run_trap(game, card, met)
    s = _position(game, card, met, {"hand": [card.id, "__proof-soul", "__proof-spell"]}, {})
    s = _start(s, [MAIN])
    _drive(s, first=Action("play", s.hand[0][0]))
    return s


def _run_trap(game: Game, card: Card, met: bool) -> State:
    s = _position(game, card, met, {"hand": ["__proof-soul"]}, {}, active=1)
    # Player 0 holds the trap during player 1's turn.
    trap = s.new_card(game.cards.by_id[card.id], 0)
    s.hand[0].insert(0, trap)
    game.ensure_actions(len(s.defs))
    kind = card.trap.kind if card.trap else "none"
    s = _start(s, [MAIN_OFFERED])  # the idle window already offered
    if kind == "when":
        # The opponent's event happens; the window opens with the trap as a candidate.
        event = card.trap.event or "cast"
        ref = _event_ref(s, event, actor=1)
        s.pending = -1
        s._ft = False
        s._fire(event, 1, ref, 0 if event == "destroy" else -1)
        s._when = [w for w in s._when if w.cid == trap] or [Armed(trap, s.stamp[trap], ref)]
        s._advance()
        _drive(s, first=Action("trap", trap, 0))
    else:
        s.pending = -1
        s.stack.append(IDLE_WINDOWS[0])
        s._advance()
        _drive(s, first=Action("trap", trap))
        if kind == "each_time":
            _fire_and_drain(s, card.trap.event or "cast", actor=1, owner=0)
    return s


def _event_ref(s: State, event: str, actor: int) -> tuple:
    if event in ("summon", "activate"):
        # Another creature than the card under proof: a creature does not see its own summon.
        c = s.field[actor][-1] if s.field[actor] else -1
        return (c, s.stamp[c] if c >= 0 else 0)
    if event == "destroy":
        return (s.discard[1 - actor][0] if s.discard[1 - actor] else -1, 0)
    if event in ("cast", "play_soul", "buy"):
        return (s.discard[actor][0] if s.discard[actor] else -1, 0)
    return (-1, 0)


def _fire_and_drain(s: State, event: str, actor: int, owner: int) -> None:
    """Make ``actor`` cause ``event`` (nothing else resolving), then resolve what waits."""
    if s.terminal:
        return
    s.pending = -1
    s.options = []
    s._ft = False
    victim = owner if event == "destroy" else -1
    s._fire(event, actor, _event_ref(s, event, actor), victim)
    s._when.clear()
    s.stack.append(DRAIN)
    s._advance()
    _drive(s)


def _run_activate(game: Game, card: Card, met: bool) -> State:
    s = _position(game, card, met, {"field": [card.id, "__proof-creature", "__proof-creature"]}, {})
    s = _start(s, [MAIN_OFFERED])
    _drive(s, first=Action("activate", s.field[0][0]))
    return s


def _run_summon_and_demise(game: Game, card: Card, met: bool) -> State:
    s = _position(game, card, met, {"field": [card.id, "__proof-creature"]}, {})
    s = _start(s, [MAIN_OFFERED])
    s.pending = -1
    s._ft = False
    s.stack.append(DRAIN)
    s._destroy(s.field[0][0], 1)  # destroyed by the opponent's effect: its Demise waits
    s._advance()
    _drive(s)
    return s


def _run_end_of_turn(game: Game, card: Card, met: bool) -> State:
    me = {"rite": card.id} if card.type == "rite" else {"field": [card.id]}
    s = _position(game, card, met, me, {})
    s = _start(s, [MAIN_OFFERED])
    _drive(s, first=Action("end"), until_turn_ends=True)
    return s


def _run_triggers(game: Game, card: Card, met: bool) -> State:
    me = {"rite": card.id} if card.type == "rite" else {"field": [card.id, "__proof-creature"]}
    s = _position(game, card, met, me, {"field": ["__proof-creature"] * 3})
    s = _start(s, [MAIN_OFFERED])
    for t in card.triggers:
        actor = 0 if t.actor == "you" else 1
        _fire_and_drain(s, t.event, actor=actor, owner=0)
    return s


def _runners(card: Card):
    if card.type in ("soul", "spell", "trap"):
        yield "effects", _run_played
    if card.type == "creature":
        yield "activate", _run_activate
        yield "demise", _run_summon_and_demise
    if card.type in ("creature", "rite"):
        yield "end_of_turn", _run_end_of_turn
        yield "triggers", _run_triggers


# -- the scripted chooser --------------------------------------------------------------------

class _Stuck(RuntimeError):
    def __init__(self, msg: str, index: int = -1) -> None:
        super().__init__(msg)
        self.index = index


def _choose(state: State) -> Action:
    """Do things: say yes, pick targets, pass trap windows and Guards, keep nothing."""
    opts = state.options
    kind = state.decision_kind()
    if kind.startswith("window") or kind == "guard":
        return next(o for o in opts if o.kind == "pass")
    if kind == "pick:keep":
        return next((o for o in opts if o.kind == "stop"), opts[0])
    for o in opts:
        if o.kind in ("yes", "pick", "faction", "order"):
            return o
    return opts[0]


def _drive(state: State, first: Action | None = None, until_turn_ends: bool = False) -> None:
    """Apply ``first``, then choose until the position is back at a main decision."""
    if first is not None and not state.terminal:
        if first not in state.options:
            # Pass any window in front of the action first.
            _drive(state)
        state.apply(first)
    turn = state.turn
    for _ in range(_MAX_STEPS):
        if state.terminal:
            return
        if state.decision_kind() == "main" and (not until_turn_ends or state.turn != turn):
            return
        state.apply(_choose(state))
    raise _Stuck(f"the position did not settle after {_MAX_STEPS} decisions")


def _current_line() -> int:
    """The index of the line being resolved in the last position, if any."""
    if not _CURRENT:
        return -1
    for task in reversed(_CURRENT[0].stack):
        if type(task) is Lines and task.at > 0:
            return task.lines[task.at - 1].index
    return -1


__all__ = ["CardProof", "Keywords", "ProofFailure", "prove_card", "prove_cards"]
