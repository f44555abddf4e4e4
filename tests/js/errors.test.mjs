// Unit tests of the page's one home of error wording (src/quads/web/static/js/errors.js):
// which catalogue key words a refusal, with which params.  Run by .ci/run with
// `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";

import { UNKNOWN, errorMessage, messageText } from "../../src/quads/web/static/js/errors.js";

const CATALOGUE = {
  "error.unknown": "Something went wrong.",
  "error.invalid_position": "This position cannot be read.",
  "error.invalid_position.already_won": "{shape} is already won.",
  "error.illegal_action": "That move is not allowed now.",
  "error.illegal_action.declare": "There is nothing to call.",
  "error.not_found": "Not found.",
  "join.unknown": "This invitation is not known.",
};
const has = (key) => Object.hasOwn(CATALOGUE, key);
const t = (key, params = {}) =>
  CATALOGUE[key].replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));

/** An error as api.js throws it. */
function refusal(code, reason, params) {
  return Object.assign(new Error(code), { status: 422, code, reason, params });
}

test("a reason the catalogue words wins over the code, with its params", () => {
  const error = refusal("invalid_position", "already_won", { shape: "row1" });
  assert.deepEqual(errorMessage(error, { has }), {
    key: "error.invalid_position.already_won", params: { shape: "row1" } });
});

test("a reason the catalogue does not know falls back to the code", () => {
  const error = refusal("invalid_position", "no_such_reason", { cell: "A1" });
  assert.deepEqual(errorMessage(error, { has }), {
    key: "error.invalid_position", params: { cell: "A1" } });
});

test("the action names the code's wording for what was being done", () => {
  const error = refusal("illegal_action", "nothing_to_declare", {});
  assert.equal(errorMessage(error, { has, action: "declare" }).key, "error.illegal_action.declare");
  assert.equal(errorMessage(error, { has, action: "place" }).key, "error.illegal_action");
});

test("a view's override comes first", () => {
  const error = refusal("not_found");
  assert.equal(errorMessage(error, { has, overrides: { not_found: "join.unknown" } }).key, "join.unknown");
  assert.equal(errorMessage(error, { has }).key, "error.not_found");
});

test("an unknown code, an error without a code, or nothing at all is error.unknown", () => {
  assert.deepEqual(errorMessage(refusal("teapot"), { has }), UNKNOWN);
  assert.deepEqual(errorMessage(new TypeError("x is undefined"), { has }), UNKNOWN);
  assert.deepEqual(errorMessage(null, { has }), UNKNOWN);
  assert.deepEqual(errorMessage(undefined, { has }), UNKNOWN);
});

test("the params are a copy: the message does not change with the error", () => {
  const error = refusal("invalid_position", "already_won", { shape: "row1" });
  const message = errorMessage(error, { has });
  error.params.shape = "colA";
  assert.equal(message.params.shape, "row1");
});

test("a message is worded with its params turned into words", () => {
  const message = { key: "error.invalid_position.already_won", params: { shape: "row1" } };
  const word = (name, value) => (name === "shape" ? `row ${value.slice(3)}` : value);
  assert.equal(messageText(message, { t, word }), "row 1 is already won.");
  assert.equal(messageText(message, { t }), "row1 is already won.");
});
