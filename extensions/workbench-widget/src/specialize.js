// The JIT -> AOT tab: for each call (catalog case), what an ahead-of-time Rust port must
// declare (the facts cuTile Python's JIT assumed per array), the call, and the kernel the
// JIT compiles for it: calls with one letter share one compiled kernel.
import { clear, h } from "./dom.js";

/** `softmax_Kt1_A2f32_..._I1024` -> `softmax_Kt1\u2026_I1024`: the name and the constants. */
export function shortSymbol(symbol) {
  const s = String(symbol || "");
  if (s.length <= 28) return s;
  const parts = s.split("_");
  const head = parts.slice(0, 2).join("_");
  const tail = parts[parts.length - 1];
  return `${head}\u2026_${tail}`;
}

const letter = (group) => String.fromCharCode(65 + (Number(group) % 26));

export class SpecializeView {
  constructor() {
    this.el = h("div.wb-spec-view", { "data-testid": "wb-specialize" });
  }

  render(rows) {
    clear(this.el);
    const list = Array.isArray(rows) ? rows : [];
    if (!list.length) {
      this.el.append(h("div.wb-empty", { text: "No specializations: this kernel has no cases (give --arg/--const)." }));
      return;
    }
    const row = (r) => h("tr", { "data-group": String(r.group) },
      h("td.wb-spec-facts", null, (r.facts || []).map((f) => h("div.wb-spec-fact", { text: f }))),
      h("td.wb-spec-call", { text: r.call || "" }),
      h("td.wb-spec-symbol", { title: r.symbol || "" },
        h("span.wb-spec-group", { text: letter(r.group) }), " ",
        h("code", { text: shortSymbol(r.symbol) })));
    const head = h("thead", null, h("tr", null,
      h("th", { text: "what the port must declare (what the JIT assumed)" }),
      h("th", { text: "call" }),
      h("th", { text: "compiled kernel", title: "calls with the same letter share one compiled kernel; hover a name for all of it" })));
    this.el.append(h("table.wb-spec-table", null, head, h("tbody", null, list.map(row))));
    const groups = new Set(list.map((r) => r.group)).size;
    this.el.append(h("div.wb-spec-note", {
      text: `${list.length} call(s) compile ${groups} kernel(s); one letter per kernel.` }));
    const roles = (list[0] && list[0].constants) || [];
    if (roles.length) {
      this.el.append(h("div.wb-spec-constants", { "data-testid": "wb-spec-constants" },
        h("div.wb-spec-note", { text: "How the port takes each constant:" }),
        roles.map((r) => h("div.wb-spec-fact", { text: r }))));
      return;
    }
    const branches = list[0] && list[0].branches;
    if (branches && branches.length) {
      this.el.append(h("div.wb-spec-note", {
        text: `Constants tested by an if (${branches.join(", ")}): one entry per value.` }));
    }
  }
}
