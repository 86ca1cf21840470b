"""The play server: a Starlette app with the page, the games' API, their live updates and the cards' pictures.

Every refusal is a 4xx with a JSON body ``{"error": reason}`` that says what was
wrong and leaves the game as it was; nothing a request sends can reach a
traceback. A game is opened only with one of its keys (``forge.play.seats``), which
says the seats it may decide for (none: a spectator); what each answer shows is that
seat's view (``forge.play.views``). The gate (``forge.core.httpguard``, shared with ``forge watch``) answers only
to the server's own Host names and asks a CSRF token off loopback; the app sends a content
security policy that allows only its own page, scripts and pictures (the scripts also
pinned by their hashes, ``integrity``), and serves no file by a path a request names:
the page and its scripts are held in memory, a picture is looked up by card id
(``forge.play.images``), a record by game number (``forge.play.store``).

The engine runs off the event loop, in a small pool of threads (``ENGINE_THREADS``): a
move, the AI's answers, the record's append and fsync, and the view are one job there,
so the loop only reads requests and writes answers, and a long AI turn of one game
delays no other game's page.
"""
from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from importlib.resources import files

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..core.csp import integrity
from ..core.httpguard import LOOPBACK, Guard, csrf_cookie, csrf_token
from ..engine import Action
from ..core.escape import html_text
from ..carddb.vocabulary import FACTIONS
from . import live
from .guard import Bucket
from .images import CardImages
from .seats import HEADER as KEY_HEADER
from .session import HUMAN, PlayError
from .store import GameStore
from .views import Viewer
from .words import LANGS

#: The largest request body the API reads (a decision is a few dozen bytes).
MAX_BODY = 16 * 1024
STATIC = {"app.js": "text/javascript; charset=utf-8", "live.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8", "live.css": "text/css; charset=utf-8"}
#: Threads the engine's jobs run in: the engine holds the GIL, so more would only make the loop wait longer.
ENGINE_THREADS = 4
#: A key's moves: a person clicks a few times a second at most (a scripted player runs into it).
MOVES_PER_SECOND, MOVES_BURST = 50.0, 200.0
#: New games, for the whole server (each is a file on disk).
GAMES_PER_SECOND, GAMES_BURST = 10.0, 200.0
#: Games the lobby asks about at once.
MAX_LOBBY = 100


def _static() -> dict[str, bytes]:
    """The page's files, held in memory; the page names its scripts' hashes (Subresource Integrity), so a
    browser runs no script but forge's own ``live.js`` and ``app.js``."""
    folder = files(__package__) / "static"
    pages = {name: (folder / name).read_bytes() for name in (*STATIC, "index.html")}
    pages["index.html"] = (pages["index.html"].replace(b"{{integrity}}", integrity(pages["app.js"]).encode())
                           .replace(b"{{integrity_live}}", integrity(pages["live.js"]).encode()))
    return pages


def _error(status: int, reason: str, **details) -> JSONResponse:
    return JSONResponse({"error": reason, "status": status, **details}, status_code=status)


class PlayApp:
    """The routes over one store of games, one viewer and one picture cache."""

    def __init__(self, store: GameStore, viewer: Viewer, images: CardImages | None, secure: bool = False) -> None:
        self.store, self.viewer, self.images, self.secure = store, viewer, images, secure
        self.pages = _static()
        self.hub = live.Hub()
        self.engine = ThreadPoolExecutor(ENGINE_THREADS, thread_name_prefix="forge-play")
        self.moves, self.new_games = Bucket(MOVES_PER_SECOND, MOVES_BURST), Bucket(GAMES_PER_SECOND, GAMES_BURST)

    async def run(self, job, *args):
        """``job(*args)`` in the engine's threads: the loop goes on serving the other games meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self.engine, job, *args)

    # -- helpers ------------------------------------------------------------------------------
    @staticmethod
    def lang(request: Request) -> str:
        lang = request.query_params.get("lang", "en")
        if lang not in LANGS:
            raise PlayError(400, f"lang {lang[:20]!r}: choose {' or '.join(LANGS)}")
        return lang

    @staticmethod
    async def body(request: Request) -> dict:
        # A page of another site can post a form or text/plain here without asking; JSON it cannot.
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise PlayError(415, "the request body is JSON: send it with content-type: application/json")
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            raise PlayError(413, f"the request body is larger than {MAX_BODY} bytes")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise PlayError(413, f"the request body is larger than {MAX_BODY} bytes")
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise PlayError(400, "the request body is not JSON") from None
        if not isinstance(data, dict):
            raise PlayError(400, "the request body is a JSON object")
        return data

    async def opened(self, request: Request, gid: str | None = None, key: str | None = None):
        """The game a request names and the grant its key holds on it (the key checked before the record is read)."""
        gid = gid if gid is not None else request.path_params["gid"]
        grant = self.store.authorize(gid, key if key is not None else request.headers.get(KEY_HEADER))
        if gid in self.store.sessions:
            return self.store.get(gid), grant  # held in memory: no file is read
        return await self.run(self.store.get, gid), grant

    @staticmethod
    def seat(session, grant, raw) -> int | None:
        """The seat a request speaks for: one of its key's (None for a spectator, who decides nothing)."""
        if grant.spectator:
            return None
        try:
            seat = int(raw if raw is not None else _pending_human(session, grant.seats))
        except (TypeError, ValueError):
            raise PlayError(400, f"seat {str(raw)[:20]!r}: a seat is 0 or 1") from None
        if seat not in (0, 1):
            raise PlayError(400, f"seat {seat}: a seat is 0 or 1")
        if session.seats[seat] != HUMAN:
            raise PlayError(403, f"seat {seat} is the AI's: its hand is not shown")
        if seat not in grant.seats:
            raise PlayError(403, f"this link plays seat {grant.seats[0]}, not seat {seat}: its hand is not shown")
        return seat

    def view(self, session, grant, lang: str, raw_seat=None) -> dict:
        """The view a key may see now (in the engine's threads: the view reads the state)."""
        with session.lock:
            return self.viewer.view(session, self.seat(session, grant, raw_seat), lang)

    # -- the page ---------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        lang = request.query_params.get("lang")
        if lang not in LANGS:
            lang = "fr" if request.headers.get("accept-language", "").lower().startswith("fr") else "en"
        title = html_text(self.viewer.words.get(lang, "title"))  # a translator's words: text, never markup
        token = csrf_token(request.headers.get("cookie"))
        html = (self.pages["index.html"].decode("utf-8").replace("{{lang}}", lang).replace("{{title}}", title)
                .replace("{{csrf}}", token))
        return Response(html, media_type="text/html; charset=utf-8",
                        headers={"set-cookie": csrf_cookie(token, self.secure)})

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            raise PlayError(404, f"no such file {name[:60]!r}: the page's files are {', '.join(STATIC)}")
        return Response(self.pages[name], media_type=STATIC[name])

    async def card(self, request: Request) -> Response:
        lang, name = request.path_params["lang"], request.path_params["name"]
        if not name.endswith(".jpg") or self.images is None:
            raise PlayError(404, f"no picture {name[:60]!r}: a card's picture is /card/<en|fr>/<card id>.jpg")
        data = await self.run(self.images.get, name[:-4], lang)
        return Response(data, media_type="image/jpeg")

    # -- the API ----------------------------------------------------------------------------
    async def cards(self, request: Request) -> Response:
        return JSONResponse(self.viewer.catalogue(self.lang(request)))

    async def words(self, request: Request) -> Response:
        lang = self.lang(request)
        return JSONResponse({**self.viewer.words.table(lang), "factions": {f: self.viewer.faction_name(f, lang) for f in FACTIONS}})

    async def create(self, request: Request) -> Response:
        data = await self.body(request)
        mode = data.get("mode", "ai")
        if mode not in ("ai", "hotseat", "remote"):
            raise PlayError(400, f"mode {str(mode)[:20]!r}: choose ai, hotseat or remote")
        ai = data.get("ai", "heuristic")
        seats = (HUMAN, HUMAN) if mode != "ai" else (HUMAN, ai)
        factions = data.get("factions", ["red", "blue"])
        if not (isinstance(factions, list) and len(factions) == 2 and all(f in FACTIONS for f in factions)):
            raise PlayError(400, f"factions: two of {', '.join(FACTIONS)}")
        first, seed, expert = data.get("first", 0), data.get("seed"), data.get("expert", False)
        spectate = data.get("spectator", False)
        if first not in (0, 1) or type(first) is not int:
            raise PlayError(400, "first: 0 (you, or player 1) or 1")
        if seed is not None and not (type(seed) is int and 0 <= seed < 1 << 63):
            raise PlayError(400, "seed: a whole number from 0, or null for a secret deal")
        if seed is not None and mode == "remote":
            raise PlayError(400, "seed: a game against a person is dealt in secret (a chosen seed would tell "
                                 "its creator both decks)")
        if type(expert) is not bool or type(spectate) is not bool:
            raise PlayError(400, "expert and spectator: true or false")
        if not self.new_games.allow("all"):
            raise PlayError(429, "too many new games at once: try again in a moment")
        session, made = await self.run(self.store.create, seed, (factions[0], factions[1]), first, seats, expert,
                                       mode == "remote")
        url = f"/game/{session.gid}"
        out = {"game": session.gid, "seat": session.humans()[0], "mode": mode, "url": url, "key": made[0],
               "link": f"{url}#{made[0]}"}
        if mode == "remote":
            out["invite"] = f"{url}#{made[1]}"
        if spectate:
            out["spectate"] = f"{url}#{self.store.add_grant(session.gid, ())}"
        return JSONResponse(out, status_code=201)

    async def spectator(self, request: Request) -> Response:
        session, grant = await self.opened(request)
        if grant.spectator:
            raise PlayError(403, "a spectator's link makes no other link")
        return JSONResponse({"spectate": f"/game/{session.gid}#{self.store.add_grant(session.gid, ())}"},
                            status_code=201)

    async def show(self, request: Request) -> Response:
        session, grant = await self.opened(request)
        lang = self.lang(request)
        return JSONResponse(await self.run(self.view, session, grant, lang, request.query_params.get("seat")))

    async def events(self, request: Request) -> Response:
        session, grant = await self.opened(request)
        lang = self.lang(request)
        raw = request.query_params.get("seat")
        with session.lock:
            self.seat(session, grant, raw)  # a seat the key does not hold is refused now, not in the stream
        refused = self.hub.admit(grant.sha256)
        if refused:
            raise PlayError(429, refused)

        async def build():
            return await self.run(self.view, session, grant, lang, raw)

        return StreamingResponse(live.stream(self.hub, session, grant.sha256, build), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    def _move(self, session, grant, data: dict, action: Action, decision: int, lang: str) -> dict:
        """One move from the decision to the record on disk and the next view (in the engine's threads)."""
        with session.lock:
            seat = self.seat(session, grant, data.get("seat"))
            if seat is None:
                raise PlayError(403, "a spectator's link watches the game: it decides nothing")
            moved = session.decide(seat, decision, action)
            saved = time.perf_counter()
            self.store.save(session)
            saved = time.perf_counter() - saved
            nxt = _pending_human(session, grant.seats) if not session.over else seat
            view = self.viewer.view(session, nxt, lang)
        view["timing"] = {"human_ms": round(moved.human * 1000, 3), "ai_ms": round(moved.ai * 1000, 3),
                          "ai_decisions": moved.ai_decisions, "save_ms": round(saved * 1000, 3)}
        return view

    async def decide(self, request: Request) -> Response:
        start = time.perf_counter()
        session, grant = await self.opened(request)
        lang = self.lang(request)
        data = await self.body(request)
        action, decision = data.get("action"), data.get("decision")
        if not (isinstance(action, list) and len(action) == 3 and isinstance(action[0], str) and
                all(type(v) is int for v in action[1:])):
            raise PlayError(400, "action: [kind, a, b] as the view's options give it")
        if type(decision) is not int:
            raise PlayError(400, "decision: the view's decision_no")
        if not self.moves.allow(grant.sha256):
            raise PlayError(429, f"more than {MOVES_PER_SECOND:g} moves a second from one link: slow down")
        async with _serial(session):  # one move of a game at a time, from its decision to its record on disk
            try:
                view = await self.run(self._move, session, grant, data, Action(action[0][:20], action[1], action[2]),
                                      decision, lang)
            finally:
                self.hub.notify(session.gid)
        total = time.perf_counter() - start
        t = view["timing"]
        t["server_ms"] = round(total * 1000, 3)
        timing = f"engine;dur={t['human_ms']:.3f}, ai;dur={t['ai_ms']:.3f}, save;dur={t['save_ms']:.3f}"
        return JSONResponse(view, headers={"server-timing": timing})

    async def abandon(self, request: Request) -> Response:
        session, grant = await self.opened(request)
        if grant.spectator:
            raise PlayError(403, "a spectator's link watches the game: it cannot abandon it")
        lang = self.lang(request)
        async with _serial(session):
            await self.run(self.store.abandon, session, grant.seats[0])
        self.hub.notify(session.gid)
        return JSONResponse(await self.run(self.view, session, grant, lang, None))

    async def lobby(self, request: Request) -> Response:
        """The state of the games whose links the page keeps (the server keeps no list of anyone's games)."""
        data = await self.body(request)
        games = data.get("games")
        if not (isinstance(games, list) and len(games) <= MAX_LOBBY and all(
                isinstance(g, dict) and isinstance(g.get("game"), str) and isinstance(g.get("key"), str)
                for g in games)):
            raise PlayError(400, f"games: a list of at most {MAX_LOBBY} {{game, key}} objects")
        lang, out = self.lang(request), []
        for g in games:
            try:
                session, grant = await self.opened(request, g["game"][:12], g["key"][:64])
            except PlayError as exc:
                out.append({"game": g["game"][:12], "status": "gone", "error": exc.reason})
                continue
            out.append(await self.run(self._status, session, grant, lang))
        return JSONResponse({"games": out})

    def _status(self, session, grant, lang: str) -> dict:
        with session.lock:
            s = session.state
            seat = None if grant.spectator else grant.seats[0]
            over = self.viewer.outcome(session, lang, self.viewer.player_names(session, lang, seat))
            status = ("abandoned" if session.abandoned is not None else "over" if over else
                      "your_turn" if s.pending in grant.seats else "their_turn")
            return {"game": session.gid, "mode": session.mode, "role": "spectator" if seat is None else "player",
                    "seat": seat, "status": status, "turn": s.turn, "factions": list(s.factions),
                    "text": over["text"] if over else None}

    async def log(self, request: Request) -> Response:
        session, _ = await self.opened(request)
        lang = self.lang(request)

        def lines():
            with session.lock:
                return list(self.viewer.log(session, lang))
        return JSONResponse({"game": session.gid, "lang": lang, "log": await self.run(lines)})

    async def record(self, request: Request) -> Response:
        session, _ = await self.opened(request)
        with session.lock:
            if not session.over and not session.is_hotseat():
                raise PlayError(409, "the record shows the other hand and the decks: it is yours once the game "
                                     "is over")
            text = session.record_text()
        return Response(text, media_type="application/x-ndjson",
                        headers={"content-disposition": f'attachment; filename="game-{int(session.gid):06d}.jsonl"'})


def _serial(session) -> asyncio.Lock:
    """The game's own queue for moves (an asyncio lock: a move waits for the disk without holding the loop)."""
    if session.serial is None:
        session.serial = asyncio.Lock()
    return session.serial


def _pending_human(session, seats: tuple[int, ...]) -> int:
    """The seat a page shows when it names none: of its key's seats, the one deciding now, else the first."""
    p = session.state.pending
    return p if p in seats else seats[0]


async def _play_error(request: Request, exc: PlayError) -> Response:
    return _error(exc.status, exc.reason, **exc.details)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    reason = {404: "no such page: this server serves /, /game/<number>, /static/<file>, /card/<en|fr>/<card id>.jpg "
                   "and /api/…", 405: f"{request.method} is not allowed here"}.get(exc.status_code, exc.detail)
    return _error(exc.status_code, reason)


async def _crash(request: Request, exc: Exception) -> Response:
    return _error(500, f"the server failed on this request ({type(exc).__name__}); the game was not changed")


def create_app(store: GameStore, viewer: Viewer, images: CardImages | None, hosts: tuple[str, ...] = LOOPBACK,
               csrf: bool = False, secure: bool = False) -> Starlette:
    """The play server's ASGI app: ``hosts`` are the Host names it answers to besides loopback's, ``csrf`` asks
    a CSRF token of every POST (off loopback), ``secure`` marks its cookie for HTTPS only."""
    play = PlayApp(store, viewer, images, secure)
    routes = [
        Route("/", play.page), Route("/game/{gid}", play.page),
        Route("/static/{name}", play.static), Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/card/{lang}/{name}", play.card),
        Route("/api/cards", play.cards), Route("/api/words", play.words),
        Route("/api/games", play.create, methods=["POST"]), Route("/api/lobby", play.lobby, methods=["POST"]),
        Route("/api/games/{gid}", play.show), Route("/api/games/{gid}/decide", play.decide, methods=["POST"]),
        Route("/api/games/{gid}/events", play.events),
        Route("/api/games/{gid}/spectator", play.spectator, methods=["POST"]),
        Route("/api/games/{gid}/abandon", play.abandon, methods=["POST"]),
        Route("/api/games/{gid}/log", play.log), Route("/api/games/{gid}/record", play.record),
    ]
    middleware = [Middleware(Guard, hosts=hosts, csrf=csrf)]
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={PlayError: _play_error, HTTPException: _http_error, Exception: _crash})
    app.state.play = play
    return app
