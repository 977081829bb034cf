/* Slides: the editor (filmstrip, canvas text boxes edited in place with autosave,
   speaker notes, slide commands, drag to reorder) and present mode. Every request
   goes through one queue, so a pending text save always lands before the slide
   changes; the server answers with the re-rendered workspace or thumbnail. */
(function () {
  "use strict";
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));

  /* ---------------------------------------------------------------- text fitting (shared) */
  // Google Slides shrinks text that overflows its box; so do we, in 5 % steps down to half size.
  function fit(root) {
    $$(".slide .box:not(.o-text)", root || document).forEach((box) => {   // text boxes grow instead
      box.style.removeProperty("--fit");
      let k = 1;
      while (box.scrollHeight > box.clientHeight + 1 && k > 0.5) {
        k = Math.round((k - 0.05) * 100) / 100;
        box.style.setProperty("--fit", k);
      }
    });
  }

  if ($(".present")) return presentMode();
  const app = $(".slides-app");
  if (!app) return;
  const editable = app.dataset.editable === "1";
  const base = app.dataset.base;                      // /slides/p/<deck>
  const status = () => document.getElementById("save-status");

  /* ---------------------------------------------------------------- request queue */
  let busy = Promise.resolve();
  function queue(fn) {
    busy = busy.then(fn).catch(() => {});
    return busy;
  }
  function say(msg) {
    const region = document.getElementById("toast-region");
    if (!region) return;
    region.innerHTML = '<div class="toast" role="status" data-closable><span class="msg"></span></div>';
    region.querySelector(".msg").textContent = msg;
  }
  function ws() { return document.getElementById("workspace"); }
  function current() { return +ws().dataset.slide; }

  /* ---------------------------------------------------------------- box text <-> DOM */
  const BLOCK = /^(P|DIV|H[1-6]|BLOCKQUOTE|PRE|LI|SECTION)$/;
  function linesOf(node, out, bullet) {
    let line = null;
    const end = () => { if (line !== null) { out.push((bullet ? "- " : "") + line); line = null; } };
    for (const n of node.childNodes) {
      if (n.nodeType === 3) { line = (line || "") + n.data.replace(/\n/g, " "); continue; }
      if (n.nodeType !== 1) continue;
      const t = n.tagName;
      if (t === "BR") { line = line || ""; end(); }
      else if (t === "UL" || t === "OL") { end(); for (const li of n.children) linesOf(li, out, true); }
      else if (BLOCK.test(t)) { end(); linesOf(n, out, bullet); }
      else line = (line || "") + n.textContent;
    }
    end();
  }
  function boxText(box) {
    if (box.dataset.rich !== "1") return box.innerText;
    const out = [];
    linesOf(box, out, false);
    return out.join("\n");
  }
  function clean(text) {
    return text.replace(/\r\n?/g, "\n").replace(/\u00a0/g, " ").split("\n").map((l) => l.replace(/\s+$/, "")).join("\n").replace(/^\n+|\n+$/g, "");
  }
  function markEmpty(box) { box.classList.toggle("is-empty", boxText(box).trim() === "" && !box.querySelector("li")); }

  /* ---------------------------------------------------------------- autosave */
  const timers = new Map();                           // element -> timeout
  function setStatus(text) { const s = status(); if (s) s.textContent = text; }
  function schedule(el) {
    if (!editable) return;
    setStatus("Saving…");
    clearTimeout(timers.get(el));
    timers.set(el, setTimeout(() => save(el), 700));
  }
  function save(el) {
    clearTimeout(timers.get(el));
    timers.delete(el);
    const isNotes = el.id === "notes";
    const text = clean(isNotes ? el.value : boxText(el));
    if (text === el.dataset.saved) { if (!timers.size) setStatus("All changes saved in Drive"); return busy; }
    el.dataset.saved = text;
    const slide = el.dataset.slide;
    return queue(() => {
      if (isNotes) {
        return htmx.ajax("POST", `${base}/s/${slide}/notes`, { values: { text }, target: "#save-status", swap: "outerHTML" });
      }
      const thumb = document.getElementById("thumb-" + slide);
      const obj = el.dataset.obj && /^\d+$/.test(el.dataset.obj) ? el.dataset.obj : null;
      const to = obj ? `${base}/s/${slide}/o/${obj}/text` : `${base}/s/${slide}/text`;
      return htmx.ajax("POST", to, { values: { role: el.dataset.role, text },
        target: thumb ? "#thumb-" + slide : "#save-status", swap: thumb ? "outerHTML" : "none" })
        .then(() => { const t = document.getElementById("thumb-" + slide); if (t) fit(t); });
    });
  }
  function flush() {
    for (const el of Array.from(timers.keys())) save(el);
    return busy;
  }
  window.addEventListener("beforeunload", () => { for (const el of Array.from(timers.keys())) save(el); });

  /* ---------------------------------------------------------------- workspace */
  let focusFilm = false;
  function init() {
    const w = ws();
    $$(".box[data-role]", w).forEach((b) => { b.dataset.saved = clean(boxText(b)); });
    const notes = $("#notes", w);
    if (notes) notes.dataset.saved = clean(notes.value);
    fit(w);
    const url = w.dataset.url;
    if (url && location.pathname + location.search !== url) history.replaceState(null, "", url);
    $$(".layout-menu [data-layout]").forEach((b) => b.setAttribute("aria-checked", b.dataset.layout === w.dataset.layout ? "true" : "false"));
    if (focusFilm) {
      const sel = $(".thumb[aria-selected=true]", w);
      if (sel) { sel.focus({ preventScroll: true }); sel.scrollIntoView({ block: "nearest" }); }
    } else {
      const sel = $(".thumb[aria-selected=true]", w);
      if (sel) sel.scrollIntoView({ block: "nearest" });
    }
    focusFilm = false;
    initHooks.forEach((fn) => fn());
  }
  const initHooks = [];
  function swap(method, url, values, film) {
    return flush().then(() => queue(() => {
      focusFilm = !!film;
      return htmx.ajax(method, url, { values: values || {}, target: "#workspace", swap: "outerHTML" });
    }));
  }
  // A refused save (too long, no access) leaves a toast from the server; the status says so too.
  document.body.addEventListener("htmx:responseError", () => setStatus("Some changes weren't saved"));
  // A new workspace (swapped in whole) is set up once, when htmx has settled it.
  document.body.addEventListener("htmx:afterSettle", () => { const w = ws(); if (w && !w.dataset.ready) { w.dataset.ready = "1"; init(); } });
  // A save's answer says "All changes saved"; while newer edits wait for their own save, they aren't.
  document.body.addEventListener("htmx:afterSwap", () => { if (timers.size) setStatus("Saving…"); });

  function select(id, film) {
    if (!id || id === current()) { if (film) focusThumb(); return busy; }
    return swap("GET", `${base}?slide=${id}`, null, film);
  }
  function focusThumb() { const t = $(".thumb[aria-selected=true]"); if (t) t.focus({ preventScroll: true }); }
  function thumbs() { return $$("#filmstrip .thumb"); }
  function neighbour(delta) {
    const list = thumbs();
    const i = list.findIndex((t) => +t.dataset.slideId === current());
    const j = Math.max(0, Math.min(list.length - 1, i + delta));
    return list[j] ? +list[j].dataset.slideId : null;
  }

  /* ---------------------------------------------------------------- commands */
  function act(name, opts, film) {
    opts = opts || {};
    if (name === "present") return present();
    if (!editable) { say("You can only view this presentation."); return; }
    const id = current();
    const w = ws();
    const seq = +w.dataset.seq, count = +w.dataset.count;
    switch (name) {
      case "add": return swap("POST", `${base}/slides`, { after: id, layout: opts.layout || "title_body" }, film)
        .then(() => { if (!film) focusFirstBox(); });
      case "duplicate": return swap("POST", `${base}/s/${id}/duplicate`, {}, film);
      case "delete":
        if (count <= 1) { say("A presentation needs at least one slide."); return; }
        return swap("POST", `${base}/s/${id}/delete`, {}, film);
      case "layout": return swap("POST", `${base}/s/${id}/layout`, { layout: opts.layout }, film);
      case "move": {
        const to = { up: seq - 1, down: seq + 1, top: 1, bottom: count }[opts.to] || +opts.to;
        if (!to || to < 1 || to > count || to === seq) return;
        return swap("POST", `${base}/s/${id}/move`, { position: to }, film);
      }
    }
  }
  function focusFirstBox() {
    const b = $("#canvas .box[contenteditable]");
    if (b) { b.focus(); placeCaretAtEnd(b); }
  }
  function placeCaretAtEnd(el) {
    const r = document.createRange(); r.selectNodeContents(el); r.collapse(false);
    const s = getSelection(); s.removeAllRanges(); s.addRange(r);
  }
  function present() {
    flush().then(() => {
      const seq = ws() ? +ws().dataset.seq : 1;
      location.assign(`${app.dataset.present}?slide=${seq}`);
    });
  }
  function closeMenus() { $$(".slides-app details.menu-wrap[open]").forEach((d) => d.removeAttribute("open")); }

  let lastBox = null;                                 // the text box the toolbar acts on
  document.addEventListener("focusin", (e) => {
    const b = e.target.closest && e.target.closest("#canvas .box[contenteditable]");
    if (b) lastBox = b;
  });
  document.addEventListener("mousedown", (e) => {
    // Toolbar and menu clicks must not take the caret out of the text box.
    if (e.target.closest(".slides-toolbar [data-cmd], .doc-menus [data-cmd]")) e.preventDefault();
  });
  document.addEventListener("click", (e) => {
    const a = e.target.closest("[data-act]");
    if (a && a.closest(".slides-app")) {
      e.preventDefault();
      closeMenus();
      act(a.dataset.act, { layout: a.dataset.layout, to: a.dataset.to });
      return;
    }
    const c = e.target.closest("[data-cmd]");
    if (c && c.closest(".slides-app")) {
      e.preventDefault();
      closeMenus();
      command(c.dataset.cmd);
    }
  });
  function command(cmd) {
    const sel = window.SlidesEditor && window.SlidesEditor.objectCommand;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#canvas [contenteditable]");
    if (cmd === "insertUnorderedList" && sel && !focused) return sel("bullets", {});
    // Undo and redo: the browser's own while typing in a box; otherwise the server's (the last change).
    if ((cmd === "undo" || cmd === "redo") && !focused) return undoRedo(cmd);
    const box = lastBox && document.contains(lastBox) ? lastBox : null;
    if (!box) { say("Click in a text box first."); return; }
    if (cmd === "insertUnorderedList" && box.dataset.rich !== "1") { say("Bullets go in a body text box."); return; }
    box.focus();
    document.execCommand(cmd, false, null);
    markEmpty(box);
    schedule(box);
  }

  function undoRedo(cmd) {
    if (!editable) { say("You can only view this presentation."); return; }
    return swap("POST", `${base}/${cmd}`, { slide: current() });
  }

  /* ---------------------------------------------------------------- text boxes and notes */
  document.addEventListener("input", (e) => {
    const box = e.target.closest && e.target.closest("#canvas .box[contenteditable]");
    if (box) {
      if (box.classList.contains("obj-text")) { schedule(box); return; }
      if (box.dataset.rich === "1" && e.inputType === "insertText" && e.data === " ") autoBullet(box);
      markEmpty(box);
      fit(box.parentNode);
      schedule(box);
      return;
    }
    if (e.target.id === "notes") schedule(e.target);
  });
  // "- " or "* " at the start of a line starts a bulleted list, as in Slides.
  function autoBullet(box) {
    const sel = getSelection();
    if (!sel.rangeCount || !sel.isCollapsed) return;
    let node = sel.anchorNode;
    if (!node || node.nodeType !== 3) return;
    let blk = node.parentNode;
    while (blk !== box && !BLOCK.test(blk.tagName)) blk = blk.parentNode;
    if (blk.tagName === "LI") return;
    const before = node.data.slice(0, sel.anchorOffset);
    const lineText = blk === box ? before : blk.textContent;
    if (!/^[-*][ \u00a0]$/.test(lineText) || !/^[-*][ \u00a0]$/.test(before)) return;
    document.execCommand("delete"); document.execCommand("delete");
    document.execCommand("insertUnorderedList");
  }
  document.addEventListener("focusout", (e) => {
    const el = e.target;
    if (el.matches && (el.matches("#canvas .box[contenteditable]") || el.id === "notes") && timers.has(el)) save(el);
  });
  document.addEventListener("paste", (e) => {
    const box = e.target.closest && e.target.closest("#canvas .box[data-rich='1'][contenteditable]");
    if (!box) return;
    const text = e.clipboardData && e.clipboardData.getData("text/plain");
    if (text === undefined || text === null) return;
    e.preventDefault();
    document.execCommand("insertText", false, text);
  });

  /* ---------------------------------------------------------------- keyboard */
  document.addEventListener("keydown", (e) => {
    const mod = e.ctrlKey || e.metaKey;
    const k = e.key;
    const inText = e.target.closest && e.target.closest("#canvas .box, #notes, input, textarea, select, [contenteditable]");
    if (mod && !e.shiftKey && !e.altKey && k.toLowerCase() === "m") { e.preventDefault(); act("add", {}, !inText); return; }
    if (mod && k === "Enter") { e.preventDefault(); present(); return; }
    if (inText) {
      if (k === "Escape" && e.target.closest("#canvas .box, #notes")) { e.preventDefault(); e.target.blur(); }
      else if (mod && k.toLowerCase() === "s") { e.preventDefault(); flush(); }
      else if (mod && e.shiftKey && (k === "8" || k === "*") && e.target.closest(".box[data-rich='1']")) { e.preventDefault(); command("insertUnorderedList"); }
      return;
    }
    if (document.querySelector("dialog[open]")) return;
    if (mod && !e.altKey && (k.toLowerCase() === "z" || k.toLowerCase() === "y")) {
      e.preventDefault();
      undoRedo(k.toLowerCase() === "y" || e.shiftKey ? "redo" : "undo");
      return;
    }
    const inFilm = !!(e.target.closest && e.target.closest("#filmstrip"));
    if (mod && k.toLowerCase() === "d") { e.preventDefault(); act("duplicate", {}, inFilm); return; }
    if (mod && (k === "ArrowUp" || k === "ArrowDown")) {
      e.preventDefault();
      act("move", { to: e.shiftKey ? (k === "ArrowUp" ? "top" : "bottom") : (k === "ArrowUp" ? "up" : "down") }, true);
      return;
    }
    if (mod || e.altKey) return;
    if (inFilm) {
      const map = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1, Home: -1e6, End: 1e6, PageUp: -1, PageDown: 1 };
      if (k in map) { e.preventDefault(); select(neighbour(map[k]), true); return; }
      if (k === "Delete" || k === "Backspace") { e.preventDefault(); act("delete", {}, true); return; }
      if (k === "Enter") { e.preventDefault(); focusFirstBox(); return; }
    } else if (k === "PageDown" || k === "PageUp") {
      e.preventDefault(); select(neighbour(k === "PageDown" ? 1 : -1), false);
    }
  });

  /* ---------------------------------------------------------------- filmstrip: click, drag to reorder */
  let drag = null, dragged = false;
  document.addEventListener("mousedown", (e) => {
    const t = e.target.closest && e.target.closest("#filmstrip .thumb");
    if (!t || e.button !== 0) return;
    if (editable) drag = { id: +t.dataset.slideId, y: e.clientY, active: false, el: t };
  });
  function dropIndex(y, id) {
    const list = thumbs().filter((t) => +t.dataset.slideId !== id);
    let i = 0;
    for (const t of list) { const r = t.getBoundingClientRect(); if (y > r.top + r.height / 2) i++; }
    return { i, list };
  }
  document.addEventListener("mousemove", (e) => {
    if (!drag) return;
    if (!drag.active) {
      if (Math.abs(e.clientY - drag.y) < 5) return;
      drag.active = true;
      drag.el.classList.add("dragging");
      $("#filmstrip").classList.add("is-dragging");
    }
    e.preventDefault();
    const { i, list } = dropIndex(e.clientY, drag.id);
    const line = $("#filmstrip .drop-line");
    const film = $("#filmstrip");
    const fr = film.getBoundingClientRect();
    const ref = list[i] ? list[i].getBoundingClientRect().top - 6 : list[list.length - 1].getBoundingClientRect().bottom + 2;
    line.style.top = (ref - fr.top + film.scrollTop) + "px";
    line.hidden = false;
  });
  document.addEventListener("mouseup", (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.active) return;
    dragged = true;
    setTimeout(() => { dragged = false; }, 0);
    d.el.classList.remove("dragging");
    const film = $("#filmstrip");
    film.classList.remove("is-dragging");
    $(".drop-line", film).hidden = true;
    const { i } = dropIndex(e.clientY, d.id);
    const from = thumbs().findIndex((t) => +t.dataset.slideId === d.id);
    if (i === from) return;
    const go = () => swap("POST", `${base}/s/${d.id}/move`, { position: i + 1 }, true);
    if (d.id === current()) go(); else select(d.id, true).then(go);
  });
  document.addEventListener("click", (e) => {
    const t = e.target.closest && e.target.closest("#filmstrip .thumb");
    if (!t || dragged) return;
    select(+t.dataset.slideId, true);
  });

  // The object layer (objects.js) builds on these.
  window.SlidesEditor = {
    base, editable, say, ws, current, swap, flush, queue, clean, boxText,
    lastBox: () => lastBox, onInit: (fn) => { initHooks.push(fn); fn(); },
    focusBox: (b) => { b.focus(); placeCaretAtEnd(b); },
    command: (c) => command(c),
  };
  init();
  ws().dataset.ready = "1";
  window.addEventListener("resize", () => fit(ws()));
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(() => fit(ws()));

  /* ================================================================ present mode */
  function presentMode() {
    const root = $(".present");
    const count = +root.dataset.count;
    let n = +root.dataset.n;
    let ended = false;
    function show(i) {
      ended = false;
      n = Math.max(1, Math.min(count, i));
      $$(".present-slide", root).forEach((s) => { s.hidden = +s.dataset.n !== n; });
      $(".present-end", root).hidden = true;
      $("#present-count").textContent = `${n} / ${count}`;
      history.replaceState(null, "", `${location.pathname}?slide=${n}`);
      fit($(`.present-slide[data-n="${n}"]`, root));
    }
    function next() {
      if (ended) return exit();
      if (n < count) return show(n + 1);
      ended = true;
      $$(".present-slide", root).forEach((s) => { s.hidden = true; });
      $(".present-end", root).hidden = false;
      $("#present-count").textContent = "End";
    }
    function prev() { if (ended) return show(count); show(n - 1); }
    function exit() {
      const s = $(`.present-slide[data-n="${n}"]`, root);
      location.assign(`${root.dataset.exit}?slide=${s.dataset.slideId}`);
    }
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key;
      if (["ArrowRight", "ArrowDown", "PageDown", " ", "Enter", "n", "N"].includes(k)) { e.preventDefault(); next(); }
      else if (["ArrowLeft", "ArrowUp", "PageUp", "Backspace", "p", "P"].includes(k)) { e.preventDefault(); prev(); }
      else if (k === "Home") { e.preventDefault(); show(1); }
      else if (k === "End") { e.preventDefault(); show(count); }
      else if (k === "Escape") { e.preventDefault(); exit(); }
    });
    root.addEventListener("click", (e) => {
      const b = e.target.closest("[data-go]");
      if (b) { ({ prev, next, exit })[b.dataset.go](); return; }
      next();
    });
    root.focus();
    show(n);
    window.addEventListener("resize", () => fit($(`.present-slide[data-n="${n}"]`, root)));
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(() => fit($(`.present-slide[data-n="${n}"]`, root)));
  }
})();
