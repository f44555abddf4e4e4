// The words of ratings without the DOM: a rating with its "?" while provisional, a
// change "+12" / "−12", the categories (rule set and speed) and the bounds of a
// rating range around one's own rating.  Tested in node (tests/js/ratings.test.mjs).

/** The rule sets and the speeds that make the rating categories, "quads-blitz" ... */
export const RATED_RULES = ["quads", "classic", "advanced"];
export const SPEEDS = ["blitz", "rapid", "classical", "correspondence"];
export const CATEGORIES = RATED_RULES.flatMap((rules) => SPEEDS.map((speed) => `${rules}-${speed}`));

/** A newcomer's rating, where one has none in a category yet. */
export const START_RATING = 1500;

/** The spreads offered for the opponent's rating; null: any. */
export const SPREADS = [100, 200, 300, null];

/** {rules, speed} of a category "rules-speed", or null for none of the twelve. */
export function splitCategory(category) {
  if (!CATEGORIES.includes(category)) return null;
  const cut = category.lastIndexOf("-");
  return { rules: category.slice(0, cut), speed: category.slice(cut + 1) };
}

/** "1500", or "1500?" for a provisional rating; "" for none. */
export function ratingLabel(rating) {
  if (!rating || typeof rating.rating !== "number") return "";
  return `${Math.round(rating.rating)}${rating.provisional ? "?" : ""}`;
}

/** What a game did to a rating: "+12", "−12" (a minus sign), "±0". */
export function changeLabel(change) {
  const points = Math.round(change);
  if (points > 0) return `+${points}`;
  if (points < 0) return `\u2212${-points}`;
  return "\u00b10";
}

/** The category a time control counts for (as the server reckons it), or null. */
export function speedOf(clock) {
  if (!clock) return null;
  if (clock.days) return "correspondence";
  const duration = clock.initial + 8 * clock.increment;
  if (duration < 180) return "blitz";
  if (duration < 900) return "rapid";
  return "classical";
}

/** The body's bounds of a rated seek: {rating_min, rating_max} `spread` points around
 * `own`, or {} for any opponent (`spread` null). */
export function rangeBounds(own, spread) {
  if (spread === null || spread === undefined) return {};
  const centre = Math.round(own ?? START_RATING);
  return { rating_min: Math.max(0, centre - spread), rating_max: centre + spread };
}

/** Whether a seek's range admits `rating` (one's own in its category): "ok", "low",
 * "high", or "account" for a rated seek while one has no account. */
export function admits(seek, rating, signedIn) {
  if (seek.rated && !signedIn) return "account";
  const own = rating ?? START_RATING;
  if (typeof seek.rating_min === "number" && own < seek.rating_min) return "low";
  if (typeof seek.rating_max === "number" && own > seek.rating_max) return "high";
  return "ok";
}

/** A time control as a FinishedGameView writes it ("180+2", "3d") as the page's
 * {initial, increment} or {days}; an object stays as it is; null for none. */
export function readClock(clock) {
  if (!clock || typeof clock !== "string") return clock || null;
  const days = /^(\d+)d$/.exec(clock);
  if (days) return { days: Number(days[1]) };
  const real = /^(\d+)\+(\d+)$/.exec(clock);
  return real ? { initial: Number(real[1]), increment: Number(real[2]) } : null;
}
