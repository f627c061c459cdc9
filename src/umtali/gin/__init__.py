"""Gin Rummy, a sibling of Umtali on the same cards: its melds and deadwood
(:mod:`umtali.gin.melds`), its rule options, the standard game and Oklahoma
(:mod:`umtali.gin.rules`), one hand's state (:mod:`umtali.gin.state`), what one player
may see (:mod:`umtali.gin.view`), a two-player game to the target
(:mod:`umtali.gin.game`), and three- and four-hand play (:mod:`umtali.gin.party`)."""
