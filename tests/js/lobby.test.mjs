// Unit tests of the lobby's live list (src/quads/web/static/js/lobby-live.js):
// the open seeks kept from the socket's messages (seeks, seek, unseek), "paired"
// handed on, and a socket opened anew once the browser became a player.
// Run by .ci/run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";

import { LobbyLive, lobbyUrl, nextSeeks } from "../../src/quads/web/static/js/lobby/lobby-live.js";

const seek = (id, fields = {}) => ({
  id, rules: "quads", calling: "auto", clock: { initial: 180, increment: 2 }, side: "random",
  name: `Player ${id}`, created: "2025-05-01T12:00:00+00:00", mine: false, ...fields,
});

test("the whole list replaces what was known", () => {
  const list = nextSeeks([seek("old")], { type: "seeks", seeks: [seek("a"), seek("b")] });
  assert.deepEqual(list.map((s) => s.id), ["a", "b"]);
});

test("a new seek comes last (the list is oldest first); a known one changes in place", () => {
  let list = [seek("a"), seek("b")];
  list = nextSeeks(list, { type: "seek", seek: seek("c") });
  assert.deepEqual(list.map((s) => s.id), ["a", "b", "c"]);
  list = nextSeeks(list, { type: "seek", seek: seek("a", { name: "Ada L." }) });
  assert.deepEqual(list.map((s) => s.id), ["a", "b", "c"]);
  assert.equal(list[0].name, "Ada L.");
});

test("a seek gone leaves the list; one not known changes nothing", () => {
  const before = [seek("a"), seek("b")];
  const after = nextSeeks(before, { type: "unseek", id: "a" });
  assert.deepEqual(after.map((s) => s.id), ["b"]);
  assert.deepEqual(before.map((s) => s.id), ["a", "b"]); // never changed in place
  assert.deepEqual(nextSeeks(after, { type: "unseek", id: "zzz" }).map((s) => s.id), ["b"]);
});

test("other messages leave the list as it was", () => {
  const list = [seek("a")];
  for (const message of [{ type: "pong" }, { type: "paired", game: "g", seek: "a" }, null, "x",
    { type: "seek" }, { type: "seeks" }]) {
    assert.equal(nextSeeks(list, message), list);
  }
});

// ---- the socket, with a stand-in for the browser's WebSocket ------------------------------

class FakeSocket {
  static made = [];
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.listeners = {};
    this.closed = null;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  addEventListener(type, fn) {
    (this.listeners[type] ||= []).push(fn);
  }
  emit(type, event = {}) {
    for (const fn of this.listeners[type] || []) fn(event);
  }
  open() {
    this.readyState = 1;
    this.emit("open");
  }
  message(data) {
    this.emit("message", { data: JSON.stringify(data) });
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close(code) {
    this.readyState = 3;
    this.closed = code;
  }
}

function browser() {
  FakeSocket.made = [];
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "http:", host: "127.0.0.1:8000" };
  const none = { addEventListener() {}, removeEventListener() {} };
  globalThis.window = none;
  globalThis.document = { ...none, visibilityState: "visible" };
}

test("the socket's address follows the page's scheme and host", () => {
  browser();
  assert.equal(lobbyUrl(), "ws://127.0.0.1:8000/api/lobby/live");
  globalThis.location = { protocol: "https:", host: "quads.example.org" };
  assert.equal(lobbyUrl(), "wss://quads.example.org/api/lobby/live");
});

test("the socket keeps the list, hands on paired, and opens anew for a new player", () => {
  browser();
  const lists = [];
  const paired = [];
  const states = [];
  const live = new LobbyLive({
    onSeeks: (seeks) => lists.push(seeks.map((s) => s.id)),
    onPaired: (message) => paired.push(message.game),
    onState: (connected) => states.push(connected),
  });
  const first = FakeSocket.made[0];
  first.open();
  first.message({ type: "seeks", seeks: [seek("a")] });
  first.message({ type: "seek", seek: seek("b") });
  first.message({ type: "unseek", id: "a" });
  first.message({ type: "pong" });
  first.message({ type: "paired", game: "g1", seek: "b" });
  assert.deepEqual(lists, [["a"], ["a", "b"], ["b"]]);
  assert.deepEqual(paired, ["g1"]);
  assert.deepEqual(states, [true]);

  live.renew(); // the browser became a player: a socket of its own
  assert.equal(first.closed, 1000);
  assert.equal(FakeSocket.made.length, 2);
  const second = FakeSocket.made[1];
  first.message({ type: "seek", seek: seek("late") }); // the old socket is not heard any more
  second.open();
  second.message({ type: "seeks", seeks: [seek("b"), seek("c")] });
  assert.deepEqual(lists.at(-1), ["b", "c"]);
  assert.deepEqual(states, [true, false, true]);

  live.close();
  assert.equal(second.closed, 1000);
  live.renew(); // closed for good
  assert.equal(FakeSocket.made.length, 2);
});
