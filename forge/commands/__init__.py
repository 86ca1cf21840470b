"""One module per CLI command; ``forge.cli`` registers them.

The command modules import what a command runs inside the command's function (start-up time):
``forge --help`` loads every one of them and must load none of the engine, renderer or books
(tests/cli/test_fast_start.py), so these in-function imports are the lazy ones that stay.
"""
