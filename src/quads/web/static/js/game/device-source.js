// A game that lives on this device: the game screen's source (the interface is
// described in server-game.js) for games started while the server could not be
// reached.  The rules decide every action (local/device-game.js), the engine in a
// Web Worker plays the computer and gives hints, reviews and analyses
// (engine/client.js), and every change is stored in IndexedDB before the screen
// shows it, then sent to the server when it can be reached (device.js).  The views,
// refusals and advice have the server's shape, so the screen draws both kinds of
// game alike.

import { changed, deviceStore, onChanged, sendWaiting } from "../device.js";
import { engineClient as engine } from "../engine/client.js";
import { turnSeed } from "../engine/players.js";
import {
  DeviceGameError,
  act,
  newDeviceGame,
  playComputer,
  redo,
  resign,
  restoreGame,
  undo,
  view,
} from "../local/device-game.js";
import { readRecord, writeRecord } from "../rules/record.js";

/** A game's seed, from its id: the computer's turns of one game replay alike. */
function seedOf(device) {
  return parseInt(device.id.replaceAll("-", "").slice(0, 8), 16) || 1;
}

/** The record headers that say who played (as the server writes them). */
function opponentHeaders(device) {
  const headers = { Mode: device.mode };
  if (device.mode === "computer") {
    headers.Level = String(device.level);
    headers.Human = device.human;
  }
  return headers;
}

const LEVELS = new Set(["1", "2", "3", "4", "5"]);

/** Who plays a game read from a record, by its headers (as the server reads them), or
 * `settings` when the record does not say. */
function recordedPlayers(headers, settings) {
  if (!("Mode" in headers)) return settings.mode === "computer" ? settings : { mode: "local" };
  if (headers.Mode === "computer" && LEVELS.has(headers.Level) && ["first", "second"].includes(headers.Human)) {
    return { mode: "computer", level: Number(headers.Level), human: headers.Human };
  }
  return { mode: "local" };
}

export class DeviceSource {
  /** The source of the stored device game `device`. */
  constructor(device, store) {
    this.device = device;
    this.store = store;
    this.requests = new AbortController();
    this.stopFollowing = null;
  }

  /** Ask the engine `question(options)`; a question withdrawn when the screen left the
   * game rejects with code "cancelled", as the server's requests do. */
  async ask(question) {
    try {
      return await question({ signal: this.requests.signal });
    } catch (error) {
      if (this.requests.signal.aborted) throw new DeviceGameError("cancelled", "the screen left the game");
      throw error;
    }
  }

  /** The source of device game `id`; rejects with code "not_found" when there is none. */
  static async open(id) {
    const store = await deviceStore();
    const device = await store.getGame(id);
    if (!device) throw new DeviceGameError("not_found", `no game ${id} on this device`);
    return new DeviceSource(device, store);
  }

  /** A new game on the device with `settings` (a NewGame body: rules, mode, level, human). */
  static async start(settings) {
    const store = await deviceStore();
    const device = newDeviceGame(settings);
    await store.putGame(device);
    return new DeviceSource(device, store);
  }

  /** A game on the device replayed from `record`; who plays from its headers, else `settings`. */
  static async fromRecord(record, settings) {
    const game = readRecord(record);
    const players = recordedPlayers(game.headers, settings);
    const device = {
      ...newDeviceGame({ rules: game.rules.name, ...players }),
      game: game.snapshot(),
      revision: game.actions.length ? 1 : 0,
    };
    const store = await deviceStore();
    await store.putGame(device);
    return new DeviceSource(device, store);
  }

  get id() {
    return this.device.id;
  }

  get onDevice() {
    return true;
  }

  async load() {
    const stored = await this.store.getGame(this.id);
    if (!stored) throw new DeviceGameError("not_found", `no game ${this.id} on this device`);
    this.device = stored;
    return view(stored);
  }

  /** Store `change(device, {revision})` in one transaction; the new game's view. */
  async change(change, revision) {
    const next = await this.store.updateGame(this.id, (stored) => change(stored, { revision }));
    if (!next) throw new DeviceGameError("not_found", `no game ${this.id} on this device`);
    this.device = next;
    changed(this.id, next.revision);
    sendWaiting();
    return view(next);
  }

  act(revision, action) {
    return this.change((device, options) => act(device, action, options), revision);
  }

  async computer(revision) {
    const device = this.device;
    const game = restoreGame(device);
    const seed = turnSeed(seedOf(device), game.actions.length);
    const texts = await this.ask((options) => engine.computerActions(device.game, device.level, { seed, ...options }));
    return this.change((stored, options) => playComputer(stored, texts, options), revision);
  }

  undo(revision) {
    return this.change((device, options) => undo(device, options), revision);
  }

  redo(revision) {
    return this.change((device, options) => redo(device, options), revision);
  }

  resign(revision) {
    return this.change((device, options) => resign(device, options), revision);
  }

  async answerUndo() {
    throw new DeviceGameError("bad_request", "undo requests are for online games");
  }

  async offerDraw() {
    throw new DeviceGameError("bad_request", "draws are offered in online games");
  }

  async answerDraw() {
    throw new DeviceGameError("bad_request", "draws are offered in online games");
  }

  async remove() {
    await this.store.deleteGame(this.id);
    changed(this.id, null);
  }

  /** "Play again": a new game on the device, the same rules and players, the sides swapped. */
  async rematch() {
    const { rules, mode, level, human } = this.device;
    const swapped = human === "first" ? "second" : "first";
    const next = await DeviceSource.start({ rules, mode, level, human: mode === "computer" ? swapped : null });
    return next.load();
  }

  hint() {
    const shown = view(this.device);
    if (shown.outcome) return Promise.reject(new DeviceGameError("game_over", "the game is over"));
    if (shown.computer_to_move) return Promise.reject(new DeviceGameError("not_your_turn", "the computer is to move"));
    return this.ask((options) => engine.hint(this.device.game, { seconds: 1, ...options }));
  }

  review() {
    return this.ask((options) => engine.review(this.device.game, { seconds: 3, ...options }));
  }

  analysis(shown) {
    return this.ask((options) => engine.analysis(shown.position, shown.rules, { seconds: 3, ...options }));
  }

  recordLink() {
    const game = restoreGame(this.device);
    Object.assign(game.headers, opponentHeaders(this.device));
    if (this.link) URL.revokeObjectURL(this.link);
    this.link = URL.createObjectURL(new Blob([writeRecord(game)], { type: "text/plain" }));
    return { href: this.link, filename: `quads-${this.id.slice(0, 8)}.qds` };
  }

  /** Follow the changes another tab makes to this game. */
  follow({ onView, onGone }) {
    this.unfollow();
    this.stopFollowing = onChanged(async ({ id, revision }) => {
      if (id !== this.id) return;
      if (revision === null) {
        onGone();
        return;
      }
      if (revision <= this.device.revision) return;
      try {
        onView(await this.load());
      } catch {
        onGone();
      }
    });
  }

  unfollow() {
    if (this.stopFollowing) this.stopFollowing();
    this.stopFollowing = null;
  }

  close() {
    this.unfollow();
    this.requests.abort();
    if (this.link) URL.revokeObjectURL(this.link);
    this.link = null;
  }
}
