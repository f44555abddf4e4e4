// The game's sounds, made with the Web Audio API (no sound files): a soft
// knock when a piece lands on the board and a short chime when a game ends.
// Off until the player turns them on; the choice is remembered.

const KEY = "quads.sound";
let audio = null; // one AudioContext, made at the first sound

/** Whether the player turned the sounds on. */
export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

/** One note: `frequency` Hz from `start` s on, fading out over `length` s. */
function note(frequency, start, length, { type = "sine", volume = 0.2 } = {}) {
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  const at = audio.currentTime + start;
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(at);
  oscillator.stop(at + length);
}

function play(notes) {
  if (!soundOn()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    for (const [frequency, start, length, options] of notes) note(frequency, start, length, options);
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
