// doko serve: the number pad, confirmations, and the live update of a night. No inline scripts.
"use strict";

(function () {
  var POLL_MS = 1000;
  var MAX_BACKOFF_MS = 30000;

  function points() { return document.getElementById("re-points"); }

  // The words this script writes, in the page's language (base.html), each `{name}` filled in.
  var WORDS = null;
  function say(key, values) {
    if (WORDS === null) {
      var kept = document.getElementById("page-words");
      WORDS = kept ? JSON.parse(kept.textContent) : {};
    }
    return String(WORDS[key] || "").replace(/\{(\w+)\}/g, function (whole, name) {
      return values && values[name] !== undefined ? String(values[name]) : whole;
    });
  }

  function showKontra() {
    var input = points(), out = document.getElementById("kontra-points");
    if (!input || !out) return;
    var value = parseInt(input.value, 10);
    out.textContent = isNaN(value) || value < 0 || value > 240 ? "" : say("kontra", { points: 240 - value });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest("button");
    if (!target) return;
    var input = points();
    if (target.dataset.points !== undefined && input) {
      input.value = target.dataset.points;
      showKontra();
    } else if (target.dataset.key !== undefined && input) {
      var key = target.dataset.key;
      if (key === "C") input.value = "";
      else if (key === "⌫") input.value = input.value.slice(0, -1);
      else if (input.value.length < 3) input.value = (input.value === "0" ? "" : input.value) + key;
      showKontra();
    } else if (target.dataset.confirm && !window.confirm(target.dataset.confirm)) {
      event.preventDefault();
    }
  });

  document.addEventListener("input", function (event) {
    if (event.target === points()) showKontra();
  });

  // The rules' options: choosing other rules to start from sets every option to theirs (what
  // the form's "Show its options" asks the server for), and each option marks whether it differs
  // from the preset. The server checks and says what the rules are when the form is sent.
  function optionValues(row) {
    var fields = row.querySelectorAll("input[name^='rule.'], select[name^='rule.']");
    if (row.dataset.kind === "bool") return [fields[0].checked ? "true" : "false"];
    var out = [];
    fields.forEach(function (f) { if (f.type !== "checkbox" || f.checked) out.push(f.value); });
    return out;
  }

  function setOption(row, wanted) {
    row.querySelectorAll("input[name^='rule.'], select[name^='rule.']").forEach(function (f) {
      if (f.type === "checkbox") f.checked = wanted.indexOf(f.value) >= 0;
      else f.value = wanted[0];
    });
  }

  function chosenRules(select) {
    return JSON.parse(select.options[select.selectedIndex].dataset.values);
  }

  function words(values) { return (values.join(",") || say("none")).replace(/_/g, " "); }

  function markChanges(form) {
    var select = form.querySelector("[data-rules-choice]");
    var summary = form.querySelector("#rules-changes");
    if (!select || !summary) return;
    var preset = chosenRules(select).preset;
    var base = JSON.parse(select.querySelector("option[value='preset:" + preset + "']").dataset.values).fields;
    var changes = [];
    form.querySelectorAll(".rule-option").forEach(function (row) {
      var now = optionValues(row), was = base[row.dataset.field];
      var changed = now.join(",") !== was.join(",");
      row.classList.toggle("changed", changed);
      row.querySelector(".was").textContent = changed ? say("was", { preset: preset, value: words(was) }) : "";
      if (changed) changes.push(row.dataset.field.slice(5).replace(/_/g, " ") + "=" + words(now));
    });
    summary.textContent = changes.length ? say("changes", { preset: preset, changes: changes.join("; ") })
      : say("unchanged", { preset: preset });
  }

  document.addEventListener("change", function (event) {
    var target = event.target, form = target.form;
    if (!form) return;
    if (target.hasAttribute("data-rules-choice")) {
      var fields = chosenRules(target).fields;
      form.querySelectorAll(".rule-option").forEach(function (row) { setOption(row, fields[row.dataset.field]); });
    }
    if (target.hasAttribute("data-rules-choice") || target.closest(".rule-option")) markChanges(form);
  });

  function notice(text) {
    var box = document.getElementById("live-notice");
    if (!box || !text) return;
    box.textContent = text;
    box.hidden = false;
  }

  // The live poll: every second while the page is seen; paused while the phone sleeps or the
  // tab is hidden, and at once on waking (visibilitychange, pageshow from the back-forward
  // cache), so that a form made before another phone recorded says so before it is posted.
  // A failed poll (offline, the server restarting) is tried again later and later, never dropped.
  function watch(element) {
    var etag = element.dataset.etag || null;
    var timer = null, busy = false, failures = 0;

    function later(ms) {
      window.clearTimeout(timer);
      timer = document.visibilityState === "hidden" ? null : window.setTimeout(tick, ms);
    }

    function tick() {
      if (busy) return;
      busy = true;
      var since = element.dataset.version;
      var headers = etag ? { "If-None-Match": etag } : {};
      fetch(element.dataset.live + "?since=" + encodeURIComponent(since), { headers: headers, cache: "no-store" })
        .then(function (response) {
          if (response.status === 304) return null;
          if (response.status !== 200) throw new Error("poll answered " + response.status);
          etag = response.headers.get("ETag");
          return response.json();
        })
        .then(function (data) {
          if (!data || String(data.version) === since && !element.dataset.fragment) return null;
          if (!element.dataset.fragment) {
            element.dataset.version = String(data.version);
            element.dataset.stale = "true";
            notice(say("stale", { change: data.change }));
            return null;
          }
          return fetch(element.dataset.fragment, { cache: "no-store" }).then(function (response) {
            if (!response.ok) throw new Error("fragment answered " + response.status);
            return response.text();
          }).then(function (html) {
            var known = {};
            element.querySelectorAll("tr[id^=deal-]").forEach(function (row) { known[row.id] = true; });
            element.innerHTML = html;
            element.querySelectorAll("tr[id^=deal-]").forEach(function (row) {
              if (!known[row.id]) row.classList.add("fresh");
            });
            var section = element.querySelector("[data-version]");
            if (section) {
              element.dataset.version = section.dataset.version;
              etag = section.dataset.etag || etag;
            }
            if (String(data.version) !== since) notice(data.change);
          });
        })
        .then(function () { failures = 0; }, function () { failures += 1; })
        .then(function () {
          busy = false;
          element.dataset.failures = String(failures);
          later(Math.min(POLL_MS * Math.pow(2, failures), MAX_BACKOFF_MS));
        });
    }

    function wake() {  // hidden: the timer stops; seen again: a poll at once, no backoff left over
      if (document.visibilityState !== "hidden") failures = 0;
      later(0);
    }
    document.addEventListener("visibilitychange", wake);
    window.addEventListener("pageshow", function (event) { if (event.persisted) wake(); });
    window.addEventListener("online", wake);
    later(POLL_MS);
  }

  // A game's analysis: computed by the server in the background, so the page asks for it until
  // it is ready (202 meanwhile), later and later, then lists each costly card with its glyph;
  // a glyph tapped opens the better card and what it would have kept, with all cards known.
  function analysis(section) {
    var status = section.querySelector("#analysis-status");
    var list = section.querySelector("#analysis-marks");
    var note = section.querySelector("#analysis-note");
    var waits = 0;

    function el(tag, className, text) {
      var node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined) node.textContent = String(text);
      return node;
    }

    function item(mark) {
      var details = el("details", "costly");
      details.id = "mark-" + mark.step;
      var summary = el("summary");
      var red = /^[HD]/.test(String(mark.card)) ? " red" : "";
      summary.append(el("span", "glyph", mark.glyph), el("span", "", say("mark", { trick: mark.trick, player: mark.player })),
        el("span", "played" + red, mark.card_pretty));
      var better = el("p", "better");
      better.append(document.createTextNode(say("better")), el("strong", "", mark.better),
        document.createTextNode(", " + mark.known));
      var link = el("a", "", say("see"));
      link.href = section.dataset.replay + "#step-" + mark.step;
      details.append(summary, el("p", "line", mark.line), better, link);
      return details;
    }

    function show(data) {
      var marks = data.marks || [];
      var since = data.from_trick > 1 ? say("since", { trick: data.from_trick }) : "";
      var costly = marks.length === 1 ? "costly_one" : marks.length ? "costly_many" : "costly_none";
      status.textContent = say(costly, { count: marks.length, since: since });
      list.replaceChildren.apply(list, marks.map(function (mark) {
        var entry = el("li");
        entry.append(item(mark));
        return entry;
      }));
      list.hidden = !marks.length;
      note.textContent = data.note || "";
      note.hidden = !data.note;
      section.dataset.ready = "true";
    }

    function ask() {
      fetch(section.dataset.analysis, { cache: "no-store", headers: { Accept: "application/json", "Accept-Language": document.documentElement.lang } })
        .then(function (response) {
          if (response.status === 202) return null;
          return response.json().then(function (data) {
            if (!response.ok) {
              status.textContent = data.error || say("failed", { status: response.status });
              return false;
            }
            return data;
          });
        })
        .then(function (data) {
          if (data === false) return;
          if (data) return show(data);
          waits += 1;
          window.setTimeout(ask, Math.min(POLL_MS * Math.pow(1.5, waits), MAX_BACKOFF_MS));
        }, function () {  // offline, the server restarting: asked again later
          waits += 1;
          window.setTimeout(ask, Math.min(POLL_MS * Math.pow(2, waits), MAX_BACKOFF_MS));
        });
    }
    ask();
  }

  // the join page: a name tapped clears the name typed, and one typed clears the one tapped,
  // so that Join (or the keyboard's Go) sends the one the phone shows
  function oneName() {
    var typed = document.getElementById("typed");
    if (!typed || !typed.form) return;
    var tapped = typed.form.querySelectorAll("input[name=name]");
    tapped.forEach(function (radio) {
      radio.addEventListener("change", function () { typed.value = ""; });
    });
    typed.addEventListener("input", function () {
      tapped.forEach(function (radio) { radio.checked = false; });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live]").forEach(watch);
    document.querySelectorAll("[data-analysis]").forEach(analysis);
    oneName();
    showKontra();
    var preview = document.getElementById("preview") || document.getElementById("form-error");
    if (preview) preview.scrollIntoView({ block: "start" });
  });
})();
