// The JIT -> AOT tab: for each call (catalog case) the kernel cuTile Python's JIT would
// compile, the facts it assumed per array, and what an ahead-of-time Rust port must declare.
import { clear, h } from "./dom.js";

export class SpecializeView {
  constructor() {
    this.el = h("div.wb-spec-view", { "data-testid": "wb-specialize" });
  }

  render(rows) {
    clear(this.el);
    const list = Array.isArray(rows) ? rows : [];
    if (!list.length) {
      this.el.append(h("div.wb-empty", { text: "No specializations yet." }));
      return;
    }
    const row = (r) => h("tr", { "data-group": String(r.group) },
      h("td.wb-spec-call", { text: r.call || "" }),
      h("td.wb-spec-symbol", { text: `${r.symbol || ""}  (group ${r.group})` }),
      h("td", null, (r.facts || []).map((f) => h("div.wb-spec-fact", { text: f }))));
    const head = h("thead", null, h("tr", null,
      h("th", { text: "call" }), h("th", { text: "compiled kernel (group)" }),
      h("th", { text: "what the JIT assumed / the port must declare" })));
    this.el.append(h("table.wb-spec-table", null, head, h("tbody", null, list.map(row))));
    const branches = list[0] && list[0].branches;
    if (branches && branches.length) {
      this.el.append(h("div.wb-spec-note", {
        text: `Constants tested by an if (${branches.join(", ")}): one entry per value.` }));
    }
  }
}
