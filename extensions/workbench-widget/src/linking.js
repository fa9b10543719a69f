// Line links between the four line spaces: Python source, left IR, right IR, Rust source.
//   Python P  <-> left IR lines L with py_lines[L] == P
//   left IR L <-> right IR R on the same alignment row
//   right IR R <-> Rust line rust_lines[R]

function toIntMap(obj) {
  const map = new Map();
  if (!obj || typeof obj !== "object") return map;
  for (const [key, value] of Object.entries(obj)) {
    const k = Number.parseInt(key, 10);
    const v = Number.parseInt(value, 10);
    if (Number.isFinite(k) && Number.isFinite(v)) map.set(k, v);
  }
  return map;
}

function invert(map) {
  const inv = new Map();
  for (const [k, v] of map) {
    if (!inv.has(v)) inv.set(v, new Set());
    inv.get(v).add(k);
  }
  return inv;
}

function addAll(target, values) {
  if (values) for (const v of values) if (v !== null && v !== undefined) target.add(v);
}

export function emptyLinks() {
  return { python: new Set(), left: new Set(), right: new Set(), rust: new Set(), origin: null };
}

export class LinkIndex {
  constructor({ alignment, pyLines, rustLines }) {
    this.leftToPy = toIntMap(pyLines);
    this.rightToRust = toIntMap(rustLines);
    this.pyToLeft = invert(this.leftToPy);
    this.rustToRight = invert(this.rightToRust);
    this.leftToRight = new Map();
    this.rightToLeft = new Map();
    for (const row of Array.isArray(alignment) ? alignment : []) {
      const [l, r] = row || [];
      if (l === null || l === undefined || r === null || r === undefined) continue;
      if (!this.leftToRight.has(l)) this.leftToRight.set(l, new Set());
      if (!this.rightToLeft.has(r)) this.rightToLeft.set(r, new Set());
      this.leftToRight.get(l).add(r);
      this.rightToLeft.get(r).add(l);
    }
  }

  _fill(links, { fromLeft, fromRight }) {
    if (fromLeft) for (const l of links.left) addAll(links.right, this.leftToRight.get(l));
    if (fromRight) for (const r of links.right) addAll(links.left, this.rightToLeft.get(r));
    for (const l of links.left) if (this.leftToPy.has(l)) links.python.add(this.leftToPy.get(l));
    for (const r of links.right) if (this.rightToRust.has(r)) links.rust.add(this.rightToRust.get(r));
    return links;
  }

  /** Links from one line of a pane: pane is "python" | "rust". */
  fromSource(pane, line) {
    const links = emptyLinks();
    links.origin = { pane, line };
    if (pane === "python") {
      links.python.add(line);
      addAll(links.left, this.pyToLeft.get(line));
      this._fill(links, { fromLeft: true });
      links.python.add(line);
    } else {
      links.rust.add(line);
      addAll(links.right, this.rustToRight.get(line));
      this._fill(links, { fromRight: true });
      links.rust.add(line);
    }
    return links;
  }

  /** Links from an IR diff row. An aligned row links both sides; a context row (lines the
   *  alignment does not pair) links only the side that was pointed at. */
  fromIrRow(left, right, { aligned, side }) {
    const links = emptyLinks();
    links.origin = { pane: "ir", left, right };
    const useLeft = left !== null && (aligned || side !== "right");
    const useRight = right !== null && (aligned || side !== "left");
    if (useLeft) links.left.add(left);
    if (useRight) links.right.add(right);
    return this._fill(links, {});
  }

  /** Links from a finding (its IR lines, else its source line on the Python side). */
  fromFinding(f) {
    const links = emptyLinks();
    links.origin = { pane: "finding" };
    if (Number.isInteger(f.left_line)) links.left.add(f.left_line);
    if (Number.isInteger(f.right_line)) links.right.add(f.right_line);
    this._fill(links, {});
    if (!links.left.size && !links.right.size && Number.isInteger(f.source_line)) {
      return this.fromSource("python", f.source_line);
    }
    return links;
  }
}

export function sortedList(set) {
  return [...set].sort((a, b) => a - b);
}
