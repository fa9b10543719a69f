// The SASS tab: the summary table (label, python, rust) and both SASS listings.
// Listings are shown compact by default (one row per instruction, address in the gutter,
// encoding words dropped); "raw" shows the text exactly as given, with line numbers.

import { h, clear } from "./dom.js";
import { splitLines } from "./irdiff.js";

const INSTR = /^\s*\/\*([0-9a-fA-F]{4,})\*\/\s*(.*?)\s*(?:\/\*\s*0x[0-9a-fA-F]+\s*\*\/)?\s*$/;
const ENCODING_ONLY = /^\s*\/\*\s*0x[0-9a-fA-F]+\s*\*\/\s*$/;
const OPCODE = /^((?:@!?U?P[T0-9]+\s+)?)([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)/;

function instruction(parent, text) {
  const m = OPCODE.exec(text);
  if (m) {
    if (m[1]) parent.append(h("span.tok-atom", { text: m[1] }));
    parent.append(h("span.tok-keyword", { text: m[2] }));
    text = text.slice(m[0].length);
  }
  const comment = text.indexOf("//");
  if (comment >= 0) parent.append(text.slice(0, comment), h("span.tok-comment", { text: text.slice(comment) }));
  else parent.append(text);
}

function compactLines(lines) {
  const out = [];
  for (const raw of lines) {
    if (ENCODING_ONLY.test(raw) || !raw.trim()) continue;
    const m = INSTR.exec(raw);
    const line = h("div.wb-sass-line");
    if (m) {
      line.append(h("span.wb-sass-addr", { text: m[1] }));
      instruction(line, m[2]);
    } else {
      line.append(h("span.wb-sass-addr"), h("span.tok-comment", { text: raw.replace(/\t/g, " ").trim() }));
    }
    out.push(line);
  }
  return out;
}

function rawLines(lines) {
  return lines.map((text) => h("div.wb-sass-line.wb-sass-numbered", { text }));
}

function listing(title, text, raw) {
  const lines = splitLines(text);
  const body = h(`div.wb-sass-code${raw ? ".wb-sass-raw" : ""}`);
  if (!lines.length) body.append(h("div.wb-empty", { text: "no SASS" }));
  else body.append(...(raw ? rawLines(lines) : compactLines(lines)));
  return h("div.wb-sass-col", null, h("div.wb-sass-title", { text: `${title} (${lines.length} lines)` }), body);
}

export class SassView {
  constructor() {
    this.el = h("div.wb-sass-view", { "data-testid": "wb-sass" });
    this.raw = false;
    this.data = {};
  }

  render(data) {
    if (data) this.data = data;
    const { summary, left, right } = this.data;
    clear(this.el);
    const rows = (Array.isArray(summary) ? summary : []).filter((r) => Array.isArray(r));
    if (!rows.length && !left && !right) {
      this.el.append(h("div.wb-empty", { text: "No SASS yet." }));
      return;
    }
    if (rows.length) {
      this.el.append(h("table.wb-sass-table", { "data-testid": "wb-sass-summary" },
        h("thead", null, h("tr", null, h("th", { text: "" }), h("th", { text: "Python" }), h("th", { text: "Rust" }))),
        h("tbody", null, rows.map(([label, l, r]) => h(
          `tr${String(l) !== String(r) ? ".wb-sass-differs" : ""}`, null,
          h("th", { text: label ?? "" }), h("td", { text: l ?? "" }), h("td", { text: r ?? "" }),
        )))));
    }
    const toggle = h("input", { type: "checkbox", "data-testid": "wb-sass-raw" });
    toggle.checked = this.raw;
    toggle.addEventListener("change", () => { this.raw = toggle.checked; this.render(); });
    this.el.append(
      h("label.wb-sass-toggle", null, toggle, " raw listing (with encodings)"),
      h("div.wb-sass-cols", null, listing("Python", left, this.raw), listing("Rust", right, this.raw)));
  }
}
