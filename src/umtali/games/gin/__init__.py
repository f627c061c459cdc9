"""Gin Rummy, a sibling of Umtali on the same cards: its melds and deadwood
(:mod:`umtali.games.gin.melds`), its rule options, the standard game and Oklahoma
(:mod:`umtali.games.gin.rules`), one hand's state (:mod:`umtali.games.gin.state`), what one player
may see (:mod:`umtali.games.gin.view`), a two-player game to the target
(:mod:`umtali.games.gin.game`), three- and four-hand play (:mod:`umtali.games.gin.party`),
and the two-hand game for researchers (:mod:`umtali.games.gin.research`)."""
