/* Docs suggesting mode, as in Google Docs (the pencil menu at the toolbar's right end): in Suggesting
   mode what is typed goes into <ins data-suggestion> and what is deleted is struck through in
   <del data-suggestion> instead of removed; autosave sends them and the server keeps them as suggestion
   records. The margin's cards accept or reject one; Tools → Review suggested edits does all. */
(function () {
  "use strict";
  const D = window.DocsEditor;
  if (!D) return;
  const { app, ed } = D;
  const me = app.dataset.user;
  let seq = 0;
  const newTag = () => `t${app.dataset.tagBase}-${++seq}`;

  /* ---------------------------------------------------------------- the mode menu */
  function setMode(mode) {
    app.dataset.mode = mode;
    const names = { editing: "Editing", suggesting: "Suggesting", viewing: "Viewing" };
    const label = app.querySelector("[data-mode-label]");
    if (label) { label.textContent = names[mode]; label.closest("summary").setAttribute("aria-label", "Mode: " + names[mode]); }
    app.querySelectorAll("button[data-mode]").forEach((b) => b.setAttribute("aria-checked", b.dataset.mode === mode ? "true" : "false"));
    if (app.dataset.editable === "1") ed.setAttribute("contenteditable", mode === "viewing" ? "false" : "true");
  }
  document.addEventListener("click", (e) => {
    const b = e.target.closest(".doc-app button[data-mode]");
    if (!b) return;
    e.preventDefault();
    D.closeMenus();
    setMode(b.dataset.mode);
    ed.focus();
  });
  // Ctrl+Alt+Shift+X: Suggesting, Ctrl+Alt+Shift+Z: Editing (Docs' own shortcuts).
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey && e.altKey && e.shiftKey)) return;
    const k = e.key.toLowerCase();
    if (k === "x" && app.dataset.editable === "1") { e.preventDefault(); setMode("suggesting"); }
    else if (k === "z" && app.querySelector('.mode-menu button[data-mode="editing"]')) { e.preventDefault(); setMode("editing"); }
  });

  /* ---------------------------------------------------------------- helpers */
  function sugOf(node, tag) {
    while (node && node !== ed) {
      if (node.nodeType === 1 && node.tagName === tag && node.hasAttribute("data-suggestion")) return node;
      node = node.parentNode;
    }
    return null;
  }
  const mine = (el) => el && el.dataset.author === me;
  function caretAt(node, offset) {
    const r = document.createRange(); r.setStart(node, offset); r.collapse(true);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r);
  }
  function makeSug(tag, id) {
    const el = document.createElement(tag);
    el.setAttribute("data-suggestion", id || newTag());
    el.setAttribute("data-author", me);
    return el;
  }
  // The text node next to ``node`` in reading order, within the same block.
  function textNeighbour(node, forward) {
    const block = D.blockOf(node);
    if (!block) return null;
    const w = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    w.currentNode = node;
    for (let n = forward ? w.nextNode() : w.previousNode(); n; n = forward ? w.nextNode() : w.previousNode()) {
      if (n.data.length) return n;
    }
    return null;
  }
  // Split the element ``el`` at the range's start; returns the range between the halves.
  function splitAt(el, r) {
    const tail = document.createRange();
    tail.setStart(r.startContainer, r.startOffset);
    tail.setEndAfter(el.lastChild || el);
    const after = el.cloneNode(false);
    after.appendChild(tail.extractContents());
    el.after(after);
    for (const x of [el, after]) if (!x.textContent) x.remove();
    const at = document.createRange();
    if (el.isConnected) at.setStartAfter(el); else if (after.isConnected) at.setStartBefore(after); else at.setStart(r.startContainer, r.startOffset);
    at.collapse(true);
    return at;
  }

  /* ---------------------------------------------------------------- suggesting an insertion */
  function suggestInsert(text) {
    const sel = getSelection();
    if (!sel.rangeCount || !ed.contains(sel.anchorNode)) return;
    if (!sel.isCollapsed) suggestDelete("deleteContent");
    let r = sel.getRangeAt(0);
    let host = sugOf(r.startContainer, "INS");
    if (host && !mine(host)) { r = document.createRange(); r.setStartAfter(host); r.collapse(true); host = null; }
    const del = sugOf(r.startContainer, "DEL");
    if (del) r = splitAt(del, r);
    if (!host) {                                 // right after (or before) an insertion of mine: carry on in it
      const c = r.startContainer, o = r.startOffset;
      const prev = c.nodeType === 3 ? (o === 0 ? c.previousSibling : null) : c.childNodes[o - 1];
      const next = c.nodeType === 3 ? (o === c.length ? c.nextSibling : null) : c.childNodes[o];
      const fit = (n) => n && n.nodeType === 1 && n.tagName === "INS" && n.hasAttribute("data-suggestion") && mine(n);
      if (fit(prev)) { host = prev; r = document.createRange(); r.selectNodeContents(prev); r.collapse(false); }
      else if (fit(next)) { host = next; r = document.createRange(); r.selectNodeContents(next); r.collapse(true); }
    }
    if (!host) {
      host = makeSug("ins");
      r.insertNode(host);
      r = document.createRange(); r.selectNodeContents(host); r.collapse(true);
    }
    if (text === "\n") {
      const br = document.createElement("br");
      r.insertNode(br);
      if (!br.nextSibling && !host.nextSibling) host.after(document.createElement("br"));   // a line to stand on
      const at = document.createRange(); at.setStartAfter(br); at.collapse(true);
      sel.removeAllRanges(); sel.addRange(at);
      return;
    }
    let node = r.startContainer, off = r.startOffset;
    if (node.nodeType !== 3) {
      const t = document.createTextNode("");
      node.insertBefore(t, node.childNodes[off] || null);
      node = t; off = 0;
    }
    node.insertData(off, text);
    caretAt(node, off + text.length);
  }

  /* ---------------------------------------------------------------- suggesting a deletion */
  function suggestDelete(type) {
    const sel = getSelection();
    if (!sel.rangeCount || !ed.contains(sel.anchorNode)) return;
    const back = !/Forward/.test(type);
    if (sel.isCollapsed) {
      const unit = /Word/.test(type) ? "word" : /Line/.test(type) ? "lineboundary" : "character";
      sel.modify("extend", back ? "backward" : "forward", unit);
      if (sel.isCollapsed) return;
    }
    const r = sel.getRangeAt(0);
    if (D.blockOf(r.startContainer) !== D.blockOf(r.endContainer) && r.toString().replace(/\s/g, "") === "") {
      // Joining paragraphs is not suggested: the caret just moves.
      sel.collapse(back ? r.startContainer : r.endContainer, back ? r.startOffset : r.endOffset);
      return;
    }
    const nodes = [];
    const w = document.createTreeWalker(r.commonAncestorContainer.nodeType === 3 ? r.commonAncestorContainer.parentNode : r.commonAncestorContainer, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) if (r.intersectsNode(n)) nodes.push(n);
    const pieces = [];
    for (let n of nodes) {
      const s = n === r.startContainer ? r.startOffset : 0, e = n === r.endContainer ? r.endOffset : n.length;
      if (e <= s) continue;
      if (e < n.length) n.splitText(e);
      if (s > 0) n = n.splitText(s);
      pieces.push(n);
    }
    let first = null, last = null;
    for (const p of pieces) {
      if (!ed.contains(p)) continue;
      const ins = sugOf(p, "INS");
      if (ins) {
        if (mine(ins)) {                         // taking back what I suggested: it just goes
          const before = document.createRange(); before.setStartBefore(p); before.collapse(true);
          p.remove();
          if (!ins.textContent) { before.setStartBefore(ins); ins.remove(); }
          first = first || before; last = before;
        }
        continue;                                 // someone else's suggestion stays theirs
      }
      let del = sugOf(p, "DEL");
      if (!del) {
        const prev = p.previousSibling, next = p.nextSibling;
        const fit = (n) => n && n.nodeType === 1 && n.tagName === "DEL" && n.hasAttribute("data-suggestion") && mine(n);
        if (fit(prev)) { prev.appendChild(p); del = prev; }
        else if (fit(next)) { next.insertBefore(p, next.firstChild); del = next; }
        else {
          // A deletion of mine touching this one across formatting keeps its id, so the server sees one.
          const near = [textNeighbour(p, false), textNeighbour(p, true)].map((t) => t && sugOf(t, "DEL")).find(fit);
          del = makeSug("del", near && near.getAttribute("data-suggestion"));
          p.before(del); del.appendChild(p);
        }
      }
      const a = document.createRange(); a.setStartBefore(del.contains(p) ? p : del); a.collapse(true);
      const z = document.createRange(); z.setStartAfter(del.contains(p) ? p : del); z.collapse(true);
      first = first || a; last = z;
    }
    const at = back ? first : last;
    if (!at) return;
    // Outside the struck text, so the next key acts on the text beside it.
    const d = sugOf(at.startContainer, "DEL");
    if (d && back && at.startContainer === d && at.startOffset === 0) at.setStartBefore(d);
    if (d && !back && at.startContainer === d && at.startOffset === d.childNodes.length) at.setStartAfter(d);
    at.collapse(true);
    sel.removeAllRanges(); sel.addRange(at);
  }

  /* ---------------------------------------------------------------- the keyboard */
  ed.addEventListener("beforeinput", (e) => {
    const mode = app.dataset.mode, t = e.inputType;
    if (mode === "viewing") { e.preventDefault(); return; }
    if (mode !== "suggesting") return editingNextTo(e);
    if (t === "insertText" || t === "insertReplacementText" || t === "insertFromPaste" || t === "insertFromDrop") {
      e.preventDefault();
      const text = e.data != null ? e.data : e.dataTransfer ? e.dataTransfer.getData("text/plain") : "";
      if (text) suggestInsert(text.replace(/\r/g, ""));
    } else if (t.startsWith("delete")) {
      e.preventDefault();
      suggestDelete(t);
    } else if (t === "insertParagraph" || t === "insertLineBreak") {
      e.preventDefault();
      suggestInsert("\n");
    } else {
      e.preventDefault();
      D.flash(t.startsWith("history") ? "In Suggesting mode, take back a suggestion with its card's ✕ (or Backspace over your own text)."
        : "Switch to Editing to change formatting.");
      return;
    }
    D.schedule();
  });
  ed.addEventListener("paste", (e) => {
    if (app.dataset.mode !== "suggesting") return;
    e.preventDefault(); e.stopImmediatePropagation();
    const text = e.clipboardData && e.clipboardData.getData("text/plain");
    if (text) { suggestInsert(text.replace(/\r/g, "")); D.schedule(); }
  }, true);
  // In Editing mode, text typed at the edge of a suggestion is the document's own, not the suggestion's.
  function editingNextTo(e) {
    if (e.inputType !== "insertText" || !e.data) return;
    const sel = getSelection();
    if (!sel.rangeCount || !sel.isCollapsed) return;
    const c = sel.anchorNode, o = sel.anchorOffset;
    const s = sugOf(c, "INS") || sugOf(c, "DEL");
    if (!s) return;
    const probe = document.createRange(); probe.selectNodeContents(s);
    const atEnd = probe.comparePoint(c, o) === 0 && (() => { probe.setStart(c, o); return probe.toString() === ""; })();
    const probe2 = document.createRange(); probe2.selectNodeContents(s); probe2.setEnd(c, o);
    const atStart = probe2.toString() === "";
    if (!atEnd && !atStart) return;
    e.preventDefault();
    const t = document.createTextNode(e.data);
    if (atEnd) s.after(t); else s.before(t);
    caretAt(t, t.length);
    D.schedule();
  }

  /* ---------------------------------------------------------------- ids, cards, review */
  // A saved suggestion's new id replaces the page's tag for it.
  document.body.addEventListener("docs-suggestions", (e) => {
    const map = (e.detail && e.detail.map) || {};
    for (const [tag, id] of Object.entries(map)) {
      ed.querySelectorAll(`[data-suggestion="${CSS.escape(tag)}"]`).forEach((el) => el.setAttribute("data-suggestion", String(id)));
    }
  });
  // Accept / reject after any pending save, so the server decides on what the page shows.
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-review]");
    if (!b) return;
    e.preventDefault();
    const url = b.dataset.review;
    const dlg = b.closest("dialog");
    if (dlg) dlg.close();
    const values = b.dataset.with ? { with: b.dataset.with } : {};
    D.flush().then(() => htmx.ajax("POST", url, { values, target: "#suggestions-panel", swap: "outerHTML" }));
  });
  ed.addEventListener("click", (e) => {
    const s = e.target.closest("[data-suggestion]");
    document.querySelectorAll(".suggestion-card.active").forEach((c) => c.classList.remove("active"));
    const card = s && document.querySelector(`.suggestion-card[data-suggestion-ids~="${CSS.escape(s.dataset.suggestion)}"]`);
    if (card) { card.classList.add("active"); card.scrollIntoView({ block: "nearest" }); }
  });
  // Tools → Review suggested edits: how many there are, accept all or reject all.
  D.review = function () {
    D.flush().then(() => {
      const panel = document.getElementById("suggestions-panel");
      const n = +(panel && panel.dataset.count || 0);
      const all = (verb) => { const b = panel && panel.querySelector(`.review-all [data-review$="/${verb}-all"]`); return b ? b.dataset.review : ""; };
      const d = document.createElement("dialog");
      d.className = "modal"; d.setAttribute("data-modal", ""); d.setAttribute("aria-labelledby", "rv-title");
      d.innerHTML = '<form method="dialog"><h2 id="rv-title">Review suggested edits</h2><p class="sub" role="status"></p>' +
        '<div class="actions"><button class="btn btn-text" value="close">Close</button></div></form>';
      d.querySelector("[role=status]").textContent = n ? `${n} suggested edit${n === 1 ? "" : "s"}` : "No suggested edits";
      const actions = d.querySelector(".actions");
      for (const [verb, label] of [["reject", "Reject all"], ["accept", "Accept all"]]) {
        const url = all(verb);
        if (!url) continue;
        const b = document.createElement("button");
        b.type = "button"; b.className = verb === "accept" ? "btn btn-primary" : "btn btn-outline";
        b.textContent = label; b.dataset.review = url;
        actions.appendChild(b);
      }
      document.getElementById("modal").appendChild(d);
      d.addEventListener("close", () => d.remove());
      d.showModal();
    });
  };
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey && e.altKey && !e.shiftKey && e.key.toLowerCase() === "u") { e.preventDefault(); D.review(); }
  });
})();
