"""Two languages (English ``en``, Burmese ``my``) through Babel's gettext catalogs.

Layout (standard gettext): ``referee/i18n/locales/messages.pot`` lists every text the HTTP
layer answers with (generated from the code by :mod:`referee.contract.messages`; ``referee
contract`` rewrites it), and ``locales/<lang>/LC_MESSAGES/messages.po`` translates it.  English is
the source language, so ``messages`` needs no English catalog.  The engines' verdict messages are a
second domain, ``verdicts``, keyed by message code (``coup.challenge.not_claimed``), with an English
and a Burmese catalog (:mod:`referee.i18n.verdicts`).  Rule texts live in the rulebook
(``referee/rulebook/*.yaml``), one file per game with every language side by side, and the words
of the game terms in the glossary (``referee/rulebook/glossary/*.yaml``,
:mod:`referee.i18n.glossary`), through which every term in a message is rendered.

The ``.po`` files are compiled when first used (Babel ``read_po`` -> ``write_mo`` in memory ->
``Translations``) and cached for the life of the process; nothing is compiled at build time.

Adding a language ``xx`` (docs/translating.md): add ``"xx"`` to :data:`LANGUAGES` (and to
``referee.rulebook.LANGUAGES``), give every glossary entry its ``xx`` word, copy
``locales/my/LC_MESSAGES/*.po`` to ``locales/xx/LC_MESSAGES/`` and translate every ``msgstr``,
add an ``xx`` title and text to every rule of ``referee/rulebook/*.yaml``, run ``referee
contract`` and ``./dev test`` (``tests/i18n`` fails on any missing text or a placeholder that
differs).

Layer 1.  May import: ``referee.games``, and its own layer: ``referee.store``, ``referee.i18n``,
``referee.rulebook``, ``referee.schemas``, ``referee.registry``, ``referee.ops``,
``referee.refusals``, ``referee.json_digits``; never ``referee.matches``, ``referee.api`` or
``referee.serving`` (``tests/test_layers.py``).
"""
LANGUAGES = ("en", "my")
"""The languages served; the first is the default (and the source language)."""

DEFAULT = LANGUAGES[0]
