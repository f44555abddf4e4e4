// Unit tests of the page's live socket module (src/quads/web/static/js/live.js):
// how long it waits before it opens a socket again, and which close codes mean
// "later".  Run by .ci/run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BUSY_CODES, backoff, liveUrl } from "../../src/quads/web/static/js/live.js";

test("the pause doubles from the first delay up to the cap", () => {
  const whole = () => 0.999999; // the top of the jitter's range
  const pauses = [0, 1, 2, 3, 4, 5].map((n) => Math.round(backoff(n, 4000, 60000, whole)));
  assert.deepEqual(pauses, [4000, 8000, 16000, 32000, 60000, 60000]);
});

test("the jitter keeps each pause between half and all of its step", () => {
  assert.equal(backoff(2, 4000, 60000, () => 0), 8000);
  for (let i = 0; i < 200; i += 1) {
    const pause = backoff(3, 4000, 60000);
    assert.ok(pause >= 16000 && pause <= 32000, `pause ${pause}`);
  }
});

test("over a limit and an unreachable database ask to try later; no game does not", () => {
  assert.ok(BUSY_CODES.has(4429));
  assert.ok(BUSY_CODES.has(1013));
  assert.ok(!BUSY_CODES.has(4404));
  assert.ok(!BUSY_CODES.has(4403));
});

test("the socket's address follows the page's scheme and host, and asks how many watch", () => {
  globalThis.location = { protocol: "https:", host: "quads.example.org" };
  assert.equal(liveUrl("a b"), "wss://quads.example.org/api/games/a%20b/live?watchers=1");
  globalThis.location = { protocol: "http:", host: "127.0.0.1:8000" };
  assert.equal(liveUrl("g1"), "ws://127.0.0.1:8000/api/games/g1/live?watchers=1");
});
