"""``forge play``: a person plays Rift Commanders in a web page, against the AI, hot-seat, or against a person
on another machine.

``session`` holds one game (the engine's state, the AI seats' agents, the record as
it grows, the clock); ``store`` keeps every game's record under the play folder (appended
after each move) and reads it back after a restart; ``seats`` holds each game's keys (a
secret link per seat, read-only spectators' links); ``views`` turns a game into what one
seat may see, through the engine's ``Observation``, with the decision's legal options in
words; ``live`` streams each page its view as the game changes (Server-Sent Events);
``guard`` holds the rates (the gate, Host, Origin, CSRF, is
``forge.core.httpguard``, shared with ``forge watch``); ``images`` draws the cards' pictures
with the card renderer; ``server`` is the Starlette app; ``project`` builds it from a
project folder; ``serving`` runs it. The page itself is ``static/`` (``live.js``: its live part).
"""
