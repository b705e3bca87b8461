// claimaudit /ui: claim selection and evidence highlighting, and the live status refresh.
// Plain script, no library, nothing fetched from elsewhere.
(function () {
  "use strict";
  var TERMINAL = { done: 1, failed: 1, rejected: 1 };
  var POLL_MS = 1000;

  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function words(s) { return (s || "").split(/\s+/).filter(Boolean); }

  function clear(cls) { all("." + cls).forEach(function (el) { el.classList.remove(cls); }); }

  // Highlight the reference segments of reference claims `ids` with class `cls`; return the first.
  function markRefs(ids, cls) {
    var first = null;
    ids.forEach(function (j) {
      all('.rseg[data-rc~="' + j + '"]').forEach(function (el) {
        el.classList.add(cls);
        if (!first) { first = el; }
      });
    });
    return first;
  }

  function reveal(el) {
    if (el) { el.scrollIntoView({ block: "center", inline: "nearest" }); }
  }

  function select(i) {
    var detail = document.getElementById("detail-" + i);
    if (!detail) { return; }
    ["sel", "hl", "hl-best", "hl-uncovered"].forEach(clear);
    all(".claim-detail").forEach(function (el) { el.hidden = true; });
    var hint = document.getElementById("detail-hint");
    if (hint) { hint.hidden = true; }
    detail.hidden = false;
    all('.seg[data-c~="' + i + '"], #badge-' + i + ", #claim-row-" + i).forEach(function (el) {
      el.classList.add("sel");
    });
    markRefs(words(detail.dataset.other), "hl");
    var best = markRefs(words(detail.dataset.best), "hl-best");
    reveal(best || document.getElementById("ref-" + detail.dataset.bestRef));
    if (history.replaceState) { history.replaceState(null, "", "#claim-" + i); }
  }

  function showReferenceClaim(j) {
    ["hl", "hl-best", "hl-uncovered"].forEach(clear);
    reveal(markRefs([j], "hl-uncovered"));
  }

  function onClick(ev) {
    var el = ev.target.closest("[data-claim], .seg, .rc-link");
    if (!el) { return; }
    if (el.classList.contains("rc-link")) { showReferenceClaim(el.dataset.rc); return; }
    if (el.classList.contains("seg")) { select(words(el.dataset.c)[0]); return; }  // shortest claim first
    if (!el.classList.contains("claim-detail")) { select(el.dataset.claim); }
  }

  function onKey(ev) {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.classList.contains("claim-row")) {
      ev.preventDefault();
      select(ev.target.dataset.claim);
    }
  }

  // #claim-3 selects response claim 3; #ref-R-P highlights reference R's claim at position P.
  function fromHash() {
    var m = /^#claim-(\d+)$/.exec(location.hash);
    if (m) { select(m[1]); return; }
    m = /^#ref-(\d+-\d+)$/.exec(location.hash);
    var data = document.getElementById("rc-positions");
    if (m && data) {
      var j = JSON.parse(data.textContent).indexOf(m[1]);
      if (j >= 0) { showReferenceClaim(String(j)); }
    }
  }

  // While the audit runs, refresh the status and timeline every second; when it is finished,
  // fetch the page once and swap its content in (no reload).
  function poll(main) {
    var id = main.dataset.auditId;
    var timer = setInterval(function () {
      fetch("/ui/audits/" + id + "/status", { cache: "no-store" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("status");
          var old = document.getElementById("status");
          if (!fresh || !old) { return; }
          old.replaceWith(fresh);
          if (TERMINAL[fresh.dataset.status]) {
            clearInterval(timer);
            return fetch(location.pathname, { cache: "no-store" })
              .then(function (r) { return r.text(); })
              .then(function (page) {
                var next = new DOMParser().parseFromString(page, "text/html").getElementById("audit");
                if (next) { main.replaceWith(next); init(); }
              });
          }
        })
        .catch(function () { /* a missed poll is retried on the next tick */ });
    }, POLL_MS);
  }

  function init() {
    var main = document.getElementById("audit");
    if (!main) { return; }
    if (!main.dataset.bound) {
      main.addEventListener("click", onClick);
      main.addEventListener("keydown", onKey);
      main.dataset.bound = "1";
    }
    if (!TERMINAL[main.dataset.status] && !main.dataset.standalone) { poll(main); }
    fromHash();
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
