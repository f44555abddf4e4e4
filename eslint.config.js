// ESLint for the page's modules, their node tests and the benchmarks' (.ci/run names
// the folders: src/quads/web/static, tests/js and bench).
// The page is plain ES modules with no build step: each file is checked for the
// globals of where it runs (a page, a Web Worker, the service worker, node).

import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["node_modules/", "artifacts/", "build/", "dist/", ".venv/", "tests/js/cases/"],
  },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    // The page: its modules run in the browser; those that need no DOM (rules/,
    // local/, engine/, clocks.js, errors.js) also run in node's tests.
    files: ["src/quads/web/static/js/**/*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The engine's Web Worker.
    files: ["src/quads/web/static/js/engine/worker.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["src/quads/web/static/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/js/**/*.mjs", "bench/**/*.mjs", "eslint.config.js"],
    languageOptions: { globals: { ...globals.node } },
  },
];
