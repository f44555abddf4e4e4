// Games on the device (src/quads/web/static/js/local/) against the server: every
// case of tests/js/make_local_cases.py (.ci/run writes them, before `node --test
// tests/js/`) is played here step by step with device-game.js, and after each step
// its GameView (view.js) and GameSummary must be the server's, field for field,
// and each refusal the server's: code, message, reason and params.  Then unit tests
// of the modules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { FIRST, Game, IllegalActionError, InvalidRulesError, SECOND, parseAction } from "../../src/quads/web/static/js/rules/index.js";
import * as history from "../../src/quads/web/static/js/local/history.js";
import {
  DeviceGameError, act, markRefused, markUploaded, needsUpload, newDeviceGame, playComputer, redo, resign,
  restoreGame, summary, undo, uploadBody, view,
} from "../../src/quads/web/static/js/local/device-game.js";
import { gameView, summaryView } from "../../src/quads/web/static/js/local/view.js";

const OUT = fileURLToPath(new URL("./cases/", import.meta.url));
const MAKE = "PYTHONPATH=src .venv/bin/python tests/js/make_local_cases.py";
const CREATED = new Date("2026-11-30T09:12:03.120Z");
const clock = () => CREATED;

function cases() {
  const path = `${OUT}local.json`;
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: write the cases first with \`${MAKE}\` (from the repository root)`);
  }
  return JSON.parse(readFileSync(path, "utf8")).games;
}

/** The server's fields of a summary, times left out (the device keeps its own). */
function serverSummary(line) {
  const { created, updated, on_device: onDevice, uploaded, upload_error: error, ...rest } = line; // eslint-disable-line no-unused-vars
  return rest;
}

/** Play one step of a case on `device`; the new device game, or the refusal thrown. */
function play(device, step) {
  if (step.op === "act") return act(device, step.action, { now: clock });
  if (step.op === "computer") return playComputer(device, step.actions, { now: clock });
  if (step.op === "undo") return undo(device, { now: clock });
  if (step.op === "redo") return redo(device, { now: clock });
  if (step.op === "resign") return resign(device, { now: clock });
  throw new Error(`unknown step ${step.op}`);
}

test("games on the device show exactly what the server shows, step by step", () => {
  const games = cases();
  assert.ok(games.length >= 100);
  let steps = 0;
  const refused = new Map();
  for (const c of games) {
    let device = newDeviceGame({ rules: c.rules, mode: c.mode, level: c.level, human: c.human }, { id: c.id, now: clock });
    assert.deepEqual(view(device), c.start.view, `${c.id} at the start`);
    assert.deepEqual(serverSummary(summary(device)), serverSummary(c.start.summary));
    c.steps.forEach((step, index) => {
      const where = `${c.id} (${c.rules}, ${c.mode}) step ${index}: ${JSON.stringify({ op: step.op, action: step.action, actions: step.actions })}`;
      const before = structuredClone(device);
      if (step.error) {
        assert.throws(() => play(device, step), (error) => {
          const { code, message, reason, params } = error;
          assert.deepEqual({ code, message, reason, params }, step.error, where);
          return true;
        }, where);
        const key = `${step.error.code}.${step.error.reason}`;
        refused.set(key, (refused.get(key) ?? 0) + 1);
        assert.deepEqual(device, before, `${where}: a refusal changes nothing`);
        return;
      }
      device = play(device, step);
      assert.equal(device.revision, before.revision + 1, where);
      assert.deepEqual(view(device), step.view, where);
      const line = summary(device);
      assert.deepEqual(serverSummary(line), serverSummary(step.summary), where);
      assert.equal(line.on_device, true);
      const body = uploadBody(device);
      assert.deepEqual({ actions: body.actions, redo: body.redo }, step.game, where);
      steps += 1;
    });
  }
  assert.ok(steps > 2000, `${steps} steps played`);
  // The refusals of the rules a person meets in a game on the device, among others.
  for (const key of ["illegal_action.cell_taken", "illegal_action.give_first", "illegal_action.place_first",
    "illegal_action.not_in_supply", "game_over.", "not_your_turn.", "nothing_to_undo."]) {
    assert.ok(refused.has(key), `no refusal ${key}: ${[...refused.keys()].join(" ")}`);
  }
});

test("history.js takes back and plays again whole turns, as the server does", () => {
  // The cases' undo and redo steps go through history.js; here its answers alone.
  for (const c of cases().slice(0, 40)) {
    let device = newDeviceGame({ rules: c.rules, mode: c.mode, level: c.level, human: c.human }, { id: c.id, now: clock });
    const person = c.mode === "computer" ? c.human : null;
    for (const step of c.steps) {
      if (step.error) continue;
      device = play(device, step);
      const game = restoreGame(device);
      const resigned = game.outcome?.termination === "resignation";
      assert.equal(history.canUndo(game, person) && !resigned, step.view.can_undo);
      assert.equal(history.canRedo(game, person) && !resigned, step.view.can_redo);
      if (history.canUndo(game, person)) {
        const copy = game.copy();
        history.undo(copy, person);
        const back = copy.actions.length;
        assert.ok(back < game.actions.length);
        if (person !== null) assert.equal(copy.state.toMove, person, "back to where the person acts");
        assert.ok(history.canRedo(copy, person));
        history.redo(copy, person);
        assert.ok(copy.actions.length > back);
        assert.deepEqual(copy.actions.slice(0, back), game.actions.slice(0, back));
      }
    }
  }
});

// -- unit tests ----------------------------------------------------------------

function local(rules = "quads") {
  return newDeviceGame({ rules, mode: "local" }, { id: "0b6f3f9e-3c1a-4d52-9d0e-5e2f4a7c8b10", now: clock });
}

test("a new device game is plain data, dated, at revision 0", () => {
  const device = newDeviceGame({ rules: "classic", mode: "computer", level: 4, human: SECOND }, { now: clock });
  assert.match(device.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual({ ...device, id: "x" }, {
    id: "x", rules: "classic", mode: "computer", level: 4, human: "second",
    game: { rules: "classic", start: "..../..../..../.... -", headers: { Date: "2026.11.30" }, actions: [], redo: [] },
    revision: 0, created: "2026-11-30T09:12:03.120Z", updated: "2026-11-30T09:12:03.120Z",
    uploaded: null, upload_error: null,
  });
  assert.deepEqual(structuredClone(device), device);
  assert.equal(view(device).computer_to_move, true);
  assert.throws(() => newDeviceGame({ rules: "nonsense", mode: "local" }), InvalidRulesError);
  for (const settings of [{ mode: "online" }, { mode: "computer", level: 6, human: FIRST }, { mode: "computer", level: 2, human: "both" }]) {
    assert.throws(() => newDeviceGame(settings), (error) => error instanceof DeviceGameError && error.code === "bad_request");
  }
  assert.equal(newDeviceGame({ mode: "local", level: 3, human: FIRST }).level, null);
});

test("actions come as text, as the API's actions or as the rules' own", () => {
  let device = act(local(), "give 7", { now: clock });
  device = act(device, { action: "place", cell: "B2" });
  device = act(device, parseAction("give C"));
  assert.deepEqual(device.game.actions, ["give 7", "place B2", "give C"]);
  assert.equal(device.revision, 3);
  for (const wrong of ["resign first", { action: "resign" }, { type: "resign", player: "first" }, 7, null]) {
    assert.throws(() => act(device, wrong), (error) => error.code === "bad_request" || error instanceof IllegalActionError);
  }
});

test("a refusal throws the rules' error and changes nothing", () => {
  const device = act(local(), "give 7");
  const frozen = structuredClone(device);
  assert.throws(() => act(device, "give 8"), (error) => error instanceof IllegalActionError
    && error.message === "cannot give 8: piece 7 must be placed first");
  assert.deepEqual(device, frozen);
  assert.throws(() => act(device, "place A1", { revision: 0 }), (error) => error.code === "stale"
    && error.params.revision === 0 && error.params.current === 1);
  assert.equal(act(device, "place A1", { revision: 1 }).revision, 2);
});

test("the computer's turn is checked as a whole and only on its turn", () => {
  const game = newDeviceGame({ mode: "computer", level: 2, human: SECOND }, { now: clock });
  assert.throws(() => act(game, "give 7"), (error) => error.code === "not_your_turn");
  assert.throws(() => playComputer(game, []), (error) => error.code === "bad_request");
  // A hand-over and then a placement of the person's: refused whole.
  assert.throws(() => playComputer(game, ["give 7", "place A1"]), (error) => error.code === "not_your_turn");
  const played = playComputer(game, ["give 7"]);
  assert.equal(played.revision, 1);
  assert.equal(view(played).can_act, true);
  assert.throws(() => playComputer(played, ["place A1", "give 3"]), (error) => error.code === "not_your_turn");
  assert.throws(() => playComputer(local(), ["give 7"]), (error) => error.code === "not_your_turn");
});

test("undo, redo and resignations follow the server", () => {
  let device = newDeviceGame({ mode: "computer", level: 3, human: FIRST }, { now: clock });
  assert.throws(() => undo(device), (error) => error.code === "nothing_to_undo");
  device = act(device, "give 7");
  device = playComputer(device, ["place A1", "give C"]);
  device = undo(device);
  assert.deepEqual(device.game.actions, []);
  assert.deepEqual(uploadBody(device).redo, ["give 7", "place A1", "give C"]);
  device = redo(device);
  assert.deepEqual(device.game.actions, ["give 7", "place A1", "give C"]);
  assert.throws(() => redo(device), (error) => error.code === "nothing_to_redo");
  device = resign(device);
  const shown = view(device);
  assert.deepEqual([shown.resigned, shown.outcome.winner, shown.outcome.reason], ["first", "second", "resignation"]);
  assert.deepEqual([shown.can_undo, shown.can_redo, shown.can_resign], [false, false, false]);
  assert.throws(() => resign(device), (error) => error.code === "game_over");
  assert.throws(() => undo(device), (error) => error.code === "nothing_to_undo");
});

test("the upload's body and what the server answered", () => {
  let device = newDeviceGame({ rules: "lines:color:auto", mode: "computer", level: 5, human: SECOND }, { id: "u1", now: clock });
  assert.equal(needsUpload(device), false, "nothing to send before anybody acted");
  device = playComputer(device, ["give 7"]);
  device = act(device, "place D4");
  assert.deepEqual(uploadBody(device), {
    mode: "computer", rules: "lines:color:auto", level: 5, human: "second", actions: ["give 7", "place D4"],
    redo: [], created: "2026-11-30T09:12:03.120Z", device_revision: 2,
  });
  assert.deepEqual(Object.keys(uploadBody(local())), ["mode", "rules", "actions", "redo", "created", "device_revision"]);
  assert.equal(needsUpload(device), true);
  const stored = markUploaded(device, 2, "server-id", { now: clock });
  assert.deepEqual(stored.uploaded, { revision: 2, game: "server-id", at: "2026-11-30T09:12:03.120Z" });
  assert.equal(needsUpload(stored), false);
  assert.equal(summary(stored).uploaded, true);
  assert.equal(markUploaded(stored, 1, "older"), stored, "an older answer changes nothing");
  const moved = act(stored, "give 3");
  assert.equal(needsUpload(moved), true);
  assert.equal(summary(moved).uploaded, false);
  const error = { status: 422, code: "illegal_action", message: "no", reason: "cell_taken", params: { cell: "A1" } };
  const refused = markRefused(moved, 3, error);
  assert.equal(needsUpload(refused), false, "a refused revision is not sent again");
  assert.deepEqual(summary(refused).upload_error, error);
  const later = playComputer(refused, ["place A1", "give 5"]);
  assert.equal(needsUpload(later), true, "the next change is sent again");
  assert.equal(summary(later).upload_error, null);
  assert.equal(markUploaded(refused, 3, "server-id").upload_error, null);
});

test("view.js takes a restored game or restores one itself", () => {
  const device = act(act(local("classic"), "give 7"), "place A1");
  const game = Game.restore(device.game);
  assert.deepEqual(gameView(device, game), gameView(device));
  assert.deepEqual(summaryView(device, game), summaryView(device));
  assert.equal(gameView(device).declare_offered, true);
  assert.equal(gameView(device).calls_forfeited, false);
  assert.ok(!("can_declare" in gameView(device)), "no view says whether a call would win");
});
