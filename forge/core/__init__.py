"""The core: reading untrusted files, atomic writes, workers and boxes, sandboxes, findings, caps.

It imports nothing else of forge; every other layer may import it.
"""
