// The puzzle screen's archive: the player's streak, and each day of the history with
// whether its puzzle was solved, as links to it.

import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { dateText, streakText } from "./words.js";

/** Draw the archive of `history` (null: none known), the puzzle of `current` (a date,
 * or null) marked as the one shown. */
export function renderArchive(history, current) {
  $("archive-streak").textContent = history ? streakText(history.streak) : "";
  const list = $("puzzle-archive");
  if (!history) {
    list.replaceChildren();
    return;
  }
  list.replaceChildren(
    ...history.days.map((day) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.className = "archive-day";
      link.href = `#/puzzle/${day.date}`;
      link.classList.toggle("solved", day.solved);
      if (day.date === current) link.setAttribute("aria-current", "page");
      const mark = document.createElement("span");
      mark.className = "archive-mark";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = day.solved ? "✓" : "";
      const name = document.createElement("span");
      name.textContent =
        day.date === history.today
          ? t("puzzle.archive.today")
          : dateText(day.date, { weekday: "short", day: "numeric", month: "short" });
      link.append(mark, name);
      link.setAttribute(
        "aria-label",
        `${dateText(day.date)}, ${t(day.solved ? "puzzle.archive.solved" : "puzzle.archive.unsolved")}`,
      );
      item.append(link);
      return item;
    }),
  );
}
