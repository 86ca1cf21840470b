"""Checks: everything that can be wrong with a game project (validate) and the CI gate (check).

A feature layer: it reads the books, translations, renderer and simulator below it.
"""
