"""``forge play``: a person plays Rift Commanders in a web page, against the AI or hot-seat.

``session`` holds one game (the engine's state, the AI seats' agents, the record as
it grows); ``store`` keeps every game's record under the play folder and reads it
back after a restart; ``views`` turns a game into what one seat may see, with the
decision's legal options in words; ``images`` draws the cards' pictures with the
card renderer; ``server`` is the Starlette app; ``project`` builds it from a
project folder. The page itself is ``static/``.
"""
