// What the page remembers in the browser (localStorage), all of it optional: a browser
// that refuses storage only forgets.
//
// - umtali.fourColour: "1" for the four-colour deck.
// - umtali.sort: how the hand is sorted, "suit" or "rank".
// - umtali.sound: "1" for the table's sounds (sound.js); off unless turned on.
// - umtali.name: the name the player gave on the home page, sent with each game he makes;
//   a seat's "Your name" field (names.js) is filled in with it and writes it back.
// - umtali.motion: the speed the cards move at (motion.js), "off", "slow", "normal" or
//   "fast"; none until the player chooses one (then Normal, or Off when the system asks
//   for reduced motion).
// - umtali.recent: the last few games opened in this browser, for "My games": each the
//   seat's own path (/seat/...), its title and when it was last opened. A seat's path is
//   its secret, so this is the one secret kept, and only for the seats this browser
//   plays; "Forget" on the home page removes it.
// - umtali.opened: the open tables this browser opened (open_tables.js), each the game's
//   number and the opener's seat path: the home page's list offers no "Sit down" at them.

const RECENT_KEPT = 12; // at most 20: POST /api/seats/status asks about 20 at once

function read(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // storage refused (private mode, full): the choice lasts for this page only
  }
}

export const prefs = {
  get fourColour() {
    return read("umtali.fourColour") === "1";
  },
  set fourColour(on) {
    write("umtali.fourColour", on ? "1" : null);
  },
  get sound() {
    return read("umtali.sound") === "1";
  },
  set sound(on) {
    write("umtali.sound", on ? "1" : null);
  },
  get name() {
    return (read("umtali.name") ?? "").slice(0, 24);
  },
  set name(text) {
    const name = String(text ?? "").trim();
    write("umtali.name", name ? name.slice(0, 24) : null);
  },
  get motion() {
    const speed = read("umtali.motion");
    return ["off", "slow", "normal", "fast"].includes(speed) ? speed : null;
  },
  set motion(speed) {
    write("umtali.motion", speed);
  },
  get sort() {
    return read("umtali.sort") === "rank" ? "rank" : "suit";
  },
  set sort(mode) {
    write("umtali.sort", mode === "rank" ? "rank" : null);
  },
};

/** The games remembered for "My games", the most recent first. */
export function recentGames() {
  try {
    const list = JSON.parse(read("umtali.recent") ?? "[]");
    return Array.isArray(list)
      ? list.filter((item) => item && typeof item.path === "string" && item.path.startsWith("/seat/"))
      : [];
  } catch {
    return [];
  }
}

/** Remember (or refresh) a game for "My games". */
export function rememberGame(path, title, over) {
  const others = recentGames().filter((item) => item.path !== path);
  const entry = { path, title: String(title), over: Boolean(over), seen: Date.now() };
  write("umtali.recent", JSON.stringify([entry, ...others].slice(0, RECENT_KEPT)));
}

/** The open tables this browser opened, the most recent first: each { id, path }. */
export function openedTables() {
  try {
    const list = JSON.parse(read("umtali.opened") ?? "[]");
    return Array.isArray(list) ? list.filter((item) => item && Number.isInteger(item.id) && typeof item.path === "string") : [];
  } catch {
    return [];
  }
}

/** Remember a table this browser opened (game `id`, the opener's seat `path`). */
export function rememberOpened(id, path) {
  const others = openedTables().filter((item) => item.id !== id);
  write("umtali.opened", JSON.stringify([{ id, path }, ...others].slice(0, RECENT_KEPT)));
}

/** Forget a game remembered for "My games". */
export function forgetGame(path) {
  write("umtali.recent", JSON.stringify(recentGames().filter((item) => item.path !== path)));
}
