// What the page's modules find in a browser and node has not, for the unit tests of
// modules that word things: the catalogue served as the server serves it
// (GET /api/catalogue/LANG, read from src/quads/catalogue/), and, with `installPage`,
// a storage that keeps nothing and an empty document.
import { readFileSync } from "node:fs";

/** Have `fetch` answer the catalogue's requests with the catalogue files. */
export function serveCatalogue() {
  globalThis.fetch = async (path) => new Response(
    readFileSync(new URL(`../../src/quads/catalogue/${String(path).endsWith("/de") ? "de" : "en"}.json`,
      import.meta.url), "utf8"),
    { status: 200, headers: { "Content-Type": "application/json" } });
}

/** The plainest page: nothing kept, nothing in the document, and the catalogue served. */
export function installPage() {
  globalThis.localStorage = { getItem: () => null, setItem() {} };
  globalThis.document = { documentElement: {}, querySelectorAll: () => [], addEventListener() {} };
  globalThis.window = { addEventListener() {} };
  globalThis.location = { protocol: "http:", host: "127.0.0.1:8000" };
  serveCatalogue();
}
