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

# -- forge check's box (issue 23 §4): the OS limits each check's child process runs under -----------------------
# Measured on the shipped game (each check's child, wait4 and /proc/self/status, a 2-core machine shared with other
# jobs): the costliest check, the books, uses 1.1-1.7 CPU s and adds 53 MiB of address space (64 MiB resident);
# the smoke simulation with --jobs 2 adds 211 MiB (its pool's threads reserve address space); the others use
# under 0.7 CPU s and add under 20 MiB.
#: Address space a check may add to what it starts with (RLIMIT_AS): 5x the simulation's, 19x the books'.
#: An allocation past it is a MemoryError, reported as a [budget] finding.
BOX_MEMORY = 1 << 30
#: CPU seconds of a check (RLIMIT_CPU): 18x the books' on the shipped game, room for a game three times
#: the size on a machine twice as slow, while a runaway check stops in half a minute.
BOX_CPU = 30
#: More CPU seconds for the smoke simulation, per game asked: a shipped game takes about 5 ms (20x).
BOX_CPU_PER_GAME = 0.1
#: Wall seconds of a check per CPU second of its budget: a backstop for a child that waits instead of working,
#: generous for a CI machine shared with other jobs.
BOX_WALL_PER_CPU = 4
#: Bytes of the result a check sends back (findings and summary, pickled; ~300 bytes a finding, so some
#: 25,000 findings; the shipped game's largest result is 376 bytes).
BOX_OUTPUT = 8 << 20
