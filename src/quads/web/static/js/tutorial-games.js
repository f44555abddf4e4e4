// The tutorial's games are real games on the server; the page remembers their
// ids so that the list of unfinished games does not offer them to resume.
const TUTORIAL_GAMES_KEY = "quads.tutorialGames";
const TUTORIAL_GAMES_KEPT = 50;

function tutorialGames() {
  try {
    const ids = JSON.parse(localStorage.getItem(TUTORIAL_GAMES_KEY) || "[]");
    return Array.isArray(ids) ? ids : [];
  } catch {
    return [];
  }
}

/** Note that game `id` was made by the tutorial. */
export function rememberTutorialGame(id) {
  const ids = tutorialGames().filter((known) => known !== id);
  ids.push(id);
  localStorage.setItem(TUTORIAL_GAMES_KEY, JSON.stringify(ids.slice(-TUTORIAL_GAMES_KEPT)));
}

/** Whether game `id` was made by the tutorial in this browser. */
export function isTutorialGame(id) {
  return tutorialGames().includes(id);
}

