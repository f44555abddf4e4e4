// The WebAssembly half of bench/wasm_kernel.py: solves the positions of the JSON
// file named on the command line ([{ rules, position, tableMb }]) with the page's
// kernel, each with a fresh table, and prints [{ seconds, cpu, nodes, value, plies }] (wall and CPU seconds).
import { readFileSync } from "node:fs";

import { loadKernel } from "../src/quads/web/static/js/engine/kernel.js";

const kernel = await loadKernel();
const results = [];
for (const { rules, position, tableMb } of JSON.parse(readFileSync(process.argv[2], "utf8"))) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const got = kernel.solve(position, rules, { tableMb, fresh: true });
  const used = process.cpuUsage(cpu);
  results.push({ seconds: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6,
    nodes: got.nodes, value: got.value, plies: got.plies });
}
process.stdout.write(`${JSON.stringify(results)}\n`);
