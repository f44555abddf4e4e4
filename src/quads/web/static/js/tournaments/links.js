// The tournaments' addresses: #/tournaments the list (and the form to make an
// arena), #/tournaments/ID one event.

import { decodePart } from "../hash.js";

export const LIST_ADDRESS = "#/tournaments";

export function eventAddress(id) {
  return `#/tournaments/${encodeURIComponent(id)}`;
}

/** What `hash` names: {screen: "tournaments"} or {screen: "event", id}, or null. */
export function matchAddress(hash) {
  if (hash === LIST_ADDRESS) return { screen: "tournaments", id: "" };
  const event = /^#\/tournaments\/([^/]+)$/.exec(hash);
  return event ? { screen: "event", id: decodePart(event[1]) } : null;
}
