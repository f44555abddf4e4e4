// The tutorial's games of earlier versions of the page were real games on the
// server; the page remembered their ids so that the list of unfinished games does
// not offer them to resume.  The tutorial now plays in memory on the device, so no
// new id is added; the ones remembered keep those old games out of the list.
const TUTORIAL_GAMES_KEY = "quads.tutorialGames";

function tutorialGames() {
  try {
    const ids = JSON.parse(localStorage.getItem(TUTORIAL_GAMES_KEY) || "[]");
    return Array.isArray(ids) ? ids : [];
  } catch {
    return [];
  }
}

/** Whether game `id` was made by the tutorial of an earlier version in this browser. */
export function isTutorialGame(id) {
  return tutorialGames().includes(id);
}
