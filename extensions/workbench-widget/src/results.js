// The result panel: the last stage result the kernel sent (workbench/ui/results.py): a
// draft's reasons (click: the Python line), build errors (click: the Rust line; also lint
// markers in the pane), check and bench tables, and the rest as text.

import { clear, h } from "./dom.js";

function where(item) {
  const file = item.file ? String(item.file).split("/").pop() : "";
  if (file && item.line) return `${file}:${item.line}${item.column ? `:${item.column}` : ""}`;
  if (item.line) return `line ${item.line}`;
  return file;
}

export class ResultView {
  /** callbacks: onReason(reason), onDiagnostic(diagnostic) */
  constructor(callbacks) {
    this.cb = callbacks;
    this.open = true;
    this.title = h("span.wb-result-title", { "data-testid": "wb-result-title" });
    this.toggle = h("button.wb-result-toggle", {
      type: "button", title: "Show or hide the details", "aria-expanded": "true",
      onClick: () => { this.open = !this.open; this.update(); },
    });
    this.close = h("button.wb-result-close", {
      type: "button", title: "Dismiss", "aria-label": "Dismiss", text: "\u00d7",
      onClick: () => { this.el.hidden = true; },
    });
    this.body = h("div.wb-result-body");
    this.el = h("section.wb-result", { "data-testid": "wb-result", role: "status" },
      h("header.wb-result-head", null, this.toggle, this.title, h("span.wb-spacer"), this.close),
      this.body);
    this.el.hidden = true;
  }

  update() {
    this.body.hidden = !this.open;
    this.toggle.textContent = this.open ? "\u25be" : "\u25b8";
    this.toggle.setAttribute("aria-expanded", String(this.open));
  }

  render(result) {
    const r = result && typeof result === "object" ? result : {};
    clear(this.body);
    const reasons = Array.isArray(r.reasons) ? r.reasons : [];
    const diagnostics = Array.isArray(r.diagnostics) ? r.diagnostics : [];
    const tables = Array.isArray(r.tables) ? r.tables : [];
    const lines = Array.isArray(r.lines) ? r.lines : [];
    this.el.hidden = !r.title;
    if (!r.title) return;
    this.el.dataset.action = r.action || "";
    this.el.dataset.ok = String(Boolean(r.ok));
    this.el.classList.toggle("wb-result-bad", !r.ok);
    this.title.textContent = r.title;
    if (reasons.length) this.body.append(this.reasonList(reasons));
    if (diagnostics.length) this.body.append(this.diagnosticList(diagnostics));
    for (const t of tables) this.body.append(this.table(t));
    if (lines.length) {
      const open = !r.ok && !reasons.length && !diagnostics.length && !tables.length;
      const details = h("details.wb-result-text", { open },
        h("summary", { text: r.run ? `details (${r.run})` : "details" }),
        h("pre", { text: lines.join("\n") }));
      this.body.append(details);
    }
    this.open = true;
    this.update();
  }

  reasonList(reasons) {
    return h("ul.wb-reasons", { "data-testid": "wb-reasons" }, reasons.map((x) => h("li", null,
      h("button.wb-reason", {
        type: "button", "data-line": x.line ?? "", "data-pane": x.pane || "",
        title: x.pane ? "Show this line in the Python pane" : x.file || "",
        onClick: () => this.cb.onReason(x),
      },
      h("span.wb-reason-where", { text: x.pane ? `line ${x.line}` : where(x) }),
      h("span.wb-reason-construct", { text: x.construct || "" }),
      h("span.wb-reason-why", { text: `\u2014 ${x.message || ""}` })))));
  }

  diagnosticList(diagnostics) {
    return h("ul.wb-diagnostics", { "data-testid": "wb-diagnostics" }, diagnostics.map((d) => h("li", null,
      h("button.wb-diagnostic", {
        type: "button", "data-line": d.line ?? "", "data-pane": d.pane || "",
        "data-level": d.level || "error",
        title: d.pane ? "Show this line in the Rust pane" : d.file || "",
        onClick: () => this.cb.onDiagnostic(d),
      },
      h(`span.wb-level.wb-level-${d.level || "error"}`, { text: d.level || "error" }),
      h("span.wb-reason-where", { text: where(d) }),
      h("span.wb-reason-why", { text: d.message || "" })),
      d.rendered ? h("pre.wb-rendered", { text: d.rendered }) : null)));
  }

  table(t) {
    const columns = Array.isArray(t.columns) ? t.columns : [];
    const rows = Array.isArray(t.rows) ? t.rows : [];
    return h("div.wb-result-table", null,
      t.title ? h("div.wb-result-table-title", { text: t.title }) : null,
      h("table", { "data-testid": "wb-result-table" },
        h("thead", null, h("tr", null, columns.map((c) => h("th", { text: c })))),
        h("tbody", null, rows.map((row) => h("tr", null,
          (Array.isArray(row) ? row : []).map((c) => h("td", { text: c ?? "" })))))));
  }
}
