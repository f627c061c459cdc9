// How the home page's new-game forms word Umtali's choices (js/home.js): the server says
// which levels, variants and lengths there are (GET /api/games-offered), this only
// describes them. A level is named by the server too (level_names: the name the table
// gives the computer); a choice left out here is shown by its name.

export const choices = {
  about: "in Umtali meld, play off the table and go out first",
  levels: {
    random: { about: "plays any legal move" },
    greedy: { about: "takes the most points it can now" },
    expert: { about: "plays the book's strategy" },
    search: { about: "looks ahead over likely deals" },
  },
  rules: {
    standard: "the book's rules",
    practical: "the looser table game: ten cards, an upcard, melding optional",
  },
  kinds: {
    hand: "One hand",
    game: "A game (four hands)",
    session: "A session (best of three games)",
  },
};
