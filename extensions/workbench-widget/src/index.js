// anywidget front end of the cuTile port workbench: Python kernel | Rust port | IR diff.
// Renders only from model state (so a notebook re-opened from saved widget state shows the
// same thing) and talks back with model.send({type: "save" | "action", ...}).
// The Rust pane's text is never replaced behind the user's back: unsaved edits are reported
// in `unsaved`, Draft asks first, and only a replacement the kernel announced (after keeping
// the unsaved text in .history/) replaces them.

import { coalescer, h } from "./dom.js";
import { lintLines, makeEditor, openAtLine, replaceDoc, scrollToLine, setLint, setWrap, showLinked } from "./editors.js";
import { flatFindings, linesIn } from "./findings.js";
import { HistoryView } from "./history.js";
import { IrDiffView } from "./irdiff.js";
import { PaneLayout } from "./layout.js";
import { LinkIndex, emptyLinks, sortedList } from "./linking.js";
import { ResultView } from "./results.js";
import { SassView } from "./sass.js";
import { SpecializeView } from "./specialize.js";
import { makeToolbar } from "./toolbar.js";

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
  const bar = makeToolbar({
    act: (name) => act(name), save: () => save(),
    setLayout: (mode) => layout.setMode(mode), setWrap: (on) => wrapLines(on),
    confirmDraft: () => send({ type: "action", name: "draft", text: rustText() }),
    exportTo: (to) => send({ type: "action", name: "export", to }),
  });
  const error = h("pre.wb-error", { "data-testid": "wb-error", role: "alert" });
  const resultView = new ResultView({ onReason: (x) => showReason(x), onDiagnostic: (d) => showDiagnostic(d) });

  const pyFile = h("span.wb-file");
  const rustFile = h("span.wb-file");
  const dirtyMark = h("span.wb-dirty", { title: "unsaved changes", text: "\u25cf unsaved" });
  const pyBody = h("div.wb-pane-body.wb-editor");
  const rustBody = h("div.wb-pane-body.wb-editor");
  const pyPane = h("section.wb-pane.wb-pane-python", { "data-testid": "wb-pane-python" },
    h("header.wb-pane-head", null, h("span.wb-pane-title", { text: "Python kernel" }), pyFile), pyBody);
  const rustPane = h("section.wb-pane.wb-pane-rust", { "data-testid": "wb-pane-rust" },
    h("header.wb-pane-head", null, h("span.wb-pane-title", { text: "Rust port" }), rustFile, dirtyMark), rustBody);

  const tabs = {};
  for (const [name, label] of [["ir", "IR diff"], ["sass", "SASS"], ["specialize", "JIT \u2192 AOT"], ["history", "History"]]) {
    tabs[name] = h("button.wb-tab", { type: "button", "data-testid": `wb-tab-${name}`, onClick: () => setTab(name) }, label);
  }
  const irView = new IrDiffView({
    onHover: (row, side) => hoverLinks(index.fromIrRow(row.left, row.right, { aligned: row.paired, side })),
    onLeave: () => hoverLinks(null),
    onClick: (row, side) => pin({ kind: "ir", left: row.left, right: row.right, paired: row.paired, side }),
    onFinding: (f) => pin({ kind: "finding", finding: f }, true),
  });
  const sassView = new SassView();
  const specView = new SpecializeView();
  const historyView = new HistoryView({
    refresh: () => send({ type: "history", op: "list" }),
    compare: (name) => send({ type: "history", op: "compare", name, text: rustText() }),
    restore: (name) => send({ type: "history", op: "restore", name, text: rustText() }),
  });
  const views = { ir: irView, sass: sassView, specialize: specView, history: historyView };
  const irBody = h("div.wb-pane-body.wb-ir-body", null, irView.el, sassView.el, specView.el, historyView.el);
  const irPane = h("section.wb-pane.wb-pane-ir", { "data-testid": "wb-pane-ir" },
    h("header.wb-pane-head.wb-tabs", null, ...Object.values(tabs)), irBody);

  const grid = h("div.wb-grid", null, pyPane, rustPane, irPane);
  const root = h("div.wb-root", null, bar.el, bar.confirm, bar.exportBar, error, resultView.el, grid);
  el.classList.add("wb-host");
  el.setAttribute("data-testid", "wb-root");
  el.replaceChildren(root);
  const layout = new PaneLayout(grid, { py: pyPane, rust: rustPane, ir: irPane }, (mode) => {
    el.setAttribute("data-layout", mode);
    root.dataset.layout = mode;
  }, root);
  root.append(layout.grip);
  bar.setLayoutChoice(layout.state.mode);
  bar.setWrapChoice(layout.state.wrap);

  // ---- editors ------------------------------------------------------------------------
  let savedRust = String(get(model, "rust_source", ""));
  const restored = String(get(model, "unsaved", ""));
  const pyView = makeEditor({
    parent: pyBody, doc: String(get(model, "python_source", "")), language: "python", readOnly: true,
    wrap: layout.state.wrap,
    onHover: (line) => hoverLinks(line === null ? null : index.fromSource("python", line)),
    onClick: (line) => pin({ kind: "python", line }),
  });
  const rustView = makeEditor({
    parent: rustBody, doc: restored && restored !== savedRust ? restored : savedRust, language: "rust",
    wrap: layout.state.wrap, placeholder: "No port yet: press Draft to draft one from the Python kernel.",
    onHover: (line) => hoverLinks(line === null ? null : index.fromSource("rust", line)),
    onClick: (line) => pin({ kind: "rust", line }),
    onSave: () => save(),
    onChange: () => { updateDirty(); renderVerdict(); reportUnsaved(); historyView.paneChanged(rustText()); },
  });
  // Keep JupyterLab's own shortcuts (Ctrl-S saves the notebook) out of the editors.
  rustView.dom.setAttribute("data-lm-suppress-shortcuts", "true");
  pyView.dom.setAttribute("data-lm-suppress-shortcuts", "true");
  irView.setWrap(layout.state.wrap);

  const rustText = () => rustView.state.doc.toString();
  const isDirty = () => rustText() !== savedRust;
  const busy = () => Boolean((get(model, "status", {}) || {}).busy);
  const send = (content) => model.send(content);

  function wrapLines(on) {
    layout.state.wrap = on;
    layout.save();
    setWrap(pyView, on);
    setWrap(rustView, on);
    irView.setWrap(on);
  }

  let stopOpening = () => {};  // the Python pane goes to the kernel until the user moves it
  let expectReplace = false;   // the kernel kept the pane's text and announced a replacement
  let pendingSave = false;     // Ctrl-S while another action ran: saved when it ends
  let previousSaved = savedRust;
  function act(name) {
    if (name === "draft") {
      // Draft replaces the pane: with unsaved edits, ask first (they are kept either way)
      if (isDirty()) bar.askDraft();
      else send({ type: "action", name: "draft", text: rustText() });
    } else if (name === "export") {
      bar.askExport(String(get(model, "export_to", "")));   // where to: asked in a bar
    } else if (name === "rebuild" && isDirty()) {
      // Rebuild builds what the pane shows: unsaved edits are saved first (old file kept)
      save();
    } else {
      send({ type: "action", name });
    }
  }
  function save() {
    if (busy()) {
      pendingSave = true;
      bar.note(`saves when ${(get(model, "status", {}) || {}).action || "the running action"} ends`);
      return;
    }
    const text = rustText();
    previousSaved = savedRust;
    send({ type: "save", text });
    savedRust = text;
    updateDirty();
    reportUnsaved(true);
  }
  function updateDirty() {
    const dirty = isDirty();
    dirtyMark.hidden = !dirty;
    root.classList.toggle("wb-dirty-state", dirty);
    el.setAttribute("data-dirty", String(dirty));
  }
  let unsavedTimer = null;
  function reportUnsaved(now = false) {
    clearTimeout(unsavedTimer);
    const push = () => {
      const value = isDirty() ? rustText() : "";
      if (value !== get(model, "unsaved", "")) {
        model.set("unsaved", value);
        model.save_changes();
      }
    };
    if (now) push();
    else unsavedTimer = setTimeout(push, 400);
  }
  const onCustom = (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "replace_rust") expectReplace = true;
    if (msg.type === "save_refused") {
      savedRust = previousSaved;
      pendingSave = true;
      updateDirty();
    }
  };
  model.on("msg:custom", onCustom);
  disposers.push(() => model.off("msg:custom", onCustom));

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
    stopOpening();        // the panes scroll to the links now, not to the kernel
    // bring the linked lines into view in the panes that were not clicked
    if (p.kind !== "python" && links.python.size) scrollToLine(pyView, Math.min(...links.python));
    if (p.kind !== "rust" && links.rust.size) scrollToLine(rustView, Math.min(...links.rust));
    if (p.kind !== "ir") { setTab("ir"); irView.scrollToLinks(links); }
  }
  function showReason(x) {
    const line = Number(x.line);
    if (x.pane !== "python" || !Number.isInteger(line)) return;
    pin({ kind: "python", line }, true);
    scrollToLine(pyView, line);
  }
  function showDiagnostic(d) {
    const line = Number(d.line);
    if (d.pane !== "rust" || !Number.isInteger(line) || line > rustView.state.doc.lines) return;
    const at = rustView.state.doc.line(line);
    rustView.dispatch({ selection: { anchor: Math.min(at.to, at.from + Math.max(0, (Number(d.column) || 1) - 1)) } });
    scrollToLine(rustView, line);
    rustView.focus();
  }
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && pinned) { pinned = null; hovered = null; apply(); }
  });

  // ---- model -> view ------------------------------------------------------------------
  let tab = "ir";
  function setTab(name) {
    tab = name;
    renderHistory();
    for (const [key, button] of Object.entries(tabs)) {
      button.classList.toggle("wb-active", key === tab);
      button.setAttribute("aria-selected", String(key === tab));
      views[key].el.hidden = key !== tab;
    }
    irPane.setAttribute("data-tab", tab);
    // SASS is compiled on demand (a few seconds per side), the first time the tab opens
    if (tab === "sass" && !get(model, "sass_summary", []).length && !busy() && get(model, "has_port", false)) {
      send({ type: "action", name: "sass" });
    }
    if (tab === "history") send({ type: "history", op: "list" });   // files change outside too
  }

  function renderFiles() {
    pyFile.textContent = get(model, "python_file", "");
    pyFile.title = pyFile.textContent;
    rustFile.textContent = get(model, "rust_file", "");
    rustFile.title = `${rustFile.textContent} (port folder ${get(model, "port_folder", "")})`;
  }
  function renderPython() {
    // a new file opens at its kernel, not at line 1 (the same file keeps its scroll)
    if (replaceDoc(pyView, String(get(model, "python_source", "")))) stopOpening = openAtLine(pyView, get(model, "kernel_line", 0));
  }
  function renderRust() {
    const incoming = String(get(model, "rust_source", ""));
    const text = rustText();
    // Replace the pane only when it holds nothing unsaved, or when the kernel kept it first.
    if (expectReplace || text === savedRust || text === incoming) replaceDoc(rustView, incoming);
    else bar.note("the file changed; your unsaved edits stay in the pane");
    expectReplace = false;
    savedRust = incoming;
    updateDirty();
    renderVerdict();
    reportUnsaved(true);
  }
  function emptyText() {
    if (get(model, "has_port", false)) return "No Tile IR yet \u2014 press Diff.";
    const r = get(model, "result", {}) || {};
    if (r.action === "draft" && !r.ok) return "No port: the draft stopped. Its reasons are listed above.";
    return "No port yet: press Draft to draft one from the Python kernel.";
  }
  function renderDiff() {
    const report = get(model, "diff", {}) || {};
    const files = { python: get(model, "python_file", ""), rust: get(model, "rust_file", "") };
    index = new LinkIndex({
      alignment: report.alignment || [],
      pyLines: linesIn(report.left_locations, files.python),
      rustLines: linesIn(report.right_locations, files.rust),
    });
    irView.render({
      irLeft: report.left_text || "", irRight: report.right_text || "",
      alignment: report.alignment || [], findings: flatFindings(report), files, emptyText: emptyText(),
    });
    hovered = null;
    apply();
    renderVerdict();
  }
  function renderVerdict() {
    const report = get(model, "diff", {}) || {};
    bar.showVerdict({ verdict: String(report.verdict || ""), hasPort: Boolean(get(model, "has_port", false)),
      stale: Boolean(report.verdict) && typeof report.rust_source === "string" && report.rust_source !== rustText() });
  }
  function renderStatus() {
    const s = get(model, "status", {}) || {};
    bar.showStatus(s, Boolean(get(model, "has_port", false)));
    error.textContent = s.error ? String(s.error) : "";
    error.hidden = !s.error;
    if (!s.busy && pendingSave) {
      pendingSave = false;
      if (isDirty()) save();
    }
  }
  function renderResult() {
    const r = get(model, "result", {}) || {};
    resultView.render(r);
    const diagnostics = (r.diagnostics || []).filter((d) => d.pane === "rust");
    setLint(rustView, diagnostics.map((d) => ({ ...d, severity: d.level === "warning" ? "warning" : "error", source: "rustc" })));
    setLint(pyView, (r.reasons || []).filter((x) => x.pane === "python").map((x) => ({
      line: x.line, severity: "warning", source: "drafter", message: `${x.construct}: ${x.message}`,
    })));
    if (!get(model, "has_port", false)) renderDiff();
  }
  function renderHistory() {
    if (tab !== "history") return;
    historyView.render({ versions: get(model, "history", []), folder: get(model, "port_folder", ""),
      diff: get(model, "history_diff", {}), paneText: rustText(), busy: busy(), hasPort: Boolean(get(model, "has_port", false)) });
  }
  function renderSass() {
    sassView.render({
      summary: get(model, "sass_summary", []),
      left: get(model, "sass_left", ""),
      right: get(model, "sass_right", ""),
    });
  }

  // Several traits usually change together: coalesce into one re-render per task.
  const schedule = coalescer();
  on("python_file rust_file port_folder", schedule(renderFiles));
  on("python_source", schedule(renderPython));
  on("rust_source", schedule(renderRust));
  on("diff python_file rust_file has_port", schedule(renderDiff));
  on("status has_port", schedule(renderStatus));
  on("result", schedule(renderResult));
  on("sass_left sass_right sass_summary", schedule(renderSass));
  on("specializations", schedule(() => specView.render(get(model, "specializations", []))));
  on("history history_diff port_folder status has_port", schedule(renderHistory));

  renderFiles();
  renderStatus();
  renderSass();
  specView.render(get(model, "specializations", []));
  renderResult();
  renderDiff();
  updateDirty();
  setTab("ir");
  layout.apply(true);
  stopOpening = openAtLine(pyView, get(model, "kernel_line", 0));

  // ---- debug / test API ----------------------------------------------------------------
  el.wbEditor = rustView;
  el.wbPythonEditor = pyView;
  el.wbLinkFrom = (pane, line) => pin({ kind: pane, line }, true);
  el.wbClearLinks = () => { pinned = null; hovered = null; apply(); };
  el.wbLint = () => ({ rust: lintLines(rustView), python: lintLines(pyView) });

  return () => {
    try {
      reportUnsaved(true);      // the kernel keeps what the pane held when the view goes
    } catch (_) { /* the model is already closed */ }
    for (const d of disposers) d();
    bar.stop();
    layout.destroy();
    pyView.destroy();
    rustView.destroy();
    for (const key of ["wbEditor", "wbPythonEditor", "wbLinkFrom", "wbClearLinks", "wbLint"]) delete el[key];
  };
}

export default { render };
