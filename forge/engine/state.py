"""The rules of Rift Commanders as a state machine (OpenSpiel-like protocol).

``State`` holds the whole game as plain lists and ints. The work still to do
(the card being read, waiting effects, decisions) is a stack of small tuples, the
*tasks*, so ``clone()`` is a handful of list copies and no generator or closure
ever holds game state. The driver asks ``current_player()`` and
``legal_actions()``, then calls ``apply(action)``; the state runs every automatic
step until the next decision or the end of the game.

Players are 0 and 1. Card instances are ints (indices into ``State.defs``). A
creature's identity on the battlefield is its *stamp*: a card that changes zones
is a new card (rulebook, Creatures), so "that creature" references carry the
stamp they were made with.
"""
from __future__ import annotations

import random

from ..carddb.vocabulary import FACTIONS, MAX_ALLEGIANCE
from .actions import END, NO, PASS, STOP, YES, Action, IllegalDecision
from .cards import CardDef, CompiledCards, Line

MAX_CREATURES = 5
#: Rites a player may own, on their Rite slot: ``_take_rite`` gives none to a player who has one.
RITE_SLOTS = 1
HAND_SIZE = 5
ROW_SIZE = 8
START_HEALTH = 40
#: A duel: players 0 and 1.
PLAYERS = 2
#: Allegiance a commander starts with in their own faction (setup 3); the others start at 0.
START_ALLEGIANCE = 1
#: Cards a player may keep from their hand at cleanup (step 4), the rest is discarded.
KEEP_AT_CLEANUP = 2
#: Soul essence the once-per-turn allegiance raise costs (strategy phase).
RAISE_COST = 1
#: Poison counters removed after poison damage (initiation phase).
POISON_DECAY = 1
NF = len(FACTIONS)

# Phases.
SETUP, INITIATION, STRATEGY, CLEANUP, OVER = "setup", "initiation", "strategy", "cleanup", "over"
#: The three phases of a turn, always in this order (The turn).
TURN_PHASES = (INITIATION, STRATEGY, CLEANUP)
#: The six steps every card played and every ability activated follows, in this order (The six
#: steps): ``_push_played`` stacks them so (the window, the Sacrifice cost, the lines, the finish).
PLAY_STEPS = ("announce", "played", "window", "cost", "resolve", "finish")
#: What meets a Wound effect aimed at you, in this order, before the rest is dealt
#: (Protection against Wounds 1-3): ``_wound`` applies them so.
WOUND_PROTECTION = ("aegis", "divine_shield", "guard")

# Task opcodes (the first item of every task tuple).
(OP_TURN, OP_MAIN, OP_WINDOW, OP_LINES, OP_PICK, OP_MAY, OP_FINISH, OP_DRAIN, OP_CLEANUP,
 OP_CLEANUP2, OP_ENDTURN, OP_GUARD, OP_SETUP_END) = range(13)
OP_NAMES = ("turn", "main", "window", "lines", "pick", "may", "finish", "order", "cleanup",
            "cleanup2", "endturn", "guard", "setup_end")

# Pick purposes.
(P_DESTROY, P_EXILE, P_RIFT, P_RECOVER, P_EXHAUST, P_BOUNCE, P_DISCARD, P_SACRIFICE, P_KEEP,
 P_SETASIDE, P_FACTION) = range(11)
PICK_NAMES = ("destroy", "exile", "rift", "recover", "exhaust", "bounce", "discard", "sacrifice",
              "keep", "set_aside", "allegiance")

# Window kinds.
W_IDLE, W_STEP3, W_WHEN = 0, 1, 2
WINDOW_NAMES = ("idle", "step3", "when")

_PLAYED_SECTIONS = ("effects", "activate")
#: decision_kind's answers, built once.
_PICK_KINDS = tuple("pick:" + name for name in PICK_NAMES)
_WINDOW_KINDS = tuple("window:" + name for name in WINDOW_NAMES)
_FACTION_ACTS = tuple(Action("faction", f) for f in range(NF))
_RAISE_ACTS = tuple(Action("raise", f) for f in range(NF))
_BUY_ACTS = tuple(Action("buy", s) for s in range(ROW_SIZE))


class _GameOver(Exception):
    """Raised the moment a commander reaches 0: everything left is ignored (GP 8)."""


class State:
    """One game in progress. Build it with ``Game.new_state`` or ``forge.engine.builder``."""

    # -- construction -----------------------------------------------------------------

    def __init__(self, game, seed: int) -> None:
        self.game = game
        self.cards: CompiledCards = game.cards
        self.seed = seed
        self.rng = random.Random(seed)
        self.defs: list[CardDef] = []
        self.owner: list[int] = []
        self.exhausted: list[bool] = []
        self.stamp: list[int] = []
        #: The trap instances, "when" traps apart from the others (new_card): a hand without any
        #: is passed over by one set operation when a window opens or an event fires.
        self.when_traps: set[int] = set()
        self.free_traps: set[int] = set()
        self.next_stamp = 1
        self.turn = 0
        self.active = 0
        self.first = 0
        self.expert = False
        self.phase = SETUP
        self.factions = ["", ""]
        self.health = [START_HEALTH] * PLAYERS
        self.poison = [0, 0]
        self.essence = [0, 0]
        self.alleg = [[0] * NF, [0] * NF]
        self.raised = [False, False]
        self.bonus = [False, False]
        self.deck: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.field: list[list[int]] = [[], []]
        self.played: list[list[int]] = [[], []]
        self.resolving: list[int] = []
        self.recruit: list[int] = []
        self.row: list[int] = [-1] * ROW_SIZE
        self._row_seen: list[int] = []  # the row _offers last read, and what it found (_main_options)
        self._row_buys: tuple = ((), 0, 0, ())
        self.exile: list[int] = []
        self.set_aside: list[int] = []
        self.rite_of: list[CardDef | None] = [None, None]
        self.rite_owner = [-1] * NF
        self.shield = [0, 0]
        self.protect = [False, False]
        self.listeners: list[tuple] = []  # each_time traps: (owner, def, event, trap cid)
        self.pools: list[list[tuple]] = [[]]
        self.stack: list[tuple] = []
        self.pending = -1
        self.options: list[Action] = []
        self._when: list[tuple] = []
        self._now: list[tuple] = []  # "immediately" lines triggered by the last step
        self._ft = False
        self.terminal = False
        self.winner: int | None = None
        self.capped: str | None = None
        #: The phase the loser was in when their health reached 0: initiation is poison (the balance lab).
        self.lost_in: str | None = None
        self.decisions = 0
        self.history: list[Action] = []
        self.log: list[tuple] | None = None
        self.cov: dict | None = None

    def new_card(self, d: CardDef, owner: int) -> int:
        """Create a physical card instance (scenarios and the position builder): its id."""
        return self.new_cards((d,), owner)[0]

    def new_cards(self, ds: tuple[CardDef, ...], owner: int) -> range:
        """A physical card instance for each design of ``ds``, in one go (setup deals a hundred
        cards a game): their ids."""
        first = len(self.defs)
        n = len(ds)
        self.defs.extend(ds)
        self.owner.extend([owner] * n)
        self.exhausted.extend([False] * n)
        self.stamp.extend([0] * n)
        for cid, d in enumerate(ds, first):
            if d.is_trap:
                (self.when_traps if d.trap_kind == "when" else self.free_traps).add(cid)
        return range(first, first + n)

    def clone(self) -> "State":
        """A fast independent copy for search (no log, no coverage)."""
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        for name in ("owner", "exhausted", "stamp", "health", "poison", "essence", "raised",
                     "resolving", "recruit", "row", "exile", "set_aside", "rite_of", "rite_owner",
                     "shield", "protect", "listeners", "bonus", "stack", "options", "_when", "_now", "history",
                     "factions"):
            setattr(s, name, getattr(self, name)[:])
        for name in ("alleg", "deck", "hand", "discard", "field", "played", "pools"):
            setattr(s, name, [x[:] for x in getattr(self, name)])
        s.when_traps, s.free_traps = set(self.when_traps), set(self.free_traps)
        s.log = None
        s.cov = None
        return s

    # -- the protocol -----------------------------------------------------------------

    def current_player(self) -> int:
        """The player to decide, or -1 when the game is over."""
        return -1 if self.terminal else self.pending

    def legal_actions(self) -> list[Action]:
        """The options of the current decision, in a stable order (do not mutate)."""
        return self.options

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def decision_kind(self) -> str:
        """What the current decision is about, e.g. ``main``, ``window:when``, ``pick:destroy``."""
        if self.terminal or not self.stack:
            return "none"
        t = self.stack[-1]
        op = t[0]
        if op == OP_PICK:
            return _PICK_KINDS[t[1]]
        if op == OP_WINDOW:
            return _WINDOW_KINDS[t[3]]
        return OP_NAMES[op]

    def apply(self, action: Action) -> None:
        """Play the current player's decision and run the game to the next one."""
        if self.terminal:
            raise IllegalDecision(f"illegal decision {tuple(action)!r}: the game is over")
        if action not in self.options:
            raise IllegalDecision(
                f"illegal decision {tuple(action)!r} for player {self.pending} at "
                f"{self.decision_kind()!r} (turn {self.turn}); legal options: "
                + ", ".join(repr(tuple(o)) for o in self.options))
        player = self.pending
        self.decisions += 1
        self.history.append(action)
        if self.log is not None:
            self.log.append(("decision", player, action))
        self.pending = -1
        task = self.stack[-1]
        try:
            _APPLY[task[0]](self, task, action)
        except _GameOver:
            return
        if self.decisions >= self.game.decision_cap and not self.terminal:
            self._cap("decisions")
            return
        self._advance()

    # -- the automatic loop -----------------------------------------------------------

    def _advance(self) -> None:
        """Run tasks until a decision is posed or the game ends."""
        stack, when, now = self.stack, self._when, self._now  # (the tasks change these lists, never replace them)
        try:
            while self.pending < 0:
                if when:
                    cands = tuple(when)
                    when.clear()
                    stack.append((OP_WINDOW, 1 - self.active, cands, W_WHEN))
                if now:
                    # "Immediately" acts right away: before the next line, window or action.
                    stack.extend(reversed(now))
                    now.clear()
                task = stack[-1]
                _RUN[task[0]](self, task)
        except _GameOver:
            pass

    def _ask(self, player: int, options: list[Action]) -> Action | None:
        """Pose a decision; a single option is applied at once (no real choice)."""
        if len(options) == 1:
            return options[0]
        self.pending = player
        self.options = options
        return None

    def _cap(self, reason: str) -> None:
        self.terminal = True
        self.capped = reason
        self.phase = OVER
        self.pending = -1
        self.options = []
        self.stack.clear()
        if self.log is not None:
            self.log.append(("capped", reason))

    def _lose(self, p: int) -> None:
        """A commander at 0 loses at once (The end; GP 8)."""
        self.health[p] = 0
        self.terminal = True
        self.winner = 1 - p
        self.lost_in = self.phase
        self.phase = OVER
        self.pending = -1
        self.options = []
        self.stack.clear()
        self.pools = [[]]
        if self.log is not None:
            self.log.append(("win", 1 - p))
        raise _GameOver

    # -- turn structure ---------------------------------------------------------------

    def _run_turn(self, task: tuple) -> None:
        self.turn += 1
        if self.turn > self.game.turn_cap:
            self._cap("turns")
            raise _GameOver
        p = self.active
        if self.log is not None:
            self.log.append(("turn", self.turn, p))
        # Initiation: poison damage, then remove 1; nothing stops it.
        self.phase = INITIATION
        if self.poison[p] > 0:
            dmg = self.poison[p]
            if self.log is not None:
                self.log.append(("poison_damage", p, dmg))
            self._damage(p, dmg)  # a commander at 0 loses here: the removal below never happens (GP 8)
            self.poison[p] -= POISON_DECAY
        # Strategy phase.
        self.phase = STRATEGY
        self.raised[p] = False
        if self.bonus[p]:
            # Setup 7: the second player's 2 extra essence, at their first strategy phase.
            self.bonus[p] = False
            self.essence[p] += 2
            if self.log is not None:
                self.log.append(("essence", p, 2))
        self.stack[-1] = (OP_MAIN, False)

    def _run_main(self, task: tuple) -> None:
        p = self.active
        if not task[1]:
            # Nothing is resolving: the opponent may play a trap without trigger / "each time" (a
            # hand without one has no window: _trap_options' first test, before the call).
            self.stack[-1] = (OP_MAIN, True)
            if not self.free_traps.isdisjoint(self.hand[1 - p]) and self._trap_options(1 - p, (), True):
                self.stack.append((OP_WINDOW, 1 - p, (), W_IDLE))
                return
            # No window: nothing waits either (_advance emptied _when and _now before this task).
        # Always posed, even when ending the turn is the only option.
        self.pending = p
        self.options = self._main_options()

    def _main_options(self) -> list[Action]:
        p = self.active
        defs = self.defs
        al = self.alleg[p]
        g = self.game
        opts: list[Action] = []
        seen = set()
        field = self.field[p]
        room = len(field) < MAX_CREATURES
        sac = 0 if self.protect[p] else len(field)  # _sacrificable
        for cid in self.hand[p]:
            d = defs[cid]
            if d.is_trap or d.i in seen:
                continue
            seen.add(d.i)
            for f, n in d.reqs:
                if al[f] < n:
                    break
            else:
                if d.is_creature:
                    if room:
                        opts.append(g.act_summon[cid])
                elif d.sacrifice <= sac:
                    opts.append(g.act_play[cid])
        exh = self.exhausted
        for cid in field:
            d = defs[cid]
            if d.has_activate and not exh[cid] and d.sacrifice <= sac:
                opts.append(g.act_activate[cid])
        ess = self.essence[p]
        if ess >= RAISE_COST and not self.raised[p]:
            if max(al) < MAX_ALLEGIANCE:
                opts.extend(_RAISE_ACTS)  # no faction at 6 yet: each one
            else:
                for f in range(NF):
                    if al[f] < MAX_ALLEGIANCE:
                        opts.append(_RAISE_ACTS[f])
        row = self.row
        if row != self._row_seen:
            self._row_seen, self._row_buys = row[:], self._offers(row)
        offers, cheapest, dearest, every = self._row_buys
        if ess >= dearest:
            opts.extend(every)  # each design on offer is affordable
        elif ess >= cheapest:
            for cost, act in offers:
                if cost <= ess:
                    opts.append(act)
        opts.append(END)
        return opts

    def _offers(self, row: list[int]) -> tuple:
        """The row's purchase options, each design's first slot with its cost, in slot order (the
        same design twice in the row is one option); the cheapest and the dearest cost, and every
        option (so that essence enough for all, or for none, costs no loop). Kept while the row
        stays as it is: it changes only when a card leaves it."""
        defs = self.defs
        seen = set()
        offers = []
        for slot in range(ROW_SIZE):
            cid = row[slot]
            if cid >= 0:
                d = defs[cid]
                if d.i not in seen:
                    seen.add(d.i)
                    offers.append((d.cost, _BUY_ACTS[slot]))
        costs = [cost for cost, _ in offers]
        return tuple(offers), min(costs, default=0), max(costs, default=0), tuple(act for _, act in offers)

    def _run_cleanup(self, task: tuple) -> None:
        p = self.active
        self.phase = CLEANUP
        # 1. Ready all your creatures.
        for cid in self.field[p]:
            self.exhausted[cid] = False
        # 2. "End of your turn" effects wait; the active player orders them.
        for cid in self.field[p]:
            d = self.defs[cid]
            if d.end_of_turn:
                self._trigger(p, d.end_of_turn, None, False, d, cid)
        rite = self.rite_of[p]
        if rite is not None and rite.end_of_turn:
            self._trigger(p, rite.end_of_turn, None, False, rite, -1)
        self.stack[-1] = (OP_CLEANUP2,)
        self.stack.append((OP_DRAIN, False))

    def _run_cleanup2(self, task: tuple) -> None:
        p = self.active
        # 3. Unspent essence is lost.
        self.essence[p] = 0
        # 4. Keep 0 up to KEEP_AT_CLEANUP (2) cards.
        self.stack[-1] = (OP_ENDTURN,)
        if self.hand[p]:
            self.stack.append((OP_PICK, P_KEEP, p, KEEP_AT_CLEANUP, True, (), None, False))
        else:
            self._discard_played(p)

    def _keep(self, p: int, kept: tuple) -> None:
        hand = self.hand[p]
        rest = [c for c in hand if c not in kept]
        self.hand[p] = list(kept)
        self.discard[p].extend(rest)
        if self.log is not None:
            self.log.append(("keep", p, len(kept), len(rest)))
        self._discard_played(p)

    def _discard_played(self, p: int) -> None:
        if self.played[p]:
            self.discard[p].extend(self.played[p])
            self.played[p] = []

    def _run_endturn(self, task: tuple) -> None:
        p = self.active
        # 5. Draw until 5 cards in hand.
        need = HAND_SIZE - len(self.hand[p])
        if need > 0:
            self._draw(p, need)
        # "Until the end of the turn" effects expire.
        self.shield = [0, 0]
        self.protect = [False, False]
        self.listeners = []
        self.active = 1 - p
        self.stack[-1] = (OP_TURN,)

    def _run_setup_end(self, task: tuple) -> None:
        """Expert variant 3: shuffle the set-aside cards back into the recruit deck."""
        if self.set_aside:
            self.recruit.extend(self.set_aside)
            self.set_aside = []
            self.rng.shuffle(self.recruit)
        self.stack[-1] = (OP_TURN,)

    # -- playing cards (the six steps) ------------------------------------------------

    def _play_card(self, p: int, cid: int) -> None:
        """Steps 2-6 of a Soul or spell played from hand."""
        d = self.defs[cid]
        self.hand[p].remove(cid)
        if self.cov is not None:
            _inc(self.cov, d.k_played)
            _inc(self.cov, d.k_by_played[p])  # per player: the balance lab
        if d.is_soul:
            self.played[p].append(cid)
            ev = "play_soul"
        else:
            self.resolving.append(cid)
            ev = "cast"
        if self.log is not None:
            self.log.append(("play", p, cid))
        self._ft = False
        self._fire(ev, p, (cid, 0), -1)
        self._push_played(p, cid, d, d.effects, True)

    def _push_played(self, p: int, cid: int, d: CardDef, lines: tuple, finish: bool) -> None:
        cands = ()
        if self._when:
            cands = tuple(self._when)
            self._when.clear()
        st = self.stack
        st.append((OP_DRAIN, False))
        if finish:
            st.append((OP_FINISH, cid, p))
        if lines:
            st.append((OP_LINES, p, lines, 0, None, False, d, cid))
        if d.sacrifice:
            st.append((OP_PICK, P_SACRIFICE, p, d.sacrifice, False, (), (d, cid), False))
        st.append((OP_WINDOW, 1 - p, cands, W_STEP3))

    def _summon(self, p: int, cid: int) -> None:
        d = self.defs[cid]
        self.hand[p].remove(cid)
        self._enter(p, cid)
        if self.cov is not None:
            _inc(self.cov, d.k_played)
            _inc(self.cov, d.k_by_played[p])  # per player: the balance lab
        if self.log is not None:
            self.log.append(("summon", p, cid))
        self._ft = False
        self._fire("summon", p, (cid, self.stamp[cid]), -1)
        cands = tuple(self._when)
        self._when.clear()
        self.stack.append((OP_DRAIN, False))
        self.stack.append((OP_WINDOW, 1 - p, cands, W_STEP3))

    def _enter(self, p: int, cid: int) -> None:
        self.field[p].append(cid)
        self.exhausted[cid] = not self.defs[cid].rush
        self.stamp[cid] = self.next_stamp
        self.next_stamp += 1

    def _activate(self, p: int, cid: int) -> None:
        d = self.defs[cid]
        self.exhausted[cid] = True
        if self.cov is not None:
            _inc(self.cov, d.k_activated)
            _inc(self.cov, d.k_by_activated[p])  # per player: the balance lab
        if self.log is not None:
            self.log.append(("activate", p, cid))
        self._ft = False
        self._fire("activate", p, (cid, self.stamp[cid]), -1)
        self._push_played(p, cid, d, d.activate, False)

    def _buy(self, p: int, slot: int) -> None:
        cid = self.row[slot]
        d = self.defs[cid]
        self.essence[p] -= d.cost
        self.owner[cid] = p
        self.discard[p].append(cid)
        # Replace it at once, before any reaction; an empty recruit deck leaves the slot empty.
        self.row[slot] = self.recruit.pop() if self.recruit else -1
        if self.cov is not None:
            _inc(self.cov, d.k_bought)
            _inc(self.cov, d.k_by_bought[p])  # per player: the balance lab
        if self.log is not None:
            self.log.append(("buy", p, cid, d.cost))
        self._ft = False
        self._fire("buy", p, (cid, 0), -1)
        self.stack.append((OP_DRAIN, False))

    def _raise_action(self, p: int, f: int) -> None:
        self.essence[p] -= RAISE_COST
        self.raised[p] = True
        self._ft = False
        self._gain_allegiance(p, [f])
        self.stack.append((OP_DRAIN, False))

    def _play_trap(self, h: int, cid: int, ctx: tuple | None) -> None:
        """Steps 1, 2, 5, 6 of a trap: it never opens a window of its own."""
        d = self.defs[cid]
        self.hand[h].remove(cid)
        self.resolving.append(cid)
        if self.cov is not None:
            _inc(self.cov, ("trap", d.id, d.trap_kind))
            _inc(self.cov, d.k_played)
            _inc(self.cov, d.k_by_played[h])  # per player: the balance lab
        if self.log is not None:
            self.log.append(("trap", h, cid))
        # When you play a trap, draw a card.
        self._draw(h, 1)
        self.pools.append([])
        st = self.stack
        st.append((OP_DRAIN, True))
        st.append((OP_FINISH, cid, h))
        if d.trap_kind == "each_time":
            self.listeners.append((h, d, d.trap_event, cid))
        elif d.effects:
            st.append((OP_LINES, h, d.effects, 0, ctx, True, d, cid))
        if d.sacrifice:
            st.append((OP_PICK, P_SACRIFICE, h, d.sacrifice, False, (), (d, cid), True))

    def _run_finish(self, task: tuple) -> None:
        _, cid, p = task
        self.stack.pop()
        if cid in self.resolving:
            self.resolving.remove(cid)
            # Finished and still ours: a spell or trap goes to its owner's discard pile.
            self.discard[self.owner[cid]].append(cid)

    # -- trap windows -----------------------------------------------------------------

    def _trap_options(self, h: int, cands: tuple, untriggered: bool) -> list[Action]:
        """Traps player ``h`` may play now (never in their own turn, never in cleanup)."""
        if h == self.active or self.phase != STRATEGY:
            return []
        hand = self.hand[h]
        if not cands and (not untriggered or self.free_traps.isdisjoint(hand)):
            return []
        defs = self.defs
        al = self.alleg[h]
        opts: list[Action] = []
        if untriggered:
            seen = set()
            sac = -1
            for cid in hand:
                d = defs[cid]
                if not d.is_trap or d.trap_kind == "when" or d.i in seen:
                    continue
                seen.add(d.i)
                if self._meets(al, d):
                    if d.sacrifice:
                        sac = self._sacrificable(h) if sac < 0 else sac
                        if d.sacrifice > sac:
                            continue
                    opts.append(self.game.act_trap[cid])
        for j, (cid, stamp, _ref) in enumerate(cands):
            # A card that left the hand and came back is a new card: not against this event.
            if cid in hand and self.stamp[cid] == stamp and self._meets(al, defs[cid]) and \
                    (not defs[cid].sacrifice or defs[cid].sacrifice <= self._sacrificable(h)):
                opts.append(Action("trap", cid, j))
        if opts:
            opts.append(PASS)
        return opts

    def _run_window(self, task: tuple) -> None:
        _, h, cands, kind = task
        # No event to answer and no trap without a trigger in hand: no window (_trap_options' first
        # test, before the call: the most frequent case, after every card played).
        opts = self._trap_options(h, cands, kind != W_WHEN) \
            if cands or not self.free_traps.isdisjoint(self.hand[h]) else None
        if not opts:
            self.stack.pop()
            return
        self.pending = h
        self.options = opts

    def _apply_window(self, task: tuple, action: Action) -> None:
        if action.kind == "pass":
            self.stack.pop()
            return
        _, h, cands, kind = task
        ctx = cands[action.b][2] if action.b >= 0 else None
        self._play_trap(h, action.a, ctx)

    @staticmethod
    def _meets(al: list[int], d: CardDef) -> bool:
        for f, n in d.reqs:
            if al[f] < n:
                return False
        return True

    # -- events and waiting effects ---------------------------------------------------

    def _fire(self, ev: str, actor: int, ref: tuple, victim: int) -> None:
        """An event happened: triggered abilities wait, "when" traps may answer.

        ``victim`` is the owner of a destroyed creature (``destroy`` only).
        """
        ft = self._ft
        defs = self.defs
        active = self.active
        if ev in self.cards.trigger_events:  # an event no design triggers on has nothing to look for
            for p in (active, 1 - active):
                for cid in self.field[p]:
                    d = defs[cid]
                    if d.triggers and ev in d.trigger_events and not (ev == "summon" and cid == ref[0]):
                        # A creature acts from the next event on: not on its own summon.
                        self._triggers_of(d, cid, p, ev, actor, victim, ref, ft)
                rite = self.rite_of[p]
                if rite is not None and ev in rite.trigger_events:
                    self._triggers_of(rite, -1, p, ev, actor, victim, ref, ft)
        if ft:
            return  # a trap never answers a trap, nor what a trap causes
        if self.listeners:
            for (h, d, tev, tcid) in self.listeners:
                if tev == ev and actor != h:
                    self._trigger(h, d.effects, ref, True, d, tcid)
        if actor == active and self.phase == STRATEGY and not self.when_traps.isdisjoint(self.hand[1 - active]):
            h = 1 - active
            for cid in self.hand[h]:
                d = defs[cid]
                if d.trap_kind == "when" and d.trap_event == ev and self._meets(self.alleg[h], d):
                    self._when.append((cid, self.stamp[cid], ref))

    def _triggers_of(self, d: CardDef, cid: int, p: int, ev: str, actor: int, victim: int,
                     ref: tuple, ft: bool) -> None:
        for (tev, by_you, lines) in d.triggers:
            if tev != ev:
                continue
            if ev == "destroy" and by_you:
                hit = victim == p  # "a creature of yours is destroyed"
            else:
                hit = (actor == p) == by_you
            if hit:
                self._trigger(p, lines, ref, ft, d, cid)

    def _trigger(self, owner: int, lines: tuple, ctx, ft: bool, d: CardDef, cid: int) -> None:
        """Put a triggered effect on hold; "immediately" lines act at once (Chains 5)."""
        if not lines:
            return
        now = [ln for ln in lines if ln.timing == "immediately"]
        if now:
            rest = tuple(ln for ln in lines if ln.timing != "immediately")
            if rest:
                self.pools[-1].append((owner, rest, ctx, ft, d, cid))
            self._now.append((OP_LINES, owner, tuple(now), 0, ctx, ft, d, cid))
        else:
            self.pools[-1].append((owner, lines, ctx, ft, d, cid))

    def _run_drain(self, task: tuple) -> None:
        """Chains 3: the active player resolves one of theirs first, then the opponent."""
        pool = self.pools[-1]
        if not pool:
            self.stack.pop()
            if task[1]:
                self.pools.pop()
            return
        a = self.active
        mine = [i for i, w in enumerate(pool) if w[0] == a]
        if not mine:
            mine = list(range(len(pool)))
            chooser = 1 - a
        else:
            chooser = a
        if len(mine) > 1:
            # Identical waiting effects (same lines, same source, same target) are one option.
            seen, distinct = set(), []
            for i in mine:
                w = pool[i]
                key = (id(w[1]), w[2], w[5])
                if key not in seen:
                    seen.add(key)
                    distinct.append(i)
            mine = distinct
        if len(mine) == 1:
            self._resolve_waiting(mine[0])
            return
        choice = self._ask(chooser, [Action("order", i) for i in mine])
        if choice is not None:
            self._resolve_waiting(choice.a)

    def _apply_drain(self, task: tuple, action: Action) -> None:
        self._resolve_waiting(action.a)

    def _resolve_waiting(self, i: int) -> None:
        owner, lines, ctx, ft, d, cid = self.pools[-1].pop(i)
        self.stack.append((OP_LINES, owner, lines, 0, ctx, ft, d, cid))

    # -- reading lines ----------------------------------------------------------------

    def _run_lines(self, task: tuple) -> None:
        _, owner, lines, i, ctx, ft, d, cid = task
        if i >= len(lines):
            self.stack.pop()
            return
        self.stack[-1] = (OP_LINES, owner, lines, i + 1, ctx, ft, d, cid)
        ln = lines[i]
        cov = self.cov
        if ln.timing == "after_effects" and ln.section in _PLAYED_SECTIONS:
            # "After its effects" waits for the end of the card or activation (Chains 5).
            self.pools[-1].append((owner, (_AfterLine(ln),), ctx, ft, d, cid))
            return
        if ln.tn:
            # Conditional lines are checked as they are read (Chains 6).
            if self.alleg[owner][ln.tf] < ln.tn:
                if cov is not None:
                    _inc(cov, ln.k_not)
                if self.log is not None:
                    self.log.append(("skip", owner, ln))
                return
            if cov is not None:
                _inc(cov, ln.k_met)
        elif cov is not None:
            k = ln.k_res  # _inc, inlined: the line read most
            cov[k] = cov.get(k, 0) + 1
        if self.log is not None:
            self.log.append(("resolve", owner, ln))  # the cause of the events this line logs
        self._ft = ft
        if ln.may:
            self.stack.append((OP_MAY, owner, ln, ctx, ft))
            return
        _VERBS[ln.verb](self, owner, ln, ctx)

    def _run_may(self, task: tuple) -> None:
        choice = self._ask(task[1], [YES, NO])
        if choice is not None:
            self._apply_may(task, choice)

    def _apply_may(self, task: tuple, action: Action) -> None:
        _, owner, ln, ctx, ft = task
        self.stack.pop()
        if action.kind == "yes":
            self._ft = ft
            _VERBS[ln.verb](self, owner, ln, ctx)

    # -- verbs --------------------------------------------------------------------------

    def _v_essence(self, p: int, ln: Line, ctx) -> None:
        self.essence[p] += ln.n
        if self.log is not None:
            self.log.append(("essence", p, ln.n))

    def _v_wound(self, p: int, ln: Line, ctx) -> None:
        self._wound(p, ln.n, self._ft)

    def _v_unblockable(self, p: int, ln: Line, ctx) -> None:
        self._deal_wound(p, 1 - p, ln.n, self._ft)

    def _v_poison(self, p: int, ln: Line, ctx) -> None:
        self.poison[1 - p] += ln.n
        if self.log is not None:
            self.log.append(("poison", 1 - p, ln.n))

    def _v_draw(self, p: int, ln: Line, ctx) -> None:
        self._draw(p, ln.n)

    def _v_discard(self, p: int, ln: Line, ctx) -> None:
        v = 1 - p
        if len(self.hand[v]) <= ln.n:
            self._discard_cards(v, tuple(self.hand[v]))
        else:
            self.stack.append((OP_PICK, P_DISCARD, v, ln.n, False, (), None, self._ft))

    def _v_targeted(self, p: int, ln: Line, ctx, purpose: int, data) -> None:
        if ln.a == "that" or ln.b == "that":
            cid = self._that(purpose, p, ln, ctx)
            if cid >= 0:
                self._pick_done(purpose, p, (cid,), data, self._ft)
            return
        self.stack.append((OP_PICK, purpose, p, ln.n, ln.up_to, (), data, self._ft))

    def _v_destroy(self, p: int, ln: Line, ctx) -> None:
        self._v_targeted(p, ln, ctx, P_DESTROY, None)

    def _v_sacrifice(self, p: int, ln: Line, ctx) -> None:
        # Only reached in a triggered section: destroy your own creatures, as many as possible.
        self.stack.append((OP_PICK, P_SACRIFICE, p, ln.n, False, (), (None, -1), self._ft))

    def _v_exile(self, p: int, ln: Line, ctx) -> None:
        self._v_targeted(p, ln, ctx, P_EXILE, (ln.a,))

    def _v_rift(self, p: int, ln: Line, ctx) -> None:
        self.stack.append((OP_PICK, P_RIFT, p, ln.n, ln.up_to, (), (ln.a,), self._ft))

    def _v_allegiance(self, p: int, ln: Line, ctx) -> None:
        if ln.a >= 0:
            self._gain_allegiance(p, [ln.a] * ln.n)
        else:
            self.stack.append((OP_PICK, P_FACTION, p, ln.n, False, (), None, self._ft))

    def _v_recover(self, p: int, ln: Line, ctx) -> None:
        self.stack.append((OP_PICK, P_RECOVER, p, ln.n, ln.up_to, (), (ln.a,), self._ft))

    def _v_exhaust(self, p: int, ln: Line, ctx) -> None:
        self._v_targeted(p, ln, ctx, P_EXHAUST, None)

    def _v_bounce(self, p: int, ln: Line, ctx) -> None:
        self._v_targeted(p, ln, ctx, P_BOUNCE, None)

    def _v_divine_shield(self, p: int, ln: Line, ctx) -> None:
        self.shield[p] = 1  # "if active": a second Divine Shield adds nothing
        if self.log is not None:
            self.log.append(("shield", p))

    def _v_protect(self, p: int, ln: Line, ctx) -> None:
        self.protect[p] = True
        if self.log is not None:
            self.log.append(("protect", p))

    def _that(self, purpose: int, p: int, ln: Line, ctx) -> int:
        """The card of the triggering event, if it is still where the effect looks for it."""
        if not ctx:
            return -1
        cid, stamp = ctx
        if cid < 0:
            return -1
        o = 1 - p
        if purpose == P_EXILE and ln.a != "opponent_creature":
            zone = {"opponent_discard": self.discard[o], "your_hand": self.hand[p],
                    "your_discard": self.discard[p]}[ln.a]
            return cid if cid in zone else -1
        if cid in self.field[o] and self.stamp[cid] == stamp:
            if purpose == P_DESTROY and self.protect[o]:
                return -1
            if purpose == P_EXHAUST and self.exhausted[cid]:
                return -1
            return cid
        return -1

    # -- wound and damage -------------------------------------------------------------

    def _wound(self, src: int, n: int, ft: bool) -> None:
        """Facing a Wound effect: Aegis, then Divine Shield, then a Guard, then damage."""
        t = 1 - src
        aegis = 0
        defs = self.defs
        for cid in self.field[t]:
            a = defs[cid].aegis
            if a > aegis:
                aegis = a
        dmg = n - aegis - self.shield[t]
        if dmg <= 0:
            if self.log is not None:
                self.log.append(("prevented", t, n))
            return
        if t != self.active:
            guards = [cid for cid in self.field[t] if defs[cid].guard and not self.exhausted[cid]]
            if guards:
                act = self.game.act_guard
                opts = [act[cid] for cid in guards]
                opts.append(PASS)
                self.stack.append((OP_GUARD, t, dmg, src, ft))
                self.pending = t
                self.options = opts
                return
        self._deal_wound(src, t, dmg, ft)

    def _run_guard(self, task: tuple) -> None:  # pragma: no cover - posed directly by _wound
        raise AssertionError("guard task without decision")

    def _apply_guard(self, task: tuple, action: Action) -> None:
        _, t, dmg, src, ft = task
        self.stack.pop()
        if action.kind == "guard":
            cid = action.a
            self.exhausted[cid] = True
            if self.log is not None:
                self.log.append(("guard", t, cid, dmg))
            self._ft = ft
            self._destroy(cid, t)
            return
        self._deal_wound(src, t, dmg, ft)

    def _deal_wound(self, src: int, t: int, dmg: int, ft: bool) -> None:
        if dmg <= 0:
            return
        if self.log is not None:
            self.log.append(("wound", src, t, dmg))
        self._damage(t, dmg)
        self._ft = ft
        self._fire("wound", src, (-1, dmg), -1)

    def _damage(self, p: int, dmg: int) -> None:
        h = self.health[p] - dmg
        if h <= 0:
            self._lose(p)
        self.health[p] = h

    # -- zones ------------------------------------------------------------------------

    def _draw(self, p: int, n: int) -> None:
        """Draw n cards, reshuffling the discard pile whenever the deck is empty (Cleanup 5)."""
        deck, hand = self.deck[p], self.hand[p]
        cov = self.cov
        drawn = 0
        for _ in range(n):
            if not deck:
                disc = self.discard[p]
                if not disc:
                    break
                deck.extend(disc)
                disc.clear()
                self.rng.shuffle(deck)
                if self.log is not None:
                    self.log.append(("reshuffle", p, len(deck)))
            c = deck.pop()
            hand.append(c)
            self.stamp[c] = self.next_stamp
            self.next_stamp += 1
            drawn += 1
            if cov is not None:
                k = self.defs[c].k_in_hand[p]  # had in hand: the balance lab (_inc, inlined)
                cov[k] = cov.get(k, 0) + 1
        if drawn and self.log is not None:
            self.log.append(("draw", p, drawn))

    def _cov_hand(self, p: int, cid: int) -> None:
        """A card came to ``p``'s hand other than by a draw (the balance lab's "had in hand")."""
        if self.cov is not None:
            _inc(self.cov, self.defs[cid].k_in_hand[p])

    def _stamp(self, cid: int) -> None:
        self.stamp[cid] = self.next_stamp
        self.next_stamp += 1

    def _sacrificable(self, p: int) -> int:
        return 0 if self.protect[p] else len(self.field[p])

    def _destroy(self, cid: int, by: int) -> bool:
        """Destroyed: to its owner's discard pile, its Demise waits (unless protected)."""
        return bool(self._destroy_together((cid,), by))

    def _destroy_together(self, cids, by: int) -> list[int]:
        """Creatures destroyed by one effect (Destroy N, a Sacrifice payment) leave play together:
        all go to the discard pile first, then each Demise waits and each event fires, so none of
        them sees the others' destruction, whatever the order they were chosen in."""
        gone = []
        for cid in cids:
            o = self.owner[cid]
            if self.protect[o] or cid not in self.field[o]:
                continue
            self.field[o].remove(cid)
            self.exhausted[cid] = False
            gone.append((cid, o, self.stamp[cid]))
            self.stamp[cid] = 0
            self.discard[o].append(cid)
            if self.log is not None:
                self.log.append(("destroy", by, cid))
        for cid, o, stamp in gone:
            d = self.defs[cid]
            if d.demise:
                self._trigger(o, d.demise, (cid, stamp), self._ft, d, cid)
            self._fire("destroy", by, (cid, 0), o)
        return [g[0] for g in gone]

    def _leave_field(self, cid: int) -> int:
        o = self.owner[cid]
        self.field[o].remove(cid)
        self.exhausted[cid] = False
        self.stamp[cid] = 0
        return o

    def _discard_cards(self, v: int, cids: tuple) -> None:
        for cid in cids:
            self.hand[v].remove(cid)
            self.discard[v].append(cid)
            if self.log is not None:
                self.log.append(("discard", v, cid))

    def _gain_allegiance(self, p: int, points: list[int]) -> None:
        """Raise allegiance (capped at 6), fire one event, then take any Rite reached."""
        al = self.alleg[p]
        reached = []
        gained = False
        for f in points:
            if al[f] < MAX_ALLEGIANCE:
                al[f] += 1
                gained = True
                if al[f] == MAX_ALLEGIANCE:
                    reached.append(f)
                if self.log is not None:
                    self.log.append(("allegiance", p, f, al[f]))
        if not gained:
            return
        self._fire("allegiance", p, (-1, 0), -1)
        for f in reached:
            self._take_rite(p, f)

    def _take_rite(self, p: int, f: int) -> None:
        if self.rite_of[p] is not None or self.rite_owner[f] >= 0:  # RITE_SLOTS: one per player
            return
        rite = self.cards.rites.get(f)
        if rite is None:
            return
        self.rite_of[p] = rite
        self.rite_owner[f] = p
        if self.cov is not None:
            _inc(self.cov, ("rite", rite.id))
        if self.log is not None:
            self.log.append(("rite", p, rite.id))

    # -- choosing cards ---------------------------------------------------------------

    def _pick_cands(self, purpose: int, p: int, picked: tuple, data) -> list[int]:
        """Everything the chooser may still pick (before de-duplication)."""
        o = 1 - p
        if purpose == P_DESTROY:
            if self.protect[o]:
                return []
            return [c for c in self.field[o] if c not in picked]
        if purpose == P_SACRIFICE:
            if self.protect[p]:
                return []
            return [c for c in self.field[p] if c not in picked]
        if purpose == P_EXHAUST:
            return [c for c in self.field[o] if not self.exhausted[c] and c not in picked]
        if purpose == P_BOUNCE:
            return [c for c in self.field[o] if c not in picked]
        if purpose == P_EXILE:
            zone = data[0]
            src = (self.field[o] if zone == "opponent_creature" else self.discard[o]
                   if zone == "opponent_discard" else self.hand[p] if zone == "your_hand"
                   else self.discard[p])
            return [c for c in src if c not in picked]
        if purpose == P_RIFT:
            return [c for c in self.exile if c not in picked]
        if purpose == P_RECOVER:
            kind = data[0]
            return [c for c in self.discard[p] if c not in picked and
                    (kind == "any" or self.defs[c].type == kind)]
        if purpose in (P_DISCARD, P_KEEP):
            return [c for c in self.hand[p] if c not in picked]
        if purpose == P_SETASIDE:
            return [c for c in self.row if c >= 0]
        raise AssertionError(purpose)

    def _run_pick(self, task: tuple) -> None:
        _, purpose, p, k, optional, picked, data, ft = task
        left = k - len(picked)
        if purpose == P_FACTION:
            al = self.alleg[p]
            cands = [f for f in range(NF) if al[f] + picked.count(f) < MAX_ALLEGIANCE]
            if left <= 0 or not cands:
                self.stack.pop()
                self._ft = ft
                self._gain_allegiance(p, list(picked))
                return
            opts = [_FACTION_ACTS[f] for f in cands]
        else:
            cands = self._pick_cands(purpose, p, picked, data)
            if left <= 0 or not cands:
                self.stack.pop()
                self._pick_done(purpose, p, picked, data, ft)
                return
            if not optional and len(cands) <= left:
                self.stack.pop()
                self._pick_done(purpose, p, picked + tuple(cands), data, ft)
                return
            opts = []
            if purpose in (P_DESTROY, P_SACRIFICE, P_EXHAUST, P_BOUNCE) or \
                    (purpose == P_EXILE and data[0] == "opponent_creature"):
                act = self.game.act_pick
                opts = [act[c] for c in cands]
            else:
                seen = set()
                defs = self.defs
                act = self.game.act_pick
                for c in cands:
                    i = defs[c].i
                    if i not in seen:
                        seen.add(i)
                        opts.append(act[c])
            if optional:
                opts.append(STOP)
        choice = self._ask(p, opts)
        if choice is not None:
            self._apply_pick(task, choice)

    def _apply_pick(self, task: tuple, action: Action) -> None:
        _, purpose, p, k, optional, picked, data, ft = task
        if action.kind == "stop":
            self.stack.pop()
            self._pick_done(purpose, p, picked, data, ft)
            return
        if purpose == P_SETASIDE:
            # Expert variant 2: each card set aside is replaced at once.
            cid = action.a
            slot = self.row.index(cid)
            self.set_aside.append(cid)
            self.row[slot] = self.recruit.pop() if self.recruit else -1
            if self.log is not None:
                self.log.append(("set_aside", p, cid))
        self.stack[-1] = (OP_PICK, purpose, p, k, optional, picked + (action.a,), data, ft)

    def _pick_done(self, purpose: int, p: int, picked: tuple, data, ft: bool) -> None:
        """Apply a targeted effect to everything chosen, together."""
        log = self.log
        self._ft = ft
        if purpose == P_DESTROY:
            self._destroy_together(picked, p)
        elif purpose == P_SACRIFICE:
            d, src = data
            if d is not None and self.cov is not None:
                for ln in d.sacrifice_lines:
                    _inc(self.cov, ln.k_res)
            self._destroy_together(picked, p)
        elif purpose == P_EXHAUST:
            for cid in picked:
                self.exhausted[cid] = True
                if log is not None:
                    log.append(("exhaust", p, cid))
        elif purpose == P_BOUNCE:
            for cid in picked:
                o = self._leave_field(cid)
                self.hand[o].append(cid)
                self._stamp(cid)
                self._cov_hand(o, cid)
                if log is not None:
                    log.append(("bounce", p, cid))
        elif purpose == P_EXILE:
            zone = data[0]
            for cid in picked:
                if zone == "opponent_creature":
                    self._leave_field(cid)
                elif zone == "opponent_discard":
                    self.discard[1 - p].remove(cid)
                elif zone == "your_hand":
                    self.hand[p].remove(cid)
                else:
                    self.discard[p].remove(cid)
                self.owner[cid] = -1
                self.exile.append(cid)
                if log is not None:
                    log.append(("exile", p, cid))
        elif purpose == P_RIFT:
            for cid in picked:
                self.exile.remove(cid)
                self.owner[cid] = p
                (self.hand[p] if data[0] == "hand" else self.discard[p]).append(cid)
                self._stamp(cid)
                if data[0] == "hand":
                    self._cov_hand(p, cid)
                if log is not None:
                    log.append(("rift", p, cid))
        elif purpose == P_RECOVER:
            for cid in picked:
                self.discard[p].remove(cid)
                self.hand[p].append(cid)
                self._stamp(cid)
                self._cov_hand(p, cid)
                if log is not None:
                    log.append(("recover", p, cid))
        elif purpose == P_DISCARD:
            self._discard_cards(p, picked)
        elif purpose == P_KEEP:
            self._keep(p, picked)
        elif purpose == P_FACTION:
            self._gain_allegiance(p, list(picked))


class _AfterLine:
    """A line marked "after its effects", read later with its timing cleared."""

    __slots__ = ("_ln",)

    def __init__(self, ln: Line) -> None:
        self._ln = ln

    def __getattr__(self, name):
        if name == "timing":
            return None
        return getattr(self._ln, name)


def _inc(cov: dict, key: tuple) -> None:
    cov[key] = cov.get(key, 0) + 1


def _apply_main(state: State, task: tuple, action: Action) -> None:
    p = state.active
    state.stack[-1] = (OP_MAIN, False)
    kind = action.kind
    if kind == "play":
        state._play_card(p, action.a)
    elif kind == "summon":
        state._summon(p, action.a)
    elif kind == "activate":
        state._activate(p, action.a)
    elif kind == "buy":
        state._buy(p, action.a)
    elif kind == "raise":
        state._raise_action(p, action.a)
    elif kind == "end":
        state.stack[-1] = (OP_CLEANUP,)
    else:  # pragma: no cover - options are built by _main_options
        raise AssertionError(action)


def _no_apply(state: State, task: tuple, action: Action) -> None:  # pragma: no cover
    raise AssertionError(f"no decision at task {OP_NAMES[task[0]]}")


_RUN = (State._run_turn, State._run_main, State._run_window, State._run_lines, State._run_pick,
        State._run_may, State._run_finish, State._run_drain, State._run_cleanup,
        State._run_cleanup2, State._run_endturn, State._run_guard, State._run_setup_end)
_APPLY = (_no_apply, _apply_main, State._apply_window, _no_apply, State._apply_pick,
          State._apply_may, _no_apply, State._apply_drain, _no_apply, _no_apply, _no_apply,
          State._apply_guard, _no_apply)
_VERBS = {
    "essence": State._v_essence,
    "wound": State._v_wound,
    "unblockable_wound": State._v_unblockable,
    "poison": State._v_poison,
    "draw": State._v_draw,
    "discard": State._v_discard,
    "destroy": State._v_destroy,
    "sacrifice": State._v_sacrifice,
    "exile": State._v_exile,
    "rift": State._v_rift,
    "allegiance": State._v_allegiance,
    "recover": State._v_recover,
    "exhaust": State._v_exhaust,
    "bounce": State._v_bounce,
    "divine_shield": State._v_divine_shield,
    "protect_creatures": State._v_protect,
}
#: Verbs the engine can resolve (tests check this covers the whole vocabulary).
HANDLED_VERBS = frozenset(_VERBS)
