// Playing cards drawn as SVG by the project itself (no image files, no fonts to fetch).
//
// A card is named in the ASCII notation of the rules engine: a rank (A, 2-10, J, Q, K)
// followed by a suit letter (c d h s), e.g. "Ac", "10h", "Qs".
//
// The public interface (used by the game page and by the learning pages; keep it stable):
//   cardSvg(card, {fourColour, faceDown})  an <svg> element for one card
//   suitSymbol(suit)                       the Unicode symbol of a suit letter, e.g. "♠"
//   cardName(card)                         the spoken name, e.g. "queen of spades"
//   cardText(card)                         the short printed name, e.g. "Q♠"
//   parseCard(card)                        {rank, suit} or null for a malformed name
//   suitColour(suit, fourColour)           the CSS colour variable a suit is drawn in
//   rankValue(card), suitPlace(card)       a card's rank as a number (A 1 … K 13) and its
//                                          suit's place in the order screens show (s h d c)
//   readableMove(text)                     notation with Unicode suits: "knock 7s" -> "knock 7♠"
//
// The drawing is made to be read small: the rank and the suit sit side by side in the top
// strip of the card, which is the part left in view when cards overlap top-down in a
// meld column or sideways in a hand.

const SVG_NS = "http://www.w3.org/2000/svg";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUITS = ["c", "d", "h", "s"];

const RANK_NAMES = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king",
};
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

// Suit outlines in a 100 x 100 box. Drawn as paths rather than text so that every
// browser shows the same shapes, whatever fonts it has.
const SUIT_SHAPES = {
  h: [["path", { d: "M50 92C22 67 3 50 3 29 3 13 15 3 29 3c10 0 17 6 21 15 4-9 11-15 21-15 14 0 26 10 26 26 0 21-19 38-47 63Z" }]],
  d: [["path", { d: "M50 2 88 50 50 98 12 50Z" }]],
  s: [["path", { d: "M50 2C63 24 96 40 96 63c0 15-11 24-23 24-9 0-16-4-20-10 1 9 5 15 13 21H34c8-6 12-12 13-21-4 6-11 10-20 10C15 87 4 78 4 63 4 40 37 24 50 2Z" }]],
  c: [
    ["circle", { cx: 50, cy: 27, r: 21 }],
    ["circle", { cx: 26, cy: 58, r: 21 }],
    ["circle", { cx: 74, cy: 58, r: 21 }],
    ["circle", { cx: 50, cy: 52, r: 12 }],
    ["path", { d: "M46 52C46 74 41 88 32 98H68C59 88 54 74 54 52Z" }],
  ],
};

/** The parts of an ASCII card name, or null when the name is not a card. */
export function parseCard(card) {
  if (typeof card !== "string") return null;
  const match = /^(A|[2-9]|10|J|Q|K)([cdhs])$/.exec(card);
  return match ? { rank: match[1], suit: match[2] } : null;
}

/** The Unicode symbol of a suit letter ("s" -> "♠"); the letter itself when unknown. */
export function suitSymbol(suit) {
  return SUIT_SYMBOLS[suit] ?? String(suit);
}

/** A card's name as it is spoken: "Qs" -> "queen of spades". */
export function cardName(card) {
  const parts = parseCard(card);
  if (!parts) return `unknown card ${card}`;
  return `${RANK_NAMES[parts.rank]} of ${SUIT_NAMES[parts.suit]}`;
}

/** A card's short printed name: "Qs" -> "Q♠". */
export function cardText(card) {
  const parts = parseCard(card);
  return parts ? parts.rank + suitSymbol(parts.suit) : String(card);
}

const RANK_VALUES = { A: 1, J: 11, Q: 12, K: 13 };
const SUIT_PLACES = { s: 0, h: 1, d: 2, c: 3 }; // the book's order, as every screen shows it

/** A card's rank as a number, the ace low: "As" -> 1, "10h" -> 10, "Kc" -> 13. */
export function rankValue(card) {
  const rank = card.slice(0, -1);
  return RANK_VALUES[rank] ?? Number(rank);
}

/** The place of a card's suit in the order every screen shows: spades, hearts, diamonds, clubs. */
export function suitPlace(card) {
  return SUIT_PLACES[card.slice(-1)];
}

/** Move notation with Unicode suits, for reading: "meld 7s 6s 5s" -> "meld 7♠ 6♠ 5♠". */
export function readableMove(text) {
  return text.replace(/\b(A|[2-9]|10|J|Q|K)([cdhs])\b/g, (_, rank, suit) => cardText(rank + suit));
}

/** The CSS colour a suit is drawn in, as a custom property of base.css. */
export function suitColour(suit, fourColour = false) {
  if (fourColour) return `var(--suit4-${suit})`;
  return suit === "h" || suit === "d" ? "var(--suit-red)" : "var(--suit-black)";
}

// An SVG element with the given attributes (those whose value is undefined are left out).
function element(name, attributes = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) node.setAttribute(key, String(value));
  }
  return node;
}

// A suit shape scaled into the square (x, y, size) of the card's 100 x 140 box.
function suitShape(suit, x, y, size, colour) {
  const group = element("g", {
    transform: `translate(${x} ${y}) scale(${size / 100})`,
    fill: colour,
  });
  for (const [name, attributes] of SUIT_SHAPES[suit]) group.append(element(name, attributes));
  return group;
}

function text(content, attributes) {
  const node = element("text", attributes);
  node.textContent = content;
  return node;
}

function faceDownCard(svg) {
  svg.setAttribute("aria-label", "face-down card");
  svg.classList.add("card-back");
  svg.append(
    element("rect", { class: "card-edge", x: 1, y: 1, width: 98, height: 138, rx: 8 }),
    element("rect", { class: "card-back-field", x: 7, y: 7, width: 86, height: 126, rx: 5 }),
  );
  // A lattice of diamonds: plainly a back, and plainly not a face, even when small.
  const lattice = element("g", { class: "card-back-lattice" });
  for (let row = 0; row < 6; row += 1) {
    for (let column = 0; column < 4; column += 1) {
      const cx = 18.75 + column * 21;
      const cy = 19 + row * 20.4;
      lattice.append(element("path", { d: `M${cx} ${cy - 8}l8 8-8 8-8-8Z` }));
    }
  }
  svg.append(lattice);
  return svg;
}

/**
 * An <svg> element showing one card.
 *
 * card: an ASCII card name ("Ac", "10h", "Qs"); ignored when faceDown.
 * fourColour: draw clubs green and diamonds blue (hearts red, spades black), so no two
 *   suits share a colour; the palette is safe for the common kinds of colour blindness.
 * faceDown: draw the back of a card.
 *
 * The element has role "img" and an aria-label naming the card ("queen of spades"),
 * the class "card" (and "card-back" when face down), and data-card holding the name.
 * Its size comes from CSS (width; the height follows the 5 : 7 viewBox).
 */
export function cardSvg(card, { fourColour = false, faceDown = false } = {}) {
  const svg = element("svg", {
    viewBox: "0 0 100 140",
    class: "card",
    role: "img",
    focusable: "false",
  });
  if (faceDown) return faceDownCard(svg);
  const parts = parseCard(card);
  if (!parts) throw new Error(`"${card}" is not a card: write a rank (A, 2-10, J, Q, K) and a suit (c, d, h, s), e.g. "Qs"`);
  const { rank, suit } = parts;
  const colour = suitColour(suit, fourColour);
  svg.dataset.card = card;
  svg.setAttribute("aria-label", cardName(card));
  svg.append(element("rect", { class: "card-edge", x: 1, y: 1, width: 98, height: 138, rx: 8 }));
  // The index, drawn to be read when most of the card is covered: the rank at top left
  // with its suit beneath (in view when cards overlap sideways, as in a hand or a
  // pile) and the suit again at top right (in view when they overlap top-down, as in a
  // meld column).
  const narrow = rank === "10";
  svg.append(
    text(rank, {
      x: narrow ? 3 : 7,
      y: 34,
      "font-size": 34,
      "font-weight": 700,
      fill: colour,
      class: "card-rank",
      textLength: narrow ? 40 : undefined,
      lengthAdjust: narrow ? "spacingAndGlyphs" : undefined,
    }),
    suitShape(suit, 8, 40, 24, colour),
    suitShape(suit, 68, 9, 24, colour),
  );
  if (rank === "J" || rank === "Q" || rank === "K") {
    // Court cards: a framed panel with the rank letter over a small suit.
    svg.append(
      element("rect", {
        x: 40, y: 58, width: 52, height: 74, rx: 4,
        fill: "none", stroke: colour, "stroke-width": 3, class: "card-court",
      }),
      text(rank, {
        x: 66, y: 103, "font-size": 36, "font-weight": 700,
        "text-anchor": "middle", fill: colour, class: "card-court-letter",
      }),
      suitShape(suit, 57, 108, 18, colour),
    );
  } else {
    svg.append(suitShape(suit, 36, 66, 52, colour));
  }
  return svg;
}
