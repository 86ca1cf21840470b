"""The card database: vocabulary, typed model, YAML source, schema, loader.

Above the core only; what every later stage reads.
"""
