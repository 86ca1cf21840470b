"""``forge watch``: a live preview of the cards while a designer edits them.

``snapshot`` notices saved files by polling (a hundred small files: cheaper than
any notification API, and the same on every system); ``state`` re-validates the
project and re-renders the proof image of each card whose inputs changed, the
edited ones first; ``server`` shows them on a local page that refreshes itself
(server-sent events), with each finding beside its card. The server reads no file
on a request: it serves its own page and the images it holds in memory.
"""
