// The table's sounds, all optional and off until the player turns them on (the "Sounds"
// switch of the header, remembered by prefs.js): a deal, a draw, a card played, and a
// chime when it becomes the player's turn. They are made in the page with the Web Audio
// API, short tones shaped by a gain envelope, so that no sound file is downloaded.
//
// A browser lets a page play sound only after the person has done something on it (a
// click, a key), and so does this module: no AudioContext is made before such a
// gesture, and nothing is played while the switch is off.

import { prefs } from "./prefs.js";

// Each sound: its notes, [frequency in Hz, start in s, length in s, wave, loudness].
const SOUNDS = {
  deal: [
    [740, 0, 0.04, "triangle", 0.12],
    [700, 0.07, 0.04, "triangle", 0.12],
    [660, 0.14, 0.04, "triangle", 0.12],
  ],
  draw: [[520, 0, 0.06, "triangle", 0.14]],
  play: [[330, 0, 0.08, "triangle", 0.18]],
  turn: [
    [660, 0, 0.12, "sine", 0.2],
    [880, 0.13, 0.18, "sine", 0.2],
  ],
};

let gestured = false; // the person has clicked or pressed a key on the page
let context = null;

function audio() {
  if (!gestured) return null;
  if (context === null) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return null;
    try {
      context = new Context();
    } catch {
      return null; // no audio here: the table is silent
    }
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function noteGesture() {
  gestured = true;
  if (prefs.sound) audio(); // made (or resumed) inside the gesture, as browsers ask
}

/** Listen for the person's first gesture on the page, after which sound may play. */
export function watchForGesture() {
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, noteGesture, { capture: true });
}

/** Turn the sounds on or off (the switch was just used: a gesture). */
export function setSound(on) {
  prefs.sound = on;
  noteGesture();
}

/** Play the sound `name` (see SOUNDS), `delay` seconds from now, if the sounds are on and may play. */
export function playSound(name, delay = 0) {
  const notes = SOUNDS[name];
  if (!notes || !prefs.sound) return;
  const ctx = audio();
  if (ctx === null) return;
  const start = ctx.currentTime + delay;
  for (const [frequency, at, length, wave, loudness] of notes) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = wave;
    oscillator.frequency.setValueAtTime(frequency, start + at);
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(loudness, start + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    oscillator.connect(gain);
    gain.connect(ctx.destination);
    oscillator.start(start + at);
    oscillator.stop(start + at + length + 0.02);
  }
}
