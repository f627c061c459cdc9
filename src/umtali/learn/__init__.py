"""What teaching any game shares (layer 5): its words as package data read strictly
(:mod:`~umtali.learn.content`), a game's rules in brief and its play help
(:mod:`~umtali.learn.reference`), reading cards a player typed as an answer and counting
tries (:mod:`~umtali.learn.answers`), and the verdict on an answer
(:mod:`~umtali.learn.verdict`). A game's own lessons and quiz live in its folder
(Umtali's: :mod:`umtali.games.umtali.learn`).
"""

from __future__ import annotations

from umtali.learn.answers import AnswerError
from umtali.learn.content import ContentError
from umtali.learn.verdict import Verdict

__all__ = ["AnswerError", "ContentError", "Verdict"]
