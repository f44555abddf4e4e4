// The board, the piece in hand and the supply, as the puzzle and the tutorial
// show them: written once here and put in place of each
// <div data-play-area="PREFIX"></div> of the page, with ids PREFIX-board,
// PREFIX-hand, PREFIX-hand-caption, PREFIX-supply, PREFIX-supply-area and
// PREFIX-supply-title.
// Texts come from the catalogue when the page is translated.

function playArea(prefix) {
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
          <h2 class="hand-title" data-i18n="game.hand.title"></h2>
          <div id="${prefix}-hand" class="hand" role="img"></div>
          <p id="${prefix}-hand-caption" class="hand-caption"></p>
        </div>
      </div>

      <section id="${prefix}-supply-area" class="supply-area" aria-labelledby="${prefix}-supply-title">
        <div class="supply-head">
          <h2 id="${prefix}-supply-title" data-i18n="game.supply.title"></h2>
        </div>
        <div id="${prefix}-supply" class="supply" role="group" aria-labelledby="${prefix}-supply-title"></div>
      </section>`;
  return template.content;
}

/** Put a play area in place of every placeholder below `root`. */
export function fillPlayAreas(root = document) {
  for (const placeholder of root.querySelectorAll("[data-play-area]")) {
    placeholder.replaceWith(playArea(placeholder.dataset.playArea));
  }
}
