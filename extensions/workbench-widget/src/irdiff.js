// The IR diff: the Python IR and the Rust IR side by side, one row per alignment pair, with
// the lines the alignment leaves out (entry header, region headers, braces, folded assumes)
// shown as grey "context" rows in their places. In a pane too narrow for two columns of IR
// (side by side on a laptop), each row shows the Python line over the Rust line instead.

import { h, clear, scrollWithin } from "./dom.js";
import { meaning, sides } from "./findings.js";
import { makeSplitter } from "./layout.js";
import { renderTileIR } from "./tileir.js";

const STATUS_GLYPH = { same: "", changed: "~", moved: "\u21c5", missing: "\u2212", extra: "+", context: "" };
const CATEGORY_RANK = { critical: 4, arithmetic: 3, hint: 2, noise: 1 };
const CATEGORIES = ["critical", "arithmetic", "hint", "noise"];
const TWO_COLUMNS_FROM = 880;   // px of pane: two columns of IR of >= ~55 characters each

function toLine(v) {
  const n = typeof v === "number" ? v : Number.parseInt(v, 10);
  return Number.isInteger(n) && n > 0 ? n : null;
}

export function splitLines(text) {
  if (!text) return [];
  const lines = String(text).split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Display rows: {left, right, status, paired} in reading order. */
export function buildRows(alignment, leftCount, rightCount) {
  const pairs = (Array.isArray(alignment) ? alignment : [])
    .filter((r) => Array.isArray(r))
    .map((r) => ({ left: toLine(r[0]), right: toLine(r[1]), status: String(r[2] || "same"), paired: true }))
    .filter((r) => r.left !== null || r.right !== null);
  const leftUsed = new Set(pairs.map((r) => r.left).filter((v) => v !== null));
  const rightUsed = new Set(pairs.map((r) => r.right).filter((v) => v !== null));
  const anchored = pairs.filter((r) => r.left !== null).sort((a, b) => a.left - b.left);
  const leftPending = [];
  for (let n = 1; n <= leftCount; n++) if (!leftUsed.has(n)) leftPending.push(n);
  const rightPending = [];
  for (let n = 1; n <= rightCount; n++) if (!rightUsed.has(n)) rightPending.push({ line: n, row: null });
  for (const row of pairs) if (row.left === null) rightPending.push({ line: row.right, row });
  rightPending.sort((a, b) => a.line - b.line);

  const rows = [];
  let li = 0;
  let ri = 0;
  const flush = (leftBelow, rightBelow) => {
    const lq = [];
    while (li < leftPending.length && leftPending[li] < leftBelow) lq.push(leftPending[li++]);
    let k = 0;
    while (ri < rightPending.length && rightPending[ri].line < rightBelow) {
      const item = rightPending[ri++];
      if (item.row) rows.push(item.row);
      else rows.push({ left: k < lq.length ? lq[k++] : null, right: item.line, status: "context", paired: false });
    }
    while (k < lq.length) rows.push({ left: lq[k++], right: null, status: "context", paired: false });
  };
  // A row missing on the right flushes the right side up to the next row that has one, so
  // that e.g. region headers on both sides stay on one row around a missing op.
  let nextRight = Infinity;
  const rightBound = new Array(anchored.length);
  for (let i = anchored.length - 1; i >= 0; i--) {
    rightBound[i] = anchored[i].right === null ? nextRight : anchored[i].right;
    if (anchored[i].right !== null) nextRight = anchored[i].right;
  }
  anchored.forEach((row, i) => {
    flush(row.left, rightBound[i]);
    rows.push(row);
  });
  flush(Infinity, Infinity);
  return rows;
}

function topCategory(findings) {
  let best = null;
  for (const f of findings) {
    if (!best || (CATEGORY_RANK[f.category] || 0) > (CATEGORY_RANK[best] || 0)) best = f.category;
  }
  return best;
}

function findingWhere(f, files) {
  const parts = [];
  if (f.left_line != null || f.right_line != null) {
    parts.push(`IR ${f.left_line != null ? "L" + f.left_line : "\u2013"} \u2194 ${f.right_line != null ? "R" + f.right_line : "\u2013"}`);
  }
  if (f.source_line != null) {
    const base = files && files.python ? files.python.split("/").pop() : "source";
    parts.push(`${base}:${f.source_line}`);
  }
  if (f.port_line != null) {
    const base = files && files.rust ? files.rust.split("/").pop() : "port";
    parts.push(`${base}:${f.port_line}`);
  }
  return parts.join(" \u00b7 ");
}

/**
 * The IR tab. callbacks: onHover(row, side) / onLeave() / onClick(row, side) /
 * onFinding(finding).
 */
export class IrDiffView {
  constructor(callbacks) {
    this.cb = callbacks;
    this.rows = [];
    this.rowEls = [];
    this.byLeft = new Map();
    this.byRight = new Map();
    this.marked = [];
    this.header = h("div.wb-ir-head", null,
      h("span.wb-ir-num", { "data-side": "left" }), h("span.wb-ir-colhead.wb-ir-left", { text: "Python \u2192 Tile IR" }),
      h("span.wb-ir-mid"), h("span.wb-ir-num", { "data-side": "right" }),
      h("span.wb-ir-colhead.wb-ir-right", { text: "Rust \u2192 Tile IR" }));
    this.body = h("div.wb-ir-rows", { "data-testid": "wb-ir-rows" });
    this.scroller = h("div.wb-ir-scroll", null, this.header, this.body);
    this.findingsHead = h("div.wb-findings-head");
    this.findingsList = h("div.wb-findings-list", { "data-testid": "wb-findings" });
    this.findingsBox = h("div.wb-findings", null, this.findingsHead, this.findingsList);
    // drag the bar above the findings to give them more or less of the pane
    this.findingsSplit = makeSplitter("row", {
      testid: "wb-split-findings", title: "Drag to resize the findings list",
      start: () => this.findingsBox.getBoundingClientRect().height,
      move: (height, delta) => this.setFindingsHeight(height - delta),
    });
    this.el = h("div.wb-ir-view", null, this.scroller, this.findingsSplit, this.findingsBox);
    this.columns = new ResizeObserver(() => {
      const width = this.el.getBoundingClientRect().width;
      if (width > 0) this.el.dataset.columns = width >= TWO_COLUMNS_FROM ? "2" : "1";
    });
    this.columns.observe(this.el);

    const rowOf = (event) => {
      const rowEl = event.target instanceof Element ? event.target.closest(".wb-ir-row") : null;
      if (!rowEl || !this.body.contains(rowEl)) return null;
      const cell = event.target.closest("[data-side]");
      return { row: this.rows[Number(rowEl.dataset.row)], side: cell ? cell.dataset.side : null };
    };
    let last = null;
    this.body.addEventListener("mouseover", (event) => {
      const hit = rowOf(event);
      const key = hit ? `${hit.row && hit.row.index}:${hit.side}` : null;
      if (key === last) return;
      last = key;
      if (hit && hit.row) this.cb.onHover(hit.row, hit.side);
    });
    this.body.addEventListener("mouseleave", () => { last = null; this.cb.onLeave(); });
    this.body.addEventListener("click", (event) => {
      const hit = rowOf(event);
      if (hit && hit.row && !(window.getSelection && String(window.getSelection()).length)) {
        this.cb.onClick(hit.row, hit.side);
      }
    });
  }

  setFindingsHeight(px) {
    const max = Math.max(80, this.el.getBoundingClientRect().height - 80);
    const height = Math.round(Math.min(max, Math.max(48, px)));
    this.findingsBox.style.height = `${height}px`;
    this.findingsBox.style.maxHeight = "none";
    return height;
  }

  setWrap(on) {
    this.el.classList.toggle("wb-nowrap", !on);
  }

  /** Rebuild from model data. */
  render({ irLeft, irRight, alignment, findings, files, emptyText }) {
    const leftLines = splitLines(irLeft);
    const rightLines = splitLines(irRight);
    this.rows = buildRows(alignment, leftLines.length, rightLines.length);
    this.byLeft.clear();
    this.byRight.clear();
    this.marked = [];
    const fs = (Array.isArray(findings) ? findings : []).filter((f) => f && typeof f === "object");
    const findingsAt = new Map();
    const note = (key, f) => {
      if (!findingsAt.has(key)) findingsAt.set(key, []);
      findingsAt.get(key).push(f);
    };
    for (const f of fs) {
      if (Number.isInteger(f.left_line)) note(`L${f.left_line}`, f);
      if (Number.isInteger(f.right_line)) note(`R${f.right_line}`, f);
    }

    clear(this.body);
    this.rowEls = this.rows.map((row, index) => {
      row.index = index;
      const here = [...new Set([
        ...(row.left !== null ? findingsAt.get(`L${row.left}`) || [] : []),
        ...(row.right !== null ? findingsAt.get(`R${row.right}`) || [] : []),
      ])];
      const leftCode = h("span.wb-ir-code.wb-ir-left", { "data-side": "left" });
      const rightCode = h("span.wb-ir-code.wb-ir-right", { "data-side": "right" });
      if (row.left !== null) renderTileIR(leftCode, leftLines[row.left - 1] ?? "");
      if (row.right !== null) renderTileIR(rightCode, rightLines[row.right - 1] ?? "");
      leftCode.title = row.left !== null ? leftLines[row.left - 1] ?? "" : "";
      rightCode.title = row.right !== null ? rightLines[row.right - 1] ?? "" : "";
      const mid = h("span.wb-ir-mid", { title: row.status === "context" ? "not aligned" : row.status },
        h("span.wb-ir-glyph", { text: STATUS_GLYPH[row.status] ?? "?" }));
      const cat = topCategory(here);
      if (cat) {
        mid.append(h(`span.wb-finding-mark.wb-fcat-${cat}`, {
          title: here.map((f) => `[${f.category}] ${f.kind}: ${f.detail}`).join("\n"),
          text: cat === "critical" ? "\u2716" : cat === "arithmetic" ? "\u25b2" : "\u25cf",
        }));
      }
      const el = h(`div.wb-ir-row.wb-st-${row.status}`, {
        "data-row": index,
        "data-left-line": row.left ?? "",
        "data-right-line": row.right ?? "",
        "data-status": row.status,
        "data-finding": cat || undefined,
        title: here.length ? here.map((f) => `[${f.category}] ${f.kind}: ${f.detail}`).join("\n") : undefined,
      },
      h("span.wb-ir-num", { "data-side": "left", text: row.left ?? "" }), leftCode, mid,
      h("span.wb-ir-num", { "data-side": "right", text: row.right ?? "" }), rightCode);
      if (cat) el.classList.add("wb-has-finding", `wb-fcat-${cat}`);
      if (row.left === null) el.classList.add("wb-no-left");
      if (row.right === null) el.classList.add("wb-no-right");
      if (row.left !== null) this.byLeft.set(row.left, [...(this.byLeft.get(row.left) || []), index]);
      if (row.right !== null) this.byRight.set(row.right, [...(this.byRight.get(row.right) || []), index]);
      return el;
    });
    this.body.append(...this.rowEls);
    if (!this.rows.length) {
      this.body.append(h("div.wb-empty", { "data-testid": "wb-ir-empty",
        text: emptyText || "No Tile IR yet \u2014 press Diff." }));
    }
    this.renderFindings(fs, files);
  }

  renderFindings(fs, files) {
    clear(this.findingsList);
    const counts = Object.fromEntries(CATEGORIES.map((c) => [c, 0]));
    for (const f of fs) counts[f.category] = (counts[f.category] || 0) + 1;
    clear(this.findingsHead);
    this.findingsHead.append(h("span.wb-findings-title", { text: `Findings (${fs.length})` }),
      ...CATEGORIES.map((c) => h(`span.wb-chip.wb-fcat-${c}`, { text: `${counts[c] || 0} ${c}` })));
    const order = [...fs].sort((a, b) => (CATEGORY_RANK[b.category] || 0) - (CATEGORY_RANK[a.category] || 0));
    for (const f of order) {
      const two = sides(f);
      // one or two lines each, so that a few fit; a click opens one whole (and its meaning)
      const item = h(`div.wb-finding.wb-fcat-${f.category}`, {
        "data-category": f.category,
        "data-kind": f.kind,
        "data-left-line": f.left_line ?? "",
        "data-right-line": f.right_line ?? "",
        title: `${f.detail}\n${meaning(f)}`,
        onClick: () => {
          for (const other of this.findingsList.querySelectorAll(".wb-open")) if (other !== item) other.classList.remove("wb-open");
          item.classList.add("wb-open");
          this.cb.onFinding(f);
        },
      },
      h(`span.wb-chip.wb-fcat-${f.category}`, { text: f.category }),
      h("span.wb-finding-kind", { text: f.kind }),
      h("span.wb-finding-where", { text: findingWhere(f, files) }),
      two ? h("div.wb-finding-sides", null,
        two.subject ? h("span.wb-finding-subject", { text: `${two.subject}: ` }) : null,
        h("span.wb-side-label", { text: "Python: " }), h("code.wb-side-py", { text: two.python }),
        h("span.wb-side-sep", { text: " / " }),
        h("span.wb-side-label", { text: "port: " }), h("code.wb-side-rs", { text: two.port }))
        : h("span.wb-finding-detail", { text: f.detail }),
      h("span.wb-finding-meaning", { text: meaning(f) }));
      this.findingsList.append(item);
    }
    this.findingsBox.hidden = fs.length === 0;
    this.findingsSplit.hidden = fs.length === 0;
  }

  /** Mark rows whose left line is in links.left or right line in links.right. */
  showLinks(links) {
    for (const el of this.marked) el.classList.remove("wb-linked", "wb-link-origin");
    for (const el of this.body.querySelectorAll(".wb-cell-linked")) el.classList.remove("wb-cell-linked");
    this.marked = [];
    const mark = (index, side) => {
      const el = this.rowEls[index];
      if (!el) return;
      el.classList.add("wb-linked");
      this.marked.push(el);
      el.querySelectorAll(`[data-side="${side}"]`).forEach((c) => c.classList.add("wb-cell-linked"));
      const o = links.origin;
      if (o && o.pane === "ir" && this.rows[index].left === o.left && this.rows[index].right === o.right) {
        el.classList.add("wb-link-origin");
      }
    };
    for (const l of links.left) for (const i of this.byLeft.get(l) || []) mark(i, "left");
    for (const r of links.right) for (const i of this.byRight.get(r) || []) mark(i, "right");
  }

  scrollToLinks(links) {
    const first = [...links.left].flatMap((l) => this.byLeft.get(l) || [])
      .concat([...links.right].flatMap((r) => this.byRight.get(r) || []))
      .sort((a, b) => a - b)[0];
    if (first !== undefined) scrollWithin(this.scroller, this.rowEls[first]);
  }
}
