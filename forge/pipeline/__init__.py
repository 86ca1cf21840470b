"""Whole-project runs: build the kit, sync derived files, diff two revisions.

The highest feature layer, just below the commands.
"""
