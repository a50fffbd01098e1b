// The replay page of doko_ledger: steps through the frames embedded as JSON in #replay-data.
// Every piece of text from the data goes into the page through textContent, never as markup.
(() => {
  "use strict";

  const SUITS = {
    C: { symbol: "\u2663", name: "clubs", red: false },
    S: { symbol: "\u2660", name: "spades", red: false },
    H: { symbol: "\u2665", name: "hearts", red: true },
    D: { symbol: "\u2666", name: "diamonds", red: true },
  };
  const RANKS = { A: "ace", 10: "ten", K: "king", Q: "queen", J: "jack", 9: "nine" };
  const SEATS = ["south", "west", "north", "east"];
  const CALLS = { no90: "no 90", no60: "no 60", no30: "no 30", schwarz: "schwarz" };

  const view = JSON.parse(document.getElementById("replay-data").textContent);
  const players = Array.isArray(view.players) ? view.players : [];
  const frames = Array.isArray(view.frames) && view.frames.length ? view.frames : [{ step: 0, caption: "" }];
  const last = frames.length - 1;
  const perspective = view.perspective;
  // which view it is: "all", "tournament" or "player" (a player may be called "all")
  const seenAs = view.seen_as || (perspective === "all" || perspective === "tournament" ? perspective : "player");
  const bottom = seenAs === "player" ? Math.max(0, players.indexOf(perspective)) : 0;
  const seatOf = new Map(players.map((name, i) => [name, SEATS[(i - bottom + players.length) % players.length % 4]]));
  let current = -1;

  const $ = (id) => document.getElementById(id);

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function partyName(party) {
    if (party === "re") return "Re";
    if (party === "kontra") return "Kontra";
    return party ? String(party) : "";
  }

  function callName(call) {
    if (call.announcement === "re" || call.announcement === "kontra") return partyName(call.party || call.announcement);
    return CALLS[call.announcement] || String(call.announcement);
  }

  function words(text) {
    return String(text).replace(/_/g, " ");
  }

  function signed(value) {
    if (typeof value !== "number") return String(value);
    return value > 0 ? "+" + value : value < 0 ? "\u2212" + -value : "0";
  }

  function cardEl(text) {
    const suit = SUITS[String(text).charAt(0)];
    const rank = String(text).slice(1);
    const card = el("span", "card " + (suit && suit.red ? "red" : "black"));
    card.dataset.card = text;
    const label = suit && RANKS[rank] ? RANKS[rank] + " of " + suit.name : String(text);
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", label);
    card.title = label;
    const corner = el("span", "corner");
    corner.append(el("span", "rank", suit ? rank : text), el("span", "pip", suit ? suit.symbol : ""));
    card.append(corner, el("span", "face", suit ? suit.symbol : ""));
    return card;
  }

  function isTrickEnd(frame) {
    return Boolean(frame.trick_winner) || (frame.card > 0 && frame.card === players.length);
  }

  function nextTrick(i) {
    for (let j = i + 1; j < last; j++) if (isTrickEnd(frames[j])) return j;
    return last;
  }

  function previousTrick(i) {
    for (let j = i - 1; j > 0; j--) if (isTrickEnd(frames[j])) return j;
    return 0;
  }

  function callsBy(frame, name) {
    return (frame.announcements || []).filter((call) => call.player === name);
  }

  // ---- the parts of the page that never change -------------------------------------------------

  function renderHeader() {
    $("title").textContent = view.game_id ? String(view.game_id) : "Doppelkopf game";
    const meta = $("meta");
    const facts = [];
    if (view.played_on) facts.push("played " + view.played_on);
    if (view.game_type) facts.push(words(view.game_type) + (view.game_type === "normal" ? " game" : ""));
    if (view.declarer) facts.push("declarer " + view.declarer);
    if (view.dealer) facts.push("dealer " + view.dealer);
    if (seenAs === "all") facts.push("all hands open");
    else if (seenAs === "tournament") facts.push("tournament view: points and parties shown at the end");
    else if (perspective) facts.push("as " + perspective + " saw it");
    meta.replaceChildren(...facts.map((fact) => el("span", "", fact)));
  }

  function buildSeats() {
    const table = $("table");
    for (const name of players) {
      const seat = el("section", "seat " + seatOf.get(name));
      seat.dataset.player = name;
      seat.setAttribute("aria-label", name);
      const head = el("div", "seat-head");
      head.append(el("span", "name", name), el("span", "badges"), el("span", "stats"));
      seat.append(head, el("div", "hand"));
      table.append(seat);
    }
  }

  function buildAllNotes() {
    const list = $("all-notes");
    frames.forEach((frame, i) => {
      for (const note of frame.notes || []) {
        const link = el("a");
        link.href = "#step-" + frame.step;
        link.dataset.index = i;
        link.append(el("span", "where", where(frame, note) + " \u2014 "), document.createTextNode(note.text));
        if (note.author) link.title = note.author + ": " + note.text;
        const item = el("li");
        item.append(link);
        list.append(item);
      }
    });
    $("all-notes-panel").hidden = list.children.length === 0;
  }

  function where(frame, note) {
    const trick = note && note.trick ? note.trick : frame.trick;
    const card = note && note.trick ? note.card : frame.card;
    if (!trick) return "before play";
    return card ? "trick " + trick + ", card " + card : "trick " + trick;
  }

  // ---- one frame ---------------------------------------------------------------------------------

  function renderSeat(seat, frame, isLast) {
    const name = seat.dataset.player;
    const trickCards = frame.trick_cards || [];
    seat.classList.toggle("to-play", frame.leader === name);
    seat.classList.toggle("winner", frame.trick_winner === name);

    const badges = [];
    if (view.dealer === name) badges.push(el("span", "badge dealer", "dealer"));
    if (view.declarer === name) badges.push(el("span", "badge declarer", "declarer"));
    const party = frame.parties ? frame.parties[name] : null;
    const truth = frame.true_parties ? frame.true_parties[name] : null;
    if (party) badges.push(el("span", "badge " + party, partyName(party)));
    else if (truth) {
      const secret = el("span", "badge secret " + truth, partyName(truth));
      secret.title = partyName(truth) + ", not yet public";
      badges.push(secret);
    }
    for (const call of callsBy(frame, name)) badges.push(el("span", "badge call", "\u201c" + callName(call) + "\u201d"));
    if (frame.trick_winner === name) badges.push(el("span", "badge won", "wins the trick"));
    else if (frame.leader === name && !isLast) badges.push(el("span", "badge turn", "to play"));
    seat.querySelector(".badges").replaceChildren(...badges);

    const tricks = frame.tricks_won ? frame.tricks_won[name] : null;
    const points = frame.card_points ? frame.card_points[name] : null;
    const stats = [];
    if (typeof tricks === "number") stats.push(tricks === 1 ? "1 trick" : tricks + " tricks");
    if (typeof points === "number") stats.push(points + " pts");
    seat.querySelector(".stats").textContent = stats.join(" \u00b7 ");

    const hand = seat.querySelector(".hand");
    const cards = frame.hands ? frame.hands[name] : null;
    if (Array.isArray(cards)) {
      hand.classList.remove("hidden", "unrecorded");
      hand.replaceChildren(...cards.map(cardEl));
      if (!cards.length) hand.append(el("span", "hand-note", trickCards.length ? "no cards left" : "no cards"));
    } else {
      hand.classList.add("hidden");
      hand.classList.toggle("unrecorded", seenAs === "all");
      if (seenAs === "all") {
        hand.replaceChildren(el("span", "hand-note", "hand not recorded"));
      } else {
        const back = el("span", "card back");
        back.setAttribute("role", "img");
        back.setAttribute("aria-label", "hidden hand");
        hand.replaceChildren(back, el("span", "hand-note", "hand hidden"));
      }
    }
  }

  function renderTrick(frame) {
    const felt = $("felt");
    const trickCards = frame.trick_cards || [];
    const slots = trickCards.map((played, k) => {
      const slot = el("div", "slot " + (seatOf.get(played.player) || SEATS[k % 4]));
      slot.dataset.player = played.player;
      const card = cardEl(played.card);
      if (frame.trick_winner && played.player === frame.trick_winner) card.classList.add("winning");
      else if (k === trickCards.length - 1 && !frame.trick_winner) card.classList.add("latest");
      slot.append(el("span", "order", k + 1), card);
      const mark = marks.get(firstStep(frame) + k);
      if (mark) slot.append(glyphButton(mark));
      return slot;
    });
    const info = el("div", "trick-info");
    if (frame.trick) {
      info.append(el("span", "trick-number", "trick " + frame.trick));
      if (frame.trick_winner) info.append(el("span", "trick-state", frame.trick_winner + " wins"));
      else if (frame.leader) info.append(el("span", "trick-state", frame.leader + " to play"));
    } else if (frame.leader) {
      info.append(el("span", "trick-number", "before play"), el("span", "trick-state", frame.leader + " leads"));
    }
    felt.replaceChildren(info, ...slots);
    if (!slots.length && frame === frames[last] && view.result) {
      const result = view.result;
      const outcome = el("div", "felt-result " + (result.winner || ""), resultHeadline(result));
      felt.append(outcome);
    }
  }

  function renderSheet(frame, isLast) {
    const result = isLast ? view.result : null;
    const head = el("tr");
    head.append(el("th", "", "player"), el("th", "", "party"), el("th", "", "tricks"), el("th", "", "points"));
    if (result && result.deltas) head.append(el("th", "", "score"));
    const rows = players.map((name) => {
      const row = el("tr");
      row.dataset.player = name;
      if (frame.leader === name && !isLast) row.className = "to-play";
      const party = (frame.parties && frame.parties[name]) || (frame.true_parties && frame.true_parties[name]);
      const tricks = frame.tricks_won ? frame.tricks_won[name] : null;
      const points = frame.card_points ? frame.card_points[name] : null;
      row.append(
        el("td", "", name),
        el("td", "", party ? partyName(party) : "\u2013"),
        el("td", "", typeof tricks === "number" ? tricks : "\u2013"),
        el("td", "", typeof points === "number" ? points : "\u2013"),
      );
      if (result && result.deltas) {
        const delta = result.deltas[name];
        row.append(el("td", delta > 0 ? "plus" : delta < 0 ? "minus" : "", signed(delta)));
      }
      return row;
    });
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    tbody.append(...rows);
    $("sheet").replaceChildren(thead, tbody);

    const totals = partyTotals(frame);
    $("totals").textContent = totals;
    $("totals").hidden = !totals;
    $("sheet-hidden").hidden = Boolean(frame.card_points || frame.party_points);
  }

  function partyTotals(frame) {
    if (frame.party_points) {
      // A deal recorded by its facts: the parties' card points (and tricks, where written down).
      const tricks = frame.party_tricks;
      return ["re", "kontra"]
        .map((party) => partyName(party) + " " + frame.party_points[party] + (tricks ? " in " + tricks[party] + " tricks" : ""))
        .join(" \u00b7 ");
    }
    const parties = frame.true_parties || frame.parties;
    if (!parties || !frame.card_points) return "";
    const sums = {};
    for (const name of players) {
      const party = parties[name];
      if (!party) return "";
      sums[party] = (sums[party] || 0) + (frame.card_points[name] || 0);
    }
    return Object.keys(sums)
      .sort((a, b) => (b === "re") - (a === "re"))
      .map((party) => partyName(party) + " " + sums[party])
      .join(" \u00b7 ");
  }

  function renderCalls(frame, isLast) {
    const list = $("calls");
    if (!Array.isArray(frame.announcements)) {
      list.replaceChildren(el("li", "muted", "hidden until the end"));
      return;
    }
    if (!frame.announcements.length) {
      list.replaceChildren(el("li", "muted", isLast ? "none" : "none yet"));
      return;
    }
    list.replaceChildren(
      ...frame.announcements.map((call) => {
        const item = el("li");
        item.append(el("strong", "", call.player + ": "), document.createTextNode(callName(call)));
        if (call.party && call.announcement !== "re" && call.announcement !== "kontra") {
          item.append(el("span", "muted", " (" + partyName(call.party) + ")"));
        }
        return item;
      }),
    );
  }

  function renderNotes(frame) {
    const notes = frame.notes || [];
    $("notes-panel").classList.toggle("has-notes", notes.length > 0);
    $("notes-title").textContent = notes.length ? (notes.length === 1 ? "Note on this step" : notes.length + " notes on this step") : "Notes";
    if (!notes.length) {
      $("notes").replaceChildren(el("p", "muted", "No note on this step."));
      return;
    }
    $("notes").replaceChildren(
      ...notes.map((note) => {
        const box = el("article", "note");
        const by = [];
        if (note.author) by.push(note.author);
        if (note.at) by.push(localMinute(note.at));
        if (note.trick) by.push(where(frame, note));
        box.append(el("p", "note-text", note.text), el("p", "note-by", "\u2014 " + by.join(" \u00b7 ")));
        return box;
      }),
    );
  }

  // A stored UTC time (ISO 8601) in the reader's time zone, to the minute.
  function localMinute(at) {
    const moment = new Date(String(at).replace(/(\.\d{3})\d+/, "$1"));
    if (Number.isNaN(moment.getTime())) return String(at);
    const two = (n) => String(n).padStart(2, "0");
    return moment.getFullYear() + "-" + two(moment.getMonth() + 1) + "-" + two(moment.getDate()) + " " + two(moment.getHours()) + ":" + two(moment.getMinutes());
  }

  function resultHeadline(result) {
    const winner = result.winner ? partyName(result.winner) + " wins" : "No party wins";
    if (typeof result.value !== "number") return winner;
    return winner + " \u00b7 " + result.value + (result.value === 1 ? " point" : " points");
  }

  function renderResult(isLast) {
    const result = view.result;
    const panel = $("result-panel");
    panel.hidden = !(isLast && result);
    if (panel.hidden) return;
    const body = [el("p", "result-head " + (result.winner || ""), resultHeadline(result))];
    if (Array.isArray(result.lines) && result.lines.length) {
      const lines = el("ul", "result-lines");
      lines.append(...result.lines.map((line) => el("li", "", line)));
      body.push(lines);
    }
    $("result").replaceChildren(...body);
  }

  // ---- the analysis: one glyph on each card that cost its party something, tapped for the better card

  let marks = new Map(); // the marks by step (the frame that shows the card just played)
  let opened = null; // the step whose mark is open

  function firstStep(frame) {
    return (frame.step ?? 0) - (frame.card || 0) + 1;
  }

  function glyphButton(mark) {
    const button = el("button", "mark-glyph");
    button.append(el("span", "mark-badge", mark.glyph));
    button.type = "button";
    button.dataset.step = mark.step;
    button.setAttribute("aria-label", mark.line + " (show the better card)");
    button.setAttribute("aria-expanded", String(opened === mark.step));
    button.title = mark.line;
    button.addEventListener("click", () => openMark(opened === mark.step ? null : mark.step));
    return button;
  }

  function openMark(step) {
    opened = step;
    const box = $("mark-detail");
    const mark = step === null ? null : marks.get(step);
    box.hidden = !mark;
    for (const button of document.querySelectorAll(".mark-glyph")) {
      button.setAttribute("aria-expanded", String(Number(button.dataset.step) === step));
    }
    if (!mark) return box.replaceChildren();
    const line = el("p", "mark-line");
    line.append(el("span", "glyph", mark.glyph), document.createTextNode(" " + mark.line));
    const better = el("p", "mark-better");
    better.append(document.createTextNode("better: "), el("strong", "", mark.better), document.createTextNode(", " + mark.known));
    const close = el("button", "mark-close", "\u00d7");
    close.type = "button";
    close.setAttribute("aria-label", "close");
    close.addEventListener("click", () => openMark(null));
    box.replaceChildren(close, line, better);
  }

  function showAnalysis(data) {
    const only = seenAs === "player" ? perspective : null;
    const shown = (Array.isArray(data.marks) ? data.marks : []).filter((mark) => !only || mark.player === only);
    marks = new Map(shown.map((mark) => [mark.step, mark]));
    const since = data.from_trick > 1 ? " from trick " + data.from_trick + " on" : "";
    $("analysis-status").textContent = shown.length
      ? (shown.length === 1 ? "1 card" : shown.length + " cards") + since + " cost " + (shown.length === 1 ? "its" : "their") + " party something:"
      : "No card" + since + " cost its party anything.";
    $("analysis-marks").replaceChildren(
      ...shown.map((mark) => {
        const link = el("a", "analysis-mark");
        link.href = "#step-" + mark.step;
        const suit = SUITS[String(mark.card).charAt(0)];
        link.append(el("span", "glyph", mark.glyph), el("span", "", "trick " + mark.trick + " \u00b7 " + mark.player), el("strong", suit && suit.red ? "red" : "", mark.card_pretty));
        link.addEventListener("click", (event) => {
          event.preventDefault();
          go(frames.findIndex((frame) => frame.step === mark.step));
          openMark(mark.step);
        });
        const item = el("li");
        item.append(link);
        return item;
      }),
    );
    $("analysis-note").textContent = data.note || "";
    $("analysis-panel").hidden = false;
    $("analysis-panel").dataset.ready = "true";
    render(current);
  }

  // A served page asks its server for the analysis until it is computed (202 meanwhile), later and later.
  function askForAnalysis(url, waits) {
    $("analysis-panel").hidden = false;
    if (!waits) $("analysis-status").textContent = "Looking for the cards that cost something\u2026";
    const again = (factor) => window.setTimeout(() => askForAnalysis(url, waits + 1), Math.min(1000 * Math.pow(factor, waits + 1), 30000));
    fetch(url, { cache: "no-store", headers: { Accept: "application/json" } })
      .then((response) => {
        if (response.status === 202) return again(1.5);
        return response.json().then((data) => {
          if (response.ok) showAnalysis(data);
          else $("analysis-status").textContent = data.error || "The analysis could not be made (" + response.status + ").";
        });
      })
      .catch(() => again(2));
  }

  function render(i) {
    const frame = frames[i];
    const isLast = i === last;
    current = i;
    if (opened !== null && !(opened >= firstStep(frame) && opened <= (frame.step ?? 0))) openMark(null);
    $("caption").textContent = frame.caption || (isLast && view.result ? "The result" : "");
    // One numbering everywhere: frame N is the step after N cards, as in #step-N and the terminal.
    $("indicator").textContent = "frame " + (frame.step ?? i) + " of " + (frames[last].step ?? last);
    for (const seat of document.querySelectorAll(".seat")) renderSeat(seat, frame, isLast);
    renderTrick(frame);
    renderSheet(frame, isLast);
    renderCalls(frame, isLast);
    renderNotes(frame);
    renderResult(isLast);
    for (const link of document.querySelectorAll("#all-notes a")) {
      link.classList.toggle("current", Number(link.dataset.index) === i);
    }
    $("first").disabled = $("previous-trick").disabled = $("previous").disabled = i === 0;
    $("next").disabled = $("next-trick").disabled = $("last").disabled = isLast;
    const scrub = $("scrub");
    scrub.value = String(i);
    scrub.setAttribute("aria-valuetext", $("indicator").textContent);
  }

  // ---- moving ------------------------------------------------------------------------------------

  function go(i) {
    const target = Math.min(Math.max(Number(i) || 0, 0), last);
    if (target === current) return;
    render(target);
    const hash = "#step-" + frames[target].step;
    if (location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (error) {
        location.replace(hash);
      }
    }
  }

  function fromHash() {
    const match = /^#step-(\d+)$/.exec(location.hash);
    if (!match) return 0;
    const step = Number(match[1]);
    const index = frames.findIndex((frame) => frame.step === step);
    return index >= 0 ? index : Math.min(step, last);
  }

  const moves = {
    first: () => 0,
    "previous-trick": previousTrick,
    previous: (i) => i - 1,
    next: (i) => i + 1,
    "next-trick": nextTrick,
    last: () => last,
  };
  const keys = {
    ArrowLeft: "previous",
    ArrowRight: "next",
    ArrowUp: "previous-trick",
    PageUp: "previous-trick",
    ArrowDown: "next-trick",
    PageDown: "next-trick",
    Home: "first",
    End: "last",
  };

  renderHeader();
  buildSeats();
  buildAllNotes();
  $("scrub").max = String(last);
  for (const [id, move] of Object.entries(moves)) $(id).addEventListener("click", () => go(move(current)));
  $("scrub").addEventListener("input", (event) => go(event.target.value));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !(event.key in keys)) return;
    event.preventDefault();
    go(moves[keys[event.key]](current));
  });
  window.addEventListener("hashchange", () => go(fromHash()));
  render(fromHash());
  if (view.analysis) showAnalysis(view.analysis);
  else if (view.analysis_url) askForAnalysis(view.analysis_url, 0);
})();
