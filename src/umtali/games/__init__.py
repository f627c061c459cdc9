"""The games: one package a game (:mod:`umtali.games.umtali`, :mod:`umtali.games.gin`)."""
