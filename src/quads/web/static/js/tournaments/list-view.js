// The tournaments (#/tournaments): those running, to come and over, each with its
// countdown, and the form that makes an arena (an account's; others are asked to
// sign in).  A made arena opens at once.

import * as api from "../api.js";
import * as account from "../account/state.js";
import { $, $input, $select } from "../dom.js";
import { t } from "../i18n.js";
import { describeError, messageWords, rulesName } from "../names.js";
import { REALTIME_PRESETS } from "../clocks.js";
import { eventAddress } from "./links.js";
import { countdown, eventClock, eventName, serverNow } from "./words.js";

const STATUSES = ["started", "created", "finished"];
const RULES = ["quads", "classic", "advanced"];
const LENGTHS = [15, 30, 45, 60, 90, 120];
const STARTS = [0, 5, 15, 30, 60];
const KINDS = ["arena", "swiss"];
const ROUNDS = [3, 4, 5, 6, 7, 9];

/** An API clock "180+2" of a preset "3+2" (minutes+seconds). */
function apiClock(preset) {
  const [minutes, increment] = preset.split("+").map(Number);
  return `${minutes * 60}+${increment}`;
}

export class TournamentsView {
  /** `onMade(id)` shows the arena just made. */
  constructor(onMade) {
    this.onMade = onMade;
    this.lists = null;
    this.error = null;
    this.failure = null;
    this.busy = false;
    this.at = null;
    this.received = 0;
    this.asked = 0;
    /** @type {number | undefined} */
    this.ticker = undefined;
    $select("arena-kind").addEventListener("change", () => this.render());
    $("arena-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.make();
    });
    account.onChange(() => this.render());
  }

  async open() {
    this.close();
    const asked = ++this.asked;
    this.error = null;
    this.failure = null;
    this.render();
    this.ticker = window.setInterval(() => this.renderCountdowns(), 1000);
    try {
      const lists = await api.tournaments({ wait: false });
      if (asked !== this.asked) return;
      this.lists = lists;
      // The lists carry no time of their own: the device's, as received.
      this.at = new Date().toISOString();
      this.received = Date.now();
    } catch (error) {
      if (asked === this.asked) this.error = describeError(error);
    }
    this.render();
  }

  close() {
    this.asked += 1;
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  async make() {
    if (this.busy) return;
    const preset = $select("arena-clock").value;
    const delay = Number($select("arena-starts").value);
    const kind = $select("arena-kind").value;
    /** @type {Record<string, unknown>} */
    const body = {
      kind,
      name: $input("arena-name").value.trim(),
      rules: $select("arena-rules").value,
      clock: apiClock(preset),
      rated: $input("arena-rated").checked,
    };
    if (kind === "swiss") body.rounds = Number($select("arena-rounds").value);
    else body.minutes = Number($select("arena-minutes").value);
    if (delay) body.starts = new Date(Date.now() + delay * 60_000).toISOString();
    this.busy = true;
    this.failure = null;
    this.render();
    try {
      const made = await api.makeArena(body);
      this.onMade(made.id);
    } catch (error) {
      this.failure = describeError(error);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  renderForm() {
    const fill = (id, values, word, initial = values[0]) => {
      const select = $select(id);
      const chosen = select.value || String(initial);
      select.replaceChildren(...values.map((value) => {
        const option = document.createElement("option");
        option.value = String(value);
        option.textContent = word(value);
        return option;
      }));
      select.value = chosen;
    };
    fill("arena-kind", KINDS, (kind) => t(`tournaments.kind.${kind}`));
    fill("arena-rules", RULES, rulesName);
    fill("arena-rounds", ROUNDS, (rounds) => String(rounds), 5);
    const swiss = $select("arena-kind").value === "swiss";
    $("arena-minutes-field").hidden = swiss;
    $("arena-rounds-field").hidden = !swiss;
    fill("arena-clock", REALTIME_PRESETS, (preset) => preset, "3+2");
    fill("arena-minutes", LENGTHS, (minutes) => t("tournaments.create.minutes_value", { minutes }), 30);
    fill("arena-starts", STARTS, (minutes) => minutes ? t("tournaments.create.in", { minutes }) : t("tournaments.create.now"));
    const who = account.current();
    $("arena-form").hidden = !who;
    $("arena-signin").hidden = who !== null;
    const submit = $("arena-submit");
    if (submit instanceof HTMLButtonElement) submit.disabled = this.busy;
    const failed = $("arena-error");
    failed.textContent = this.failure ? messageWords(this.failure) : "";
    failed.hidden = !this.failure;
  }

  renderCountdowns() {
    const now = serverNow(this.at, this.received, Date.now());
    for (const line of document.querySelectorAll("#tournaments-view .event-countdown")) {
      if (!(line instanceof HTMLElement) || !line.dataset.event) continue;
      const event = JSON.parse(line.dataset.event);
      const said = countdown(event, now, t);
      line.textContent = t(said.key, said);
    }
  }

  render() {
    const lists = this.lists;
    const status = $("tournaments-status");
    status.textContent = this.error ? messageWords(this.error) : lists ? "" : t("tournaments.loading");
    status.hidden = !status.textContent;
    $("tournaments-view").setAttribute("aria-busy", String(!lists && !this.error));
    for (const which of STATUSES) {
      const events = lists ? lists[which] : [];
      $(`tournaments-${which}-none`).hidden = !lists || events.length > 0;
      $(`tournaments-${which}`).replaceChildren(...events.map((event) => this.item(event)));
    }
    this.renderCountdowns();
    this.renderForm();
  }

  item(event) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.className = "event-link";
    link.href = eventAddress(event.id);
    const name = document.createElement("span");
    name.className = "event-name";
    name.textContent = eventName(event, t);
    const details = document.createElement("span");
    details.className = "event-details";
    const kind = event.kind === "swiss" ? t("tournaments.kind.swiss_rounds", { rounds: event.rounds }) : t("tournaments.kind.arena");
    details.textContent = [kind, rulesName(event.rules), eventClock(event), t(event.rated ? "tournaments.rated" : "tournaments.casual"),
      t(event.players === 1 ? "tournaments.players.one" : "tournaments.players.many", { count: event.players })].join(" · ");
    const when = document.createElement("span");
    when.className = "event-countdown";
    when.dataset.event = JSON.stringify({ status: event.status, starts: event.starts, ends: event.ends, kind: event.kind, round: event.round, rounds: event.rounds });
    link.append(name, details, when);
    item.append(link);
    return item;
  }
}
