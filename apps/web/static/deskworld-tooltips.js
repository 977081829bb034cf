/* Tooltips: every app's controls carry a title; the browser's own tooltip for it is outside the
   screenshot an agent sees, so the title is drawn in the page (top layer, above dialogs) in each
   product's style (deskworld.css .dw-tip). */
(function () {
  "use strict";
  /* A control's title, shown below it (above when there is no room) while the pointer is over it or
     the keyboard has focused it — as the Google apps, Slack, Salesforce and ServiceNow draw theirs.
     It shows at once (a delay would make what a screenshot shows depend on timing), ignores the
     pointer (it never takes a click), and hides on a press until the pointer comes back. */
  let tip = null, tipFor = null, pressed = null;
  function hideTip() {
    if (tip && tip.matches(":popover-open")) tip.hidePopover();
    tipFor = null;
  }
  function showTip(el) {
    const text = (el.getAttribute("data-tip") || el.getAttribute("title") || "").trim();
    if (!text || el === pressed) return;
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "dw-tip";
      tip.setAttribute("popover", "manual");
      tip.setAttribute("aria-hidden", "true");
    }
    if (!tip.isConnected) document.body.appendChild(tip);
    tip.textContent = text;
    tip.className = "dw-tip " + (document.body.className.match(/app-\S+/) || [""])[0];
    if (!tip.matches(":popover-open")) tip.showPopover();
    const r = el.getBoundingClientRect();
    const left = Math.max(4, Math.min(r.left + r.width / 2 - tip.offsetWidth / 2, window.innerWidth - tip.offsetWidth - 4));
    const below = r.bottom + 6;
    tip.style.left = left + "px";
    tip.style.top = (below + tip.offsetHeight > window.innerHeight - 4 ? r.top - tip.offsetHeight - 6 : below) + "px";
    tipFor = el;
  }
  const titled = (t) => t && t.closest && t.closest("[title]:not(svg *):not(iframe), [data-tip]");
  document.addEventListener("mouseover", (e) => {
    const el = titled(e.target);
    if (el === tipFor) return;
    if (!el || !el.isConnected) { hideTip(); return; }
    if (el !== pressed) pressed = null;
    showTip(el);
  });
  document.addEventListener("mouseout", (e) => {
    if (tipFor && !tipFor.contains(e.relatedTarget)) { hideTip(); if (!titled(e.relatedTarget)) pressed = null; }
  });
  let tabbed = false;                                            // focus moved by Tab, not by a script or a click
  document.addEventListener("keydown", (e) => { tabbed = e.key === "Tab"; }, true);
  document.addEventListener("pointerdown", () => { tabbed = false; }, true);
  document.addEventListener("focusin", (e) => {
    if (tabbed) { const el = titled(e.target); if (el) showTip(el); }
  });
  document.addEventListener("focusout", () => { if (tipFor && !tipFor.matches(":hover")) hideTip(); });
  document.addEventListener("pointerdown", () => { if (tipFor) { pressed = tipFor; hideTip(); } }, true);
  document.addEventListener("keydown", (e) => { if (tipFor && e.key !== "Tab") hideTip(); }, true);
  document.addEventListener("scroll", hideTip, true);
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (tipFor && (!e.detail.target || e.detail.target.contains(tipFor))) hideTip();
  });
  document.addEventListener("htmx:afterSettle", () => { if (tipFor && !tipFor.isConnected) hideTip(); });

  /* A narrow window (below 1024 CSS px) folds the Google apps' left navigation into an icon rail: each
     destination and the big button (Compose, New, Create) keep their names for assistive technology but
     no longer show them, so each gets its name as a tooltip. Wider, the names are shown and nothing is
     added. */
  const NARROW = window.matchMedia("(max-width: 1023px)");
  const RAIL = ".sidebar .nav a, .sidebar .nav button.nav-link, .sidebar .big-btn";
  function railTips(root) {
    const scope = root && root.querySelectorAll ? root : document;
    const els = Array.from(scope.querySelectorAll(RAIL));
    if (scope.matches && scope.matches(RAIL)) els.push(scope);
    els.forEach((el) => {
      if (NARROW.matches) {
        if (el.hasAttribute("title") || (el.hasAttribute("data-tip") && !el.hasAttribute("data-rail-tip"))) return;
        const label = el.querySelector(":scope > span:not(.count):not(.label-dot):not(.ic)");
        const name = (el.getAttribute("aria-label") || (label || el).textContent || "").replace(/\s+/g, " ").trim();
        if (name) { el.setAttribute("data-tip", name); el.setAttribute("data-rail-tip", ""); }
      } else if (el.hasAttribute("data-rail-tip")) {
        el.removeAttribute("data-tip"); el.removeAttribute("data-rail-tip");
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => railTips(document));
  else railTips(document);
  document.addEventListener("htmx:load", (e) => railTips(e.target));
  NARROW.addEventListener("change", () => railTips(document));
})();
