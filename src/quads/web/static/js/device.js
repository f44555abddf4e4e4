// What the page keeps on this device, and sends when the server can be reached: the
// one store of device games and waiting puzzle results (local/store.js, opened once),
// the sending of what waits (local/sync.js), and the news of a change, for the other
// tabs of the page (a BroadcastChannel).
//
//   await deviceStore()      the DeviceStore (rejects where the browser keeps no IndexedDB)
//   sendWaiting()            send what waits, now (one run at a time; a run asked for
//                            meanwhile follows it); called at start, when the network or
//                            the server is back, and after each change on the device; a
//                            run that found no server, or left answers waiting for their
//                            exercises on the server, is followed by another later
//   changed(id, revision)    tell the other tabs that device game `id` changed
//   onChanged(fn)            fn({id, revision}) after a change in another tab; returns
//                            the function that stops it
//   onSent(fn)               fn(report) after a run that sent something (local/sync.js)

import { createSync } from "./local/sync.js";
import { openStore } from "./local/store.js";

/** @type {Promise<import("./local/store.js").DeviceStore> | null} */
let opened = null;

/** The device's store, opened on first use. */
export function deviceStore() {
  if (!opened) {
    opened = openStore().catch((error) => {
      opened = null; // try again next time
      throw error;
    });
  }
  return opened;
}

/**
 * One request of the sending: the answer's status and JSON body; throws when none came.
 * @param {{ method: string, path: string, body?: unknown }} request
 */
async function transport({ method, path, body }) {
  const response = await fetch(path, {
    method,
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { status: response.status, body: data };
}

const sentListeners = [];

/** fn(report) after each run that sent or had refused something. */
export function onSent(fn) {
  sentListeners.push(fn);
}

/** @type {ReturnType<typeof createSync> | null} */
let sync = null;
let again = false;
/** @type {number | undefined} the next run after one that found no server */
let later;
let patience = 0;

/** Pauses before sending again after a run that found no server: 10 s doubling to 5 min. */
const LATER_FIRST_MS = 10_000;
const LATER_MAX_MS = 300_000;

/** Send what waits on the device (see local/sync.js); a call during a run makes one more
 * run after it, and a run that found no server is tried again later by itself. */
export async function sendWaiting({ retry = false } = {}) {
  clearTimeout(later);
  later = undefined;
  if (!retry) patience = 0; // asked anew (a change, the network back): the pauses start short
  if (typeof navigator !== "undefined" && !navigator.onLine) return;
  let store;
  try {
    store = await deviceStore();
  } catch {
    return;
  }
  sync ??= createSync({ store, transport, retries: 3 });
  if (sync.running) {
    again = true;
    return;
  }
  let report;
  do {
    again = false;
    report = await sync.run();
    if (report.uploaded.length || report.refused.length || report.sent.length || report.answered.length) {
      for (const fn of sentListeners) fn(report);
    }
  } while (again && report.state === "done");
  if (report.state === "unreachable" || (report.state === "done" && report.waiting.length)) {
    later = setTimeout(() => sendWaiting({ retry: true }), Math.min(LATER_MAX_MS, LATER_FIRST_MS * 2 ** patience));
    patience += 1;
  } else {
    patience = 0;
  }
}

const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("quads.device");
const changeListeners = [];
if (channel) {
  channel.onmessage = ({ data }) => {
    for (const fn of changeListeners) fn(data);
  };
}

/** Tell the other tabs that device game `id` is at `revision` now (or deleted: null). */
export function changed(id, revision) {
  if (channel) channel.postMessage({ id, revision });
}

/** fn({id, revision}) when another tab changed a device game; returns what stops it. */
export function onChanged(fn) {
  changeListeners.push(fn);
  return () => {
    const index = changeListeners.indexOf(fn);
    if (index >= 0) changeListeners.splice(index, 1);
  };
}
