"""The closed set of directives a book's prose may write, each with a fixed argument signature.

A directive is ``{name}`` or ``{name:arg arg}``; its words are ids and keys, never
expressions. What each one prints is forge's Python (``forge.books.compose``); this table
is only what the grammar accepts, so the books, i18n and the README read the same list.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Signature:
    """A directive's arguments: ``required`` names, then ``optional`` ones whose words are fixed flags or free."""

    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    #: Fixed words an argument may take, by argument name (e.g. ``lower`` for trigger's third word).
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: A generated block (a table, a figure): it must stand alone in its paragraph.
    block: bool = False
    summary: str = ""
    example: str = ""

    def usage(self, name: str) -> str:
        words = list(self.required) + [f"[{w}]" for w in self.optional]
        return "{" + name + (":" + " ".join(words) if words else "") + "}"

    def allowed(self, arg: str) -> tuple[str, ...] | None:
        return dict(self.choices).get(arg)


#: Every directive, by name. Adding one here means adding its printer in forge.books.compose.
DIRECTIVES: dict[str, Signature] = {
    "card": Signature(("id",), summary="a card's name in this language", example="{card:divine-shield}"),
    "kw": Signature(("key",), summary="a keyword's name (locales' `keywords:`)", example="{kw:wound}"),
    "type": Signature(("key",), summary="a card type's word (locales' `types:`)", example="{type:soul}"),
    "faction": Signature(("id",), summary="a faction's icon and colour word", example="{faction:red}"),
    "step": Signature(("key",), summary="one of the six steps' title", example="{step:announce}"),
    "frame": Signature(("key",), summary="a card frame's words (locales' `frames:`)", example="{frame:trap_when}"),
    "trap_kind": Signature(("kind",), summary="a trap kind's name", example="{trap_kind:none}"),
    "trigger": Signature(("event", "actor"), ("lower",), choices=(("lower", ("lower",)),),
                         summary="a trigger's words as cards print them; `lower` inside a sentence",
                         example="{trigger:destroy opponent lower}"),
    "effect": Signature(("card",), summary="the words of a card's first effect line, without its final stop",
                        example="{effect:call-from-the-grave}"),
    "n": Signature(("number",), summary="a number from the cards and the engine, by name", example="{n:hand}"),
    "count": Signature(("number", "noun"), summary="a number and its noun, agreeing (strings.yaml `nouns:`)",
                       example="{count:health health}"),
    "plural": Signature(("number", "noun"), summary="the noun alone, in the form the number takes",
                        example="{plural:factions faction}"),
    "spell": Signature(("number",), ("capital",), choices=(("capital", ("capital",)),),
                       summary="a number in words (strings.yaml `numbers:`)", example="{spell:factions capital}"),
    "traps": Signature(("kind",), ("event",), summary="the names of the traps of a kind (and event), joined",
                       example="{traps:when summon}"),
    "souls": Signature(summary="every card that can give soul essence, grouped and named", example="{souls}"),
    "game": Signature(summary="the game's name (strings.yaml `game:`)", example="{game}"),
    "author": Signature(summary="the author (strings.yaml `author:`)", example="{author}"),
    "starter_list": Signature(summary="the starter deck's cards, ending with strings.yaml `starter_more:`",
                              example="{starter_list}"),
    "threshold_example": Signature(summary="strings.yaml `threshold_example:` filled from a real conditional line, "
                                           "or nothing when no card has one", example="{threshold_example}"),
    "threshold": Signature(("form",), choices=(("form", ("icon", "allegiance")),),
                           summary="a real threshold: `icon` (“3 [[black]]”) or `allegiance` (strings.yaml "
                                   "`threshold_allegiance:`)", example="{threshold:icon}"),
    "ruling": Signature(("number",), summary="marks a clarification the rules leave open: a label and the number "
                                             "of its ruling in docs/rulings.md (strings.yaml `clarification:`)",
                        example="{ruling:18}"),
    "components": Signature(block=True, summary="the components: a picture of each card type and back (the card "
                                                "renderer's), the cards per faction and the pieces the kit prints",
                            example="{components}"),
    "block": Signature(("name",), block=True, summary="a generated table, list or figure, by name",
                       example="{block:factions}"),
}
