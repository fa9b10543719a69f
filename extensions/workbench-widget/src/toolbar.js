// The toolbar: the actions, Save, the status line with its progress bar and the running
// action's elapsed time, the layout and wrap switches and the verdict badge; the bar
// that asks before Draft replaces edits, and the one that asks where Export writes the
// port's crate.

import { h } from "./dom.js";

const ACTIONS = [
  ["draft", "Draft", "Draft a Rust port from the Python kernel (your unsaved edits are kept in .history/)"],
  ["rebuild", "Rebuild", "Build the Rust port (with the pane's unsaved edits: saves them first)"],
  ["diff", "Diff", "Diff the Tile IR of both sides"],
  ["check", "Check", "Run both kernels and compare outputs (needs a GPU)"],
  ["bench", "Bench", "Time both kernels (needs a GPU)"],
  ["tune", "Tune", "Sweep the port's tile sizes and hints for this case on a GPU; keep the fastest correct one (tuned.toml)"],
  ["toolchains", "Toolchains", "Compile both sides of this case with two installed tileiras versions and say what changes (workbench toolchain install VERSION adds one)"],
  ["export", "Export", "Write the port as a crate of its own that builds outside this checkout (asks for the folder)"],
];
const NEEDS_PORT = new Set(["rebuild", "diff", "check", "bench", "tune", "toolchains", "export", "save"]);
const VERDICT_CLASS = { PASS: "pass", PASS_WITH_NOTES: "notes", FAIL: "fail" };

export function makeToolbar(cb) {
  const buttons = {};
  for (const [name, label, title] of ACTIONS) {
    buttons[name] = h("button.wb-btn", { type: "button", title, "data-testid": `wb-btn-${name}`,
      onClick: () => cb.act(name) }, label);
  }
  buttons.save = h("button.wb-btn.wb-btn-save", {
    type: "button", title: "Save the Rust port, rebuild and re-diff (Ctrl-S / Cmd-S in the editor)",
    "data-testid": "wb-btn-save", onClick: () => cb.save(),
  }, "Save");
  const titles = Object.fromEntries(Object.entries(buttons).map(([k, b]) => [k, b.title]));

  const spinner = h("span.wb-spinner", { "aria-hidden": "true" });
  const statusText = h("span.wb-status-text");
  const progressFill = h("span.wb-progress-fill");
  const progress = h("span.wb-progress", { role: "progressbar" }, progressFill);
  const elapsed = h("span.wb-elapsed", { "data-testid": "wb-elapsed", title: "time since the action started" });
  const status = h("div.wb-status", { "data-testid": "wb-status", "aria-live": "polite" },
    spinner, statusText, elapsed, progress);
  // the kernel sends the elapsed seconds with each status; the count goes on between them
  let since = 0;
  let ticker = null;
  const tick = () => {
    const seconds = Math.floor((performance.now() - since) / 1000);
    elapsed.textContent = `${seconds} s`;
    elapsed.dataset.seconds = String(seconds);
  };
  const verdict = h("span.wb-verdict", { "data-testid": "wb-verdict" });

  const layoutSelect = h("select.wb-select", { title: "Layout of the panes", "data-testid": "wb-layout",
    onChange: () => cb.setLayout(layoutSelect.value) },
  h("option", { value: "auto", text: "layout: auto" }),
  h("option", { value: "wide", text: "side by side" }),
  h("option", { value: "stacked", text: "stacked" }));
  const wrapBox = h("input", { type: "checkbox", "data-testid": "wb-wrap",
    onChange: () => cb.setWrap(wrapBox.checked) });
  const wrapLabel = h("label.wb-switch", { title: "Wrap long lines in the code and IR panes" }, wrapBox, "wrap");

  const el = h("div.wb-toolbar", null,
    ...ACTIONS.map(([name]) => buttons[name]), h("span.wb-sep"), buttons.save,
    status, layoutSelect, wrapLabel, verdict);

  const confirm = h("div.wb-confirm", { "data-testid": "wb-confirm", role: "alertdialog" },
    h("span", { text: "The Rust pane has unsaved edits. Draft replaces the pane; your text is kept in .history/ first." }),
    h("button.wb-btn.wb-btn-primary", { type: "button", "data-testid": "wb-confirm-draft",
      onClick: () => { confirm.hidden = true; cb.confirmDraft(); } }, "Keep my edits in .history/ and draft"),
    h("button.wb-btn", { type: "button", "data-testid": "wb-confirm-cancel",
      onClick: () => { confirm.hidden = true; } }, "Cancel"));
  confirm.hidden = true;

  const exportTo = h("input.wb-select.wb-export-to", { type: "text", size: 36, "data-testid": "wb-export-to",
    title: "A new or empty folder, relative to the notebook's folder" });
  const exportBar = h("div.wb-confirm", { "data-testid": "wb-export", role: "dialog" },
    h("span", { text: "Export the port, its loader, README and IR goldens as a crate of its own, to the folder" }), exportTo,
    h("button.wb-btn.wb-btn-primary", { type: "button", "data-testid": "wb-export-go",
      onClick: () => { exportBar.hidden = true; cb.exportTo(exportTo.value.trim()); } }, "Export"),
    h("button.wb-btn", { type: "button", "data-testid": "wb-export-cancel",
      onClick: () => { exportBar.hidden = true; } }, "Cancel"));
  exportBar.hidden = true;

  return {
    el, confirm, exportBar,
    askDraft() { confirm.hidden = false; },
    stop() { clearInterval(ticker); },
    askExport(folder) {
      if (!exportTo.value) exportTo.value = folder;
      exportBar.hidden = false;
      exportTo.focus();
    },
    note(text) { statusText.textContent = text; },
    setLayoutChoice(mode) { layoutSelect.value = mode || "auto"; },
    setWrapChoice(on) { wrapBox.checked = Boolean(on); },
    showVerdict({ verdict: v, hasPort, stale }) {
      verdict.textContent = v ? v.replace(/_/g, " ") + (stale ? " \u00b7 stale" : "")
        : hasPort ? "not diffed" : "no port";
      verdict.className = `wb-verdict wb-verdict-${VERDICT_CLASS[v] || "none"}${stale ? " wb-verdict-stale" : ""}`;
      verdict.setAttribute("data-verdict", v);
      verdict.setAttribute("data-stale", String(stale));
      verdict.title = stale ? `${v}, but of an earlier text of the Rust port: save (Ctrl-S) to rebuild and re-diff`
        : v ? `Tile IR verdict: ${v}` : hasPort ? "no diff yet: press Diff" : "no port yet: press Draft";
    },
    showStatus(s, hasPort) {
      const busy = Boolean(s.busy);
      for (const [name, b] of Object.entries(buttons)) {
        const noPort = !hasPort && NEEDS_PORT.has(name);
        b.disabled = busy || noPort;
        b.title = noPort ? "No port yet: press Draft" : titles[name];
        b.classList.toggle("wb-running", busy && s.action === name);
      }
      status.classList.toggle("wb-busy", busy);
      status.setAttribute("data-busy", String(busy));
      status.setAttribute("data-action", s.action || "");
      statusText.textContent = s.message || (busy && s.action ? `${s.action}\u2026` : "");
      clearInterval(ticker);
      elapsed.hidden = !busy;
      if (busy) {
        since = performance.now() - 1000 * (Number(s.elapsed) || 0);
        tick();
        ticker = setInterval(tick, 1000);
      }
      statusText.title = statusText.textContent;
      const p = Number(s.progress);
      const determinate = busy && Number.isFinite(p) && p > 0;
      progress.hidden = !busy;
      progress.classList.toggle("wb-indeterminate", busy && !determinate);
      progressFill.style.width = determinate ? `${Math.round(Math.min(1, p) * 100)}%` : "";
      if (determinate) progress.setAttribute("aria-valuenow", String(Math.round(p * 100)));
      else progress.removeAttribute("aria-valuenow");
    },
  };
}
