// The learning pages: the rules with example boards, the variants side by
// side, a strategy guide, a short history and frequent questions.
//
// #/learn shows every section one below the other, with a list of contents
// (which also leads to the guided first game, #/learn/tutorial);
// #/learn/<section> shows the same page scrolled to that section.  All texts
// come from the message catalogue (keys "learn.*"), so the page is built anew
// whenever the language changes.

import { exampleBoard } from "../example-board.js";
import { t } from "../i18n.js";
import { joinList } from "../names.js";
import { pieceLabel, pieceSvg } from "../pieces.js";
import { readPosition } from "../position.js";
import { CELL_NAMES } from "../rules/cells.js";
import { LINES, SHAPES } from "../rules/shapes.js";
import { valueWords } from "../turn-values.js";

export const SECTIONS = ["rules", "variants", "strategy", "history", "solved", "faq"];

// The example boards of the rules: a position, the cells to point at, and
// whether those cells make a win (drawn in gold) or are only pointed at.
const RULE_EXAMPLES = [
  { key: "trait", position: "..../45E7/.2../8..1 -", cells: ["A2", "B2", "C2", "D2"], win: true },
  { key: "nothing", position: "0.../F.3./6.../9..C -", cells: ["A1", "A2", "A3", "A4"], win: false },
  { key: "square", position: "3.../.8B./.DE./...4 -", cells: ["B2", "C2", "B3", "C3"], win: true },
  { key: "place", position: "F..0/..A./..../.3.. 7", cells: [], hand: "given" },
  { key: "give", position: "F..0/..A./.7../.3.. 2", cells: ["B3"], hand: "chosen" },
  { key: "draw", position: "76E0/B43A/182D/CF59 -", cells: [], win: false },
];

// How many winning shapes pass through each cell, in Quads and in classic Quarto
// (the shapes are the rules': rules/shapes.js, each with the mask of its cells).
function shapeCounts(withSquares) {
  const shapes = withSquares ? SHAPES : LINES;
  return CELL_NAMES.map((_, index) => shapes.filter((shape) => (shape.cells >> index) & 1).length);
}

function make(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else if (name === "className") node.className = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

function paragraphs(prefix, count) {
  return Array.from({ length: count }, (_, i) => make("p", { text: t(`${prefix}.${i + 1}`) }));
}

/** A part to open on request: `title` shown, `children` behind it. */
function more(title, ...children) {
  const details = make("details", { className: "learn-more" });
  details.append(make("summary", { text: title }), make("div", { className: "learn-more-body" }, ...children));
  return details;
}

/** @typedef {{ shapes: string, traits: string[], value: string, plies: number | null, nodes: number, seconds: number }} SolvedRow */

/**
 * The result most variants share, in words, and the rows with another.
 * @param {SolvedRow[]} rows
 */
export function sharedResult(rows) {
  const counts = new Map();
  for (const row of rows) {
    const words = valueWords(row);
    counts.set(words, (counts.get(words) || 0) + 1);
  }
  let common = "";
  for (const [words, count] of counts) if (!common || count > counts.get(common)) common = words;
  return { common, others: rows.filter((row) => valueWords(row) !== common) };
}

/**
 * What the search took, one row per number of traits that count: for lines
 * alone and for lines and squares, the positions searched and the seconds, on
 * average over the choices of that many traits.
 * @param {SolvedRow[]} rows
 */
export function searchRows(rows) {
  const counts = [...new Set(rows.map((row) => row.traits.length))].sort((a, b) => a - b);
  return counts.map((count) => {
    const cells = ["lines", "lines+squares"].map((shapes) => {
      const some = rows.filter((row) => row.traits.length === count && row.shapes === shapes);
      if (!some.length) return null;
      const mean = (key) => some.reduce((sum, row) => sum + row[key], 0) / some.length;
      return { nodes: mean("nodes"), seconds: mean("seconds") };
    });
    return { count, cells };
  });
}

/** "1.9M · 1.1 sec", in the page's language. */
function searchWords({ nodes, seconds }) {
  const lang = document.documentElement.lang;
  const positions = new Intl.NumberFormat(lang, { notation: "compact", maximumFractionDigits: 1 }).format(nodes);
  const time = new Intl.NumberFormat(lang, { style: "unit", unit: "second", unitDisplay: "short", maximumFractionDigits: 1 })
    .format(seconds);
  return t("learn.solved.search", { positions, time });
}

function shapesWords(shapes) {
  return t(shapes === "lines" ? "learn.variants.shapes.lines" : "learn.variants.shapes.lines_squares");
}

function traitWords(row) {
  return joinList(row.traits.map((trait) => t(`trait.name.${trait}`)));
}

export class LearnView {
  constructor(root) {
    this.root = root;
    this.section = null;
  }

  /**
   * Show the page; scroll to `section` when one is named.
   * @param {string | null} [section]
   */
  open(section = null) {
    this.section = section !== null && SECTIONS.includes(section) ? section : null;
    if (!this.root.childElementCount) this.render();
    const target = this.section ? document.getElementById(`learn-${this.section}-title`) : null;
    if (target) {
      target.scrollIntoView({ block: "start" });
      target.focus({ preventScroll: true });
    } else {
      window.scrollTo(0, 0);
    }
  }

  /** Build the page in the current language. */
  render() {
    const title = make("h1", { id: "learn-title", text: t("learn.title") });
    const intro = make("p", { className: "tagline", text: t("learn.intro") });
    const contents = make("nav", { className: "learn-contents", "aria-label": t("learn.contents") });
    const list = make("ul");
    list.append(make("li", {}, make("a", { href: "#/learn/tutorial", className: "learn-tutorial-link", text: t("learn.tutorial.link") })));
    for (const name of SECTIONS) {
      list.append(make("li", {}, make("a", { href: `#/learn/${name}`, text: t(`learn.${name}.title`) })));
    }
    contents.append(list);
    this.root.replaceChildren(
      title,
      intro,
      contents,
      this.rules(),
      this.variants(),
      this.strategy(),
      this.history(),
      this.solved(),
      this.faq(),
    );
  }

  section_(name, ...children) {
    const section = make("section", {
      className: "learn-section card",
      id: `learn-${name}`,
      "aria-labelledby": `learn-${name}-title`,
    });
    section.append(make("h2", { id: `learn-${name}-title`, tabindex: "-1", text: t(`learn.${name}.title`) }), ...children);
    return section;
  }

  rules() {
    const figures = make("div", { className: "learn-figures" });
    for (const example of RULE_EXAMPLES) {
      const figure = make("figure", { className: "learn-figure", "data-example": example.key });
      const drawing = make("div", { className: "learn-drawing" });
      drawing.append(exampleBoard(example.position, example));
      const hand = readPosition(example.position)?.hand;
      if (example.hand && hand) {
        const handBox = make("div", { className: "learn-hand", "data-piece": hand });
        handBox.append(pieceSvg(hand), make("span", { text: t(`learn.rules.hand.${example.hand}`) }));
        handBox.setAttribute("role", "img");
        handBox.setAttribute("aria-label", t(`learn.rules.hand.${example.hand}.label`, { piece: pieceLabel(hand) }));
        drawing.append(handBox);
      }
      const caption = make("figcaption", {},
        make("strong", { text: t(`learn.rules.${example.key}.title`) }),
        make("span", { text: t(`learn.rules.${example.key}.text`) }),
      );
      figure.append(drawing, caption);
      figures.append(figure);
    }
    return this.section_("rules", ...paragraphs("learn.rules.intro", 3), figures, make("p", { className: "note", text: t("learn.rules.more") }));
  }

  variants() {
    const cards = make("div", { className: "learn-variants" });
    const VARIANTS = [
      ["quads", "lines_squares", "all", "auto"],
      ["classic", "lines", "all", "declare"],
      ["advanced", "lines_squares", "all", "declare"],
      ["simple", "lines_squares", "fewer", "auto"],
    ];
    for (const [name, shapes, traits, calling] of VARIANTS) {
      const card = make("article", { className: "variant-card", "data-variant": name });
      const facts = make("dl");
      for (const [term, value] of [["shapes", shapes], ["traits", traits], ["calling", calling]]) {
        facts.append(
          make("dt", { text: t(`learn.variants.${term}`) }),
          make("dd", { text: t(`learn.variants.${term}.${value}`) }),
        );
      }
      card.append(
        make("h3", { text: t(`learn.variants.${name}.name`) }),
        facts,
        make("p", { className: "note", text: t(`learn.variants.${name}.text`) }),
      );
      cards.append(card);
    }
    return this.section_("variants",
      make("p", { text: t("learn.variants.intro") }),
      cards,
      more(t("learn.variants.calling.title"), ...paragraphs("learn.variants.calling", 5)));
  }

  strategy() {
    const parts = [];
    for (const [name, count] of [["safe", 2], ["double", 2], ["centre", 2], ["traits", 2]]) {
      const part = more(t(`learn.strategy.${name}.title`), ...paragraphs(`learn.strategy.${name}`, count));
      part.dataset.part = name;
      parts.push(part);
      const body = /** @type {HTMLElement} */ (part.lastElementChild);
      if (name === "double") {
        const figure = make("figure", { className: "learn-figure", "data-example": "double" });
        const drawing = make("div", { className: "learn-drawing" });
        drawing.append(exampleBoard("8BD./..../..../164. -", { cells: ["D1", "D4"], win: false }));
        figure.append(drawing, make("figcaption", {},
          make("strong", { text: t("learn.strategy.double.figure.title") }),
          make("span", { text: t("learn.strategy.double.figure.text") })));
        body.append(figure);
      }
      if (name === "centre") {
        const figures = make("div", { className: "learn-figures" });
        for (const [kind, withSquares] of [["quads", true], ["classic", false]]) {
          const figure = make("figure", { className: "learn-figure", "data-example": `count-${kind}` });
          const drawing = make("div", { className: "learn-drawing" });
          const board = exampleBoard("..../..../..../.... -", { counts: shapeCounts(withSquares) });
          board.setAttribute("aria-label", t(`learn.strategy.count.${kind}.label`));
          drawing.append(board);
          figure.append(drawing, make("figcaption", {},
            make("strong", { text: t(`learn.strategy.count.${kind}.title`) }),
            make("span", { text: t(`learn.strategy.count.${kind}.text`) })));
          figures.append(figure);
        }
        body.append(figures);
      }
    }
    return this.section_("strategy", ...parts);
  }

  history() {
    const [first, ...rest] = paragraphs("learn.history", 4);
    return this.section_("history", first, more(t("learn.history.more"), ...rest));
  }

  /**
   * Every variant solved (bench/solved.py), loaded once, when shown: the result
   * they share said once (and any other listed), then what the search took, by
   * how many traits count and which shapes win.
   */
  solved() {
    const verdict = make("p", { className: "solved-verdict" });
    const exceptions = make("ul", { className: "solved-exceptions" });
    const table = make("table", { className: "solved-table" });
    // The caption shows above the scrolling box, where it wraps at words on a
    // phone; the table keeps it for screen readers.
    table.append(make("caption", { className: "visually-hidden", text: t("learn.solved.caption") }));
    const head = make("tr");
    for (const key of ["traits", "lines", "lines_squares"]) {
      head.append(make("th", { scope: "col", text: t(`learn.solved.${key}`) }));
    }
    table.append(make("thead", {}, head));
    const body = make("tbody");
    table.append(body);
    const fill = (rows) => {
      const { common, others } = sharedResult(rows);
      verdict.textContent = others.length
        ? t("learn.solved.most", { count: rows.length - others.length, total: rows.length, value: common })
        : t("learn.solved.all", { total: rows.length, value: common });
      exceptions.replaceChildren(...others.map((row) => make("li", {
        text: t("learn.solved.exception", { shapes: shapesWords(row.shapes), traits: traitWords(row), value: valueWords(row) }),
      })));
      exceptions.hidden = !others.length;
      body.replaceChildren(...searchRows(rows).map(({ count, cells }) => make("tr", {},
        make("th", { scope: "row", text: String(count) }),
        ...cells.map((cell) => make("td", { text: cell ? searchWords(cell) : "" })))));
    };
    if (this.solvedRows) fill(this.solvedRows);
    else {
      fetch("/data/solved.json")
        .then((answer) => (answer.ok ? answer.json() : []))
        .then((rows) => {
          this.solvedRows = rows;
          fill(rows);
        })
        .catch(() => {});
    }
    const scroller = make("div", { className: "table-scroll", tabindex: "0", "aria-label": t("learn.solved.caption") }, table);
    const caption = make("p", { className: "table-caption", "aria-hidden": "true", text: t("learn.solved.caption") });
    // Where the table is wider than the screen, a sign says that it scrolls sideways.
    const sign = make("p", { className: "scroll-sign note", text: t("learn.solved.scroll") });
    const update = () => {
      sign.hidden = scroller.scrollWidth <= scroller.clientWidth + 1;
    };
    new ResizeObserver(update).observe(scroller);
    new ResizeObserver(update).observe(table);
    return this.section_("solved", make("p", { text: t("learn.solved.1") }), verdict, exceptions,
      make("p", { text: t("learn.solved.2") }), caption, sign, scroller);
  }

  faq() {
    const list = make("div", { className: "faq" });
    for (let i = 1; i <= 11; i += 1) {
      const item = make("details", { className: "faq-item" });
      item.append(make("summary", { text: t(`learn.faq.${i}.q`) }), make("p", { text: t(`learn.faq.${i}.a`) }));
      list.append(item);
    }
    return this.section_("faq", list);
  }
}
