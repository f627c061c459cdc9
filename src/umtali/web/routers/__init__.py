"""The server's routes, a router a concern: :mod:`.games` (new games, what is offered), :mod:`.open_tables`
(games opened to anyone),
:mod:`.seats` (a seat's state, moves and socket), :mod:`.records` (records and deck
commitments), :mod:`.learning` (the replay, the learning pages and the games' own
teaching routes), :mod:`.reviews` (a game review of a seat's hands or of a record), :mod:`.pages` (the pages and their files), :mod:`.health` and
:mod:`.docs` (the API's documentation pages, off unless asked for).
:func:`umtali.web.app.create_app` includes them.
"""
