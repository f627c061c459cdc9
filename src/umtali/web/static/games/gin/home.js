// How the home page's new-game forms word Gin Rummy's choices (js/home.js): the server
// says which levels, variants and seat counts there are (GET /api/games-offered), this
// only describes them. A level is named by the server too (level_names: the name the
// table gives the computer); a choice left out here is shown by its name.

export const choices = {
  about: "in Gin Rummy knock with the least deadwood, two, three or four of you",
  levels: {
    random: { about: "plays any legal move" },
    greedy: { about: "keeps the least deadwood, knocks at once" },
    expert: { about: "keeps its chances, waits to undercut" },
  },
  rules: {
    standard: "knock with 10 or less, game to 100",
    oklahoma: "the first upcard sets the knock limit, game to 150",
  },
  players: {
    3: "three-hand: one alone against a team of two, who take turns",
    4: "four-hand: two teams, two tables at once",
  },
};
