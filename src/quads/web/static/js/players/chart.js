// The rating history's chart without the DOM: the scales from the points to the
// drawing's coordinates, a few round ticks on each axis, and the polyline's points.
// chart-view.js draws it as an inline SVG.  Tested in node (tests/js/ratings.test.mjs).

/** The drawing's size (the SVG's viewBox) and the room left for the axes' labels. */
export const SIZE = { width: 320, height: 180, left: 40, right: 8, top: 8, bottom: 24 };

/** A round step for about `count` ticks over `span`: 1, 2 or 5 times a power of ten. */
export function niceStep(span, count) {
  const rough = Math.max(span, 1) / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const unit = rough / power;
  const factor = unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10;
  return Math.max(1, factor * power); // ratings are whole numbers
}

/** About `count` round values from below `min` to above `max`, the ends included. */
export function ticks(min, max, count = 4) {
  if (min > max) [min, max] = [max, min];
  if (min === max) {
    min -= 50;
    max += 50;
  }
  const step = niceStep(max - min, count);
  const from = Math.floor(min / step) * step;
  const to = Math.ceil(max / step) * step;
  const values = [];
  for (let value = from; value <= to + step / 2; value += step) values.push(Math.round(value));
  return values;
}

/** A linear map of [d0, d1] onto [r0, r1] (a single value maps to the middle). */
export function linear(d0, d1, r0, r1) {
  if (d0 === d1) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) * (r1 - r0)) / (d1 - d0);
}

/**
 * The chart of `points` ([{moment (ISO), rating}], the oldest first): the polyline's
 * points ("x,y x,y"), the rating ticks [{value, y}], the date ticks [{time, x}] (the
 * first and the last game, and one between when there is room), and the first and
 * last rating for the text alternative.  Null for no points.
 */
export function chartOf(points, size = SIZE) {
  if (!points.length) return null;
  const ratings = points.map((point) => point.rating);
  const times = points.map((point) => Date.parse(point.moment));
  const values = ticks(Math.min(...ratings), Math.max(...ratings), 4);
  const y = linear(values[0], values[values.length - 1], size.height - size.bottom, size.top);
  // One game after another, evenly: a chart of the games, not of idle weeks.
  const x = linear(0, points.length - 1, size.left, size.width - size.right);
  const line = points.map((point, index) => `${round(x(index))},${round(y(point.rating))}`).join(" ");
  const marks = points.length === 1 ? [0] : points.length === 2 ? [0, 1] : [0, Math.floor((points.length - 1) / 2), points.length - 1];
  return {
    line,
    ratingTicks: values.map((value) => ({ value, y: round(y(value)) })),
    timeTicks: [...new Set(marks)].map((index) => ({ time: times[index], x: round(x(index)) })),
    first: ratings[0],
    last: ratings[ratings.length - 1],
    from: times[0],
    to: times[times.length - 1],
  };
}

function round(value) {
  return Math.round(value * 10) / 10;
}

/** The points of a whole history (`games` rated games, every one of them among the
 * points) with the newcomer's `start` before the first, so that the chart starts where
 * the account started; a history cut short stays as it is. */
export function fromStart(points, games, start) {
  if (!points.length || points.length !== games) return points;
  return [{ moment: points[0].moment, rating: start, game: null }, ...points];
}
