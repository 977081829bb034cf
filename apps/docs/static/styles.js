/* Docs text styles from the toolbar and the Format menu, as in Google Docs: font, size (− 11 +), text and
   highlight colour, alignment; the toolbar shows the style where the caret is. The page's HTML carries
   them (<font>, <span style>, text-align) and the server keeps them as marks. */
(function () {
  "use strict";
  const D = window.DocsEditor;
  if (!D) return;
  const { app, ed } = D;
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const sizeBox = $(".size-box");
  const ok = () => {
    if (app.dataset.editable !== "1") return false;
    if (app.dataset.mode === "editing") return true;
    D.flash("Switch to Editing to change formatting.");
    return false;
  };
  function exec(cmd, value, css) {
    D.restoreSelection();
    document.execCommand("styleWithCSS", false, !!css);
    document.execCommand(cmd, false, value);
    document.execCommand("styleWithCSS", false, false);
  }
  function done() { D.closeMenus(); reflect(); D.schedule(); }

  function setFont(name) { if (!ok()) return; exec("fontName", name); done(); }
  function setSize(pt) {
    if (!ok()) return;
    pt = Math.max(1, Math.min(400, Math.round(pt)));
    D.restoreSelection();
    const sel = getSelection();
    if (!sel.rangeCount || sel.isCollapsed) { D.flash("Select the text to resize."); reflect(); return; }
    exec("fontSize", "7");
    for (const f of $$('font[size="7"]', ed)) { f.removeAttribute("size"); f.style.fontSize = pt + "pt"; }
    done();
  }
  function setColor(kind, hex) {
    if (!ok()) return;
    if (kind === "color") exec("foreColor", hex);
    else exec("hiliteColor", hex === "none" ? "transparent" : hex, true);
    done();
  }
  function align(cmd) { if (!ok()) return; exec(cmd); done(); }

  document.addEventListener("click", (e) => {
    const t = e.target.closest("[data-font], [data-size-step], [data-color], [data-highlight], [data-align]");
    if (!t || !t.closest(".doc-app")) return;
    e.preventDefault();
    if (t.dataset.font) setFont(t.dataset.font);
    else if (t.dataset.sizeStep) setSize(currentSize() + +t.dataset.sizeStep);
    else if (t.dataset.color) setColor("color", t.dataset.color);
    else if (t.dataset.highlight) setColor("highlight", t.dataset.highlight);
    else if (t.dataset.align) align(t.dataset.align);
  });
  document.addEventListener("mousedown", (e) => {
    if (e.target.closest(".font-menu .menu-item, .color-menu button, [data-align], [data-size-step]")) e.preventDefault();
  });
  if (sizeBox) {
    sizeBox.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      const n = parseFloat(sizeBox.value);
      if (!(n >= 1 && n <= 400)) { D.flash("Enter a font size from 1 to 400."); reflect(); return; }
      setSize(n);
    });
    sizeBox.addEventListener("focus", () => sizeBox.select());
  }
  ed.addEventListener("keydown", (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (!mod) return;
    const k = e.key.toLowerCase();
    if (e.shiftKey && !e.altKey) {
      const cmd = { l: "justifyLeft", e: "justifyCenter", r: "justifyRight", j: "justifyFull" }[k];
      if (cmd) { e.preventDefault(); align(cmd); return; }
      if (k === ">" || k === ".") { e.preventDefault(); setSize(currentSize() + 1); return; }
      if (k === "<" || k === ",") { e.preventDefault(); setSize(currentSize() - 1); return; }
    }
    if (e.altKey && !e.shiftKey && ["4", "5", "6"].includes(k)) { e.preventDefault(); D.setBlock("h" + k); }
  });

  /* ---------------------------------------------------------------- what the toolbar shows */
  function here() {
    const sel = getSelection();
    if (!sel.rangeCount || !ed.contains(sel.anchorNode)) return null;
    const n = sel.anchorNode;
    return n.nodeType === 1 ? n : n.parentElement;
  }
  function currentSize() {
    const el = here();
    const px = el ? parseFloat(getComputedStyle(el).fontSize) : 14.667;
    return Math.round(px * 0.75);
  }
  function reflect() {
    const el = here();
    if (!el) return;
    const cs = getComputedStyle(el);
    const fam = cs.fontFamily.split(",")[0].replace(/["']/g, "").trim();
    const label = $("[data-font-label]");
    if (label && label.textContent !== fam) { label.textContent = fam; label.closest("summary").setAttribute("aria-label", "Font: " + fam); }
    if (sizeBox && document.activeElement !== sizeBox) sizeBox.value = String(currentSize());
    const b = D.blockOf(el);
    const a = b ? getComputedStyle(b).textAlign : "left";
    const which = { center: "justifyCenter", right: "justifyRight", justify: "justifyFull" }[a] || "justifyLeft";
    $$(".doc-toolbar [data-align]").forEach((x) => x.setAttribute("aria-pressed", x.dataset.align === which ? "true" : "false"));
  }
  document.addEventListener("selectionchange", reflect);
  // Enter at the end of a Title or Subtitle goes on in Normal text, as in Docs (Chromium copies the attribute).
  ed.addEventListener("input", (e) => {
    if (e.inputType !== "insertParagraph") return;
    const el = here(), b = el && D.blockOf(el);
    if (b && b.hasAttribute("data-style") && !b.textContent) { b.removeAttribute("data-style"); D.reflect(); }
  });
})();
