// The panes' layout: side by side when the widget is wide, stacked (the two sources above,
// the IR diff below at full width) when it is not, one pane per row when it is narrow.
// The widget fits the window (the notebook's visible height) until the grip under it is
// dragged to a height of the user's own (a double-click on it fits again).
// Splitters between the panes and a grip under them resize them; the sizes, the layout
// choice and the wrap switch are kept in localStorage, so they survive a reload.

import { h } from "./dom.js";

const KEY = "cutile-workbench.layout/1";
const WIDE_FROM = 1600;     // px of widget width: three columns of >= ~420 px
const NARROW_BELOW = 900;   // px: under this, two sources side by side would be < 450 px
const MIN_PANE = 200;
const MIN_GRID = 320;       // px: below this the panes are too short to read; the page scrolls
const DEFAULTS = { mode: "auto", wide: [0.3, 0.34, 0.36], stacked: [1, 1], height: 640,
  top: 380, ir: 560, wrap: true, fit: true, share: 0.42 };

/** The height the widget may take: the notebook's visible height in JupyterLab, else the
 *  window's (VS Code's output webview, a page of its own). */
function available(el) {
  const scroller = el.closest(".jp-WindowedPanel-outer") || el.closest(".jp-Notebook");
  const height = scroller ? scroller.clientHeight : 0;
  return height > 0 ? height : window.innerHeight;
}

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(window.localStorage.getItem(KEY) || "{}") };
  } catch (_) {
    return { ...DEFAULTS };
  }
}

/** A drag handle. axis "col" (a vertical bar, dragged along x) or "row" (along y), or a
 *  function returning one; start() -> a value handed to move(value, delta) on every move. */
export function makeSplitter(axis, { start, move, end, testid, title }) {
  const bar = h("div.wb-split", { role: "separator", title, "data-testid": testid });
  const axisNow = () => (typeof axis === "function" ? axis() : axis);
  bar.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const along = axisNow();
    const origin = along === "col" ? event.clientX : event.clientY;
    const value = start();
    bar.setPointerCapture(event.pointerId);
    bar.classList.add("wb-dragging");
    const onMove = (e) => move(value, (along === "col" ? e.clientX : e.clientY) - origin);
    const onUp = () => {
      bar.classList.remove("wb-dragging");
      bar.removeEventListener("pointermove", onMove);
      bar.removeEventListener("pointerup", onUp);
      bar.removeEventListener("pointercancel", onUp);
      if (end) end();
    };
    bar.addEventListener("pointermove", onMove);
    bar.addEventListener("pointerup", onUp);
    bar.addEventListener("pointercancel", onUp);
  });
  return bar;
}

export class PaneLayout {
  /** panes: {py, rust, ir} elements, placed in `grid`; onChange(mode) after a re-layout. */
  constructor(grid, panes, onChange, root) {
    this.grid = grid;
    this.root = root;
    this.panes = panes;
    this.onChange = onChange;
    this.state = load();
    this.mode = null;
    const width = (el) => el.getBoundingClientRect().width;
    const height = (el) => el.getBoundingClientRect().height;
    this.splitA = makeSplitter("col", {
      testid: "wb-split-a", title: "Drag to resize the panes",
      start: () => [width(panes.py), width(panes.rust)],
      move: ([a, b], d) => this.resizePair(a, b, d, "py"), end: () => this.save(),
    });
    this.splitB = makeSplitter(() => (this.mode === "wide" ? "col" : "row"), {
      testid: "wb-split-b", title: "Drag to resize the panes",
      start: () => (this.mode === "wide" ? [width(panes.rust), width(panes.ir)] : height(panes.py)),
      move: (v, d) => (this.mode === "wide" ? this.resizePair(v[0], v[1], d, "rust")
        : this.setState(this.fitting() ? { share: Math.min(0.8, Math.max(0.15, (v + d) / this.gridHeight())) }
          : { top: Math.max(160, v + d) })),
      end: () => this.save(),
    });
    this.grip = makeSplitter("row", {
      testid: "wb-split-height", title: "Drag to make the panes taller or shorter",
      start: () => (this.mode === "wide" ? this.state.height : this.state.ir),
      move: (v, d) => this.setState(this.mode === "wide" ? { height: Math.max(240, v + d), fit: false }
        : { ir: Math.max(200, v + d), top: this.rowHeight(0), fit: false }),
      end: () => this.save(),
    });
    this.grip.classList.add("wb-grip");
    this.grip.title = "Drag to make the panes taller or shorter; double-click to fit the window again";
    this.grip.addEventListener("dblclick", () => { this.setState({ fit: true }); this.save(); });
    grid.append(this.splitA, this.splitB);
    this.observer = new ResizeObserver(() => this.apply());
    this.observer.observe(grid);
    // the result panel coming and going, or the window's height: fit again
    this.fitter = new ResizeObserver(() => this.fit());
    if (root) this.fitter.observe(root);
    this.onWindow = () => this.fit();
    window.addEventListener("resize", this.onWindow);
  }

  fitting() {
    return Boolean(this.state.fit && this.root && this.mode !== "narrow");
  }

  rowHeight(i) {
    return Number.parseFloat(String(this.grid.style.gridTemplateRows).split(" ")[i]) || 0;
  }

  gridHeight() {
    return this.grid.getBoundingClientRect().height;
  }

  /** The grid's height that makes the whole widget as tall as the visible notebook. */
  fitHeight() {
    const chrome = this.root.getBoundingClientRect().height - this.gridHeight();
    return Math.max(MIN_GRID, Math.floor(available(this.root) - 16 - chrome));
  }

  fit() {
    if (!this.fitting() || !this.root.isConnected) return;
    const want = this.fitHeight();
    if (Math.abs(want - this.gridHeight()) >= 2) this.apply(true);
  }

  save() {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(this.state));
    } catch (_) { /* storage may be off (private window, sandboxed webview) */ }
  }

  setState(patch) {
    Object.assign(this.state, patch);
    this.apply(true);
  }

  setMode(mode) {
    this.setState({ mode });
    this.save();
  }

  /** Drag between two neighbouring panes: new fractions from their pixel widths. */
  resizePair(a, b, delta, first) {
    const total = a + b;
    const left = Math.min(total - MIN_PANE, Math.max(MIN_PANE, a + delta));
    if (this.mode === "wide") {
      const ws = this.state.wide.slice();
      const sum = ws[0] + ws[1] + ws[2];
      const px = this.grid.getBoundingClientRect().width - 12;
      const i = first === "py" ? 0 : 1;
      const pairFr = ws[i] + ws[i + 1];
      ws[i] = (pairFr * left) / total;
      ws[i + 1] = pairFr - ws[i];
      if (px > 0 && sum > 0) this.setState({ wide: ws });
    } else {
      this.setState({ stacked: [left, total - left] });
    }
  }

  effectiveMode() {
    const width = this.grid.getBoundingClientRect().width;
    if (this.state.mode === "wide") return "wide";
    if (this.state.mode === "stacked") return width < NARROW_BELOW ? "narrow" : "stacked";
    if (width >= WIDE_FROM) return "wide";
    return width < NARROW_BELOW ? "narrow" : "stacked";
  }

  apply(force = false) {
    const mode = this.effectiveMode();
    if (!force && mode === this.mode && this.grid.style.gridTemplateAreas) return;
    const changed = mode !== this.mode;
    this.mode = mode;
    const s = this.state;
    const g = this.grid.style;
    const fr = (v) => `minmax(0, ${Number(v) || 1}fr)`;
    this.splitA.hidden = mode === "narrow";
    this.splitB.hidden = mode === "narrow";
    const fitted = this.fitting() && this.root.isConnected ? this.fitHeight() : 0;
    if (mode === "wide") {
      g.gridTemplateAreas = '"py sa rust sb ir"';
      g.gridTemplateColumns = `${fr(s.wide[0])} 6px ${fr(s.wide[1])} 6px ${fr(s.wide[2])}`;
      g.gridTemplateRows = `${fitted || s.height}px`;
    } else if (mode === "stacked") {
      const top = fitted ? Math.max(160, Math.round((fitted - 6) * s.share)) : s.top;
      const ir = fitted ? Math.max(200, fitted - 6 - top) : s.ir;
      g.gridTemplateAreas = '"py sa rust" "sb sb sb" "ir ir ir"';
      g.gridTemplateColumns = `${fr(s.stacked[0])} 6px ${fr(s.stacked[1])}`;
      g.gridTemplateRows = `${top}px 6px ${ir}px`;
    } else {
      g.gridTemplateAreas = '"py" "rust" "ir"';
      g.gridTemplateColumns = "minmax(0, 1fr)";
      g.gridTemplateRows = `${s.top}px ${s.top}px ${s.ir}px`;
    }
    this.splitA.classList.toggle("wb-split-row", false);
    this.splitB.classList.toggle("wb-split-row", mode !== "wide");
    if (changed || force) this.onChange(mode);
  }

  destroy() {
    this.observer.disconnect();
    this.fitter.disconnect();
    window.removeEventListener("resize", this.onWindow);
  }
}
