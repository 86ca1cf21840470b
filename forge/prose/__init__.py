"""The books' prose grammar: CommonMark, ``:::`` blocks and a closed set of ``{name:args}`` directives.

Contributor prose is data: this package parses it (markdown-it-py, raw HTML off) into
tokens and directives with their lines, within a budget, and renders it to escaped HTML
through a resolver that forge's book code supplies. Nothing here runs the text, reads a
file it names, or knows about cards: it is shared by the books and by i18n.
"""
