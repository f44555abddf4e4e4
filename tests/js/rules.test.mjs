// The page's rules (src/quads/web/static/js/rules/) against the Python library,
// which stays the reference: tests/js/make_rules_cases.py writes the cases
// from the library (.ci/run does, before `node --test tests/js/`), and every one
// of them must come out the same here.  A refusal must be the library's in all
// that the server's API would send of it (quads/web/errors.py): the class, the
// code, the message word for word, the reason and the params, so that the page
// words a refusal of its own rules as it words the server's.  Then unit tests of
// the modules themselves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

import {
  CLAIM, CLASSIC, DECLARE, EMPTY, FIRST, Game, IllegalActionError, InvalidPositionError, InvalidRulesError,
  Position, QUADS, Rules, SECOND, SHAPES, Turn, actionText, cellName, makeCell, parseAction, parseCell, parsePiece,
  parseToken, parseTrait, perft, pieceName, readRecord, writeRecord,
} from "../../src/quads/web/static/js/rules/index.js";
import { repr, splitLines, splitWords, strip } from "../../src/quads/web/static/js/rules/text.js";

const OUT = fileURLToPath(new URL("./cases/", import.meta.url));
const MAKE = "PYTHONPATH=src .venv/bin/python tests/js/make_rules_cases.py";

/** The case file `name`, or a loud failure saying how to make it. */
function cases(name) {
  const path = `${OUT}${name}`;
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: write the cases first with \`${MAKE}\` (from the repository root)`);
  }
  return JSON.parse(readFileSync(path, "utf8"));
}

/** A refusal of the page's rules in the form the cases are written in. */
function refusal(error) {
  return { class: error.name, code: error.code, message: error.message, reason: error.reason, params: error.params };
}

/** What `call` returns or throws, in the form the cases are written in. */
function attempt(call) {
  try {
    return { value: call() };
  } catch (error) {
    if (!(error instanceof Error) || !("reason" in error)) throw error;
    return { error: refusal(error) };
  }
}

/** The case's expected `{value}` or `{error}` part. */
function expected(c) {
  return "error" in c ? { error: c.error } : { value: c.value };
}

/** How many refusals of the library were compared here, by reason. */
const compared = new Map();
/** The names of the params of the refusals compared, by `code.reason`. */
const paramNames = new Map();

/** Assert that `got` (an attempt()) is the case's `want`, and count a refusal compared. */
function same(got, want, where) {
  assert.deepEqual(got, want, where);
  if (!want.error) return;
  const { code, reason, params } = want.error;
  compared.set(reason, (compared.get(reason) ?? 0) + 1);
  const key = `${code}.${reason}`;
  if (!paramNames.has(key)) paramNames.set(key, new Set());
  paramNames.get(key).add(Object.keys(params).sort().join(","));
}

function outcomeCase(outcome) {
  if (outcome === null) return null;
  return {
    termination: outcome.termination,
    winner: outcome.winner,
    shapes: outcome.shapes.map((s) => s.id),
    traits: outcome.traits.map(([t, v]) => [t, v]),
    result: outcome.result,
  };
}

function stateCase(state, rules) {
  return {
    position: state.position.toString(),
    to_move: state.toMove,
    step: state.step,
    declarable: state.declarable.map((s) => s.id),
    claimable: state.claimable.map((s) => s.id),
    outcome: outcomeCase(state.outcome),
    legal: state.legalActions(rules).map(actionText),
    moment: state.moment,
    forfeit: state.forfeit === null ? null : [state.forfeit.player, state.forfeit.until],
    safe: state.position.safePieces(rules),
  };
}

/** The position and the result of a copy of `game` after `change`. */
function after(game, change) {
  const copy = game.copy();
  change(copy);
  return [copy.position.toString(), copy.outcome === null ? "*" : copy.outcome.result];
}

// -- conformance with the Python library -----------------------------------

test("rule-set names read as Python reads them, refusals word for word", () => {
  const { rules, masks, traits } = cases("rules-parse.json");
  assert.ok(rules.length > 400);
  for (const c of rules) same(attempt(() => Rules.parse(c.text).name), expected(c), repr(c.text));
  for (const c of masks) {
    same(attempt(() => new Rules(c.shapes, c.traits, c.calling).name), expected(c), `${c.shapes} ${repr(c.traits)} ${c.calling}`);
  }
  for (const c of traits) same(attempt(() => parseTrait(c.text)), expected(c), repr(c.text));
});

test("cells, pieces, turns and stored actions read as Python reads them", () => {
  const { cells, pieces, turns, coordinates, numbers, turn_parts: parts, actions } = cases("rules-parse.json");
  for (const c of cells) same(attempt(() => parseCell(c.text)), expected(c), repr(c.text));
  for (const c of pieces) same(attempt(() => parsePiece(c.text)), expected(c), repr(c.text));
  for (const c of turns) same(attempt(() => Turn.parse(c.text).text), expected(c), repr(c.text));
  for (const c of coordinates) same(attempt(() => makeCell(c.column, c.row)), expected(c), `(${c.column}, ${c.row})`);
  for (const c of numbers) {
    same(attempt(() => cellName(c.number)), c.cell, `cell ${repr(c.number)}`);
    same(attempt(() => pieceName(c.number)), c.piece, `piece ${repr(c.number)}`);
  }
  for (const c of parts) same(attempt(() => new Turn(c.place, c.give).text), expected(c), `Turn(${c.place}, ${c.give})`);
  for (const c of actions) same(attempt(() => actionText(parseAction(c.text))), expected(c), repr(c.text));
});

test("positions: parsing, checks, wins, danger, safe pieces, legal turns and play agree", () => {
  const { positions, boards } = cases("rules-positions.json");
  assert.ok(positions.length > 4000);
  for (const c of boards) {
    same(attempt(() => Position.fromPieces(new Map(c.board), c.hand).toString()), expected(c), JSON.stringify(c));
  }
  for (const c of positions) {
    const where = `${repr(c.text)} under ${c.rules}`;
    same(attempt(() => Position.fromString(c.text).toString()), expected(c), where);
    if (!("check" in c)) continue;
    const rules = Rules.parse(c.rules);
    const position = Position.fromString(c.text);
    const check = attempt(() => position.check(rules));
    if (c.check === null) assert.deepEqual(check, { value: undefined }, where);
    else same(check, { error: c.check }, where);
    assert.equal(position.supply, c.supply, where);
    assert.deepEqual(position.winningShapes(rules).map((s) => s.id), c.winning, where);
    assert.equal(position.danger(rules), c.danger, where);
    assert.equal(position.safePieces(rules), c.safe, where);
    if (position.hand !== null) assert.equal(position.winningCells(position.hand, rules), c.winning_cells, where);
    assert.equal(position.legalTurns(rules).map((t) => t.text).join(" "), c.turns, where);
    for (const p of c.play) {
      same(attempt(() => position.play(Turn.parse(p.turn)).toString()), expected(p), `${where}: ${p.turn}`);
    }
  }
});

test("random games: every state, every refusal, tokens, whole turns and the record agree", () => {
  const { games } = cases("rules-games.json");
  assert.ok(games.length >= 1000);
  let states = 0;
  for (const [index, c] of games.entries()) {
    const where = `game ${index} under ${c.rules}`;
    const rules = Rules.parse(c.rules);
    const game = new Game(rules, Position.fromString(c.start), c.headers);
    const at = (list) => {
      const by = new Map();
      for (const item of list) by.set(item.index, [...(by.get(item.index) ?? []), item]);
      return by;
    };
    const [illegal, tokens, turns] = [at(c.illegal), at(c.tokens), at(c.turns)];
    assert.deepEqual(stateCase(game.state, rules), c.states[0], `${where}, start`);
    c.actions.forEach((text, n) => {
      const before = game.state;
      for (const wrong of illegal.get(n) ?? []) {
        same(attempt(() => before.apply(parseAction(wrong.action), rules)), { error: wrong.error }, `${where}, ${wrong.action}`);
      }
      for (const t of tokens.get(n) ?? []) {
        same(attempt(() => parseToken(t.token, before, rules, { last: t.last }).map(actionText)), expected(t), `${where}, token ${repr(t.token)} at ${n}`);
      }
      for (const t of turns.get(n) ?? []) {
        same(attempt(() => after(game, (copy) => copy.play(Turn.parse(t.turn)))), expected(t), `${where}, turn ${t.turn} at ${n}`);
      }
      game.apply(parseAction(text));
      assert.deepEqual(stateCase(game.state, rules), c.states[n + 1], `${where}, after ${text}`);
      states += 1;
    });
    for (const e of c.ended) same(attempt(() => after(game, (copy) => copy.apply(parseAction(e.action)))), expected(e), `${where}, then ${e.action}`);
    assert.equal(writeRecord(game), c.record, where);
    const read = readRecord(c.record);
    assert.deepEqual(read.actions.map(actionText), c.actions, where);
    assert.equal(writeRecord(read), c.record, where);
  }
  assert.ok(states > 20000, `${states} states`);
});

test("undo and redo, mixed with actions, leave the same game as in Python", () => {
  const { histories } = cases("rules-games.json");
  for (const [index, c] of histories.entries()) {
    const game = new Game(Rules.parse(c.rules));
    for (const [n, op] of c.ops.entries()) {
      const result = attempt(() => {
        if (op.op === "undo") game.undo();
        else if (op.op === "redo") game.redo();
        else game.apply(parseAction(op.op));
      });
      const where = `history ${index}, op ${n} (${op.op})`;
      if (op.error) same(result, { error: op.error }, where);
      else assert.deepEqual(result, { value: undefined }, where);
      assert.deepEqual(
        [game.position.toString(), game.actions.length, game.canUndo(), game.canRedo(), game.toMove],
        [op.position, op.actions, op.can_undo, op.can_redo, op.to_move], where,
      );
    }
  }
});

test("records, spoilt in small ways, are read or refused as Python reads or refuses them", () => {
  const { records, writes } = cases("rules-records.json");
  assert.ok(records.length > 2500);
  let refused = 0;
  for (const c of records) {
    same(attempt(() => writeRecord(readRecord(c.text))), expected(c), repr(c.text));
    if ("error" in c) refused += 1;
  }
  assert.ok(refused > 500 && refused < records.length - 300, `${refused} refused`);
  for (const c of writes) same(attempt(() => writeRecord(new Game(QUADS, EMPTY, c.headers))), expected(c), JSON.stringify(c.headers));
});

test("every reason the library's rules refuse with was compared, reason and params", (t) => {
  // Read from the library's source by make_rules_cases.py; a reason the library gains
  // fails here until the cases reach it.  Left out: a full board with a piece in hand
  // (sixteen pieces on the board leave none to hold, so the piece in hand is always
  // on the board too), and an action of no known kind (the page makes its actions).
  const unreachable = new Set(["board_full", "unknown_action"]);
  const { reasons } = cases("rules-parse.json");
  assert.ok(reasons.length >= 40, `${reasons.length} reasons`);
  const missing = reasons.filter((reason) => !unreachable.has(reason) && !compared.has(reason));
  assert.deepEqual(missing, [], "reasons no case compared");
  const total = [...compared.values()].reduce((sum, n) => sum + n, 0);
  assert.ok(total > 50000, `${total} refusals compared`);
  t.diagnostic(`${total} refusals compared, ${compared.size} reasons`);
});

test("a record or a position refused on the device is worded by the catalogue, as the server's refusal is", () => {
  // The page words a refusal by error.<code>.<reason> (js/errors.js): a record opened,
  // or a position set up, without the server meets these; each needs its words in
  // both languages, with no placeholder that the refusal's params leave empty.
  const catalogues = ["en", "de"].map((lang) => [lang, JSON.parse(readFileSync(new URL(`../../src/quads/catalogue/${lang}.json`, import.meta.url), "utf8"))]);
  const worded = [...paramNames.keys()].filter((key) => /^invalid_(record|position)\./.test(key) && key !== "invalid_position.out_of_range");
  assert.ok(worded.length >= 30, `${worded.length} reasons`);
  for (const key of worded) {
    for (const [lang, messages] of catalogues) {
      const text = messages[`error.${key}`];
      assert.ok(typeof text === "string", `${lang}.json has no error.${key}`);
      for (const names of paramNames.get(key)) {
        const given = new Set(names.split(","));
        for (const [, name] of text.matchAll(/\{(\w+)\}/g)) assert.ok(given.has(name), `${lang} error.${key}: {${name}} not among the params ${names}`);
      }
    }
  }
});

test("perft counts and safe-piece counts pinned in tests/test_perft.py", () => {
  const { perft: counts, safe } = cases("rules-perft.json");
  for (const c of counts) {
    const rules = Rules.parse(c.rules);
    const game = c.record ? readRecord(`[Rules "${c.rules}"]\n\n${c.record}`) : new Game(rules, Position.fromString(c.position));
    const got = c.counts.map((_, depth) => perft(game.state, rules, depth + 1));
    assert.deepEqual(got, c.counts, `${c.position ?? c.record} under ${c.rules}`);
  }
  for (const c of safe) {
    const mask = Position.fromString(c.position).safePieces(Rules.parse(c.rules));
    assert.equal(mask.toString(2).replaceAll("0", "").length, c.count, `${c.position} under ${c.rules}`);
  }
});

// -- unit tests of the modules ----------------------------------------------

test("refusals carry the library's class, code, reason and params", () => {
  assert.deepEqual(attempt(() => Rules.parse("lines:color,color")).error, {
    class: "InvalidRulesError", code: "invalid_rules", reason: "rules", params: { rules: "lines:color,color" },
    message: "invalid rule set 'lines:color,color': 'color,color' is not a preset (quads, classic, advanced), "
      + "a shape set (lines, lines+squares), a calling (auto, declare), false calls (free-calls, "
      + "forfeit-calls, losing-calls) or a trait list "
      + "(invalid trait list 'color,color': 'color' given twice)",
  });
  const onBoard = attempt(() => Position.fromString("F.../..../..../.... F")).error;
  assert.ok(onBoard.class === "InvalidPositionError" && onBoard.code === "invalid_position");
  assert.deepEqual([onBoard.reason, onBoard.params], ["hand_on_board", { piece: "F" }]);
  assert.throws(() => new Game(QUADS, Position.fromString("0123/..../..../.... -")), (e) => e instanceof InvalidPositionError
    && e.reason === "already_won" && e.params.shape === "row1");
  const empty = attempt(() => new Turn(null, null)).error;
  assert.deepEqual([empty.class, empty.code, empty.reason, empty.params], ["QuadsError", "unprocessable", "turn", {}]);
  assert.throws(() => readRecord("1. 7 A1F 3. B1"), { reason: "turn_number", params: { token: "3.", number: 2 } });
});

test("rule sets: presets, names and their parts", () => {
  assert.equal(Rules.parse(" CLASSIC "), CLASSIC);
  assert.equal(Rules.parse("declare:lines").name, "classic");
  assert.equal(Rules.parse("color,height").name, "lines+squares:height,color:auto");
  assert.equal(CLASSIC.winningShapes.length, 10);
  assert.equal(QUADS.winningShapes.length, 19);
  assert.ok(Rules.parse("lines:top").equals(new Rules("lines", 1, "auto")));
  assert.throws(() => new Rules("lines", 0, "auto"), InvalidRulesError);
  assert.ok(Object.isFrozen(QUADS));
});

test("whitespace and quoting are Python's, not JavaScript's", () => {
  assert.deepEqual(splitWords(" a\x1cb\ufeff c "), ["a", "b\ufeff", "c"]);
  assert.equal(strip("\x85x\u3000"), "x");
  assert.deepEqual(splitLines("a\r\nb\x85c\n"), ["a", "b", "c"]);
  assert.equal(repr("it's"), `"it's"`);
  assert.equal(repr(`it's "x"`), `'it\\'s "x"'`);
  assert.equal(repr("\x00\u200b😀"), "'\\x00\\u200b😀'");
});

test("a game: give, place, auto win with its shapes and shared traits", () => {
  const game = new Game();
  for (const [cell, piece] of [[null, 0], [0, 1], [1, 2], [2, 3]]) {
    if (cell !== null) game.place(cell);
    game.give(piece);
  }
  assert.equal(game.position.toString(), "012./..../..../.... 3");
  game.place(3);
  assert.ok(game.isOver());
  assert.equal(game.outcome.termination, "win");
  assert.equal(game.outcome.winner, FIRST);
  assert.deepEqual(game.outcome.shapes.map((s) => s.name), ["row 1"]);
  assert.deepEqual(game.outcome.traits, [["height", false], ["color", false]]);
  assert.equal(game.toMove, null);
  assert.throws(() => game.give(4), { reason: "game_over", params: {}, message: "cannot give 4: the game is over" });
});

test("declare rules: a missed declaration may be claimed once, then the shape is dead", () => {
  const game = readRecord('[Rules "classic"]\n\n1. 4 A15 2. B16 C17 3. D1?8');
  assert.ok(game.canClaim());
  assert.deepEqual(game.legalActions()[0], CLAIM);
  const claimed = game.copy();
  claimed.claim();
  assert.equal(claimed.outcome.termination, "claim");
  assert.equal(claimed.outcome.winner, SECOND);
  assert.ok(!game.isOver(), "the copy is independent");
  game.place(parseCell("A2"));
  assert.ok(!game.canDeclare() && !game.canClaim());
  assert.throws(() => game.claim(), { message: "cannot claim: a claim is made before placing the piece one was handed" });
  assert.throws(() => game.declare(), { message: "cannot declare: the last placement completed no winning shape" });
});

test("undo and redo are exact; a different action drops what was undone", () => {
  const game = new Game(CLASSIC);
  assert.ok(!game.canUndo() && !game.canRedo());
  assert.throws(() => game.undo(), IllegalActionError);
  game.give(7);
  game.place(5);
  game.give(3);
  const position = game.position.toString();
  assert.equal(actionText(game.undo()), "give 3");
  assert.equal(actionText(game.undo()), "place B2");
  assert.ok(game.canRedo());
  game.redo();
  game.redo();
  assert.equal(game.position.toString(), position);
  assert.ok(!game.canRedo());
  game.undo();
  game.give(4);
  assert.ok(!game.canRedo(), "another hand-over forgets the undone one");
  game.undo();
  game.give(3);
  assert.equal(game.position.toString(), position);
});

test("resignation: the other player wins, the game is over, and undo takes it back", () => {
  const game = new Game();
  game.give(0);
  game.resign(SECOND);
  assert.equal(game.outcome.termination, "resignation");
  assert.equal(game.outcome.winner, FIRST);
  assert.deepEqual(game.outcome.shapes, []);
  assert.equal(game.outcome.result, "1-0");
  assert.throws(() => game.resign(FIRST), { reason: "game_over", message: "cannot resign first: the game is over" });
  assert.throws(() => game.place(0), { reason: "game_over" });
  assert.throws(() => new Game().resign("nobody"), { name: "TypeError", message: "a resignation names a Player, not 'nobody'" });
  game.undo();
  assert.ok(!game.isOver());
  assert.ok(game.canRedo());
  game.redo();
  assert.equal(game.outcome.termination, "resignation");
});

test("a whole turn is played whole or not at all", () => {
  const game = new Game();
  game.give(0xf);
  assert.throws(() => game.play(Turn.parse("A1F")), { message: "cannot give F: it is not in the supply" });
  assert.equal(game.actions.length, 1);
  game.play(Turn.parse("a1e"));
  assert.equal(game.position.toString(), "F.../..../..../.... E");
});

test("tokens: marks are checked against the board", () => {
  const game = readRecord("1. 0 A11 2. B12");
  const state = game.state;
  assert.deepEqual(parseToken("C1", state, QUADS, { last: true }).map(actionText), ["place C1"]);
  assert.throws(() => parseToken("C1", state, QUADS, { last: false }), { reason: "piece_missing", params: { token: "C1" } });
  assert.throws(() => parseToken("C1!", state, QUADS, { last: true }), { message: "token 'C1!': this placement completes no winning shape; drop the '!'" });
  assert.throws(() => parseToken("4", state, QUADS, { last: true }), { reason: "expected_place", params: { token: "4", hand: "2" } });
});

test("the position string and the board", () => {
  const position = Position.fromString("f..0/..a./..../.3.. 7");
  assert.equal(position.toString(), "F..0/..A./..../.3.. 7");
  assert.equal(position.pieceAt(0), 15);
  assert.equal(position.pieceAt(1), null);
  assert.equal(position.emptyCount, 12);
  assert.deepEqual(position.cells.slice(0, 4), [15, null, null, 0]);
  assert.equal(EMPTY.toString(), "..../..../..../.... -");
  assert.equal(cellName(15), "D4");
  assert.equal(SHAPES.length, 19);
  assert.equal(Position.fromString("0123/4567/89AB/CDE. F").place(15).supply, 0);
  assert.deepEqual(parseAction("declare"), DECLARE);
});

test("a game kept as plain data comes back the same, and a spoilt one is refused", () => {
  const game = readRecord('[Event "Zug"]\n[Rules "advanced"]\n\n1. 4 A15 2. B16 C17 3. D1?8');
  game.undo();
  const data = JSON.parse(JSON.stringify(game.snapshot()));
  assert.deepEqual(data, {
    rules: "advanced", start: "..../..../..../.... -", headers: { Event: "Zug" },
    actions: ["give 4", "place A1", "give 5", "place B1", "give 6", "place C1", "give 7", "place D1"],
    redo: ["give 8"],
  });
  const back = Game.restore(data);
  assert.equal(writeRecord(back), writeRecord(game));
  back.redo();
  assert.ok(back.canClaim());
  const resigned = new Game();
  resigned.give(3);
  resigned.resign(FIRST);
  assert.equal(Game.restore(resigned.snapshot()).outcome.winner, SECOND);
  assert.throws(() => Game.restore({ ...data, actions: [...data.actions, "place A1"] }), { message: "cannot place on A1: a piece must be handed over first" });
  assert.throws(() => Game.restore({ ...data, redo: ["give 4"] }), { message: "cannot give 4: it is not in the supply" });
  assert.throws(() => Game.restore({ ...data, rules: "squares" }), InvalidRulesError);
});

test("the rules modules need no browser and no network: they import only one another", () => {
  const folder = new URL("../../src/quads/web/static/js/rules/", import.meta.url);
  const files = readdirSync(folder).filter((name) => name.endsWith(".js"));
  assert.ok(files.length >= 12);
  for (const name of files) {
    const source = readFileSync(new URL(name, folder), "utf8");
    for (const [, target] of source.matchAll(/\b(?:from|import)\s*\(?\s*"([^"]+)"/g)) assert.match(target, /^\.\/[a-z]+\.js$/, `${name} imports ${target}`);
    assert.doesNotMatch(source, /\b(document|window|fetch|localStorage|indexedDB|require)\b\s*[.(]/, name);
  }
});
