// The History tab: the port's kept versions of kernel.rs (port/.history/, a folder
// JupyterLab's file browser hides). Each one can be compared with the Rust pane (the
// version's lines, "-", against the pane's, "+") or restored: the kernel keeps the pane's
// text first, then makes the version the port's kernel.rs, rebuilds and re-diffs.

import { clear, h } from "./dom.js";

const WHY = {
  "before-draft": "the file a Draft replaced",
  saved: "the file a Save replaced",
  unsaved: "unsaved edits of the pane, kept when something replaced it",
  "before-restore": "the pane's text, kept when a version was restored",
};

export class HistoryView {
  /** callbacks: compare(name), restore(name), refresh() */
  constructor(callbacks) {
    this.cb = callbacks;
    this.where = h("span.wb-history-where");
    this.refresh = h("button.wb-btn.wb-btn-small", { type: "button", "data-testid": "wb-history-refresh",
      title: "List the kept versions again", onClick: () => this.cb.refresh() }, "Refresh");
    this.list = h("div.wb-history-list", { "data-testid": "wb-history-list" });
    this.diffHead = h("div.wb-history-diff-head", { "data-testid": "wb-history-diff-head" });
    this.diffRows = h("div.wb-history-diff", { "data-testid": "wb-history-diff" });
    this.el = h("div.wb-history-view", { "data-testid": "wb-history" },
      h("div.wb-history-head", null, this.where, h("span.wb-spacer"), this.refresh),
      this.list, this.diffHead, this.diffRows);
  }

  /** versions: [{name, why, when, lines}]; diff: {name, why, when, rows, added, removed,
   *  same, cut, pane}; paneText: the pane now (a comparison of other text is stale). */
  render({ versions, folder, diff, paneText, busy, hasPort }) {
    const list = Array.isArray(versions) ? versions : [];
    const d = diff && typeof diff === "object" ? diff : {};
    this.where.textContent = `${list.length} kept version${list.length === 1 ? "" : "s"} of kernel.rs in ${folder || "the port"}/.history/`;
    clear(this.list);
    if (!list.length) {
      this.list.append(h("div.wb-empty", { text: "Nothing kept yet: a Save, a Draft or a restore keeps the text it replaces here." }));
    }
    for (const v of list) {
      this.list.append(h("div.wb-history-item", {
        "data-name": v.name, "data-why": v.why, "data-testid": "wb-history-item",
        class: d.name === v.name ? "wb-history-item wb-selected" : "wb-history-item",
      },
      h("span.wb-history-when", { text: v.when, title: v.name }),
      h(`span.wb-history-why.wb-why-${v.why}`, { text: v.why, title: WHY[v.why] || "" }),
      h("span.wb-history-lines", { text: `${v.lines} lines` }),
      h("span.wb-spacer"),
      h("button.wb-btn.wb-btn-small", { type: "button", "data-testid": "wb-history-compare",
        title: "Compare this version with the Rust pane", onClick: () => this.cb.compare(v.name) }, "Compare"),
      h("button.wb-btn.wb-btn-small", { type: "button", "data-testid": "wb-history-restore",
        disabled: busy || !hasPort,
        title: "Make this version the port's kernel.rs (the pane's text is kept here first), rebuild and re-diff",
        onClick: () => this.cb.restore(v.name) }, "Restore")));
    }
    this.renderDiff(d, paneText);
  }

  renderDiff(d, paneText) {
    clear(this.diffRows);
    this.diffRows.hidden = !d.name;
    this.renderHead(d, paneText);
    if (!d.name) return;
    for (const [op, a, b, text] of Array.isArray(d.rows) ? d.rows : []) {
      if (op === "@") {
        this.diffRows.append(h("div.wb-hl.wb-hl-gap", { text: "\u22ef" }));
        continue;
      }
      const kind = op === "-" ? "minus" : op === "+" ? "plus" : "same";
      this.diffRows.append(h(`div.wb-hl.wb-hl-${kind}`, { "data-op": op },
        h("span.wb-hl-num", { text: a ?? "" }), h("span.wb-hl-num", { text: b ?? "" }),
        h("span.wb-hl-sign", { text: op }), h("span.wb-hl-code", { text }),
      ));
    }
    if (d.cut) this.diffRows.append(h("div.wb-empty", { text: "(cut: too long to show whole)" }));
  }

  /** The comparison's title; stale once the pane's text is no longer the one compared. */
  renderHead(d, paneText) {
    this.shown = d;
    clear(this.diffHead);
    this.diffHead.hidden = !d.name;
    if (!d.name) return;
    const stale = typeof d.pane === "string" && d.pane !== paneText;
    this.diffHead.dataset.stale = String(stale);
    this.diffHead.append(
      h("span", { text: `${d.when} (${d.why}) \u2192 the Rust pane: ` }),
      h("span.wb-hl-count-minus", { text: `\u2212${d.removed || 0}` }), " ",
      h("span.wb-hl-count-plus", { text: `+${d.added || 0}` }),
      d.same ? h("span.wb-history-note", { text: " \u2014 the same text" }) : null,
      stale ? h("span.wb-history-note.wb-history-stale", { text: " \u2014 the pane changed since: Compare again" }) : null);
  }

  /** The pane's text changed: only the comparison's title may change. */
  paneChanged(paneText) {
    if (this.shown) this.renderHead(this.shown, paneText);
  }
}
