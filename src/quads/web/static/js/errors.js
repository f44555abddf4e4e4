// The one home of the wording of refusals: from whatever a call threw (an ApiError
// of the server, or any other error) to the catalogue key and params that word it,
// {key, params}.  Views keep that pair, never the text, so that a message is worded
// anew when the language changes.
//
// Nothing here touches the page or the network: `has` (whether the catalogue holds
// a key) is handed in, so the module runs, and is tested, without a browser.

/** The message of a refusal for which the catalogue has nothing more precise. */
export const UNKNOWN = Object.freeze({ key: "error.unknown", params: {} });

/**
 * The message of `error`, {key, params}: the first key the catalogue has of
 *   `overrides[code]` (a view's own wording of a code, e.g. not_found on the join screen),
 *   `error.<code>.<reason>` (what exactly is wrong, e.g. error.invalid_position.already_won),
 *   `error.<code>.<action>` (what was being done, e.g. error.illegal_action.declare),
 *   `error.<code>`,
 * else `fallback` ("error.unknown" unless a view words its own failure).  `params` are
 * the refusal's own (cell, token, shape ...).
 *
 * @param {unknown} error what was thrown
 * @param {{has: (key: string) => boolean, action?: string | null, overrides?: Record<string, string>,
 *          fallback?: string}} options
 */
export function errorMessage(error, { has, action = null, overrides = {}, fallback = UNKNOWN.key }) {
  const otherwise = fallback === UNKNOWN.key ? UNKNOWN : { key: fallback, params: {} };
  /** @type {{ code?: unknown, params?: unknown, reason?: unknown }} */
  const thrown = error !== null && typeof error === "object" ? error : {};
  const code = typeof thrown.code === "string" && thrown.code ? thrown.code : null;
  if (!code) return otherwise;
  const params = thrown.params && typeof thrown.params === "object" ? { ...thrown.params } : {};
  const reason = typeof thrown.reason === "string" && thrown.reason ? thrown.reason : null;
  const candidates = [
    Object.hasOwn(overrides, code) ? overrides[code] : null,
    reason && `error.${code}.${reason}`,
    action && `error.${code}.${action}`,
    `error.${code}`,
  ];
  for (const key of candidates) if (key && has(key)) return { key, params };
  return otherwise;
}

/**
 * The text of a message {key, params}: `t` looks a key up, `word` turns a param
 * into words (a shape's id into its name); both are handed in.
 */
export function messageText(message, { t, word = (name, value) => value }) {
  const params = {};
  for (const [name, value] of Object.entries(message.params || {})) params[name] = word(name, value);
  return t(message.key, params);
}
