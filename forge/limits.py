"""Defaults and caps the command line shows in its help, kept apart so that `forge --help` loads nothing else."""
from __future__ import annotations

#: Games of `forge check`'s smoke simulation: two rounds of the 12 ordered pairings.
SMOKE_GAMES_CHECK = 24
#: Games of `forge build`'s smoke simulation: every ordered pairing of factions, both seats, four times.
SMOKE_GAMES_BUILD = 48
#: The largest turn and decision caps a game (or a record) may ask for.
MAX_TURN_CAP = 100_000
MAX_DECISION_CAP = 1_000_000
#: forge simulate --budget: the search agent's imagined games per decision (each a few turns long).
DEFAULT_SEARCH_BUDGET = 64
MAX_SEARCH_BUDGET = 100_000

# -- budgets of untrusted files (issue 23 §3): every one is checked before a library parses the file --
#: Pixels a raster (art, or a raster embedded in SVG art) may declare in its header. Art is printed at
#: 300 DPI of a window of about 60 × 45 mm (under a million pixels): this is five times that on each side.
#: Pillow's own decompression-bomb limit (``Image.MAX_IMAGE_PIXELS``) is set to it too.
MAX_IMAGE_PIXELS = 25_000_000
#: SVG art: elements in the file; elements and characters of markup drawn once every ``<use>`` is
#: expanded (svglib copies the referenced element for each: about 0.3 ms an element and 1 s a MB of
#: path data, so a file within budget draws in a few seconds); ``<use>`` inside ``<use>`` nesting;
#: characters of one attribute (an embedded raster's base64 included) and of ``<style>`` sheets.
#: The largest game-icons.net icon has under 50 elements; a detailed illustration a few thousand.
MAX_SVG_ELEMENTS = 10_000
MAX_SVG_EXPANDED = 10_000
MAX_SVG_EXPANDED_CHARS = 2_000_000
MAX_SVG_USE_DEPTH = 8
MAX_SVG_ATTRIBUTE_CHARS = 4_000_000
MAX_SVG_STYLE_CHARS = 64_000
#: Spreadsheets (`forge cards import`): an XLSX zip's entries, unpacked bytes and compression ratio,
#: checked before openpyxl opens it; then, for CSV and XLSX alike, the rows, columns and characters
#: actually read (never the size a sheet declares). The shipped game has ~100 cards and 30 columns.
MAX_XLSX_ENTRIES = 1000
MAX_XLSX_UNPACKED = 64 * 1024 * 1024
MAX_XLSX_RATIO = 200
MAX_SHEET_ROWS = 10_000
MAX_SHEET_COLUMNS = 256
MAX_SHEET_CHARS = 8_000_000
