// The page's entry point: language, routing between the screens, the short
// notices, the banner shown while the server cannot be reached, and the
// service worker that lets the page open without it (offline.js).
//
// Addresses: #/new is the new-game screen, #/game/<id> a game kept by the server and
// #/device/<uuid> one that lives on this device (game/device-source.js), either with
// /review after it to open a finished game into its review, #/puzzle the
// day's puzzle and #/puzzle/YYYY-MM-DD the puzzle of an earlier date; #/learn
// the rules, variants, strategy, history and questions, and #/learn/<section>
// the same page at one of its sections; #/learn/tutorial the guided first
// game; #/lobby the lobby, where strangers meet; #/join/<token> the invitation
// to an online game (the server sends /join/<token> there); #/sign-in, #/sign-up,
// #/account and #/link/<code> the account's screens (account/screens.js); #/players/<name>,
// #/my-games and #/leaderboard/<category> the players' screens (players/screens.js);
// #/tournaments and #/tournaments/<id> the tournaments (tournaments/screens.js); #/mistakes
// one's mistakes as exercises (mistakes/mistakes-view.js).  The id of
// the open game is also kept in localStorage, so that opening the page again
// brings the player back to the game they left.

import { decodePart } from "./hash.js";
import * as api from "./api.js";
import { askWhenForgotten } from "./account/forgotten.js";
import { AccountScreens } from "./account/screens.js";
import * as account from "./account/state.js";
import { readAddress as readAnalyseAddress } from "./analyse/address.js";
import { BoardView } from "./analyse/board-view.js";
import { onSent, sendWaiting } from "./device.js";
import { GameView } from "./game/game-view.js";
import { DeviceSource } from "./game/device-source.js";
import { ServerGame } from "./game/server-game.js";
import { preferredLanguage, setLanguage, t } from "./i18n.js";
import { JoinView } from "./join/join-view.js";
import { LearnView } from "./learn/learn-view.js";
import { LobbyView } from "./lobby/lobby-view.js";
import { offerInstall } from "./install.js";
import { OfflineBanner, keepForOffline } from "./offline.js";
import { fillPlayAreas } from "./play-area.js";
import { keepComingPuzzles } from "./puzzles/history.js";
import { PlayerScreens } from "./players/screens.js";
import { MistakesView } from "./mistakes/mistakes-view.js";
import { PuzzleView } from "./puzzles/puzzle-view.js";
import { TournamentScreens } from "./tournaments/screens.js";
import { SetupView } from "./setup/setup-view.js";
import { TutorialView } from "./learn/tutorial-view.js";
import { $, $select } from "./dom.js";

const GAME_KEY = "quads.game";

fillPlayAreas();
offerInstall($("install-card"), $("install-button"));

// ---- the notice bar ---------------------------------------------------------

/** @type {number | undefined} */
let noticeTimer;

/**
 * Show `text` in the notice bar for three seconds (`sticky`: until the next notice).
 * @param {string} text
 * @param {{ tone?: string, sticky?: boolean }} [options]
 */
function showNotice(text, { tone = "info", sticky = false } = {}) {
  const notice = $("notice");
  clearTimeout(noticeTimer);
  notice.textContent = text;
  notice.dataset.tone = tone;
  notice.hidden = false;
  if (!sticky) noticeTimer = setTimeout(() => (notice.hidden = true), 3000);
}

const offlineBanner = new OfflineBanner($("offline"), { onBack: () => showNotice(t("net.back")) });
let serverAnswered = true;
api.onConnectionChange((reachable) => {
  offlineBanner.reachable(reachable);
  // Back after a time without the server: send what was played meanwhile, and show
  // the games and the streak it keeps.
  if (reachable && !serverAnswered) {
    sendWaiting();
    account.refresh();
    accountScreens.back();
    if (!$("setup-view").hidden) {
      setupView.show();
      puzzleView.showEntry();
    }
  }
  serverAnswered = reachable;
});
window.addEventListener("online", () => sendWaiting());
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") sendWaiting();
});

// The server does not know this browser's player: say so, and go on only once the
// person chose to start as a new player or signed in again (the server never replaces
// the cookie itself).
askWhenForgotten({ notify: showNotice });

// ---- games: on the server, or on this device ------------------------------------
//
// A game is named by a key: the server's id of a game it keeps, "device:<uuid>" for a
// game that lives on this device.  Their addresses are #/game/<id> and #/device/<uuid>.

const DEVICE = "device:";

function isDeviceKey(key) {
  return key.startsWith(DEVICE);
}

function gameAddress(key) {
  return isDeviceKey(key) ? `#/device/${encodeURIComponent(key.slice(DEVICE.length))}` : `#/game/${encodeURIComponent(key)}`;
}

/** The source of the game `key` names (a promise for a game on the device). */
function sourceOf(key) {
  return isDeviceKey(key) ? DeviceSource.open(key.slice(DEVICE.length)) : new ServerGame(key);
}

function keyOf(source, id) {
  return source.onDevice ? `${DEVICE}${id}` : id;
}

/** A refusal of the page itself: what needs the server while it cannot be reached. */
function needsServer() {
  return new api.ApiError(0, "needs_server");
}

/**
 * Start a game with `settings` (a NewGame body): on the server when it answers (as
 * always), else on this device, so that the computer and two people on one device
 * play without a network.  Online play needs the server: refused at once without it.
 * Resolves {key, view}.
 */
async function createGame(settings, ask = () => api.newGame(settings, { wait: false })) {
  if (settings.mode === "online" && !navigator.onLine) throw needsServer();
  if (navigator.onLine) {
    try {
      const view = await ask();
      return { key: view.id, view };
    } catch (error) {
      if (error.code !== "unreachable") throw error;
      if (settings.mode === "online") throw needsServer();
    }
  }
  return null;
}

// ---- screens ----------------------------------------------------------------

function goToGame(key) {
  localStorage.setItem(GAME_KEY, key);
  location.hash = gameAddress(key);
}

/** Show game `id` (the next one after "Play again", or one joined). */
function openGame(id, view, options) {
  return showGame(id, view, options).catch(() => showNotice(t("error.unknown"), { tone: "warning" }));
}

/** The player deleted game `id`. */
function forgetDeleted(id) {
  if (localStorage.getItem(GAME_KEY) === id) localStorage.removeItem(GAME_KEY);
  showNotice(t("resume.deleted"));
}

async function startGame(settings) {
  let made = await createGame(settings);
  if (!made) {
    const source = await DeviceSource.start(settings);
    made = { key: keyOf(source, source.id), view: await source.load() };
  }
  gameView.close();
  await showGame(made.key, made.view);
}

async function importGame(record, settings) {
  let made = await createGame({ mode: "local", ...settings }, () =>
    api.importRecord(record, settings, { wait: false }));
  if (!made) {
    const source = await DeviceSource.fromRecord(record, settings);
    made = { key: keyOf(source, source.id), view: await source.load() };
  }
  gameView.close();
  await showGame(made.key, made.view);
  showNotice(t("import.done"));
}

const gameView = new GameView({
  sourceOf,
  keyOf,
  onRestart: (settings) => startGame(settings).catch(() => showNotice(t("error.unknown"), { tone: "warning" })),
  onMissing: () => {
    localStorage.removeItem(GAME_KEY);
    showNotice(t("error.not_found"), { tone: "warning" });
    location.hash = "#/new";
  },
  onOpen: (id, view) => openGame(id, view),
  onDeleted: (id) => {
    forgetDeleted(id);
    location.hash = "#/new";
  },
  notify: (text) => showNotice(text),
});

// The invitation's address is replaced by the game's: going back does not join again.
const joinView = new JoinView({ onOpen: (id, view) => openGame(id, view, { replace: true }) });

const setupView = new SetupView({
  onStart: startGame,
  onImport: importGame,
  onResume: (id) => goToGame(id),
  onDeleted: forgetDeleted,
  currentGame: () => localStorage.getItem(GAME_KEY),
});

// A game the lobby started opens at once; going back leads to the lobby again.
const lobbyView = new LobbyView({ onOpen: (id, view) => openGame(id, view) });

const puzzleView = new PuzzleView({ notify: (text) => showNotice(text) });

const mistakesView = new MistakesView();

const learnView = new LearnView($("learn-view"));

const boardView = new BoardView({ notify: (text) => showNotice(text) });

const tutorialView = new TutorialView({
  onPlay: (settings) => startGame(settings).catch(() => showNotice(t("error.unknown"), { tone: "warning" })),
});

// Signed in, out, or an account made: the home screen, with the games of who plays now.
const accountScreens = new AccountScreens({ notify: showNotice, home: () => (location.hash = "#/new") });
const playerScreens = new PlayerScreens();
// A game of the player's that an event began while they look at it opens by itself.
const tournamentScreens = new TournamentScreens((id) => openGame(id, null));

function showScreen(name) {
  $("setup-view").hidden = name !== "setup";
  $("game-view").hidden = name !== "game";
  $("game-away").hidden = true; // the game screen shows it in place of a game when need be
  $("puzzle-view").hidden = name !== "puzzle";
  $("mistakes-view").hidden = name !== "mistakes";
  $("learn-view").hidden = name !== "learn";
  $("tutorial-view").hidden = name !== "tutorial";
  $("join-view").hidden = name !== "join";
  $("analyse-view").hidden = name !== "analyse";
  $("lobby-view").hidden = name !== "lobby";
  accountScreens.show(name);
  playerScreens.show(name);
  tournamentScreens.show(name);
  $("nav-lobby").hidden = name === "lobby";
  $("nav-learn").hidden = name === "learn";
  $("nav-new").hidden = name === "setup";
  $("nav-puzzle").hidden = name === "puzzle";
  if (name !== "puzzle") puzzleView.close();
  if (name !== "mistakes") mistakesView.close();
  if (name !== "tutorial") tutorialView.close();
  if (name !== "join") joinView.close();
  if (name !== "lobby") lobbyView.close();
}

async function showPuzzle(date) {
  gameView.close();
  showScreen("puzzle");
  await puzzleView.open(date);
}

/** The address the page shows a screen for.  A navigation to another address
 * fires `popstate` and then `hashchange`: it is routed once, on `hashchange`.  A
 * `popstate` alone (the same address again) routes anew. */
/** @type {string | null} */
let shownAddress = null;

function popped() {
  if (location.href === shownAddress) route();
}

/** Show the game `key` names (a server's id, or "device:<uuid>"). */
async function showGame(key, view = null, { replace = false } = {}) {
  localStorage.setItem(GAME_KEY, key);
  const hash = gameAddress(key);
  if (replace) history.replaceState(null, "", hash);
  else if (location.hash !== hash) history.pushState(null, "", hash);
  shownAddress = location.href;
  showScreen("game");
  if (gameView.key !== key) await gameView.open(key, view);
}

/** Show the screen that the address asks for. */
async function route() {
  shownAddress = location.href;
  const learn = /^#\/learn(?:\/([\w-]+))?$/.exec(location.hash);
  if (learn && learn[1] === "tutorial") {
    gameView.close();
    showScreen("tutorial");
    window.scrollTo(0, 0);
    await tutorialView.open();
    return;
  }
  if (learn) {
    gameView.close();
    showScreen("learn");
    learnView.open(learn[1] || null);
    return;
  }
  const analyse = readAnalyseAddress(location.hash);
  if (analyse) {
    gameView.close();
    showScreen("analyse");
    // The board's own changes are already in the address: nothing to do.  A position
    // opened from elsewhere (a link, the review) opens at the top; once its values are
    // in, the board shows them wholly in view (boardView.open).
    if (boardView.asked !== location.hash) {
      window.scrollTo(0, 0);
      boardView.open(analyse);
    }
    return;
  }
  const puzzle = /^#\/puzzle(?:\/(.+))?$/.exec(location.hash);
  if (puzzle) {
    await showPuzzle(puzzle[1] ? decodePart(puzzle[1]) : "today");
    return;
  }
  if (location.hash === "#/mistakes") {
    gameView.close();
    showScreen("mistakes");
    window.scrollTo(0, 0);
    await mistakesView.open();
    return;
  }
  if (location.hash === "#/lobby") {
    gameView.close();
    showScreen("lobby");
    await lobbyView.open();
    return;
  }
  const accountScreen = AccountScreens.match(location.hash);
  if (accountScreen) {
    gameView.close();
    showScreen(accountScreen.screen);
    await accountScreens.open(accountScreen);
    return;
  }
  const playerScreen = PlayerScreens.match(location.hash);
  if (playerScreen) {
    gameView.close();
    showScreen(playerScreen.screen);
    await playerScreens.open(playerScreen);
    return;
  }
  const tournamentScreen = TournamentScreens.match(location.hash);
  if (tournamentScreen) {
    gameView.close();
    // Come from another screen (the end of the lobby, say): open at the top.
    const arriving = tournamentScreens.shown !== tournamentScreen.screen;
    showScreen(tournamentScreen.screen);
    if (arriving) window.scrollTo(0, 0);
    await tournamentScreens.open(tournamentScreen);
    return;
  }
  const join = /^#\/join\/([\w-]+)$/.exec(location.hash);
  if (join) {
    gameView.close();
    showScreen("join");
    await joinView.open(join[1]);
    return;
  }
  const match = /^#\/(game|device)\/([^/]+)(\/review)?$/.exec(location.hash);
  if (match) {
    const id = decodePart(match[2]);
    // #/game/<id>/review opens a finished game straight into its review; the address
    // then becomes the game's own.
    await showGame(match[1] === "device" ? `${DEVICE}${id}` : id, null, { replace: Boolean(match[3]) });
    if (match[3]) gameView.openReview();
    return;
  }
  if (location.hash === "" || location.hash === "#" || location.hash === "#/") {
    // Back to the game this browser played last, if it is still going on.  Without
    // the server, a game kept by it waits (the new-game screen opens at once; the game
    // stays remembered); a game on this device opens whatever the network does.
    const key = localStorage.getItem(GAME_KEY);
    if (key && (isDeviceKey(key) || navigator.onLine)) {
      try {
        const source = await sourceOf(key);
        const view = await source.load({ wait: false });
        source.close();
        if (!view.outcome) {
          await showGame(key, view);
          return;
        }
      } catch (error) {
        if (error.code !== "unreachable") localStorage.removeItem(GAME_KEY);
      }
    }
  }
  gameView.close();
  // Come from another screen (the end of a long page, say): open at the top, where
  // the start button is.
  const arriving = $("setup-view").hidden;
  showScreen("setup");
  if (arriving) window.scrollTo(0, 0);
  puzzleView.showEntry();
  await setupView.show();
}

// ---- start ------------------------------------------------------------------

async function changeLanguage(lang) {
  await setLanguage(lang);
  $select("lang-select").value = lang;
  setupView.render();
  gameView.render();
  puzzleView.render();
  mistakesView.render();
  learnView.render();
  tutorialView.render();
  joinView.render();
  lobbyView.render();
  boardView.render();
  accountScreens.render();
  playerScreens.render();
  tournamentScreens.render();
  offlineBanner.render();
}

async function start() {
  await changeLanguage(preferredLanguage());
  // After the first answer of the server, which gave this browser its cookie: the
  // worker's own first requests then carry it too.
  keepForOffline();
  sendWaiting();
  keepComingPuzzles();
  account.refresh();
  onSent(() => {
    if (!$("setup-view").hidden) setupView.show();
  });
  const languages = $select("lang-select");
  languages.addEventListener("change", () => changeLanguage(languages.value));
  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", popped);
  await route();
  document.body.dataset.ready = "true";
}

start();
