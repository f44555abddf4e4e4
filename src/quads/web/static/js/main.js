// The page's entry point: language, routing between the screens, the short
// notices, the banner shown while the server cannot be reached, and the
// service worker that lets the page open without it (offline.js).
//
// Addresses: #/new is the new-game screen, #/game/<id> a game, #/puzzle the
// day's puzzle and #/puzzle/YYYY-MM-DD the puzzle of an earlier date; #/learn
// the rules, variants, strategy, history and questions, and #/learn/<section>
// the same page at one of its sections; #/learn/tutorial the guided first
// game; #/join/<token> the invitation to an online game (the server sends
// /join/<token> there).  The id of the
// open game is also kept in localStorage, so that opening the page again
// brings the player back to the game they left.

import * as api from "./api.js";
import { BoardView } from "./board-view.js";
import { GameView } from "./game-view.js";
import { preferredLanguage, setLanguage, t } from "./i18n.js";
import { JoinView } from "./join-view.js";
import { LearnView } from "./learn-view.js";
import { offerInstall } from "./install.js";
import { OfflineBanner, keepForOffline } from "./offline.js";
import { fillPlayAreas } from "./play-area.js";
import { PuzzleView } from "./puzzle-view.js";
import { SetupView } from "./setup-view.js";
import { TutorialView } from "./tutorial-view.js";

const GAME_KEY = "quads.game";
const $ = (id) => document.getElementById(id);

fillPlayAreas();
offerInstall($("install-card"), $("install-button"));

// ---- the notice bar ---------------------------------------------------------

let noticeTimer = null;

function showNotice(text, { tone = "info", sticky = false } = {}) {
  const notice = $("notice");
  clearTimeout(noticeTimer);
  notice.textContent = text;
  notice.dataset.tone = tone;
  notice.hidden = false;
  if (!sticky) noticeTimer = setTimeout(() => (notice.hidden = true), 3000);
}

const offlineBanner = new OfflineBanner($("offline"), { onBack: () => showNotice(t("net.back")) });
api.onConnectionChange((reachable) => offlineBanner.reachable(reachable));

// ---- screens ----------------------------------------------------------------

function goToGame(id) {
  localStorage.setItem(GAME_KEY, id);
  location.hash = `#/game/${encodeURIComponent(id)}`;
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
  const view = await api.newGame(settings);
  gameView.close();
  await showGame(view.id, view);
}

async function importGame(record, settings) {
  const view = await api.importRecord(record, settings);
  gameView.close();
  await showGame(view.id, view);
  showNotice(t("import.done"));
}

const gameView = new GameView({
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

const puzzleView = new PuzzleView({ notify: (text) => showNotice(text) });

const learnView = new LearnView($("learn-view"));

const boardView = new BoardView({ notify: (text) => showNotice(text) });

const tutorialView = new TutorialView({
  onPlay: (settings) => startGame(settings).catch(() => showNotice(t("error.unknown"), { tone: "warning" })),
});

function showScreen(name) {
  $("setup-view").hidden = name !== "setup";
  $("game-view").hidden = name !== "game";
  $("puzzle-view").hidden = name !== "puzzle";
  $("learn-view").hidden = name !== "learn";
  $("tutorial-view").hidden = name !== "tutorial";
  $("join-view").hidden = name !== "join";
  $("analyse-view").hidden = name !== "analyse";
  $("nav-learn").hidden = name === "learn";
  $("nav-new").hidden = name === "setup";
  $("nav-puzzle").hidden = name === "puzzle";
  if (name !== "puzzle") puzzleView.close();
  if (name !== "tutorial") tutorialView.close();
  if (name !== "join") joinView.close();
}

async function showPuzzle(date) {
  gameView.close();
  showScreen("puzzle");
  await puzzleView.open(date);
}

/** The address the page shows a screen for.  A navigation to another address
 * fires `popstate` and then `hashchange`: it is routed once, on `hashchange`.  A
 * `popstate` alone (the same address again) routes anew. */
let shownAddress = null;

function popped() {
  if (location.href === shownAddress) route();
}

async function showGame(id, view = null, { replace = false } = {}) {
  localStorage.setItem(GAME_KEY, id);
  const hash = `#/game/${encodeURIComponent(id)}`;
  if (replace) history.replaceState(null, "", hash);
  else if (location.hash !== hash) history.pushState(null, "", hash);
  shownAddress = location.href;
  showScreen("game");
  if (gameView.id !== id) await gameView.open(id, view);
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
  const analyse = /^#\/analyse(?:\/([\w-]+)(?:\/(.+))?)?$/.exec(location.hash);
  if (analyse) {
    gameView.close();
    showScreen("analyse");
    const position = analyse[2] ? decodeURIComponent(analyse[2]) : null;
    // The board's own changes are already in the address: nothing to do.
    if (boardView.asked !== location.hash) boardView.open(analyse[1] || "quads", position);
    return;
  }
  const puzzle = /^#\/puzzle(?:\/(.+))?$/.exec(location.hash);
  if (puzzle) {
    await showPuzzle(puzzle[1] ? decodeURIComponent(puzzle[1]) : "today");
    return;
  }
  const join = /^#\/join\/([\w-]+)$/.exec(location.hash);
  if (join) {
    gameView.close();
    showScreen("join");
    await joinView.open(join[1]);
    return;
  }
  const match = /^#\/game\/(.+)$/.exec(location.hash);
  if (match) {
    await showGame(decodeURIComponent(match[1]));
    return;
  }
  if (location.hash === "" || location.hash === "#" || location.hash === "#/") {
    // Back to the game this browser played last, if it is still going on.  Without
    // the server, the new-game screen opens at once; the game stays remembered.
    const id = localStorage.getItem(GAME_KEY);
    if (id && navigator.onLine) {
      try {
        const view = await api.getGame(id, { wait: false });
        if (!view.outcome) {
          await showGame(id, view);
          return;
        }
      } catch (error) {
        if (!(error instanceof api.ApiError && error.code === "unreachable")) localStorage.removeItem(GAME_KEY);
      }
    }
  }
  gameView.close();
  showScreen("setup");
  puzzleView.showEntry();
  await setupView.show();
}

// ---- start ------------------------------------------------------------------

async function changeLanguage(lang) {
  await setLanguage(lang);
  $("lang-select").value = lang;
  setupView.render();
  gameView.render();
  puzzleView.render();
  learnView.render();
  tutorialView.render();
  joinView.render();
  boardView.render();
  offlineBanner.render();
}

async function start() {
  await changeLanguage(preferredLanguage());
  // After the first answer of the server, which gave this browser its cookie: the
  // worker's own first requests then carry it too.
  keepForOffline();
  $("lang-select").addEventListener("change", (event) => changeLanguage(event.target.value));
  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", popped);
  await route();
  document.body.dataset.ready = "true";
}

start();
