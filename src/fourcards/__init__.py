"""fourcards: Four Card Poker and Four of a Kind.

Rules engines (:mod:`fourcards.poker`, :mod:`fourcards.kind`), exact game
mathematics, web and terminal play, and simulation. See README.md.
"""

__version__ = "0.1.0"
