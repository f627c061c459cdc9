// A record of Umtali as the replay page (/replay, learn/replay.js) shows it: each step's
// board as the lessons draw one, and each finished hand's score column by column. What
// every game's replay module exports: boardView(board, hand), handEndView(hand) and
// recordEndView(record, hand, last).

import { boardView as umtaliBoard, el, scoresView } from "/static/learn/common.js";

/** A step's board, for the replay page. */
export function boardView(board, hand) {
  return umtaliBoard(board, hand.names);
}

/** A finished hand's score, column by column, under its result. */
export function handEndView(hand) {
  return hand.scores ? [el("h3", "", hand.result), scoresView(hand.scores)] : [];
}

/** Nothing more after a hand's totals: the last word says who won. */
export function recordEndView() {
  return [];
}
