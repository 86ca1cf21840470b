"""Static web pages made from the game: the card gallery and the replay viewer.

Each page is one self-contained HTML file (data, styles, script and card pictures
inlined; a Content-Security-Policy that lets it load nothing else), laid out by a
template of this package in forge's Jinja sandbox, with the same bytes from the
same inputs, written atomically. ``forge/commands`` only wires them to the CLI.
"""
