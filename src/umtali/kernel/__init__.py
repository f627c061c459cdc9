"""What every game shares: card ids and card sets, deck orders, the seed scheme, players'
names, English helpers, files written atomically, and the record envelope with its digest.
Nothing here knows the rules of any game."""
