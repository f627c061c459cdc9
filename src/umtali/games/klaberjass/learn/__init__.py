"""Teaching Klaberjass (layer 5): how to play, a hand walked through with both hands
open (:mod:`.howto`), and a short quiz on the rules (:mod:`.quiz`), for any front end.
The words are package data beside them (``howto.toml``, ``quiz.toml``); every figure is
the engine's.
"""
