// anywidget front end of the cuTile port workbench: Python kernel | Rust port | IR diff.
// Renders only from model state (so a notebook re-opened from saved widget state shows the
// same thing) and talks back with model.send({type: "save" | "action", ...}).

import { h } from "./dom.js";
import { makeEditor, replaceDoc, scrollToLine, showLinked } from "./editors.js";
import { IrDiffView } from "./irdiff.js";
import { LinkIndex, emptyLinks, sortedList } from "./linking.js";
import { SassView } from "./sass.js";
import { SpecializeView } from "./specialize.js";

const ACTIONS = [
  ["draft", "Draft", "Draft a Rust port from the Python kernel"],
  ["rebuild", "Rebuild", "Build the Rust port"],
  ["diff", "Diff", "Diff the Tile IR of both sides"],
  ["check", "Check", "Run both kernels and compare outputs"],
  ["bench", "Bench", "Time both kernels"],
];
const VERDICT_CLASS = { PASS: "pass", PASS_WITH_NOTES: "notes", FAIL: "fail" };

function get(model, name, fallback) {
  const value = model.get(name);
  return value === undefined || value === null ? fallback : value;
}

function render({ model, el }) {
  const disposers = [];
  const on = (names, fn) => {
    for (const name of names.split(" ")) {
      model.on(`change:${name}`, fn);
      disposers.push(() => model.off(`change:${name}`, fn));
    }
  };

  // ---- layout -------------------------------------------------------------------------
  const buttons = {};
  for (const [name, label, title] of ACTIONS) {
    buttons[name] = h("button.wb-btn", {
      type: "button", title, "data-testid": `wb-btn-${name}`,
      onClick: () => act(name),
    }, label);
  }
  buttons.save = h("button.wb-btn.wb-btn-save", {
    type: "button", title: "Save the Rust port (Ctrl-S / Cmd-S in the editor)",
    "data-testid": "wb-btn-save", onClick: () => save(),
  }, "Save");

  const spinner = h("span.wb-spinner", { "aria-hidden": "true" });
  const statusText = h("span.wb-status-text");
  const progressFill = h("span.wb-progress-fill");
  const progress = h("span.wb-progress", { role: "progressbar" }, progressFill);
  const status = h("div.wb-status", { "data-testid": "wb-status", "aria-live": "polite" },
    spinner, statusText, progress);
  const verdict = h("span.wb-verdict", { "data-testid": "wb-verdict" });
  const toolbar = h("div.wb-toolbar", null,
    ...ACTIONS.map(([name]) => buttons[name]), h("span.wb-sep"), buttons.save,
    status, h("span.wb-spacer"), verdict);
  const error = h("pre.wb-error", { "data-testid": "wb-error", role: "alert" });

  const pyFile = h("span.wb-file");
  const rustFile = h("span.wb-file");
  const dirtyMark = h("span.wb-dirty", { title: "unsaved changes", text: "\u25cf unsaved" });
  const pyBody = h("div.wb-pane-body.wb-editor");
  const rustBody = h("div.wb-pane-body.wb-editor");
  const pyPane = h("section.wb-pane.wb-pane-python", { "data-testid": "wb-pane-python" },
    h("header.wb-pane-head", null, h("span.wb-pane-title", { text: "Python kernel" }), pyFile), pyBody);
  const rustPane = h("section.wb-pane.wb-pane-rust", { "data-testid": "wb-pane-rust" },
    h("header.wb-pane-head", null, h("span.wb-pane-title", { text: "Rust port" }), rustFile, dirtyMark), rustBody);

  const tabIr = h("button.wb-tab", { type: "button", "data-testid": "wb-tab-ir", onClick: () => setTab("ir") }, "IR diff");
  const tabSass = h("button.wb-tab", { type: "button", "data-testid": "wb-tab-sass", onClick: () => setTab("sass") }, "SASS");
  const tabSpec = h("button.wb-tab", { type: "button", "data-testid": "wb-tab-specialize", onClick: () => setTab("specialize") }, "JIT \u2192 AOT");
  const irView = new IrDiffView({
    onHover: (row, side) => hoverLinks(index.fromIrRow(row.left, row.right, { aligned: row.paired, side })),
    onLeave: () => hoverLinks(null),
    onClick: (row, side) => pin({ kind: "ir", left: row.left, right: row.right, paired: row.paired, side }),
    onFinding: (f) => pin({ kind: "finding", finding: f }, true),
  });
  const sassView = new SassView();
  const specView = new SpecializeView();
  const irBody = h("div.wb-pane-body.wb-ir-body", null, irView.el, sassView.el, specView.el);
  const irPane = h("section.wb-pane.wb-pane-ir", { "data-testid": "wb-pane-ir" },
    h("header.wb-pane-head.wb-tabs", null, tabIr, tabSass, tabSpec), irBody);

  const grid = h("div.wb-grid", null, pyPane, rustPane, irPane);
  const root = h("div.wb-root", null, toolbar, error, grid);
  el.classList.add("wb-host");
  el.setAttribute("data-testid", "wb-root");
  el.replaceChildren(root);

  // ---- editors ------------------------------------------------------------------------
  let savedRust = String(get(model, "rust_source", ""));
  const pyView = makeEditor({
    parent: pyBody, doc: String(get(model, "python_source", "")), language: "python", readOnly: true,
    onHover: (line) => hoverLinks(line === null ? null : index.fromSource("python", line)),
    onClick: (line) => pin({ kind: "python", line }),
  });
  const rustView = makeEditor({
    parent: rustBody, doc: savedRust, language: "rust",
    onHover: (line) => hoverLinks(line === null ? null : index.fromSource("rust", line)),
    onClick: (line) => pin({ kind: "rust", line }),
    onSave: () => save(),
    onChange: () => updateDirty(),
  });
  // Keep JupyterLab's own shortcuts (Ctrl-S saves the notebook) out of the Rust editor.
  rustView.dom.setAttribute("data-lm-suppress-shortcuts", "true");
  pyView.dom.setAttribute("data-lm-suppress-shortcuts", "true");

  function act(name) {
    // Rebuild builds what the Rust pane shows: unsaved edits are saved first (the old file
    // is kept), which also rebuilds and re-diffs.
    if (name === "rebuild" && rustView.state.doc.toString() !== savedRust) save();
    else model.send({ type: "action", name });
  }
  function save() {
    const text = rustView.state.doc.toString();
    model.send({ type: "save", text });
    savedRust = text;
    updateDirty();
  }
  function updateDirty() {
    const dirty = rustView.state.doc.toString() !== savedRust;
    dirtyMark.hidden = !dirty;
    root.classList.toggle("wb-dirty-state", dirty);
  }

  // ---- linking ------------------------------------------------------------------------
  let index = new LinkIndex({ alignment: [], pyLines: {}, rustLines: {} });
  let hovered = null;
  let pinned = null; // {kind, ...} — recomputed whenever the data changes

  function linksOf(p) {
    if (!p) return null;
    if (p.kind === "python" || p.kind === "rust") return index.fromSource(p.kind, p.line);
    if (p.kind === "ir") return index.fromIrRow(p.left, p.right, { aligned: p.paired, side: p.side });
    if (p.kind === "finding") return index.fromFinding(p.finding);
    return null;
  }
  function samePin(a, b) {
    return a && b && a.kind === b.kind && a.line === b.line && a.left === b.left &&
      a.right === b.right && a.finding === b.finding && a.side === b.side;
  }
  function apply() {
    const links = hovered || linksOf(pinned) || emptyLinks();
    const o = links.origin || {};
    showLinked(pyView, links.python, o.pane === "python" ? o.line : null);
    showLinked(rustView, links.rust, o.pane === "rust" ? o.line : null);
    irView.showLinks(links);
    el.setAttribute("data-linked-python", sortedList(links.python).join(","));
    el.setAttribute("data-linked-ir-left", sortedList(links.left).join(","));
    el.setAttribute("data-linked-ir-right", sortedList(links.right).join(","));
    el.setAttribute("data-linked-rust", sortedList(links.rust).join(","));
    el.setAttribute("data-linked-pinned", pinned && !hovered ? "true" : "false");
    return links;
  }
  function hoverLinks(links) {
    hovered = links;
    apply();
  }
  function pin(p, force = false) {
    pinned = !force && samePin(p, pinned) ? null : p;
    hovered = null;
    const links = apply();
    if (!pinned) return;
    // bring the linked lines into view in the panes that were not clicked
    if (p.kind !== "python" && links.python.size) scrollToLine(pyView, Math.min(...links.python));
    if (p.kind !== "rust" && links.rust.size) scrollToLine(rustView, Math.min(...links.rust));
    if (p.kind !== "ir") { setTab("ir"); irView.scrollToLinks(links); }
  }
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && pinned) { pinned = null; hovered = null; apply(); }
  });

  // ---- model -> view ------------------------------------------------------------------
  let tab = "ir";
  function setTab(name) {
    tab = name;
    tabIr.classList.toggle("wb-active", tab === "ir");
    tabSass.classList.toggle("wb-active", tab === "sass");
    tabSpec.classList.toggle("wb-active", tab === "specialize");
    tabIr.setAttribute("aria-selected", String(tab === "ir"));
    tabSass.setAttribute("aria-selected", String(tab === "sass"));
    irView.el.hidden = tab !== "ir";
    sassView.el.hidden = tab !== "sass";
    specView.el.hidden = tab !== "specialize";
    irPane.setAttribute("data-tab", tab);
    // SASS is compiled on demand (a few seconds per side), the first time the tab opens
    const busy = (get(model, "status", {}) || {}).busy;
    if (tab === "sass" && !get(model, "sass_summary", []).length && !busy) {
      model.send({ type: "action", name: "sass" });
    }
  }

  function renderFiles() {
    pyFile.textContent = get(model, "python_file", "");
    pyFile.title = pyFile.textContent;
    rustFile.textContent = get(model, "rust_file", "");
    rustFile.title = rustFile.textContent;
  }
  function renderPython() {
    replaceDoc(pyView, String(get(model, "python_source", "")));
  }
  function renderRust() {
    savedRust = String(get(model, "rust_source", ""));
    replaceDoc(rustView, savedRust);
    updateDirty();
  }
  function renderDiff() {
    index = new LinkIndex({
      alignment: get(model, "alignment", []),
      pyLines: get(model, "py_lines", {}),
      rustLines: get(model, "rust_lines", {}),
    });
    irView.render({
      irLeft: get(model, "ir_left", ""),
      irRight: get(model, "ir_right", ""),
      alignment: get(model, "alignment", []),
      findings: get(model, "findings", []),
      files: { python: get(model, "python_file", ""), rust: get(model, "rust_file", "") },
    });
    hovered = null;
    apply();
  }
  function renderVerdict() {
    const v = String(get(model, "verdict", ""));
    verdict.textContent = v ? v.replace(/_/g, " ") : "not diffed";
    verdict.className = `wb-verdict wb-verdict-${VERDICT_CLASS[v] || "none"}`;
    verdict.setAttribute("data-verdict", v);
    verdict.title = v ? `Tile IR verdict: ${v}` : "no diff yet";
  }
  function renderStatus() {
    const s = get(model, "status", {}) || {};
    const busy = Boolean(s.busy);
    const message = s.message || (busy && s.action ? `${s.action}\u2026` : "");
    for (const b of Object.values(buttons)) b.disabled = busy;
    for (const [name, b] of Object.entries(buttons)) b.classList.toggle("wb-running", busy && s.action === name);
    status.classList.toggle("wb-busy", busy);
    status.setAttribute("data-busy", String(busy));
    status.setAttribute("data-action", s.action || "");
    statusText.textContent = message;
    const p = Number(s.progress);
    const determinate = busy && Number.isFinite(p) && p > 0;
    progress.hidden = !busy;
    progress.classList.toggle("wb-indeterminate", busy && !determinate);
    progressFill.style.width = determinate ? `${Math.round(Math.min(1, p) * 100)}%` : "";
    if (determinate) progress.setAttribute("aria-valuenow", String(Math.round(p * 100)));
    else progress.removeAttribute("aria-valuenow");
    const err = s.error ? String(s.error) : "";
    error.textContent = err;
    error.hidden = !err;
  }
  function renderSass() {
    sassView.render({
      summary: get(model, "sass_summary", []),
      left: get(model, "sass_left", ""),
      right: get(model, "sass_right", ""),
    });
  }

  // Several traits usually change together (one diff sets ir_left, ir_right, alignment, ...):
  // coalesce into one re-render per task.
  const pending = new Set();
  let scheduled = false;
  const schedule = (fn) => () => {
    pending.add(fn);
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      const fns = [...pending];
      pending.clear();
      for (const f of fns) f();
    });
  };
  on("python_file rust_file", schedule(renderFiles));
  on("python_source", schedule(renderPython));
  on("rust_source", schedule(renderRust));
  on("ir_left ir_right alignment py_lines rust_lines findings python_file", schedule(renderDiff));
  on("verdict", schedule(renderVerdict));
  on("status", schedule(renderStatus));
  on("sass_left sass_right sass_summary", schedule(renderSass));
  on("specializations", schedule(() => specView.render(get(model, "specializations", []))));

  renderFiles();
  renderVerdict();
  renderStatus();
  renderSass();
  specView.render(get(model, "specializations", []));
  specView.el.hidden = true;
  renderDiff();
  updateDirty();
  setTab("ir");

  // ---- debug / test API ----------------------------------------------------------------
  el.wbEditor = rustView;
  el.wbPythonEditor = pyView;
  el.wbLinkFrom = (pane, line) => pin({ kind: pane, line }, true);
  el.wbClearLinks = () => { pinned = null; hovered = null; apply(); };

  return () => {
    for (const d of disposers) d();
    pyView.destroy();
    rustView.destroy();
    for (const key of ["wbEditor", "wbPythonEditor", "wbLinkFrom", "wbClearLinks"]) delete el[key];
  };
}

export default { render };

