"""Umtali, the two-player rummy of colonial Rhodesia: its rules options, melds, moves,
one hand's state, the refusals, notation, views, matches, sentences, lessons, bots and
its session."""
