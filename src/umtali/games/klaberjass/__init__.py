"""Klaberjass (seed 004 and ruling K): a two-player trick-taking game on 32 cards, with
two rounds of bidding, sequences, bella and the maker's rule. Its engine lives here; the
game is registered once its session, record and tables are in (issue 23)."""
