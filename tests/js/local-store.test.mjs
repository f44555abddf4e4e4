// The device's store (src/quads/web/static/js/local/store.js) on fake-indexeddb
// (package.json; `npm ci` installs it): games and waiting puzzle results kept
// across reopening, changes stored whole or not at all, read-modify-write in one
// transaction, and the database's versions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { DB_NAME, DB_VERSION, openStore } from "../../src/quads/web/static/js/local/store.js";
import { act, newDeviceGame } from "../../src/quads/web/static/js/local/device-game.js";

let clockTime = Date.parse("2026-11-30T09:00:00Z");
const tick = () => new Date((clockTime += 1000));

function game(id) {
  return newDeviceGame({ mode: "local" }, { id, now: tick });
}

test("games are kept across closing and reopening the database", async () => {
  const indexedDB = new IDBFactory();
  const store = await openStore({ indexedDB });
  const first = game("g1");
  const second = act(game("g2"), "give 7", { now: tick });
  await store.putGame(first);
  await store.putGame(second);
  assert.deepEqual(await store.getGame("g1"), first);
  assert.equal(await store.getGame("nothing"), null);
  store.close();
  const again = await openStore({ indexedDB });
  assert.deepEqual((await again.listGames()).map((g) => g.id), ["g2", "g1"], "most recently changed first");
  assert.deepEqual(await again.getGame("g2"), second);
  await again.deleteGame("g1");
  await again.deleteGame("g1");
  assert.deepEqual((await again.listGames()).map((g) => g.id), ["g2"]);
  again.close();
});

test("the database has its versioned object stores", async () => {
  const indexedDB = new IDBFactory();
  const store = await openStore({ indexedDB });
  assert.equal(store.db.name, DB_NAME);
  assert.equal(store.db.version, DB_VERSION);
  assert.deepEqual([...store.db.objectStoreNames].sort(),
    ["exercises", "games", "mistake_answers", "puzzle_results"]);
  // A newer release opening it in another tab is not blocked: this one steps aside.
  const newer = await new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION + 1);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  assert.equal(newer.version, DB_VERSION + 1);
  newer.close();
  await assert.rejects(openStore({ indexedDB: null }), /IndexedDB/);
});

test("a database of the first version is brought up to date with its games kept", async () => {
  const indexedDB = new IDBFactory();
  const old = await new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("games", { keyPath: "id" }).createIndex("updated", "updated");
      request.result.createObjectStore("puzzle_results", { keyPath: "id" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve) => {
    const transaction = old.transaction("games", "readwrite");
    transaction.objectStore("games").put(game("kept"));
    transaction.oncomplete = resolve;
  });
  old.close();
  const store = await openStore({ indexedDB });
  assert.equal(store.db.version, DB_VERSION);
  assert.deepEqual((await store.listGames()).map((g) => g.id), ["kept"]);
  assert.deepEqual(await store.listExercises(), []);
  store.close();
});

test("exercises kept offline, replaced by source, and answers waiting oldest first", async () => {
  const store = await openStore({ indexedDB: new IDBFactory() });
  await store.putExercise({ id: "d1", source: "device", position: "p1" });
  await store.replaceExercises("server", [{ id: "s1", source: "server" }, { id: "s2", source: "server" }]);
  await store.replaceExercises("server", [{ id: "s3", source: "server" }]);
  assert.deepEqual((await store.listExercises()).map((e) => e.id).sort(), ["d1", "s3"]);
  await store.deleteExercise("d1");
  assert.deepEqual((await store.listExercises()).map((e) => e.id), ["s3"]);
  await store.putAnswer({ id: "b", at: "2026-12-06T10:00:00.000Z" });
  await store.putAnswer({ id: "a", at: "2026-12-06T11:00:00.000Z" });
  await store.putAnswer({ id: "c", at: "2026-12-06T09:00:00.000Z" });
  assert.deepEqual((await store.listAnswers()).map((a) => a.id), ["c", "b", "a"]);
  await store.updateAnswer("b", (a) => ({ ...a, tries: 1 }));
  await store.deleteAnswer("c");
  assert.deepEqual(await store.listAnswers(), [
    { id: "b", at: "2026-12-06T10:00:00.000Z", tries: 1 }, { id: "a", at: "2026-12-06T11:00:00.000Z" }]);
  store.close();
});

test("a change is read and written in one transaction, or not at all", async () => {
  const store = await openStore({ indexedDB: new IDBFactory() });
  await store.putGame(game("g"));
  // Twenty changes at once: each reads what the one before wrote.
  await Promise.all(Array.from({ length: 20 }, () => store.updateGame("g", (g) => ({ ...g, revision: g.revision + 1 }))));
  assert.equal((await store.getGame("g")).revision, 20);
  // A change that throws stores nothing; one that returns the game unchanged neither.
  await assert.rejects(store.updateGame("g", (g) => {
    g.revision = 99; // even a change made in place before the refusal
    throw new Error("refused");
  }), /refused/);
  assert.equal((await store.getGame("g")).revision, 20);
  const same = await store.updateGame("g", (g) => g);
  assert.equal(same.revision, 20);
  assert.equal(await store.updateGame("none", () => assert.fail("no game, no change")), null);
  await assert.rejects(store.updateGame("g", (g) => ({ ...g, id: "other" })), /may not change its id/);
  assert.equal(await store.getGame("other"), null);
  // A value IndexedDB cannot keep is refused whole.
  await assert.rejects(store.putGame({ ...game("h"), view: () => 1 }));
  assert.equal(await store.getGame("h"), null);
  await assert.rejects(store.putGame({ noId: true }));
  store.close();
});

test("puzzle results wait in their own store, oldest first", async () => {
  const indexedDB = new IDBFactory();
  const store = await openStore({ indexedDB });
  const result = (id, fields) => ({ id, created: tick().toISOString(), error: null, line: null, ...fields });
  const solved = result("r1", { date: "2026-11-29", tries: 2, seconds: 75, solved: true, line: ["B2C", "D4E", "A3"] });
  const failed = result("r2", { date: "2026-11-30", tries: 1, seconds: 20, solved: false });
  await store.putResult(failed);
  await store.putResult(solved);
  store.close();
  const again = await openStore({ indexedDB });
  assert.deepEqual((await again.listResults()).map((r) => r.id), ["r1", "r2"]);
  await again.updateResult("r2", (r) => ({ ...r, error: { status: 409, code: "not_solved", message: "no" } }));
  assert.equal((await again.getResult("r2")).error.code, "not_solved");
  await again.deleteResult("r1");
  assert.deepEqual((await again.listResults()).map((r) => r.id), ["r2"]);
  assert.deepEqual(await again.listGames(), []);
  again.close();
});
