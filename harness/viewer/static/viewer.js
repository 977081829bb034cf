/* deskworld viewer: table sort/filter on the run page; step scrubber on the episode page. */
(function () {
  "use strict";
  function ready(fn) { if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn); }

  function runTable() {
    var table = document.getElementById("episodes");
    if (!table) return;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).filter(function (r) { return r.dataset.task; });
    var filter = document.getElementById("filter"), shown = document.getElementById("shown");
    function checked(name) {
      return Array.prototype.slice.call(document.querySelectorAll('#facets input[name="' + name + '"]:checked')).map(function (i) { return i.value; });
    }
    function apply() {
      var st = checked("status"), apps = checked("app"), allApps = document.querySelectorAll('#facets input[name="app"]').length;
      var variants = checked("variant"), allVariants = document.querySelectorAll('#facets input[name="variant"]').length;
      var q = (filter.value || "").toLowerCase(), n = 0;
      rows.forEach(function (r) {
        var ra = (r.dataset.apps || "").split(" ").filter(Boolean);
        var okApp = !allApps || !ra.length || ra.some(function (a) { return apps.indexOf(a) >= 0; });
        var okVariant = !allVariants || variants.indexOf(r.dataset.variant || "") >= 0;
        var ok = st.indexOf(r.dataset.status) >= 0 && okApp && okVariant && (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
        r.hidden = !ok; if (ok) n++;
      });
      if (shown) shown.textContent = n + " of " + rows.length + " episodes shown";
    }
    document.querySelectorAll("#facets input").forEach(function (i) { i.addEventListener("input", apply); });
    table.querySelectorAll("th.sortable").forEach(function (th) {
      th.addEventListener("click", function () {
        var key = th.dataset.key, num = th.dataset.type === "num";
        var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
        table.querySelectorAll("th").forEach(function (o) { o.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
        rows.sort(function (a, b) {
          var x = a.dataset[key], y = b.dataset[key];
          if (num) { x = parseFloat(x) || 0; y = parseFloat(y) || 0; return (x - y) * dir; }
          return x.localeCompare(y) * dir || (parseFloat(a.dataset.sample) - parseFloat(b.dataset.sample));
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
    apply();
  }

  // Runs, leaderboard and compare tables: click a header to sort by its data-key (read from data-<key> on rows).
  function sortableTables() {
    document.querySelectorAll("table.sortable-table").forEach(function (table) {
      var body = table.tBodies[0];
      if (!body) return;
      var rows = Array.prototype.slice.call(body.rows);
      table.querySelectorAll("th.sortable").forEach(function (th) {
        th.addEventListener("click", function () {
          var attr = "data-" + th.dataset.key, num = th.dataset.type === "num";
          var dir = th.getAttribute("aria-sort") === "descending" ? 1 : -1;
          if (!num) dir = -dir;
          table.querySelectorAll("th").forEach(function (o) { o.removeAttribute("aria-sort"); });
          th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
          rows.sort(function (a, b) {
            var x = a.getAttribute(attr) || "", y = b.getAttribute(attr) || "";
            if (num) { x = parseFloat(x); y = parseFloat(y); return ((isNaN(x) ? -1 : x) - (isNaN(y) ? -1 : y)) * dir; }
            return x.localeCompare(y) * dir;
          });
          rows.forEach(function (r) { body.appendChild(r); });
        });
      });
    });
  }

  function scrubber() {
    var root = document.getElementById("scrubber");
    if (!root) return;
    var frames = document.querySelectorAll(".frame"), thumbs = document.querySelectorAll(".strip a");
    var slider = document.getElementById("slider"), label = document.getElementById("stepno");
    var max = frames.length - 1, cur = 0;
    function show(n, push) {
      n = Math.max(0, Math.min(max, n)); cur = n;
      frames.forEach(function (f) { f.classList.toggle("on", +f.dataset.n === n); });
      thumbs.forEach(function (t) { t.classList.toggle("on", +t.dataset.n === n); });
      slider.value = n;
      label.textContent = n === 0 ? "start" : "step " + n + " / " + max;
      var th = document.querySelector('.strip a[data-n="' + n + '"]'), strip = th && th.parentNode;
      if (th && (th.offsetLeft < strip.scrollLeft || th.offsetLeft + th.offsetWidth > strip.scrollLeft + strip.clientWidth))
        strip.scrollLeft = th.offsetLeft - strip.clientWidth / 2;
      if (push !== false) history.replaceState(null, "", "#step=" + n);
    }
    slider.addEventListener("input", function () { show(+slider.value); });
    document.getElementById("prev").addEventListener("click", function () { show(cur - 1); });
    document.getElementById("next").addEventListener("click", function () { show(cur + 1); });
    thumbs.forEach(function (t) { t.addEventListener("click", function (e) { e.preventDefault(); show(+t.dataset.n); }); });
    document.querySelectorAll(".cp-jump").forEach(function (t) {
      t.addEventListener("click", function (e) { e.preventDefault(); show(+t.dataset.n); });
    });
    document.querySelectorAll(".tabs button").forEach(function (b) {
      b.addEventListener("click", function () {
        var f = b.closest(".frame"), after = b.dataset.view === "after";
        f.classList.toggle("after", after);
        f.querySelectorAll(".tabs button").forEach(function (o) { o.setAttribute("aria-pressed", String(o === b)); });
        f.querySelector("img.before") && (f.querySelector("img.before").hidden = after);
        f.querySelector("img.afterimg") && (f.querySelector("img.afterimg").hidden = !after);
      });
    });
    document.addEventListener("keydown", function (e) {
      var t = e.target, tag = t && t.tagName;
      if (tag === "INPUT" && t.type !== "range" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var n = {ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: max}[e.key];
      if (n === undefined) return;
      e.preventDefault(); show(n);
    });
    var m = /step=(\d+)/.exec(location.hash);
    show(m ? +m[1] : 0, false);
  }

  // Show validation errors (422) and conflicts (409) from the grading form instead of dropping them.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var st = e.detail.xhr && e.detail.xhr.status;
    if (st === 422 || st === 409) { e.detail.shouldSwap = true; e.detail.isError = false; }
  });

  ready(function () { runTable(); sortableTables(); scrubber(); });
})();
