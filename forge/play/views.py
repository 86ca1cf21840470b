"""What the page shows one seat: the board, the decision with its legal options in words, the log.

A view holds only what the seat may see (GP 7), read through the engine's
``Observation`` of that seat, the agents' own window on a game: both players'
counters, tracks, Rites, battlefields, played cards, discard piles and the
recruitment zone, its own hand, and the other hand and the decks as counts. A
spectator's view is the same public part, with no hand at all. Every card a view
names is asked of the observation (``defn``), which refuses a hidden one. Each option is one of the
engine's legal options, sent as its ``[kind, a, b]`` with a label in the page's
language; the log is the replay's (``forge.text.narrate.LogPrinter``, in the locales' words).
"""
from __future__ import annotations

from ..engine import Observation
from ..engine.tasks import Lines
from ..carddb.vocabulary import FACTIONS, MAX_ALLEGIANCE
from ..text.narrate import LogPrinter
from .session import HUMAN, Session
from .words import LANGS, Words, from_books

#: Log lines a view carries (the whole log is ``/api/games/{id}/log``).
LOG_TAIL = 60


class Viewer:
    """Builds views of any game over one card database, in each language."""

    def __init__(self, db, books: dict | None = None, words: Words | None = None) -> None:
        self.db = db
        self.books = books or {}
        self.words = words if words is not None else from_books(self.books)[0]
        self.names = {lang: {c.id: c.name.get(lang) or c.id for c in db.cards} for lang in LANGS}
        self.logs = {lang: LogPrinter(db, self.books, lang) for lang in LANGS}
        # a faction is named as the replay, the gallery and the balance report name it (cards/factions.yaml)
        self.fnames = {lang: {f.id: f.name.get(lang) or f.name.get("en") or f.id for f in db.factions} for lang in LANGS}

    # -- cards and their words ------------------------------------------------------------
    def catalogue(self, lang: str) -> dict:
        """Every card's name, type line and printed text in ``lang`` (the page asks once)."""
        book = self.books.get(lang)
        out = {}
        for c in self.db.cards:
            entry = {"name": self.names[lang][c.id], "type": c.type, "cost": c.cost}
            if book is not None:
                try:
                    entry["type_line"] = book.plain(book.type_line(c))
                    entry["text"] = [book.plain(t) for t in book.card_text(c)]
                except Exception:  # a card the phrasebook cannot word still plays, by name
                    entry["text"] = []
            out[c.id] = entry
        return out

    def card(self, s, cid: int, lang: str) -> dict:
        """A card of the decision's options (the deciding seat's own view, from the engine's legal options)."""
        d = s.defs[cid]
        return {"cid": cid, "id": d.id, "name": self.names[lang][d.id], "type": d.type, "cost": d.cost}

    def seen(self, obs: Observation, cid: int, lang: str) -> dict:
        """A card of the board, as ``obs`` may see it (HiddenCard, never its name, for a hidden one)."""
        d = obs.defn(cid)
        return {"cid": cid, "id": d.id, "name": self.names[lang][d.id], "type": d.type, "cost": d.cost}

    def line_text(self, ln, lang: str) -> str:
        book = self.books.get(lang)
        if book is None or ln is None:
            return ln.verb if ln is not None else ""
        try:
            return book.plain(book.line_text(ln.src))
        except Exception:  # wording is a courtesy: the verb says enough
            return ln.verb

    # -- the view ----------------------------------------------------------------------------
    def view(self, session: Session, seat: int | None, lang: str) -> dict:
        """What ``seat`` sees of the game (``None``: a spectator, who sees the public part only, drawn from
        seat 0's side)."""
        s = session.state
        obs = Observation(s, 0 if seat is None else seat)
        names = self.player_names(session, lang, seat)
        out = {
            "game": session.gid, "seat": 0 if seat is None else seat, "lang": lang, "mode": session.mode,
            "role": "spectator" if seat is None else "player",
            "humans": list(session.humans()), "decision_no": s.decisions, "turn": obs.turn, "phase": obs.phase,
            "active": obs.active, "pending": None if session.over else s.pending, "names": names,
            "clock_ms": session.clock_ms(),
            "players": [dict(self.player(obs, p, seat is not None and p == seat, lang),
                             shield=bool(s.shield[p]), protect=bool(s.protect[p])) for p in (0, 1)],
            "row": [self.seen(obs, c, lang) if c >= 0 else None for c in obs.recruitment_row()],
            "recruit_deck": obs.recruit_deck_size(), "exile": [self.seen(obs, c, lang) for c in obs.exile_pile()],
            "rites": self.rites(s, lang, names),
            "over": self.outcome(session, lang, names),
            "decision": None, "waiting": None,
        }
        if not session.over:
            if s.pending == seat and session.seats[seat] == HUMAN:
                out["decision"] = self.decision(session, lang)
            else:
                out["waiting"] = self.words.say(lang, "waiting", player=names[s.pending])
        lines = self.log(session, lang)
        out["log"], out["log_total"] = lines[-LOG_TAIL:], len(lines)
        return out

    def log(self, session: Session, lang: str) -> list[str]:
        """The game's log in ``lang`` as ``forge replay`` prints it (worded once, line by line, as it grows)."""
        lines = session.worded.setdefault(lang, [])
        done = session.worded_upto.get(lang, 0)
        printer = self.logs[lang]
        lines.extend(t for x in session.events[done:] if (t := printer(x)) is not None)
        session.worded_upto[lang] = len(session.events)
        return lines

    def player_names(self, session: Session, lang: str, seat: int | None = None) -> list[str]:
        names = [self.words.say(lang, "player", n=p + 1) for p in (0, 1)]
        if session.remote:
            if seat is not None:
                names[seat] += f" ({self.words.say(lang, 'you')})"
        elif not session.is_hotseat():
            for p, who in enumerate(session.seats):
                names[p] += f" ({self.words.say(lang, 'you' if who == HUMAN else 'ai')})"
        return names

    def faction_name(self, faction: str, lang: str) -> str:
        """A faction's name in ``lang`` as every other page says it: cards/factions.yaml's (its id when unnamed)."""
        return self.fnames[lang].get(faction) or self.logs[lang].fnames.get(faction, faction)

    def player(self, obs: Observation, p: int, own: bool, lang: str) -> dict:
        """Player ``p`` as ``obs`` sees them; the hand's cards only when it is the viewer's ``own``."""
        rite = obs.rite(p)
        fnames = self.logs[lang].fnames
        faction = obs.faction(p)
        discard = obs.discard_pile(p)
        return {
            "faction": faction, "faction_name": self.faction_name(faction, lang),
            "health": obs.health(p), "poison": obs.poison(p), "essence": obs.essence(p),
            "allegiance": [{"faction": f, "name": fnames.get(f, f), "n": n, "max": MAX_ALLEGIANCE}
                           for f, n in zip(FACTIONS, obs.allegiance(p))],
            "rite": {"id": rite, "name": self.names[lang][rite]} if rite is not None else None,
            "hand": [self.seen(obs, c, lang) for c in obs.hand()] if own else None,
            "hand_count": obs.hand_size(p), "deck": obs.deck_size(p), "discard": len(discard),
            "discard_top": [self.seen(obs, c, lang) for c in discard[-3:]],
            "field": [dict(self.seen(obs, c, lang), exhausted=obs.is_exhausted(c)) for c in obs.battlefield(p)],
            "played": [self.seen(obs, c, lang) for c in obs.played(p)],
        }

    def rites(self, s, lang: str, names: list[str]) -> list[dict]:
        """The Rite of each faction and who holds it (the first to reach 6 allegiance in its faction)."""
        out = []
        for f, d in sorted(s.cards.rites.items()):
            owner = s.rite_owner[f]
            out.append({"cid": -1 - f, "id": d.id, "name": self.names[lang][d.id], "type": d.type, "cost": d.cost,
                        "faction": FACTIONS[f], "owner": owner if owner >= 0 else None,
                        "held_by": names[owner] if owner >= 0 else None})
        return out

    def outcome(self, session: Session, lang: str, names: list[str]) -> dict | None:
        s = session.state
        if session.abandoned is not None:
            return {"winner": None, "abandoned": session.abandoned,
                    "text": self.words.say(lang, "over_abandoned", player=names[session.abandoned])}
        if session.error:
            return {"winner": None, "text": self.words.say(lang, "over_error", error=session.error[:200])}
        if not s.terminal:
            return None
        if s.winner is not None:
            return {"winner": s.winner, "text": self.words.say(lang, "over_win", player=names[s.winner])}
        return {"winner": None, "text": self.words.say(lang, "over_capped", reason=self.logs[lang].reason(s.capped))}

    # -- the decision ---------------------------------------------------------------------------
    def decision(self, session: Session, lang: str) -> dict:
        s = session.state
        kind = s.decision_kind()
        return {"kind": kind, "player": s.pending, "prompt": self.prompt(s, kind, lang),
                "options": [self.option(s, i, a, kind, lang) for i, a in enumerate(s.options)]}

    def prompt(self, s, kind: str, lang: str) -> str:
        if kind in ("main", "window:idle", "window:when", "order"):
            return self.words.say(lang, kind)
        if kind == "window:step3":
            cid = Observation(s, s.pending).announced()
            return self.words.say(lang, kind, card=self.card(s, cid, lang)["name"]) if cid >= 0 else self.words.say(lang, "window:step3_summon")
        if kind == "guard":
            d, _ = _resolving(s)
            if d is None:
                return self.words.say(lang, "guard", n=s.stack[-1].damage)
            return self.words.say(lang, "guard_from", n=s.stack[-1].damage, card=self.names[lang][d.id])
        if kind == "may":
            d, _ = _resolving(s)
            return self.words.say(lang, "may", card=self.names[lang][d.id] if d else "", text=self.line_text(s.stack[-1].line, lang))
        pick = s.stack[-1]
        optional, picked = pick.optional, pick.picked
        left = pick.count - len(picked)
        if kind in ("pick:keep", "pick:set_aside"):
            return self.words.say(lang, kind, k=left)
        d, ln = _resolving(s)
        if kind == "pick:sacrifice" and pick.cost_of is not None:
            d, ln = pick.cost_of, (pick.cost_of.sacrifice_lines or (None,))[0]
        card = self.names[lang][d.id] if d is not None else ""
        if kind == "pick:allegiance":
            return self.words.say(lang, kind, card=card, k=left)
        key = ("pick_optional" if optional else "pick") + ("" if picked else "_first")
        return self.words.say(lang, key, card=card, text=self.line_text(ln, lang), k=left)

    def option(self, s, i: int, a, kind: str, lang: str) -> dict:
        out = {"i": i, "action": list(a), "kind": a.kind, "card": None}
        k = a.kind
        if k in ("play", "summon", "activate", "trap", "guard", "pick"):
            out["card"] = self.card(s, a.a, lang)
            key = f"opt:{kind}" if k == "pick" and self.words.has(lang, f"opt:{kind}") else "opt:" + k
            out["label"] = self.words.say(lang, key, card=out["card"]["name"])
        elif k == "buy":
            out["card"] = self.card(s, s.row[a.a], lang)
            out["label"] = self.words.say(lang, "opt:buy", card=out["card"]["name"], n=s.defs[s.row[a.a]].cost)
        elif k in ("raise", "faction"):
            f = FACTIONS[a.a]
            out["faction"] = f
            # an allegiance is a colour, as the tracks (and the replay's) name it
            out["label"] = self.words.say(lang, "opt:" + k, faction=self.logs[lang].fnames.get(f, f))
        elif k == "pass":
            out["label"] = self.words.say(lang, "opt:take", n=s.stack[-1].damage) if kind == "guard" else self.words.say(lang, "opt:pass")
        elif k == "stop":
            out["label"] = self.words.say(lang, "opt:keep_none" if kind == "pick:keep" else "opt:stop")
        elif k == "order":
            waiting = s.pools[-1][a.a]
            text = "; ".join(self.line_text(ln, lang) for ln in waiting.lines)
            out["label"] = self.words.say(lang, "opt:order", card=self.names[lang][waiting.design.id]) + (f": {text}" if text else "")
        else:  # end, yes, no
            out["label"] = self.words.say(lang, "opt:" + k)
        return out


def _resolving(s):
    """The card whose lines are being read and the line being resolved, under the current decision."""
    for t in reversed(s.stack[:-1]):
        if type(t) is Lines:
            return t.design, t.lines[t.at - 1] if 0 < t.at <= len(t.lines) else None
    return None, None
