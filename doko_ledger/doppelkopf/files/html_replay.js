// The replay page of doko_ledger: steps through the frames embedded as JSON in #replay-data.
// Every piece of text from the data goes into the page through textContent, never as markup.
(() => {
  "use strict";

  const SUITS = {
    C: { symbol: "\u2663", red: false },
    S: { symbol: "\u2660", red: false },
    H: { symbol: "\u2665", red: true },
    D: { symbol: "\u2666", red: true },
  };
  const SEATS = ["south", "west", "north", "east"];

  // The words this script writes, in the page's language (#page-words), each `{name}` filled in;
  // a text said of a count has the forms its language gives a count, and the game's words
  // (games, parties, calls, suits, ranks, letters) are tables by their code.
  const WORDS = (() => {
    const kept = document.getElementById("page-words");
    return kept ? JSON.parse(kept.textContent) : {};
  })();
  const PLURALS = new Intl.PluralRules(document.documentElement.lang || "en");

  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, (whole, name) =>
      values && values[name] !== undefined ? String(values[name]) : whole,
    );
  }

  function say(key, values) {
    return fill(WORDS[key], values);
  }

  function sayCount(key, count, values) {
    const forms = WORDS[key] || {};
    const form = PLURALS.select(count) === "one" ? forms.one : forms.other;
    return fill(form, Object.assign({ count: count }, values));
  }

  function named(table, code) {
    const found = (WORDS[table] || {})[code];
    return found === undefined ? String(code).replace(/_/g, " ") : found;
  }

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
    return party ? named("parties", party) : "";
  }

  function callName(call) {
    if (call.announcement === "re" || call.announcement === "kontra") return partyName(call.party || call.announcement);
    return named("calls", call.announcement);
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
    const known = suit && WORDS.ranks && rank in WORDS.ranks;
    const label = known ? say("card_name", { rank: named("ranks", rank), suit: named("suits", text.charAt(0)) }) : String(text);
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", label);
    card.title = label;
    const corner = el("span", "corner");
    corner.append(el("span", "rank", suit ? named("letters", rank) : text), el("span", "pip", suit ? suit.symbol : ""));
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
    $("title").textContent = view.game_id ? String(view.game_id) : say("game");
    const meta = $("meta");
    const facts = [];
    if (view.played_on) facts.push(say("played", { day: WORDS.day || view.played_on }));
    if (view.game_type) facts.push(named("games", view.game_type));
    if (view.declarer) facts.push(say("declarer_is", { player: view.declarer }));
    if (view.dealer) facts.push(say("dealer_is", { player: view.dealer }));
    if (seenAs === "all") facts.push(say("all_open"));
    else if (seenAs === "tournament") facts.push(say("tournament"));
    else if (perspective) facts.push(say("as_seen", { player: perspective }));
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
    if (!trick) return say("before_play");
    return card ? say("at_card", { trick: trick, card: card }) : say("at_trick", { trick: trick });
  }

  // ---- one frame ---------------------------------------------------------------------------------

  function renderSeat(seat, frame, isLast) {
    const name = seat.dataset.player;
    const trickCards = frame.trick_cards || [];
    seat.classList.toggle("to-play", frame.leader === name);
    seat.classList.toggle("winner", frame.trick_winner === name);

    const badges = [];
    if (view.dealer === name) badges.push(el("span", "badge dealer", say("dealer")));
    if (view.declarer === name) badges.push(el("span", "badge declarer", say("declarer")));
    const party = frame.parties ? frame.parties[name] : null;
    const truth = frame.true_parties ? frame.true_parties[name] : null;
    if (party) badges.push(el("span", "badge " + party, partyName(party)));
    else if (truth) {
      const secret = el("span", "badge secret " + truth, partyName(truth));
      secret.title = say("secret", { party: partyName(truth) });
      badges.push(secret);
    }
    for (const call of callsBy(frame, name)) badges.push(el("span", "badge call", say("quoted", { call: callName(call) })));
    if (frame.trick_winner === name) badges.push(el("span", "badge won", say("wins_trick")));
    else if (frame.leader === name && !isLast) badges.push(el("span", "badge turn", say("to_play")));
    seat.querySelector(".badges").replaceChildren(...badges);

    const tricks = frame.tricks_won ? frame.tricks_won[name] : null;
    const points = frame.card_points ? frame.card_points[name] : null;
    const stats = [];
    if (typeof tricks === "number") stats.push(sayCount("tricks_won", tricks));
    if (typeof points === "number") stats.push(sayCount("points_won", points));
    seat.querySelector(".stats").textContent = stats.join(" \u00b7 ");

    const hand = seat.querySelector(".hand");
    const cards = frame.hands ? frame.hands[name] : null;
    if (Array.isArray(cards)) {
      hand.classList.remove("hidden", "unrecorded");
      hand.replaceChildren(...cards.map(cardEl));
      if (!cards.length) hand.append(el("span", "hand-note", trickCards.length ? say("no_cards_left") : say("no_cards")));
    } else {
      hand.classList.add("hidden");
      hand.classList.toggle("unrecorded", seenAs === "all");
      if (seenAs === "all") {
        hand.replaceChildren(el("span", "hand-note", say("not_recorded")));
      } else {
        const back = el("span", "card back");
        back.setAttribute("role", "img");
        back.setAttribute("aria-label", say("hidden_hand"));
        hand.replaceChildren(back, el("span", "hand-note", say("hand_hidden")));
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
      info.append(el("span", "trick-number", say("at_trick", { trick: frame.trick })));
      if (frame.trick_winner) info.append(el("span", "trick-state", say("wins", { player: frame.trick_winner })));
      else if (frame.leader) info.append(el("span", "trick-state", say("plays_next", { player: frame.leader })));
    } else if (frame.leader) {
      info.append(el("span", "trick-number", say("before_play")), el("span", "trick-state", say("leads", { player: frame.leader })));
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
    head.append(el("th", "", say("player")), el("th", "", say("party")), el("th", "", say("tricks")), el("th", "", say("points")));
    if (result && result.deltas) head.append(el("th", "", say("score")));
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
        .map((party) => {
          const values = { party: partyName(party), points: frame.party_points[party] };
          return tricks ? sayCount("party_tricks", tricks[party], values) : say("party_points", values);
        })
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
      .map((party) => say("party_points", { party: partyName(party), points: sums[party] }))
      .join(" \u00b7 ");
  }

  function renderCalls(frame, isLast) {
    const list = $("calls");
    if (!Array.isArray(frame.announcements)) {
      list.replaceChildren(el("li", "muted", say("hidden_until_end")));
      return;
    }
    if (!frame.announcements.length) {
      list.replaceChildren(el("li", "muted", isLast ? say("none") : say("none_yet")));
      return;
    }
    list.replaceChildren(
      ...frame.announcements.map((call) => {
        const item = el("li");
        item.append(el("strong", "", say("said_by", { player: call.player })), document.createTextNode(callName(call)));
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
    $("notes-title").textContent = notes.length ? sayCount("notes_here", notes.length) : say("notes");
    if (!notes.length) {
      $("notes").replaceChildren(el("p", "muted", say("no_note")));
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
    const winner = result.winner ? say("party_wins", { party: partyName(result.winner) }) : say("no_party_wins");
    if (typeof result.value !== "number") return winner;
    return winner + " \u00b7 " + sayCount("game_points", result.value);
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
    button.setAttribute("aria-label", say("show_better", { line: mark.line }));
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
    better.append(document.createTextNode(say("better")), el("strong", "", mark.better), document.createTextNode(", " + mark.known));
    const close = el("button", "mark-close", "\u00d7");
    close.type = "button";
    close.setAttribute("aria-label", say("close"));
    close.addEventListener("click", () => openMark(null));
    box.replaceChildren(close, line, better);
  }

  function showAnalysis(data) {
    const only = seenAs === "player" ? perspective : null;
    const shown = (Array.isArray(data.marks) ? data.marks : []).filter((mark) => !only || mark.player === only);
    marks = new Map(shown.map((mark) => [mark.step, mark]));
    const since = data.from_trick > 1 ? say("since", { trick: data.from_trick }) : "";
    const counted = { count: shown.length, since: since };
    $("analysis-status").textContent =
      shown.length === 1 ? say("costly_one", counted) : shown.length ? say("costly_many", counted) : say("costly_none", counted);
    $("analysis-marks").replaceChildren(
      ...shown.map((mark) => {
        const link = el("a", "analysis-mark");
        link.href = "#step-" + mark.step;
        const suit = SUITS[String(mark.card).charAt(0)];
        link.append(el("span", "glyph", mark.glyph), el("span", "", say("mark", { trick: mark.trick, player: mark.player })), el("strong", suit && suit.red ? "red" : "", mark.card_pretty));
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
    if (!waits) $("analysis-status").textContent = say("looking");
    const again = (factor) => window.setTimeout(() => askForAnalysis(url, waits + 1), Math.min(1000 * Math.pow(factor, waits + 1), 30000));
    fetch(url, { cache: "no-store", headers: { Accept: "application/json", "Accept-Language": document.documentElement.lang } })
      .then((response) => {
        if (response.status === 202) return again(1.5);
        return response.json().then((data) => {
          if (response.ok) showAnalysis(data);
          else $("analysis-status").textContent = data.error || say("failed", { status: response.status });
        });
      })
      .catch(() => again(2));
  }

  function render(i) {
    const frame = frames[i];
    const isLast = i === last;
    current = i;
    if (opened !== null && !(opened >= firstStep(frame) && opened <= (frame.step ?? 0))) openMark(null);
    $("caption").textContent = frame.caption || (isLast && view.result ? say("result") : "");
    // One numbering everywhere: frame N is the step after N cards, as in #step-N and the terminal.
    $("indicator").textContent = say("frame", { step: frame.step ?? i, last: frames[last].step ?? last });
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
