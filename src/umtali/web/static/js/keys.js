// The keyboard of a table: which keys belong to the table at all, and the arrows that
// move along a row of cards (the hand, a spread pile), one of them in the tab order.

const STEPS = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };

/** How far an arrow key moves along a row (-1 or 1), or undefined for any other key. */
export function arrowStep(key) {
  return STEPS[key];
}

/**
 * The item of `items` a key moves to from the one at `at`: an arrow one step along (held
 * at either end), Home the first, End the last; null for any other key.
 */
export function steppedTo(key, items, at) {
  const step = arrowStep(key);
  if (step !== undefined) return items[Math.max(0, Math.min(items.length - 1, at + step))];
  if (key === "Home") return items[0];
  if (key === "End") return items.at(-1);
  return null;
}

/** Give the focus to `next` among `buttons`, the one of them the Tab key reaches (a roving tab stop). */
export function focusAmong(buttons, next) {
  for (const button of buttons) {
    button.tabIndex = button === next ? 0 : -1;
    if (button === next) button.focus();
  }
}

/**
 * Whether a key pressed on the page is the table's shortcut: not with Ctrl, Alt or a
 * command key (the browser's), not typed into a field or a dialog, and the table is shown.
 */
export function isTableShortcut(event, table) {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if (event.target.closest?.("input, textarea, select, dialog")) return false;
  return !table.hidden;
}
