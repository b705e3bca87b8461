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

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }

  var claimsData = null;
  function claims() {
    if (!claimsData) {
      var data = document.getElementById("claims-data");
      claimsData = data ? JSON.parse(data.textContent) : [];
    }
    return claimsData;
  }

  // The detail panel of claim i: verdict (symbol + name), text, span, confidence, similarity,
  // reason, and every evidence locator (reference, chars, similarity, text), best first.
  function renderDetail(panel, i, c) {
    panel.textContent = "";
    panel.id = "detail-" + i;
    panel.dataset.claim = i;
    var h = el("h3");
    var chip = el("span", "chip v-" + c.v);
    chip.appendChild(el("span", null, c.sym)).setAttribute("aria-hidden", "true");
    chip.appendChild(document.createTextNode(" " + c.label));
    h.appendChild(chip);
    // the page counts from 1; the API's `position` (PUT /audits/{id}/claims/{n}/label, #claim-N) from 0
    h.appendChild(document.createTextNode(" claim " + c.n + " (position " + i + ")"));
    panel.appendChild(h);
    panel.appendChild(el("p", "claim-text", c.text));
    var facts = el("p", "facts");
    facts.appendChild(el("span", null, "chars " + c.start + "\u2013" + c.end));
    var conf = el("span", null, "confidence ");
    conf.appendChild(el("b", "confidence", c.conf === null ? "null" : c.conf));
    facts.appendChild(conf);
    if (c.ev.length) {
      var sim = el("span", null, "similarity ");
      sim.appendChild(el("b", "similarity", c.ev[0].sim));
      facts.appendChild(sim);
    }
    panel.appendChild(facts);
    if (c.reason) {
      var reason = el("p", "reason");
      reason.appendChild(el("b", null, "Reason "));
      reason.appendChild(document.createTextNode(c.reason));
      panel.appendChild(reason);
    }
    if (!c.ev.length) {
      panel.appendChild(el("p", "hint", "No evidence: nothing in the references is close to this claim."));
      return;
    }
    var list = el("ol", "evidence");
    c.ev.forEach(function (e, rank) {
      var li = el("li", rank === 0 ? "ev ev-best" : "ev");
      li.appendChild(el("span", "loc", "reference " + e.ref + ", chars " + e.start + "\u2013" + e.end));
      li.appendChild(el("span", "sim", "similarity " + e.sim));
      li.appendChild(el("q", null, e.text));
      list.appendChild(li);
    });
    panel.appendChild(list);
  }

  function select(i) {
    var c = claims()[i];
    var panel = document.querySelector(".claim-detail");
    if (!c || !panel) { return; }
    ["sel", "hl", "hl-best", "hl-uncovered"].forEach(clear);
    var hint = document.getElementById("detail-hint");
    if (hint) { hint.hidden = true; }
    renderDetail(panel, i, c);
    panel.hidden = false;
    all('.seg[data-c~="' + i + '"], #badge-' + i + ", #claim-row-" + i).forEach(function (node) {
      node.classList.add("sel");
    });
    var others = [];
    c.ev.slice(1).forEach(function (e) { others = others.concat(e.rc); });
    markRefs(others, "hl");
    var best = c.ev.length ? markRefs(c.ev[0].rc, "hl-best") : null;
    reveal(best || (c.ev.length ? document.getElementById("ref-" + c.ev[0].ref) : null));
    if (history.replaceState) { history.replaceState(null, "", "#claim-" + i); }
  }

  function showReferenceClaim(j) {
    ["hl", "hl-best", "hl-uncovered"].forEach(clear);
    reveal(markRefs([j], "hl-uncovered"));
  }

  function onClick(ev) {
    var node = ev.target.closest(".badge, .claim-row, .seg, .rc-link");
    if (!node) { return; }
    if (node.classList.contains("rc-link")) { showReferenceClaim(node.dataset.rc); return; }
    if (node.classList.contains("seg")) { select(words(node.dataset.c)[0]); return; }  // shortest claim first
    select(node.dataset.claim);
  }

  function onKey(ev) {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.classList.contains("claim-row")) {
      ev.preventDefault();
      select(ev.target.dataset.claim);
    }
  }

  // #claim-3 selects the response claim at position 3 (labelled 4 on the page); #ref-R-P highlights reference R's claim at position P.
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
        .then(function (r) {
          // the session ended (sign-out elsewhere, key revoked): reload, which asks to sign in
          // and comes back to this page
          if (r.redirected && r.url.indexOf("/ui/login") >= 0) { clearInterval(timer); location.reload(); return ""; }
          return r.text();
        })
        .then(function (html) {
          if (!html) { return; }
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
                if (next) { main.replaceWith(next); claimsData = null; init(); }
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

  // a #claim-N or #ref-R-P link followed on the page already open (or typed in the address
  // bar) selects that claim too: no reload happens, so only the hashchange event says so
  window.addEventListener("hashchange", fromHash);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
