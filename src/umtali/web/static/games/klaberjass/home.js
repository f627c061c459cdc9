// How the home page's new-game forms word Klaberjass's choices (js/home.js): the server
// says which levels and variants there are (GET /api/games-offered), this only describes
// them. A level is named by the server too (level_names: the name the table gives the
// computer); a choice left out here is shown by its name. `learn` adds its teaching
// pages to the home page's Learn panel.

export const choices = {
  about: "in Klaberjass bid for trump, declare sequences and bella, and take the points in nine tricks, to 500",
  levels: {
    random: { about: "plays any legal move" },
    greedy: { about: "bids on its strength, takes the trick when it can" },
    expert: { about: "bids and plays with care" },
    search: { about: "tries each choice in deals that fit what it has seen" },
  },
  rules: {
    book: "the book's ranking: trump J 9 A K Q 10 8 7",
    classic: "the classic ranking: trump J 9 A 10 K Q 8 7, the 10 after the ace",
    schmeiss: { about: "schmeiss may be offered in the first round" },
    "classic-schmeiss": { label: "Classic, with schmeiss", about: "the classic ranking, and schmeiss may be offered" },
  },
  learn: [
    { href: "/learn/klaberjass", text: "How to play Klaberjass", about: "a hand played with both hands open, move by move" },
  ],
};
