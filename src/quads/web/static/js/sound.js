// The game's sounds, made with the Web Audio API (no sound files): a soft
// knock when a piece lands on the board and a short chime when a game ends.
// Off until the player turns them on; the choice is remembered.

const KEY = "quads.sound";
/** @type {AudioContext | null} */
let audio = null; // one AudioContext, made at the first sound

/** Whether the player turned the sounds on. */
export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

/**
 * One note on `context`: `frequency` Hz from `start` s on, fading out over `length` s.
 * @param {AudioContext} context
 * @param {number} frequency
 * @param {number} start
 * @param {number} length
 * @param {{ type?: OscillatorType, volume?: number }} [options]
 */
function note(context, frequency, start, length, { type = "sine", volume = 0.2 } = {}) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  const at = context.currentTime + start;
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(at);
  oscillator.stop(at + length);
}

function play(notes) {
  if (!soundOn()) return;
  // Older Safari names it webkitAudioContext.
  const Context = window.AudioContext
    || /** @type {{ webkitAudioContext?: typeof AudioContext }} */ (/** @type {unknown} */ (window)).webkitAudioContext;
  if (!Context) return;
  try {
    const context = audio || new Context();
    audio = context;
    if (context.state === "suspended") context.resume();
    for (const [frequency, start, length, options] of notes) note(context, frequency, start, length, options);
  } catch {
    // no sound on this device: the game goes on silently
  }
}

/** A piece lands on the board. */
export function playPlaced() {
  play([
    [180, 0, 0.09, { type: "triangle", volume: 0.35 }],
    [360, 0, 0.05, { type: "sine", volume: 0.12 }],
  ]);
}

/** The game ends: rising for a win of the person (or any win on a shared
 * screen), falling for a loss, level for a draw. */
export function playEnd(result) {
  const steps = { win: [523, 659, 784], loss: [392, 330, 262], draw: [440, 440] }[result];
  play(steps.map((frequency, index) => [frequency, index * 0.14, 0.35, { volume: 0.16 }]));
}
