"""The play server: a Starlette app with the page, the games' API and the cards' pictures.

Every refusal is a 4xx with a JSON body ``{"error": reason}`` that says what was
wrong and leaves the game as it was; nothing a request sends can reach a
traceback. The app answers only to its own address (a page on another site
cannot reach it through DNS rebinding), sends a content security policy that
allows only its own page, script and pictures (the script also pinned by the hash
of forge's file, ``integrity``), and serves no file by a path a request names:
the page and its script are held in memory, a picture is looked
up by card id (``forge.play.images``), a record by game number
(``forge.play.store``).
"""
from __future__ import annotations

import asyncio
import json
import time
from importlib.resources import files

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..csp import integrity
from ..engine import Action
from ..escape import html_text
from ..vocabulary import FACTIONS
from .images import CardImages
from .session import HUMAN, PlayError
from .store import GameStore
from .views import Viewer
from .words import LANGS

#: The largest request body the API reads (a decision is a few dozen bytes).
MAX_BODY = 16 * 1024
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
                                 b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]
STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def _static() -> dict[str, bytes]:
    """The page's files, held in memory; the page names its script's hash (Subresource Integrity), so a
    browser runs no script but forge's own ``app.js``."""
    folder = files(__package__) / "static"
    pages = {name: (folder / name).read_bytes() for name in (*STATIC, "index.html")}
    pages["index.html"] = pages["index.html"].replace(b"{{integrity}}", integrity(pages["app.js"]).encode())
    return pages

class _Guard:
    """Answers only to the server's own Host names (421 otherwise) and adds the security headers to every
    response (a plain ASGI middleware: no task per request)."""

    def __init__(self, app, hosts: tuple[str, ...]) -> None:
        self.app, self.hosts = app, {h.lower() for h in hosts}

    def allowed(self, scope) -> bool:
        if "*" in self.hosts:
            return True
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name.lower() in self.hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        if not self.allowed(scope):
            response = _error(421, "this server answers only to its own address (127.0.0.1 or localhost); "
                                   "start it with --host to serve another name")
            return await response(scope, receive, send_with_headers)
        await self.app(scope, receive, send_with_headers)


def _error(status: int, reason: str, **details) -> JSONResponse:
    return JSONResponse({"error": reason, "status": status, **details}, status_code=status)


class PlayApp:
    """The routes over one store of games, one viewer and one picture cache."""

    def __init__(self, store: GameStore, viewer: Viewer, images: CardImages | None) -> None:
        self.store, self.viewer, self.images = store, viewer, images
        self.pages = _static()

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

    async def session(self, gid: str):
        if gid in self.store.sessions:
            return self.store.get(gid)  # held in memory: no file is read
        return await run_in_threadpool(self.store.get, gid)

    @staticmethod
    def seat(session, raw) -> int:
        try:
            seat = int(raw if raw is not None else session.humans()[0])
        except (TypeError, ValueError):
            raise PlayError(400, f"seat {str(raw)[:20]!r}: a seat is 0 or 1") from None
        if seat not in (0, 1):
            raise PlayError(400, f"seat {seat}: a seat is 0 or 1")
        if session.seats[seat] != HUMAN:
            raise PlayError(403, f"seat {seat} is the AI's: its hand is not shown")
        return seat

    # -- the page ---------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        lang = request.query_params.get("lang")
        if lang not in LANGS:
            lang = "fr" if request.headers.get("accept-language", "").lower().startswith("fr") else "en"
        title = html_text(self.viewer.words.get(lang, "title"))  # a translator's words: text, never markup
        html = self.pages["index.html"].decode("utf-8").replace("{{lang}}", lang).replace("{{title}}", title)
        return Response(html, media_type="text/html; charset=utf-8")

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            raise PlayError(404, f"no such file {name[:60]!r}: the page's files are {', '.join(STATIC)}")
        return Response(self.pages[name], media_type=STATIC[name])

    async def card(self, request: Request) -> Response:
        lang, name = request.path_params["lang"], request.path_params["name"]
        if not name.endswith(".jpg") or self.images is None:
            raise PlayError(404, f"no picture {name[:60]!r}: a card's picture is /card/<en|fr>/<card id>.jpg")
        data = await run_in_threadpool(self.images.get, name[:-4], lang)
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
        if mode not in ("ai", "hotseat"):
            raise PlayError(400, f"mode {str(mode)[:20]!r}: choose ai or hotseat")
        ai = data.get("ai", "heuristic")
        seats = (HUMAN, HUMAN) if mode == "hotseat" else (HUMAN, ai)
        factions = data.get("factions", ["red", "blue"])
        if not (isinstance(factions, list) and len(factions) == 2 and all(f in FACTIONS for f in factions)):
            raise PlayError(400, f"factions: two of {', '.join(FACTIONS)}")
        first, seed, expert = data.get("first", 0), data.get("seed"), data.get("expert", False)
        if first not in (0, 1) or type(first) is not int:
            raise PlayError(400, "first: 0 (you, or player 1) or 1")
        if seed is not None and not (type(seed) is int and 0 <= seed < 1 << 63):
            raise PlayError(400, "seed: a whole number from 0, or null for the game's number")
        if type(expert) is not bool:
            raise PlayError(400, "expert: true or false")
        session = self.store.create(seed, (factions[0], factions[1]), first, seats, expert)
        return JSONResponse({"game": session.gid, "seat": session.humans()[0], "url": f"/game/{session.gid}"},
                            status_code=201)

    async def show(self, request: Request) -> Response:
        session = await self.session(request.path_params["gid"])
        lang = self.lang(request)
        with session.lock:
            seat = self.seat(session, request.query_params.get("seat", _pending_human(session)))
            return JSONResponse(self.viewer.view(session, seat, lang))

    async def decide(self, request: Request) -> Response:
        start = time.perf_counter()
        session = await self.session(request.path_params["gid"])
        lang = self.lang(request)
        data = await self.body(request)
        action, decision = data.get("action"), data.get("decision")
        if not (isinstance(action, list) and len(action) == 3 and isinstance(action[0], str) and
                all(type(v) is int for v in action[1:])):
            raise PlayError(400, "action: [kind, a, b] as the view's options give it")
        if type(decision) is not int:
            raise PlayError(400, "decision: the view's decision_no")
        async with _serial(session):  # one move of a game at a time, from its decision to its record on disk
            with session.lock:
                seat = self.seat(session, data.get("seat", _pending_human(session)))
                moved = session.decide(seat, decision, Action(action[0][:20], action[1], action[2]))
                text = session.record_text()
            saved = time.perf_counter()
            # the rename waits on the disk: in a thread, so that the other games go on meanwhile
            await run_in_threadpool(self.store.write, session.gid, text)
            saved = time.perf_counter() - saved
            with session.lock:
                nxt = _pending_human(session) if session.is_hotseat() and not session.over else seat
                view = self.viewer.view(session, nxt, lang)
        total = time.perf_counter() - start
        view["timing"] = {"human_ms": round(moved.human * 1000, 3), "ai_ms": round(moved.ai * 1000, 3),
                          "ai_decisions": moved.ai_decisions, "save_ms": round(saved * 1000, 3),
                          "server_ms": round(total * 1000, 3)}
        timing = f"engine;dur={moved.human * 1000:.3f}, ai;dur={moved.ai * 1000:.3f}, save;dur={saved * 1000:.3f}"
        return JSONResponse(view, headers={"server-timing": timing})

    async def log(self, request: Request) -> Response:
        session = await self.session(request.path_params["gid"])
        lang = self.lang(request)
        with session.lock:
            return JSONResponse({"game": session.gid, "lang": lang, "log": list(self.viewer.log(session, lang))})

    async def record(self, request: Request) -> Response:
        session = await self.session(request.path_params["gid"])
        with session.lock:
            if not session.over and not session.is_hotseat():
                raise PlayError(409, "the record shows the AI's hand: it is yours once the game is over")
            text = session.record_text()
        return Response(text, media_type="application/x-ndjson",
                        headers={"content-disposition": f'attachment; filename="game-{int(session.gid):06d}.jsonl"'})


def _serial(session) -> asyncio.Lock:
    """The game's own queue for moves (an asyncio lock: a move waits for the disk without holding the loop)."""
    if session.serial is None:
        session.serial = asyncio.Lock()
    return session.serial


def _pending_human(session) -> int:
    """The seat the page shows when it names none: the person deciding now, else the first person."""
    p = session.state.pending
    return p if p in session.humans() else session.humans()[0]


async def _play_error(request: Request, exc: PlayError) -> Response:
    return _error(exc.status, exc.reason, **exc.details)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    reason = {404: "no such page: this server serves /, /game/<number>, /static/<file>, /card/<en|fr>/<card id>.jpg "
                   "and /api/…", 405: f"{request.method} is not allowed here"}.get(exc.status_code, exc.detail)
    return _error(exc.status_code, reason)


async def _crash(request: Request, exc: Exception) -> Response:
    return _error(500, f"the server failed on this request ({type(exc).__name__}); the game was not changed")


def create_app(store: GameStore, viewer: Viewer, images: CardImages | None, hosts: tuple[str, ...] = LOOPBACK
               ) -> Starlette:
    """The play server's ASGI app (``hosts``: the Host names it answers to; ``("*",)`` for any)."""
    play = PlayApp(store, viewer, images)
    routes = [
        Route("/", play.page), Route("/game/{gid}", play.page),
        Route("/static/{name}", play.static), Route("/favicon.ico", lambda request: Response(status_code=204)), Route("/card/{lang}/{name}", play.card),
        Route("/api/cards", play.cards), Route("/api/words", play.words),
        Route("/api/games", play.create, methods=["POST"]),
        Route("/api/games/{gid}", play.show), Route("/api/games/{gid}/decide", play.decide, methods=["POST"]),
        Route("/api/games/{gid}/log", play.log), Route("/api/games/{gid}/record", play.record),
    ]
    middleware = [Middleware(_Guard, hosts=hosts)]
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={PlayError: _play_error, HTTPException: _http_error, Exception: _crash})
    app.state.play = play
    return app
