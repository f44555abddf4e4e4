// Unit tests of the quick messages' panel (src/quads/web/static/js/game/talk-panel.js)
// and of the live socket's `talk` messages (live.js): each line is taken once, in its
// order; the newest of each side shows beside its name for a while, in the reader's
// language; a muted reader sees nothing of the other's; only a seated player of an
// online game with both seats taken talks.  Run by .ci/run with `node --test tests/js/`;
// the page itself is tested in Chromium (tests/e2e/test_table_talk.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveCatalogue } from "./page-stubs.mjs";

const listeners = () => ({ addEventListener() {}, removeEventListener() {} });
const stored = new Map();
globalThis.localStorage = {
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem: (key, value) => stored.set(key, String(value)),
};
globalThis.window = listeners();
globalThis.document = {
  ...listeners(), visibilityState: "visible", documentElement: {},
  querySelectorAll: () => [],
};
globalThis.location = { protocol: "http:", host: "127.0.0.1:8000" };
serveCatalogue();

class QuietSocket {
  static OPEN = 1;
  constructor() {
    this.handlers = {};
    QuietSocket.made = this;
  }
  addEventListener(kind, handler) {
    (this.handlers[kind] ||= []).push(handler);
  }
  emit(kind, event = {}) {
    for (const handler of this.handlers[kind] || []) handler(event);
  }
  send() {}
  close() {}
}
globalThis.WebSocket = QuietSocket;

const { setLanguage } = await import("../../src/quads/web/static/js/i18n.js");
const { TalkPanel, atTable, BUBBLE_MS, KEPT } = await import("../../src/quads/web/static/js/game/talk-panel.js");
const { LiveGame } = await import("../../src/quads/web/static/js/live.js");

const view = (extra = {}) => ({
  id: "g1", mode: "online", you: "second", spectator: false,
  seats: { first: "opponent", second: "you" }, names: { first: "Quiet Heron 42", second: null }, ...extra,
});
const line = (seq, side, message, ago = 0) => ({ seq, side, message, at: new Date(Date.now() - ago).toISOString() });

test("only a seated player of an online game with both seats taken is at the table", () => {
  assert.equal(atTable(view()), true);
  assert.equal(atTable(view({ spectator: true, you: null })), false);
  assert.equal(atTable(view({ mode: "computer" })), false);
  assert.equal(atTable(view({ seats: { first: "opponent", second: "free" } })), false);
  assert.equal(atTable(null), false);
});

test("each line is taken once, in order, and the newest are kept", async () => {
  await setLanguage("en");
  let redrawn = 0;
  const panel = new TalkPanel(() => { redrawn += 1; });
  panel.heard("g1", [line(1, "first", "hello"), line(2, "second", "thanks")]);
  panel.heard("g1", [line(2, "second", "thanks"), line(3, "first", "good_luck")]); // one again
  assert.deepEqual(panel.lines.map((said) => said.seq), [1, 2, 3]);
  assert.equal(redrawn, 2);
  panel.heard("g1", [line(3, "first", "good_luck")]);
  assert.equal(redrawn, 2, "nothing new: nothing redrawn");
  panel.heard("g1", [line(4, "first", "free text, not a preset")]);
  assert.deepEqual(panel.lines.map((said) => said.seq), [1, 2, 3]);
  panel.heard("g1", Array.from({ length: 20 }, (_, i) => line(5 + i, "first", "oops")));
  assert.equal(panel.lines.length, KEPT);
  assert.equal(panel.lines[KEPT - 1].seq, 24);
  // Another game: its own lines from its own start.
  panel.heard("g2", [line(1, "second", "hello")]);
  assert.deepEqual(panel.lines.map((said) => said.seq), [1]);
  panel.close();
});

test("the newest line of each side shows beside its name, in the reader's language", async () => {
  await setLanguage("de");
  const panel = new TalkPanel(() => {});
  panel.heard("g1", [line(1, "first", "good_luck"), line(2, "second", "thanks")]);
  assert.deepEqual(panel.said(view()), { first: "Viel Glück!", second: "Danke!" });
  // Not to a spectator, and not for another game than the one heard.
  assert.deepEqual(panel.said(view({ spectator: true, you: null })), { first: "", second: "" });
  assert.deepEqual(panel.said(view({ id: "g2" })), { first: "", second: "" });
  // A line said long ago (heard on coming back) goes to the box only.
  const later = new TalkPanel(() => {});
  later.heard("g1", [line(1, "first", "hello", BUBBLE_MS + 1000)]);
  assert.deepEqual(later.said(view()), { first: "", second: "" });
  assert.equal(later.lines.length, 1);
  panel.close();
  later.close();
  await setLanguage("en");
});

test("muted, the other's lines show nowhere, one's own still do, and it is remembered", async () => {
  await setLanguage("en");
  const panel = new TalkPanel(() => {});
  panel.setMuted(true);
  panel.heard("g1", [line(1, "first", "oops"), line(2, "second", "hello")]);
  assert.deepEqual(panel.said(view()), { first: "", second: "Hello!" });
  assert.equal(new TalkPanel(() => {}).muted, true, "remembered on the device");
  panel.setMuted(false);
  assert.deepEqual(panel.said(view()), { first: "Oops!", second: "Hello!" });
  assert.equal(new TalkPanel(() => {}).muted, false);
  panel.close();
});

test("the live socket hands its talk messages on, and nothing else as talk", () => {
  const heard = [];
  const live = new LiveGame("g1", { shown: () => 0, onView() {}, onGone() {}, onTalk: (lines) => heard.push(lines) });
  live.receive({ type: "talk", messages: [line(1, "first", "hello")] });
  live.receive({ type: "talk" }); // malformed: ignored
  live.receive({ type: "pong" });
  assert.equal(heard.length, 1);
  assert.equal(heard[0][0].message, "hello");
  live.close();
});
