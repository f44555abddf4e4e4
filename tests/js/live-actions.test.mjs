// Unit tests of the actions a game's live socket carries (LiveGame.act in
// src/quads/web/static/js/live.js): what is sent, how each answer settles the
// action, and which refusals and failures hand it back to be sent as a request.  Run by .ci/run with
// `node --test tests/js/`; the page itself is tested in Chromium.
import { beforeEach, test } from "node:test";
import assert from "node:assert/strict";

const listeners = () => ({ addEventListener() {}, removeEventListener() {} });
globalThis.window = listeners();
globalThis.document = { ...listeners(), visibilityState: "visible" };
globalThis.location = { protocol: "http:", host: "127.0.0.1:8000" };

/** A WebSocket that the test opens, answers and cuts by hand. */
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static made = [];

  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.CONNECTING;
    this.sent = [];
    this.handlers = {};
    FakeSocket.made.push(this);
  }

  addEventListener(kind, handler) {
    (this.handlers[kind] ||= []).push(handler);
  }

  emit(kind, event = {}) {
    for (const handler of this.handlers[kind] || []) handler(event);
  }

  open() {
    this.readyState = FakeSocket.OPEN;
    this.emit("open");
  }

  message(data) {
    this.emit("message", { data: JSON.stringify(data) });
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close(code = 1000) {
    this.readyState = FakeSocket.CLOSED;
    this.emit("close", { code });
  }
}
globalThis.WebSocket = FakeSocket;

const { LiveGame } = await import("../../src/quads/web/static/js/live.js");
const { ApiError } = await import("../../src/quads/web/static/js/api.js");

const view = (revision, extra = {}) => ({ id: "g1", revision, ...extra });

let shown;
let views;
let live;
let socket;

/** A followed game whose socket is open and has shown revision 3. */
function follow() {
  shown = 3;
  views = [];
  live = new LiveGame("g1", {
    shown: () => shown,
    onView: (v) => {
      views.push(v);
      shown = v.revision;
    },
    onGone: () => {},
  });
  socket = FakeSocket.made.at(-1);
  socket.open();
  socket.message({ type: "view", view: view(3) });
  views.length = 0;
}

beforeEach(() => {
  if (live) live.close();
  FakeSocket.made.length = 0;
});

test("an action waits for a socket that has shown the game", async () => {
  live = new LiveGame("g1", { shown: () => null, onView: () => {}, onGone: () => {} });
  socket = FakeSocket.made.at(-1);
  assert.equal(await live.act(3, { action: "give", piece: "7" }), null);
  socket.open(); // open, but no view yet
  assert.equal(await live.act(3, { action: "give", piece: "7" }), null);
  assert.deepEqual(socket.sent, []);
});

test("an action is sent with its number and answered with the view of its change", async () => {
  follow();
  const answer = live.act(3, { action: "place", cell: "B2" });
  assert.deepEqual(socket.sent, [{ type: "act", id: 1, action: { revision: 3, action: "place", cell: "B2" } }]);
  socket.message({ type: "acted", id: 1, revision: 4, view: view(4) });
  assert.deepEqual(await answer, view(4));
  assert.deepEqual(views, [], "the answer's view is the caller's to show, as a request's");
  // The next action has the next number; the views pushed meanwhile go on as ever.
  const next = live.act(4, { action: "give", piece: "1" });
  assert.equal(socket.sent.at(-1).id, 2);
  socket.message({ type: "view", view: view(4, { connected: true }) });
  assert.deepEqual(views, [view(4, { connected: true })]);
  socket.message({ type: "acted", id: 2, revision: 5, view: view(5) });
  assert.deepEqual(await next, view(5));
});

test("an answer for an action nobody waits for changes nothing", async () => {
  follow();
  socket.message({ type: "acted", id: 7, revision: 4, view: view(4) });
  socket.message({ type: "refused", id: 8, status: 409, error: { code: "stale", message: "" } });
  assert.deepEqual(views, []);
  // An answer of another game is no view for this one: the action is sent as a request.
  const answer = live.act(3, { action: "declare" });
  socket.message({ type: "acted", id: 1, revision: 4, view: { id: "other", revision: 4 } });
  assert.equal(await answer, null);
});

test("a refusal rejects with the server's error", async () => {
  follow();
  const answer = live.act(3, { action: "place", cell: "A1" });
  socket.message({
    type: "refused", id: 1, status: 409,
    error: { code: "stale", message: "revision 3 is stale", params: { revision: 3, current: 4 } },
  });
  await assert.rejects(answer, (error) => {
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.status, error.code, error.params], [409, "stale", { revision: 3, current: 4 }]);
    return true;
  });
});

test("a busy or failing server hands the action back, to be sent as a request", async () => {
  follow();
  for (const [number, status] of [[1, 503], [2, 429], [3, 500]]) {
    const answer = live.act(3, { action: "declare" });
    socket.message({ type: "refused", id: number, status, error: { code: "unavailable", message: "" } });
    assert.equal(await answer, null, `status ${status}`);
  }
});

test("a dropped socket hands back the action under way", async () => {
  follow();
  const answer = live.act(3, { action: "give", piece: "7" });
  socket.close(1006);
  assert.equal(await answer, null);
  // An answer that comes for an action no longer waited for changes nothing.
  socket.message({ type: "acted", id: 1, revision: 4, view: view(4) });
  assert.deepEqual(views, []);
});

test("an action without an answer is handed back after a while", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  follow();
  const answer = live.act(3, { action: "give", piece: "7" });
  t.mock.timers.tick(4_999);
  let settled = false;
  answer.then(() => {
    settled = true;
  });
  await Promise.resolve();
  assert.equal(settled, false);
  t.mock.timers.tick(1);
  assert.equal(await answer, null);
  live.close();
  live = null;
});
