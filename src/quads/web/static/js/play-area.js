// The board, the piece in hand and the supply, as the puzzle, the tutorial and
// the analysis board show them: written once here and put in place of each
// <div data-play-area="PREFIX"></div> of the page, with ids PREFIX-board,
// PREFIX-hand, PREFIX-hand-caption, PREFIX-supply, PREFIX-supply-area and
// PREFIX-supply-title.  The placeholder may name other catalogue keys for the
// two headings (data-hand-title, data-supply-title) and ask for a button under
// the hand (data-hand-button), with id PREFIX-hand-button.
// Texts come from the catalogue when the page is translated.

function playArea(prefix, { handTitle = "game.hand.title", supplyTitle = "game.supply.title",
  handButton = false } = {}) {
  const button = handButton ? `<button type="button" class="button" id="${prefix}-hand-button"></button>` : "";
  const template = document.createElement("template");
  template.innerHTML = `
      <div class="board-area">
        <div class="board-frame">
          <div class="coords coords-cols" aria-hidden="true"><span>A</span><span>B</span><span>C</span><span>D</span></div>
          <div class="coords coords-rows" aria-hidden="true"><span>1</span><span>2</span><span>3</span><span>4</span></div>
          <div id="${prefix}-board" class="board" role="group" data-i18n-label="game.board"></div>
        </div>
      </div>

      <div class="hand-area">
        <div class="hand-card">
          <h2 class="hand-title" data-i18n="${handTitle}"></h2>
          <div id="${prefix}-hand" class="hand" role="img"></div>
          <p id="${prefix}-hand-caption" class="hand-caption"></p>${button}
        </div>
      </div>

      <section id="${prefix}-supply-area" class="supply-area" aria-labelledby="${prefix}-supply-title">
        <div class="supply-head">
          <h2 id="${prefix}-supply-title" data-i18n="${supplyTitle}"></h2>
        </div>
        <div id="${prefix}-supply" class="supply" role="group" aria-labelledby="${prefix}-supply-title"></div>
      </section>`;
  return template.content;
}

/** Put a play area in place of every placeholder below `root`. */
export function fillPlayAreas(root = document) {
  for (const placeholder of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-play-area]"))) {
    const { playArea: prefix, handTitle, supplyTitle, handButton } = placeholder.dataset;
    placeholder.replaceWith(playArea(prefix, { handTitle, supplyTitle,
      handButton: handButton !== undefined }));
  }
}
