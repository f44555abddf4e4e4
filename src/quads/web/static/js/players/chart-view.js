// The rating history of one category drawn as an inline SVG: the polyline of the
// ratings after each game, the axes with a few labelled ticks, and a text alternative
// (role="img", its label saying from where to where the rating went).  The scales and
// ticks are chart.js's.

import { currentLanguage, t } from "../i18n.js";
import { SIZE, chartOf } from "./chart.js";

const SVG = "http://www.w3.org/2000/svg";

function element(name, attributes = {}, text = "") {
  const made = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, String(value));
  if (text) made.textContent = text;
  return made;
}

/** The chart of `points` ([{moment, rating}], the oldest first) of the category named
 * `name`; null for no points. */
export function ratingChart(points, name) {
  const chart = chartOf(points, SIZE);
  if (!chart) return null;
  const date = new Intl.DateTimeFormat(currentLanguage(), { day: "numeric", month: "short" });
  const svg = element("svg", {
    viewBox: `0 0 ${SIZE.width} ${SIZE.height}`, class: "rating-chart", role: "img",
    "aria-label": t("profile.chart.label", {
      category: name, from: chart.first, to: chart.last,
      start: date.format(chart.from), end: date.format(chart.to),
    }),
  });
  const bottom = SIZE.height - SIZE.bottom;
  const axes = element("g", { class: "chart-axes", "aria-hidden": "true" });
  axes.append(element("line", { x1: SIZE.left, y1: SIZE.top, x2: SIZE.left, y2: bottom }));
  axes.append(element("line", { x1: SIZE.left, y1: bottom, x2: SIZE.width - SIZE.right, y2: bottom }));
  for (const tick of chart.ratingTicks) {
    axes.append(element("line", { x1: SIZE.left, y1: tick.y, x2: SIZE.width - SIZE.right, y2: tick.y, class: "chart-grid" }));
    axes.append(element("text", { x: SIZE.left - 4, y: tick.y + 4, "text-anchor": "end" }, String(tick.value)));
  }
  const last = chart.timeTicks.length - 1;
  chart.timeTicks.forEach((tick, index) => {
    const anchor = index === 0 ? "start" : index === last ? "end" : "middle";
    axes.append(element("text", { x: tick.x, y: SIZE.height - 6, "text-anchor": anchor }, date.format(tick.time)));
  });
  svg.append(axes);
  svg.append(element("polyline", { points: chart.line, class: "chart-line" }));
  return svg;
}
