/* Docs editor: a contenteditable page with the browser's own editing (selection,
   caret, typing, Backspace, Enter, copy/paste, undo), a toolbar over execCommand,
   autosave after a pause, and comments anchored to a selected range. */
(function () {
  "use strict";
  const app = document.querySelector(".doc-app");
  if (!app) return;
  const ed = document.getElementById("doc-content");
  const editable = app.dataset.editable === "1";
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  document.execCommand("defaultParagraphSeparator", false, "p");
  document.execCommand("styleWithCSS", false, false);

  /* ---------------------------------------------------------------- autosave */
  let timer = null, inflight = null;
  const status = () => document.getElementById("save-status");
  function save() {
    timer = null;
    const p = htmx.ajax("POST", app.dataset.saveUrl, { values: { html: ed.innerHTML }, target: "#save-status", swap: "outerHTML" });
    inflight = p;
    p.finally(() => { if (inflight === p) inflight = null; });
    return p;
  }
  // Save now if a save is waiting; resolves when the page's last save has answered.
  function flush() {
    if (timer) { clearTimeout(timer); save(); }
    return inflight || Promise.resolve();
  }
  function schedule() {
    if (!editable) return;
    const s = status(); if (s) s.textContent = "Saving…";
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, 700);
  }
  ed.addEventListener("input", schedule);
  window.addEventListener("beforeunload", () => { if (timer) { clearTimeout(timer); save(); } });

  /* ---------------------------------------------------------------- toolbar */
  let saved = null;                 // the selection, kept while a menu or dialog has focus
  function keepSelection() {
    const sel = getSelection();
    if (sel.rangeCount && ed.contains(sel.anchorNode)) saved = sel.getRangeAt(0).cloneRange();
  }
  function restoreSelection() {
    // Only when something else took focus: in the page, the live selection is newer than the kept one
    // (selectionchange lags fast typing, so restoring it would move the caret back).
    const sel0 = getSelection();
    if (document.activeElement === ed && sel0.rangeCount && ed.contains(sel0.anchorNode)) return;
    if (!saved) return;
    ed.focus();
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(saved);
  }
  document.addEventListener("selectionchange", () => { keepSelection(); reflect(); });

  function blockOf(node) {
    while (node && node !== ed) {
      if (node.nodeType === 1 && /^(P|H1|H2|H3|H4|H5|H6|LI|DIV|TD|TH)$/.test(node.tagName)) return node;
      node = node.parentNode;
    }
    return null;
  }
  function reflect() {
    const sel = getSelection();
    if (!sel.rangeCount || !ed.contains(sel.anchorNode)) return;
    for (const cmd of ["bold", "italic", "underline", "insertUnorderedList", "insertOrderedList"]) {
      // A suggested insertion is drawn underlined; that is not the text's underline.
      const on = cmd === "underline" ? !!(sel.anchorNode && (sel.anchorNode.nodeType === 1 ? sel.anchorNode : sel.anchorNode.parentElement).closest("#doc-content u"))
        : document.queryCommandState(cmd);
      $$(`.doc-toolbar [data-cmd="${cmd}"]`).forEach((b) => b.setAttribute("aria-pressed", on ? "true" : "false"));
    }
    const b = blockOf(sel.anchorNode);
    const name = (b && { title: "Title", subtitle: "Subtitle" }[b.getAttribute("data-style")]) ||
      { H1: "Heading 1", H2: "Heading 2", H3: "Heading 3", H4: "Heading 4", H5: "Heading 5", H6: "Heading 6" }[b && b.tagName] || "Normal text";
    const label = $("[data-style-label]");
    if (label && label.textContent !== name) {
      label.textContent = name;
      label.closest("summary").setAttribute("aria-label", "Styles: " + name);
    }
  }

  const FREE = ["undo", "redo", "selectAll", "comment", "findReplace", "wordCount", "reviewSuggestions", "nameVersion", "versionHistory"];
  function suggesting(cmd) {
    // In Suggesting mode typing becomes suggestions (suggest.js); other changes are made in Editing mode.
    if (app.dataset.mode === "editing" || FREE.includes(cmd)) return false;
    flash(app.dataset.mode === "viewing" ? "Switch to Editing to change the document." : "Switch to Editing to change formatting.");
    return true;
  }
  function run(cmd) {
    if (suggesting(cmd)) return;
    if (cmd === "reviewSuggestions") return window.DocsEditor.review();
    if (cmd === "nameVersion" || cmd === "versionHistory") return window.DocsEditor[cmd]();
    if (cmd === "imageFromDrive") return openImages();
    if (cmd === "link") return openLinkDialog();
    if (cmd === "comment") return startComment();
    if (cmd === "findReplace") return openFindReplace();
    if (cmd === "wordCount") return wordCount();
    if (!editable && cmd !== "selectAll") return;
    restoreSelection();
    if (cmd === "pageBreak") document.execCommand("insertHTML", false, '<hr data-break="page"><p><br></p>');
    else if (cmd === "insertHorizontalRule") document.execCommand("insertHTML", false, "<hr><p><br></p>");
    else document.execCommand(cmd, false, null);
    if (cmd === "insertUnorderedList" || cmd === "insertOrderedList") unnestLists();
    reflect();
    schedule();
  }
  // Chromium puts a new list inside the empty <p> it was made from; lift it out so the page stays well formed.
  function unnestLists() {
    for (const list of $$("p > ul, p > ol", ed)) {
      const p = list.parentNode;
      const sel = getSelection();
      const range = sel.rangeCount ? sel.getRangeAt(0).cloneRange() : null;
      p.parentNode.insertBefore(list, p);
      if (!p.textContent.trim() && !p.querySelector("ul, ol")) p.remove();
      if (range) { sel.removeAllRanges(); sel.addRange(range); }
    }
  }
  function setBlock(tag) {
    if (!editable || suggesting("block")) return;
    restoreSelection();
    // Title and Subtitle are paragraphs with a style of their own (<p data-style>), as in Docs.
    const para = tag === "title" || tag === "subtitle";
    document.execCommand("formatBlock", false, para ? "p" : tag);
    const sel = getSelection();
    const b = sel.rangeCount && blockOf(sel.anchorNode);
    if (b && b.tagName !== "LI") { if (para) b.setAttribute("data-style", tag); else b.removeAttribute("data-style"); }
    reflect();
    schedule();
  }
  document.addEventListener("mousedown", (e) => {
    // Toolbar and menu clicks must not take the selection away from the page.
    if (e.target.closest(".doc-toolbar button, .doc-menus .menu-item, .doc-menus .tp-cell, .style-menu .menu-item, .table-menu button")) e.preventDefault();
  });
  document.addEventListener("click", (e) => {
    const c = e.target.closest("[data-cmd]");
    if (c && c.closest(".doc-app")) { e.preventDefault(); closeMenus(); run(c.dataset.cmd); return; }
    const b = e.target.closest("[data-block]");
    if (b && b.closest(".doc-app")) { e.preventDefault(); closeMenus(); setBlock(b.dataset.block); }
  });
  function closeMenus() { $$(".doc-app details.menu-wrap[open]").forEach((d) => d.removeAttribute("open")); }

  ed.addEventListener("keydown", (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (!mod) return;
    const k = e.key.toLowerCase();
    if (k === "k") { e.preventDefault(); run("link"); }
    else if (e.altKey && k === "m") { e.preventDefault(); run("comment"); }
    else if (e.altKey && ["0", "1", "2", "3"].includes(k)) { e.preventDefault(); setBlock(k === "0" ? "p" : "h" + k); }
    else if (e.shiftKey && (k === "8" || k === "*")) { e.preventDefault(); run("insertUnorderedList"); }
    else if (e.shiftKey && (k === "7" || k === "&")) { e.preventDefault(); run("insertOrderedList"); }
    else if (k === "y") { e.preventDefault(); run("redo"); }
    else if (k === "h") { e.preventDefault(); run("findReplace"); }
    else if (k === "s") { e.preventDefault(); if (timer) clearTimeout(timer); save(); }
    else if (k === "enter") { e.preventDefault(); run("pageBreak"); }
  });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.shiftKey && !e.altKey && e.key.toLowerCase() === "c") { e.preventDefault(); wordCount(); }
  });
  // Tools → Word count, as in Docs: words, characters and characters excluding spaces, of the selection
  // ("12 of 1,024") when there is one.
  function wordCount() {
    const all = ed.innerText || "", sel = getSelection();
    const part = sel.rangeCount && !sel.isCollapsed && ed.contains(sel.anchorNode) ? sel.toString() : null;
    const words = (t) => (t.match(/[\p{L}\p{N}][\p{L}\p{N}'’.,-]*/gu) || []).length;
    const chars = (t) => t.replace(/\n/g, "").length, nospace = (t) => t.replace(/\s/g, "").length;
    const fmt = (n) => n.toLocaleString("en-US");
    const row = (label, f) => `<tr><th scope="row">${label}</th><td>${part !== null ? fmt(f(part)) + " of " : ""}${fmt(f(all))}</td></tr>`;
    const d = document.createElement("dialog");
    d.className = "modal"; d.setAttribute("data-modal", ""); d.setAttribute("aria-labelledby", "wc-title");
    d.innerHTML = '<form method="dialog"><h2 id="wc-title">Word count</h2><table class="word-count">' +
      row("Words", words) + row("Characters", chars) + row("Characters excluding spaces", nospace) +
      '</table><div class="actions"><button class="btn btn-primary" value="ok">OK</button></div></form>';
    document.getElementById("modal").appendChild(d);
    d.addEventListener("close", () => { d.remove(); ed.focus(); });
    d.showModal();
  }
  // List autoformat, as in Docs: "* " or "- " at the start of a paragraph makes a bulleted list, "1. " a numbered one.
  ed.addEventListener("input", (e) => {
    if (!editable || e.inputType !== "insertText" || e.data !== " ") return;
    const sel = getSelection();
    if (!sel.rangeCount || !sel.isCollapsed) return;
    const b = blockOf(sel.anchorNode);
    if (!b || b.tagName !== "P") return;
    const marker = b.textContent.replace(/\u00a0/g, " ");
    const cmd = /^[*-] $/.test(marker) ? "insertUnorderedList" : /^1[.)] $/.test(marker) ? "insertOrderedList" : null;
    if (!cmd) return;
    const r = document.createRange(); r.selectNodeContents(b);
    sel.removeAllRanges(); sel.addRange(r);
    document.execCommand("delete", false, null);
    document.execCommand(cmd, false, null);
    unnestLists();
    reflect();
    schedule();
  });
  // Pasted content arrives as plain text: the document keeps its own formatting.
  ed.addEventListener("paste", (e) => {
    const text = e.clipboardData && e.clipboardData.getData("text/plain");
    if (text === undefined || text === null) return;
    e.preventDefault();
    document.execCommand("insertText", false, text);
  });

  /* ---------------------------------------------------------------- find (Ctrl+F) */
  // A find bar over the page, as in Docs: every match highlighted (CSS Custom Highlights, so the
  // document's own markup — and what autosave sends — is untouched), "2 of 5", Enter / Shift+Enter or
  // the arrows for the next and previous match, Escape back to the page with the match selected.
  let bar = null, found = [], at = -1;
  function rangesOf(q, matchCase) {
    const out = [];
    if (!q) return out;
    const nodes = [], starts = [];
    let full = "";
    const walk = document.createTreeWalker(ed, NodeFilter.SHOW_TEXT);
    let block = null;
    // The document's own text, as the server finds in it: suggested insertions are not in it yet, and a
    // match never runs from one paragraph (or table cell) into the next.
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.parentElement.closest("ins[data-suggestion]")) continue;
      const b = blockOf(n);
      if (b !== block) { if (block) full += "\u0000"; block = b; }
      nodes.push(n); starts.push(full.length); full += n.data;
    }
    const hay = matchCase ? full : full.toLowerCase(), needle = matchCase ? q : q.toLowerCase();
    const locate = (pos) => {           // (text node, offset) of a position in the joined text
      let i = starts.length - 1;
      while (i > 0 && starts[i] > pos) i--;
      return [nodes[i], pos - starts[i]];
    };
    for (let i = hay.indexOf(needle); i >= 0 && out.length < 1000; i = hay.indexOf(needle, i + needle.length)) {
      const r = document.createRange();
      const [sn, so] = locate(i), [en, eo] = locate(i + needle.length - 1);
      r.setStart(sn, so); r.setEnd(en, eo + 1);
      out.push(r);
    }
    return out;
  }
  function highlight(ranges, current) {
    if (!window.CSS || !CSS.highlights) return;
    CSS.highlights.set("doc-find", new Highlight(...ranges));
    if (current) CSS.highlights.set("doc-find-current", new Highlight(current)); else CSS.highlights.delete("doc-find-current");
  }
  function clearHighlights() { if (window.CSS && CSS.highlights) { CSS.highlights.delete("doc-find"); CSS.highlights.delete("doc-find-current"); } }
  function showFound() {
    const count = $(".find-count", bar);
    const q = $("input", bar).value;
    count.textContent = !q ? "" : found.length ? `${at + 1} of ${found.length}` : "No results";
    highlight(found, found[at]);
    if (found[at]) {
      const rect = found[at].getBoundingClientRect();
      if (rect.top < 120 || rect.bottom > innerHeight - 40) window.scrollBy({ top: rect.top - innerHeight / 3 });
    }
  }
  function refind() {
    found = rangesOf($("input", bar).value, false);
    at = found.length ? 0 : -1;
    showFound();
  }
  function step(d) { if (!found.length) return; at = (at + d + found.length) % found.length; showFound(); }
  function closeFind(select) {
    if (!bar) return;
    const r = found[at];
    bar.remove(); bar = null; found = []; at = -1; clearHighlights();
    ed.focus();
    if (select && r) { const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r); }
  }
  function openFind() {
    const seed = getSelection().toString().trim().slice(0, 200);
    if (!bar) {
      bar = document.createElement("div");
      bar.className = "find-bar popover"; bar.setAttribute("role", "search"); bar.setAttribute("aria-label", "Find in document");
      bar.innerHTML = '<input class="input" type="text" aria-label="Find in document" placeholder="Find in document" autocomplete="off">' +
        '<span class="find-count" role="status" aria-live="polite"></span>' +
        '<button type="button" class="icon-btn sm" data-find="-1" aria-label="Previous match" title="Previous (Shift+Enter)">↑</button>' +
        '<button type="button" class="icon-btn sm" data-find="1" aria-label="Next match" title="Next (Enter)">↓</button>' +
        '<button type="button" class="icon-btn sm" data-find="close" aria-label="Close find" title="Close (Esc)">✕</button>';
      document.body.appendChild(bar);
      const input = $("input", bar);
      input.addEventListener("input", refind);
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") { e.preventDefault(); step(e.shiftKey ? -1 : 1); }
        else if (e.key === "Escape") { e.preventDefault(); closeFind(true); }
        else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "f") { e.preventDefault(); input.select(); }
      });
      bar.addEventListener("click", (e) => {
        const b = e.target.closest("[data-find]");
        if (!b) return;
        if (b.dataset.find === "close") closeFind(false); else step(+b.dataset.find);
      });
    }
    const input = $("input", bar);
    if (seed) input.value = seed;
    input.focus(); input.select();
    refind();
  }
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "f") { e.preventDefault(); openFind(); }
  });
  ed.addEventListener("input", () => { if (bar) refind(); });

  /* ---------------------------------------------------------------- find and replace */
  // The server replaces (so formatting and comment anchors follow the text) after any pending save.
  function openFindReplace() {
    if (!editable) { flash("You can only view this document."); return; }
    if (app.dataset.mode !== "editing") { flash("Switch to Editing to replace text."); return; }
    const sel = getSelection();
    const seed = sel && ed.contains(sel.anchorNode) && !sel.isCollapsed ? sel.toString().split("\n")[0] : "";
    const d = document.createElement("dialog");
    d.className = "modal find-replace"; d.setAttribute("data-modal", ""); d.setAttribute("aria-labelledby", "fr-title");
    d.innerHTML = '<form><h2 id="fr-title">Find and replace</h2>' +
      '<label class="input-label" for="fr-find">Find</label><div class="fr-row"><input class="input" id="fr-find" name="find" autocomplete="off">' +
      '<button type="button" class="icon-btn sm" data-step="-1" aria-label="Previous match" title="Previous">↑</button>' +
      '<button type="button" class="icon-btn sm" data-step="1" aria-label="Next match" title="Next">↓</button></div>' +
      '<label class="input-label" for="fr-replace">Replace with</label><input class="input" id="fr-replace" name="replace" autocomplete="off">' +
      '<label class="radio-row"><input type="checkbox" name="match_case" value="1"> Match case</label>' +
      '<p class="sub" id="fr-count" role="status"></p>' +
      '<div class="actions"><button type="button" class="btn btn-text" data-close>Done</button>' +
      '<button type="button" class="btn btn-outline" data-replace="one">Replace</button>' +
      '<button type="button" class="btn btn-primary" data-replace="all">Replace all</button></div></form>';
    document.getElementById("modal").appendChild(d);
    d.showModal();
    const find = $("#fr-find", d), cs = $("[name=match_case]", d), countEl = $("#fr-count", d);
    find.value = seed; find.focus(); find.select();
    // Every match highlighted, the current one ("2 of 5") brighter; the arrows step through them and
    // Replace replaces the current one (the server is told which, by its place in the document).
    let ranges = [], cur = 0;
    const show = () => {
      if (!find.value) { countEl.textContent = ""; clearHighlights(); return; }
      cur = ranges.length ? Math.min(cur, ranges.length - 1) : 0;
      countEl.textContent = ranges.length ? `${cur + 1} of ${ranges.length}` : "No results";
      highlight(ranges, ranges[cur]);
      const r = ranges[cur];
      if (r) {
        const rect = r.getBoundingClientRect(), canvas = ed.closest(".doc-canvas");
        if (canvas && (rect.top < 120 || rect.bottom > innerHeight - 40)) canvas.scrollBy({ top: rect.top - innerHeight / 3 });
      }
    };
    const refresh = (keep) => { ranges = rangesOf(find.value, cs.checked); if (!keep) cur = 0; show(); };
    find.addEventListener("input", () => refresh(false)); cs.addEventListener("change", () => refresh(false)); refresh(false);
    d.addEventListener("close", () => { clearHighlights(); d.remove(); });
    find.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); step(e.shiftKey ? -1 : 1); } });
    function step(n) { if (!ranges.length) return; cur = (cur + n + ranges.length) % ranges.length; show(); }
    d.addEventListener("click", (e) => {
      const st = e.target.closest("[data-step]");
      if (st) { e.preventDefault(); step(+st.dataset.step); return; }
      const b = e.target.closest("[data-replace]");
      if (!b) return;
      e.preventDefault();
      if (!find.value) { countEl.textContent = "Enter the text to find."; return; }
      const one = b.dataset.replace === "one";
      if (one && !ranges.length) { countEl.textContent = "No results"; return; }
      const values = { find: find.value, replace: $("#fr-replace", d).value, all: one ? "0" : "1",
                       match_case: cs.checked ? "1" : "0" };
      if (one) values.occurrence = String(cur + 1);
      flush().then(() => htmx.ajax("POST", app.dataset.replaceUrl, { values, target: "#save-status", swap: "outerHTML" }))
        .then(() => refresh(true));
    });
    $("form", d).addEventListener("submit", (e) => { e.preventDefault(); step(1); });
  }

  /* ---------------------------------------------------------------- Insert → Image → Drive */
  function openImages() {
    if (!editable) return;
    keepSelection();
    htmx.ajax("GET", app.dataset.imagesUrl, { target: "#modal", swap: "beforeend" });
  }
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-insert-image]");
    if (!b) return;
    e.preventDefault();
    const d = b.closest("dialog");
    if (d) d.close();
    restoreSelection();
    const id = b.dataset.insertImage.replace(/\D/g, "");
    document.execCommand("insertHTML", false, `<p><img data-drive="${id}" src="/drive/file/${id}/raw" alt=""></p><p><br></p>`);
    schedule();
  });

  /* ---------------------------------------------------------------- links */
  function openLinkDialog() {
    if (!editable) return;
    keepSelection();
    const d = document.createElement("dialog");
    d.className = "modal"; d.setAttribute("data-modal", ""); d.setAttribute("aria-labelledby", "link-title");
    d.innerHTML = '<form method="dialog"><h2 id="link-title">Insert link</h2>' +
      '<label class="input-label" for="link-url">Link</label><input class="input" id="link-url" name="url" placeholder="https://" autocomplete="off">' +
      '<div class="field-error" id="link-error" role="alert" style="padding-left:0"></div>' +
      '<div class="actions"><button type="button" class="btn btn-text" data-close>Cancel</button><button type="submit" class="btn btn-primary">Apply</button></div></form>';
    document.getElementById("modal").appendChild(d);
    d.showModal();
    $("#link-url", d).focus();
    $("form", d).addEventListener("submit", (e) => {
      const url = $("#link-url", d).value.trim();
      if (!/^(https?:\/\/|mailto:)\S+$/i.test(url)) { e.preventDefault(); $("#link-error", d).textContent = "Enter a web address that starts with http:// or https://"; return; }
      d.close(); d.remove();
      restoreSelection();
      if (getSelection().isCollapsed) document.execCommand("insertHTML", false, `<a href="${url.replace(/"/g, "&quot;")}">${url.replace(/</g, "&lt;")}</a>`);
      else document.execCommand("createLink", false, url);
      schedule();
    });
  }

  /* ---------------------------------------------------------------- comments */
  let pending = null;
  function startComment() {
    keepSelection();
    if (!saved || saved.collapsed) { flash("Select the text you want to comment on."); return; }
    pending = saved.cloneRange();
    const card = document.getElementById("new-comment");
    card.hidden = false;
    $("textarea", card).value = "";
    $("textarea", card).focus();
  }
  function flash(msg) {
    const region = document.getElementById("toast-region");
    region.innerHTML = '<div class="toast" role="status" data-closable><span class="msg"></span></div>';
    region.querySelector(".msg").textContent = msg;
  }
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-cancel-comment]")) { document.getElementById("new-comment").hidden = true; pending = null; return; }
    if (!e.target.closest("[data-submit-comment]")) return;
    const text = $("#new-comment textarea").value.trim();
    if (!text) { flash("Write a comment first."); return; }
    if (!pending) { flash("Select the text you want to comment on."); return; }
    const html = markedHtml(pending);
    if (!html) { flash("Comments can cover text within one paragraph."); return; }
    htmx.ajax("POST", app.dataset.commentUrl, { values: { text, html }, target: "#comments-panel", swap: "outerHTML" });
    pending = null;
  });
  // The editor's HTML with the range wrapped in <span data-comment="new">, without touching the page.
  function markedHtml(range) {
    const start = blockOf(range.startContainer), end = blockOf(range.endContainer);
    if (!start || start !== end) return null;
    const clone = ed.cloneNode(true);
    const path = (node) => { const p = []; while (node !== ed) { p.unshift(Array.prototype.indexOf.call(node.parentNode.childNodes, node)); node = node.parentNode; } return p; };
    const find = (root, p) => p.reduce((n, i) => n.childNodes[i], root);
    const r = document.createRange();
    r.setStart(find(clone, path(range.startContainer)), range.startOffset);
    r.setEnd(find(clone, path(range.endContainer)), range.endOffset);
    const span = document.createElement("span");
    span.setAttribute("data-comment", "new");
    span.appendChild(r.extractContents());
    r.insertNode(span);
    return clone.innerHTML;
  }
  ed.addEventListener("click", (e) => {
    const anchor = e.target.closest("[data-comment]");
    $$(".comment-card.active").forEach((c) => c.classList.remove("active"));
    if (anchor) { const card = document.getElementById("comment-" + anchor.dataset.comment); if (card) { card.classList.add("active"); card.scrollIntoView({ block: "nearest" }); } }
  });
  window.DocsEditor = { app, ed, schedule, flush, flash, blockOf, restoreSelection, closeMenus, reflect, setBlock, review: () => {} };
})();
