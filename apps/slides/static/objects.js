/* Slides: objects on the canvas. Click selects (a layout box or text box also takes the caret),
   drag moves, the frame's handles resize (a line's two ends move), arrow keys nudge (Shift: 10 pt),
   Delete removes, Escape leaves text for the box and then drops the selection; the Insert, Format
   and Arrange menus and the toolbar act on the selection. Positions are points of a 720 × 405 slide;
   every change is one request through the editor's queue (window.SlidesEditor, slides.js), and
   the server answers with the re-rendered workspace, in which the selection is shown again. */
(function () {
  "use strict";
  const E = window.SlidesEditor;
  if (!E) return;
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const W = 720, H = 405;
  let sel = null;                                        // the selected object's ref: an id or a layout role
  let selSlide = null;                                   // the slide it is on

  function slideEl() { return $("#canvas .canvas-frame .slide"); }
  function elOf(ref) { return ref == null ? null : $(`#canvas [data-obj="${CSS.escape(String(ref))}"]:not(.obj-text)`); }
  function geom(el) { const g = (el.dataset.geom || "0,0,0,0").split(",").map(Number); return { x: g[0], y: g[1], w: g[2], h: g[3] }; }
  function scale() { const s = slideEl(); return s ? s.getBoundingClientRect().width / W : 1; }
  function url(ref, what) { return `${E.base}/s/${E.current()}/o/${encodeURIComponent(ref)}/${what}`; }
  const pct = (v, of) => (v / of * 100) + "%";

  /* ---------------------------------------------------------------- selection frame */
  function frame() {
    let f = $("#selframe");
    const s = slideEl();
    if (!s) return null;
    if (!f || f.parentNode !== s) {
      if (f) f.remove();
      f = document.createElement("div");
      f.id = "selframe";
      f.className = "selframe";
      f.setAttribute("aria-hidden", "true");
      f.innerHTML = ["nw", "n", "ne", "e", "se", "s", "sw", "w"].map((h) => `<i class="sf-h h-${h}" data-h="${h}"></i>`).join("")
        + ["t", "b", "l", "r"].map((e) => `<b class="sf-edge e-${e}" data-h="move"></b>`).join("")
        + '<i class="sf-h h-start" data-h="start"></i><i class="sf-h h-end" data-h="end"></i>';
      s.appendChild(f);
    }
    return f;
  }
  function bounds(g) { return { x: Math.min(g.x, g.x + g.w), y: Math.min(g.y, g.y + g.h), w: Math.abs(g.w), h: Math.abs(g.h) }; }
  function drawFrame(el, g) {
    const f = frame();
    if (!f) return;
    g = g || geom(el);
    const line = el.dataset.kind === "line";
    const b = bounds(g);
    if (el.dataset.kind === "text") b.h = Math.max(b.h, el.offsetHeight / scale());   // grown with its text
    f.hidden = false;
    f.classList.toggle("is-line", line);
    f.classList.toggle("is-editing", el.matches(":focus") || !!el.querySelector("[contenteditable]:focus"));
    Object.assign(f.style, { left: pct(b.x, W), top: pct(b.y, H), width: pct(b.w, W), height: pct(b.h, H) });
    if (line) {
      const put = (h, x, y) => Object.assign($(`.h-${h}`, f).style, { left: pct(x - b.x, b.w || 1), top: pct(y - b.y, b.h || 1) });
      put("start", g.x, g.y); put("end", g.x + g.w, g.y + g.h);
    }
  }
  function select(ref) {
    const el = elOf(ref);
    sel = el ? String(ref) : null;
    $$("#canvas .is-selected").forEach((e) => e.classList.remove("is-selected"));
    const f = $("#selframe");
    if (!el) { if (f) f.hidden = true; syncToolbar(null); return; }
    el.classList.add("is-selected");
    drawFrame(el);
    syncToolbar(el);
  }
  function syncToolbar(el) {
    const bar = $(".slides-toolbar");
    if (!bar) return;
    bar.classList.toggle("has-selection", !!el);
    ["bold", "italic", "underline"].forEach((k) => {
      const b = $(`[data-fmt="${k}"]`, bar);
      if (b) b.setAttribute("aria-pressed", el && el.dataset[k] === "1" ? "true" : "false");
    });
    const size = $("#font-size", bar);
    if (size && document.activeElement !== size) size.value = el ? (el.dataset.size || el.dataset.sizeDefault || "") : "";
  }
  E.onInit(() => {                                       // after every new workspace
    const w = E.ws();
    $$('.slides-app [data-ocmd="theme"]').forEach((b) => b.setAttribute("aria-checked", b.dataset.value === w.dataset.theme ? "true" : "false"));
    const want = w.dataset.sel || (w.dataset.slide === selSlide ? sel : null);   // another slide: nothing selected
    selSlide = w.dataset.slide;
    sel = null;
    if (want && elOf(want)) {
      select(want);
      const el = elOf(want);
      if (w.dataset.sel && el.dataset.kind === "text" && el.classList.contains("is-empty")) E.focusBox(el);
    } else select(null);
  });

  /* ---------------------------------------------------------------- commands */
  function post(ref, what, values) {
    if (!E.editable) { E.say("You can only view this presentation."); return Promise.resolve(); }
    return E.swap("POST", url(ref, what), values || {});
  }
  function current() { return sel != null ? elOf(sel) : null; }
  function target() {                                   // the selection, or the box holding the caret
    const c = current();
    if (c) return c;
    const box = E.lastBox();
    if (!box || !document.contains(box)) return null;
    return box.classList.contains("obj-text") ? box.parentElement : box;
  }
  function fmt(key, value) {
    const el = target();
    if (!el) { E.say("Select a text box or shape first."); return; }
    const ref = el.dataset.obj;
    if (value === undefined) value = el.dataset[key] === "1" ? "false" : "true";
    sel = ref;
    return post(ref, "format", { [key]: value });
  }
  function insert(kind, shape) {
    if (!E.editable) { E.say("You can only view this presentation."); return; }
    if (kind === "image") {
      return E.flush().then(() => htmx.ajax("GET", `${E.base}/images?slide=${E.current()}`, { target: "#modal", swap: "innerHTML" }));
    }
    return E.swap("POST", `${E.base}/s/${E.current()}/objects`, { kind, shape: shape || "" });
  }
  E.objectCommand = function (name, opts) {
    const el = target();
    switch (name) {
      case "insert": return insert(opts.kind, opts.shape);
      case "format": return fmt(opts.key, opts.value);
      case "bullets": {
        if (!el) { E.say("Select a text box first."); return; }
        const on = el.querySelectorAll("li").length === 0 ? "1" : "0";
        sel = el.dataset.obj;
        return post(el.dataset.obj, "bullets", { on });
      }
      case "align": case "order": {
        if (!el) { E.say("Select an object first."); return; }
        sel = el.dataset.obj;
        return post(el.dataset.obj, name, name === "align" ? { side: opts.side } : { to: opts.to });
      }
      case "background":
        return E.swap("POST", `${E.base}/s/${E.current()}/background`, { color: opts.value || "" });
      case "theme":
        return E.swap("POST", `${E.base}/theme`, { theme: opts.value, slide: E.current() });
      case "comment": return openComments(true);
      case "geometry": {
        if (!el) { E.say("Select an object first."); return; }
        const dlg = $("#geometry-dialog");
        const g = geom(el);
        dlg.dataset.ref = el.dataset.obj;
        ["x", "y", "w", "h"].forEach((f) => { dlg.querySelector(`[name=${f}]`).value = g[f]; });
        dlg.showModal();
        dlg.querySelector("[name=x]").select();
        return;
      }
      case "duplicate": {
        if (!el || el.dataset.kind === "placeholder") { E.say("Select a text box, shape, line or image first."); return; }
        return post(el.dataset.obj, "duplicate");
      }
      case "delete": {
        if (!el) { E.say("Select an object first."); return; }
        if (el.dataset.kind === "placeholder") { E.say("A layout box can't be deleted: clear its text instead."); return; }
        sel = null;
        return post(el.dataset.obj, "delete");
      }
    }
  };
  document.addEventListener("mousedown", (e) => {
    // Toolbar and menu clicks must not take the caret out of the text box.
    if (e.target.closest(".slides-app [data-ocmd]")) e.preventDefault();
  });
  document.addEventListener("click", (e) => {
    const c = e.target.closest(".slides-app [data-ocmd]");
    if (c) {
      e.preventDefault();
      $$(".slides-app details.menu-wrap[open]").forEach((d) => d.removeAttribute("open"));
      const d = c.dataset;
      E.objectCommand(d.ocmd, { kind: d.kind, shape: d.shape, key: d.key, value: d.value, side: d.side, to: d.to });
      return;
    }
    const pick = e.target.closest("[data-insert-image]");
    if (pick) {
      e.preventDefault();
      const dlg = pick.closest("dialog");
      if (dlg) dlg.remove();
      E.swap("POST", `${E.base}/s/${pick.dataset.slide}/objects`, { kind: "image", item: pick.dataset.insertImage });
    }
  });

  /* ---------------------------------------------------------------- size and position dialog */
  document.addEventListener("submit", (e) => {
    const form = e.target.closest("#geometry-dialog form");
    if (!form) return;
    e.preventDefault();
    const dlg = form.closest("dialog");
    const v = Object.fromEntries(["x", "y", "w", "h"].map((f) => [f, form.elements[f].value]));
    dlg.close();
    sel = dlg.dataset.ref;
    post(dlg.dataset.ref, "move", v);
  });
  document.addEventListener("click", (e) => {
    if (e.target.closest("#geometry-dialog [data-geo=cancel]")) $("#geometry-dialog").close();
  });

  /* ---------------------------------------------------------------- comments panel */
  function openComments(focus) {
    const w = E.ws();
    w.classList.add("show-comments");
    const t = $("#comments textarea", w);
    if (focus && t) t.focus();
  }
  document.addEventListener("click", (e) => {
    const c = e.target.closest("[data-comments]");
    if (!c) return;
    e.preventDefault();
    $$(".slides-app details.menu-wrap[open]").forEach((d) => d.removeAttribute("open"));
    if (c.dataset.comments === "close") E.ws().classList.remove("show-comments"); else openComments(true);
  });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.altKey && e.key.toLowerCase() === "m") { e.preventDefault(); openComments(true); }
  });
  // A comment form keeps the panel open in the workspace that comes back.
  document.body.addEventListener("htmx:configRequest", (e) => {
    if (e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("#comments")) e.detail.parameters.comments = "1";
  });

  /* ---------------------------------------------------------------- mouse: select, move, resize */
  let drag = null;
  function startDrag(e, el, handle) {
    drag = { el, handle, x0: e.clientX, y0: e.clientY, g0: geom(el), g: geom(el), s: scale(), moved: false };
  }
  document.addEventListener("mousedown", (e) => {
    if (e.button !== 0) return;
    const f = e.target.closest("#selframe [data-h]");
    if (f && sel != null && E.editable) {
      const el = elOf(sel);
      if (el) { e.preventDefault(); startDrag(e, el, f.dataset.h); return; }
    }
    const s = e.target.closest("#canvas .slide");
    if (!s) return;
    const el = e.target.closest("[data-obj]:not(.obj-text)") || (e.target.closest(".obj-text") || {}).parentElement;
    if (!el || !el.dataset || !el.dataset.obj) { select(null); return; }
    const editingText = e.target.closest("[contenteditable]:focus, .obj-text[contenteditable]");
    select(el.dataset.obj);
    if (el.classList.contains("box")) return;             // a layout box or text box: the caret goes in
    if (editingText) return;
    e.preventDefault();                                   // no text selection, no native image drag
    el.focus({ preventScroll: true });
    if (E.editable) startDrag(e, el, "move");
  });
  document.addEventListener("mousemove", (e) => {
    if (!drag) return;
    const dx = (e.clientX - drag.x0) / drag.s, dy = (e.clientY - drag.y0) / drag.s;
    if (!drag.moved && Math.abs(e.clientX - drag.x0) < 3 && Math.abs(e.clientY - drag.y0) < 3) return;
    drag.moved = true;
    e.preventDefault();
    const g0 = drag.g0, h = drag.handle, g = { ...g0 };
    const rx = Math.round(dx), ry = Math.round(dy);
    if (h === "move") { g.x = g0.x + rx; g.y = g0.y + ry; }
    else if (h === "start") { g.x = g0.x + rx; g.y = g0.y + ry; g.w = g0.w - rx; g.h = g0.h - ry; }
    else if (h === "end") { g.w = g0.w + rx; g.h = g0.h + ry; }
    else {
      if (h.includes("e")) g.w = Math.max(4, g0.w + rx);
      if (h.includes("s")) g.h = Math.max(4, g0.h + ry);
      if (h.includes("w")) { const w = Math.max(4, g0.w - rx); g.x = g0.x + g0.w - w; g.w = w; }
      if (h.includes("n")) { const hh = Math.max(4, g0.h - ry); g.y = g0.y + g0.h - hh; g.h = hh; }
    }
    drag.g = g;
    preview(drag.el, g0, g);
    drawFrame(drag.el, g);
  });
  function preview(el, g0, g) {
    if (el.dataset.kind === "line") {
      const s = drag.s;
      if (drag.handle === "move") el.style.transform = `translate(${(g.x - g0.x) * s}px, ${(g.y - g0.y) * s}px)`;
      return;
    }
    Object.assign(el.style, { left: pct(g.x, W), top: pct(g.y, H), width: pct(g.w, W) });
    el.style[el.dataset.kind === "text" ? "minHeight" : "height"] = pct(g.h, H);
  }
  document.addEventListener("mouseup", () => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    const g = d.g;
    if (g.x === d.g0.x && g.y === d.g0.y && g.w === d.g0.w && g.h === d.g0.h) return;
    sel = d.el.dataset.obj;
    post(sel, "move", { x: g.x, y: g.y, w: g.w, h: g.h });
  });
  document.addEventListener("dblclick", (e) => {
    const shape = e.target.closest("#canvas .o-shape[data-obj]");
    if (!shape || !E.editable) return;
    const t = $(".obj-text", shape);
    t.setAttribute("contenteditable", "true");
    t.dataset.saved = E.clean(E.boxText(t));
    E.focusBox(t);
  });
  document.addEventListener("focusout", (e) => {
    const t = e.target.closest && e.target.closest(".obj-text[contenteditable]");
    if (t) setTimeout(() => { if (document.activeElement !== t) t.removeAttribute("contenteditable"); }, 0);
  });
  document.addEventListener("focusin", (e) => {
    const b = e.target.closest && e.target.closest("#canvas .box[data-obj]:not(.obj-text)");
    if (b && b.dataset.obj !== sel) select(b.dataset.obj);
    else if (b) drawFrame(b);
  });

  /* ---------------------------------------------------------------- keyboard */
  // Ctrl+C / Ctrl+V outside text: copy an object and paste it on this or another slide of the presentation
  // (a copy is taken when pasted: the object as it is then).
  let clip = null;
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k !== "c" && k !== "v") return;
    if (e.target.closest && e.target.closest("input, textarea, [contenteditable]")) return;
    if (document.querySelector("dialog[open]")) return;
    const el = sel != null ? elOf(sel) : null;
    if (k === "v") {
      if (!clip) return;
      e.preventDefault();
      if (E.editable) E.swap("POST", `${E.base}/s/${E.current()}/paste`, clip);
      return;
    }
    if (!el || el.dataset.kind === "placeholder") return;
    e.preventDefault();
    clip = { from_slide: String(E.current()), ref: el.dataset.obj };
  }, true);
  // Ctrl+D with an inserted object selected duplicates the object, not the slide (caught before slides.js).
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== "d") return;
    if (e.target.closest && e.target.closest("#filmstrip, input, textarea, [contenteditable]")) return;
    const el = sel != null ? elOf(sel) : null;
    if (!el || el.dataset.kind === "placeholder") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (E.editable) post(sel, "duplicate");
  }, true);
  document.addEventListener("keydown", (e) => {
    if (document.querySelector("dialog[open]")) return;
    const mod = e.ctrlKey || e.metaKey;
    const k = e.key;
    const inBox = e.target.closest && e.target.closest("#canvas [contenteditable]");
    if (mod && !e.altKey && !e.shiftKey && ["b", "i", "u"].includes(k.toLowerCase()) && (inBox || sel != null)) {
      e.preventDefault();
      if (!E.editable) return;
      fmt({ b: "bold", i: "italic", u: "underline" }[k.toLowerCase()]);
      return;
    }
    if (inBox) {
      if (k === "Escape") {                               // slides.js leaves the text; the box stays selected
        const el = inBox.closest("[data-obj]:not(.obj-text)") || inBox.parentElement;
        if (el && el.dataset.obj) setTimeout(() => select(el.dataset.obj), 0);
      }
      return;
    }
    if (sel == null || mod || e.altKey) return;
    if (e.target.closest && e.target.closest("#filmstrip, input, textarea, select, #notes")) return;
    const el = elOf(sel);
    if (!el) return;
    const step = e.shiftKey ? 10 : 1;
    const arrows = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (k in arrows) {
      e.preventDefault();
      if (!E.editable) return;
      const [dx, dy] = arrows[k];
      // Shown at once; data-geom keeps what the server last drew until its answer replaces the canvas.
      const p = el._nudged = el._nudged || { x: 0, y: 0 };
      p.x += dx; p.y += dy;
      const g = geom(el);
      g.x += p.x; g.y += p.y;
      if (el.dataset.kind !== "line") Object.assign(el.style, { left: pct(g.x, W), top: pct(g.y, H) });
      drawFrame(el, g);
      post(sel, "nudge", { dx, dy });
    } else if (k === "Delete" || k === "Backspace") {
      e.preventDefault();
      E.objectCommand("delete");
    } else if (k === "Escape") {
      e.preventDefault();
      select(null);
    } else if (k === "Enter" && E.editable) {
      e.preventDefault();
      if (el.classList.contains("box")) E.focusBox(el);
      else if (el.dataset.kind === "shape") el.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    }
  });
  document.addEventListener("change", (e) => {
    if (e.target.id !== "font-size") return;
    const v = e.target.value.trim();
    E.objectCommand("format", { key: "size", value: v });
  });
  window.addEventListener("resize", () => { const el = current(); if (el) drawFrame(el); });
})();
