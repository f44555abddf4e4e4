// The addresses of the players' screens: a profile, the leaderboards, one's finished games.

/** The address of the profile of account `name`. */
export function profileAddress(name) {
  return `#/players/${encodeURIComponent(name)}`;
}

/** The address of the leaderboard of `category` ("quads-blitz" ...). */
export function leaderboardAddress(category) {
  return `#/leaderboard/${encodeURIComponent(category)}`;
}

/** A link to the profile of account `name`, showing `text` (the name itself unless given). */
export function profileLink(name, text = name) {
  const link = document.createElement("a");
  link.href = profileAddress(name);
  link.textContent = text;
  return link;
}
