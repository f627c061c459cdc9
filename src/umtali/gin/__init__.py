"""Gin Rummy, a sibling of Umtali on the same cards: its melds and deadwood
(:mod:`umtali.gin.melds`), its rule options (:mod:`umtali.gin.rules`) and one hand's
state (:mod:`umtali.gin.state`)."""
