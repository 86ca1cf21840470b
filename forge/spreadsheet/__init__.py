"""Cards in and out of spreadsheets: `forge cards export` and `forge cards import`.

Designers draft in spreadsheets. A sheet has one row per card and one column per
field (``columns``); its cells hold the field's value in a short YAML flow syntax
(``flow``), effects one line per effect line. Import reads a sheet (``tables``),
checks every cell against the card schema at its row and column, and writes only
the cards that changed back into their YAML file in the files' own style, leaving
every other byte as it was (``merge``): an export followed by an import changes
nothing.
"""
