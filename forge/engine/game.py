"""The game: a compiled card database plus caps; it deals new states (Setup 1-7)."""
from __future__ import annotations

from ..carddb.model import CardDatabase
from ..carddb.vocabulary import FACTIONS
from .actions import Action
from .cards import FACTION_INDEX, CompiledCards
from .rules import HAND_SIZE, ROW_SIZE, SETUP, START_ALLEGIANCE
from .state import State
from .tasks import P_SETASIDE, SETUP_END, TURN, Finish, Pick

DEFAULT_TURN_CAP = 200
DEFAULT_DECISION_CAP = 20_000


class Game:
    """Rift Commanders over one card database (OpenSpiel's ``Game``)."""

    def __init__(self, db: CardDatabase, turn_cap: int = DEFAULT_TURN_CAP,
                 decision_cap: int = DEFAULT_DECISION_CAP) -> None:
        self.db = db
        self.cards = CompiledCards(db)
        self.turn_cap = turn_cap
        self.decision_cap = decision_cap
        self.act_play: list[Action] = []
        self.act_summon: list[Action] = []
        self.act_activate: list[Action] = []
        self.act_pick: list[Action] = []
        self.act_trap: list[Action] = []
        self.act_guard: list[Action] = []
        #: Each card instance's step 6 (``State._push_played``): a task is never changed, so one will do.
        self.finish_tasks: list[Finish] = []
        self.ensure_actions(200)

    def ensure_actions(self, n: int) -> None:
        """Pre-build the per-instance actions of the frequent decisions (no allocation in the hot loop:
        building a named tuple costs more than the rest of posing the decision), and their Finish tasks."""
        for cid in range(len(self.act_play), n):
            self.act_play.append(Action("play", cid))
            self.act_summon.append(Action("summon", cid))
            self.act_activate.append(Action("activate", cid))
            self.act_pick.append(Action("pick", cid))
            self.act_trap.append(Action("trap", cid))
            self.act_guard.append(Action("guard", cid))
            self.finish_tasks.append(Finish(cid))

    def new_state(self, seed: int, factions: tuple[str, str] = ("red", "blue"), first: int | None = 0,
                  expert: bool = False, log: bool = False, coverage: bool = False) -> State:
        """Setup 1-7 (and the expert variant): a state at the first decision."""
        f0, f1 = factions
        if f0 == f1 or f0 not in FACTIONS or f1 not in FACTIONS:
            raise ValueError(f"each player picks a different faction, got {factions!r}")
        s = State(self, seed)
        if log:
            s.log = []
        if coverage:
            s.cov = {}
        s.factions = [f0, f1]
        rng = s.rng
        # 2. Starter decks, shuffled face down.
        for p, f in enumerate((f0, f1)):
            s.deck[p].extend(s.new_cards(self.cards.starter(f), p))
            rng.shuffle(s.deck[p])
            # 3. 40 health, 1 allegiance in your faction, 0 poison.
            s.alleg[p][FACTION_INDEX[f]] = START_ALLEGIANCE
        # 4. The recruitment zone: 80 cards shuffled, 8 revealed.
        s.recruit.extend(s.new_cards(self.cards.recruit(), -1))
        rng.shuffle(s.recruit)
        for slot in range(ROW_SIZE):
            s.row[slot] = s.recruit.pop() if s.recruit else -1
        # 6. The first player.
        if first is None:
            first = rng.randrange(2)
        s.first = s.active = first
        s.expert = expert
        second = 1 - first
        if s.log is not None:
            s.log.append(("setup", f0, f1, first, expert))
        # 7. Draw 3 for the first player, 5 for the second; no mulligan.
        s._draw(first, 3)
        s._draw(second, HAND_SIZE)
        s.bonus[second] = True
        self.ensure_actions(len(s.defs))
        s.phase = SETUP
        if expert:
            s.stack = [SETUP_END,
                       Pick(P_SETASIDE, second, 2, True, (), None, None, False),
                       Pick(P_SETASIDE, first, 2, True, (), None, None, False)]
        else:
            s.stack = [TURN]
        s._advance()
        return s
