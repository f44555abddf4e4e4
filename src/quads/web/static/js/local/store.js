// What lives on the device between visits: the games played on it
// (js/local/device-game.js), the puzzle results waiting to be sent
// (js/local/sync.js), the exercises found or shown on it and the answers to them
// waiting to be sent (js/mistakes/offline.js), in IndexedDB, so that they survive closing the app and
// reloading.  One database, "quads", whose object stores are made and changed by
// numbered versions (SCHEMA below: a new version only ever adds to the ones
// before).  Every call is one transaction, answered once it has committed: a
// change is stored whole or not at all.  The only module of js/local/ that needs
// the browser (IndexedDB); node tests give it fake-indexeddb.
//
// API:
//   openStore({indexedDB, name}) -> Promise<DeviceStore>   (defaults: the page's
//       indexedDB, "quads"); rejects when IndexedDB is missing or refuses
//   store.putGame(game), store.getGame(id) -> game | null, store.deleteGame(id)
//   store.listGames() -> games, most recently changed first (then by id, highest first)
//   store.updateGame(id, change) -> game | null: in one transaction, read the game
//       and store change(game) (a new game object); `change` returning the same
//       object or undefined stores nothing, throwing stores nothing and rejects;
//       null when there is no such game (change is not called)
//   store.putResult(result), getResult(id), deleteResult(id), listResults() (oldest
//       first), updateResult(id, change): the same for puzzle results waiting to be
//       sent ({id, date, ...}; js/local/sync.js)
//   store.putExercise(exercise), deleteExercise(id), listExercises(): the exercises
//       kept for use offline ({id, source: "device" | "server", rules, position, kind,
//       ...}); store.replaceExercises(source, exercises): those of `source` become
//       `exercises`, in one transaction
//   store.putAnswer(answer), deleteAnswer(id), listAnswers() (oldest first, by `at`),
//       updateAnswer(id, change): the answers given offline waiting to be sent
//   store.close()

export const DB_NAME = "quads";

/** The object stores, by the version that made them.  Never change a version once
 * shipped: add the next one. */
const SCHEMA = [
  (db) => {
    const games = db.createObjectStore("games", { keyPath: "id" });
    games.createIndex("updated", "updated");
    db.createObjectStore("puzzle_results", { keyPath: "id" });
  },
  (db) => {
    db.createObjectStore("exercises", { keyPath: "id" });
    db.createObjectStore("mistake_answers", { keyPath: "id" });
  },
];

/** The database's version: one per entry of SCHEMA. */
export const DB_VERSION = SCHEMA.length;

const GAMES = "games";
const RESULTS = "puzzle_results";
const EXERCISES = "exercises";
const ANSWERS = "mistake_answers";

/**
 * A request's result, as a promise.
 * @param {IDBRequest} request
 */
function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Open (and, when new or older, create or bring up to date) the device's database.
 * @param {{ indexedDB?: IDBFactory, name?: string }} [options]
 * @returns {Promise<DeviceStore>}
 */
export function openStore({ indexedDB = globalThis.indexedDB, name = DB_NAME } = {}) {
  if (!indexedDB) return Promise.reject(new Error("this browser keeps no IndexedDB"));
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, DB_VERSION);
    request.onupgradeneeded = (event) => {
      const db = request.result;
      for (let version = event.oldVersion; version < DB_VERSION; version += 1) SCHEMA[version](db);
    };
    request.onsuccess = () => {
      const db = request.result;
      // Another tab of a newer release wants to upgrade: let it, this one reopens on reload.
      db.onversionchange = () => db.close();
      resolve(new DeviceStore(db));
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("the device's database is held open by an older tab"));
  });
}

/** The games and waiting puzzle results of the device (see the module's API). */
export class DeviceStore {
  /** @param {IDBDatabase} db */
  constructor(db) {
    this.db = db;
  }

  /**
   * Run `work` in one transaction over `store`; resolve with what it resolved once
   * the transaction has committed, reject (and store nothing) when anything failed.
   * @template T
   * @param {string} store
   * @param {IDBTransactionMode} mode
   * @param {(objects: IDBObjectStore, transaction: IDBTransaction) => Promise<T> | T} work
   * @returns {Promise<T>}
   */
  #transact(store, mode, work) {
    return new Promise((resolve, reject) => {
      let transaction;
      try {
        transaction = this.db.transaction(store, mode);
      } catch (error) {
        reject(error);
        return;
      }
      let result;
      let failure = null;
      transaction.oncomplete = () => (failure === null ? resolve(result) : reject(failure));
      transaction.onerror = () => reject(failure ?? transaction.error);
      transaction.onabort = () => reject(failure ?? transaction.error ?? new Error("the transaction was aborted"));
      Promise.resolve()
        .then(() => work(transaction.objectStore(store), transaction))
        .then((value) => {
          result = value;
        }, (error) => {
          failure = error;
          try {
            transaction.abort();
          } catch {
            reject(error); // already finished: nothing more will be reported
          }
        });
    });
  }

  /**
   * @param {string} store
   * @param {object} value
   */
  #put(store, value) {
    return this.#transact(store, "readwrite", (objects) => done(objects.put(value)).then(() => undefined));
  }

  /**
   * @param {string} store
   * @param {string} id
   */
  #get(store, id) {
    return this.#transact(store, "readonly", (objects) => done(objects.get(id)).then((value) => value ?? null));
  }

  /**
   * @param {string} store
   * @param {string} id
   */
  #delete(store, id) {
    return this.#transact(store, "readwrite", (objects) => done(objects.delete(id)).then(() => undefined));
  }

  /**
   * @param {string} store
   * @param {string} id
   * @param {(value: any) => any} change
   */
  #update(store, id, change) {
    return this.#transact(store, "readwrite", async (objects) => {
      // Read and write in the same transaction: nothing else changes it in between.
      const current = await done(objects.get(id));
      if (current === undefined) return null;
      const next = change(current);
      if (next === undefined || next === current) return current;
      if (next.id !== id) throw new Error(`a change of ${id} may not change its id`);
      await done(objects.put(next));
      return next;
    });
  }

  /** Store a device game (a new one, or a new state of one). @param {object} game */
  putGame(game) {
    return this.#put(GAMES, game);
  }

  /** The device game `id`, or null. @param {string} id */
  getGame(id) {
    return this.#get(GAMES, id);
  }

  /** Forget the device game `id` (nothing if there is none). @param {string} id */
  deleteGame(id) {
    return this.#delete(GAMES, id);
  }

  /**
   * Change the device game `id` in one transaction.
   * @param {string} id
   * @param {(game: any) => any} change
   */
  updateGame(id, change) {
    return this.#update(GAMES, id, change);
  }

  /** Every device game, most recently changed first (then by id, highest first). */
  listGames() {
    return this.#transact(GAMES, "readonly", (objects) => done(objects.getAll())).then((games) => games.sort(
      (a, b) => (a.updated === b.updated ? (a.id < b.id ? 1 : -1) : (a.updated < b.updated ? 1 : -1)),
    ));
  }

  /** Store a puzzle result waiting to be sent. @param {object} result */
  putResult(result) {
    return this.#put(RESULTS, result);
  }

  /** The waiting puzzle result `id`, or null. @param {string} id */
  getResult(id) {
    return this.#get(RESULTS, id);
  }

  /** Forget the waiting puzzle result `id`. @param {string} id */
  deleteResult(id) {
    return this.#delete(RESULTS, id);
  }

  /**
   * Change the waiting puzzle result `id` in one transaction.
   * @param {string} id
   * @param {(result: any) => any} change
   */
  updateResult(id, change) {
    return this.#update(RESULTS, id, change);
  }

  /** Every waiting puzzle result, oldest first (by `created`, then id). */
  listResults() {
    return this.#transact(RESULTS, "readonly", (objects) => done(objects.getAll())).then((results) => results.sort(
      (a, b) => (a.created === b.created ? (a.id < b.id ? -1 : 1) : (a.created < b.created ? -1 : 1)),
    ));
  }

  /** Keep an exercise for use offline. @param {object} exercise */
  putExercise(exercise) {
    return this.#put(EXERCISES, exercise);
  }

  /** Forget the exercise `id`. @param {string} id */
  deleteExercise(id) {
    return this.#delete(EXERCISES, id);
  }

  /** Every exercise kept, by id. */
  listExercises() {
    return this.#transact(EXERCISES, "readonly", (objects) => done(objects.getAll()));
  }

  /**
   * Make the exercises of `source` exactly `exercises`, in one transaction.
   * @param {string} source
   * @param {object[]} exercises
   */
  replaceExercises(source, exercises) {
    return this.#transact(EXERCISES, "readwrite", async (objects) => {
      /** @type {any[]} */
      const kept = await done(objects.getAll());
      for (const old of kept) if (old.source === source) await done(objects.delete(old.id));
      for (const exercise of exercises) await done(objects.put(exercise));
    });
  }

  /** Keep an answer given offline until it is sent. @param {object} answer */
  putAnswer(answer) {
    return this.#put(ANSWERS, answer);
  }

  /** Forget the answer `id`. @param {string} id */
  deleteAnswer(id) {
    return this.#delete(ANSWERS, id);
  }

  /**
   * Change the waiting answer `id` in one transaction.
   * @param {string} id
   * @param {(answer: any) => any} change
   */
  updateAnswer(id, change) {
    return this.#update(ANSWERS, id, change);
  }

  /** Every answer waiting to be sent, oldest first (by `at`, then id). */
  listAnswers() {
    return this.#transact(ANSWERS, "readonly", (objects) => done(objects.getAll())).then((answers) => answers.sort(
      (a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : (a.at < b.at ? -1 : 1)),
    ));
  }

  /** Close the database. */
  close() {
    this.db.close();
  }
}
