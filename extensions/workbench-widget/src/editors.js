// CodeMirror 6 editors for the two source panes: line numbers, highlighting through the
// shared tok-* classes, `data-line` on every rendered line, linked-line decorations, lint
// markers (build errors, a draft's reasons) and a line-wrapping switch.

import { Compartment, EditorState, Prec, RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration, EditorView, ViewPlugin, drawSelection, highlightActiveLine,
  highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers, placeholder, tooltips,
} from "@codemirror/view";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { classHighlighter } from "@lezer/highlight";
import { forEachDiagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { python } from "@codemirror/lang-python";
import { rust } from "@codemirror/lang-rust";

/** Effect carrying {lines: number[], origin: number|null}: the lines to mark `wb-linked`. */
export const setLinked = StateEffect.define();

const linkedMark = Decoration.line({ class: "wb-linked" });
const originMark = Decoration.line({ class: "wb-linked wb-link-origin" });

const linkedField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setLinked)) continue;
      const { lines, origin } = effect.value;
      const builder = new RangeSetBuilder();
      const doc = tr.state.doc;
      for (const n of [...new Set(lines)].sort((a, b) => a - b)) {
        if (n < 1 || n > doc.lines) continue;
        builder.add(doc.line(n).from, doc.line(n).from, n === origin ? originMark : linkedMark);
      }
      deco = builder.finish();
    }
    return deco;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** `data-line="N"` on every rendered .cm-line (CodeMirror only renders the viewport). */
const lineNumberAttrs = ViewPlugin.fromClass(
  class {
    constructor(view) { this.decorations = this.build(view); }
    update(u) {
      if (u.docChanged || u.viewportChanged) this.decorations = this.build(u.view);
    }
    build(view) {
      const builder = new RangeSetBuilder();
      const { doc } = view.state;
      const { from, to } = view.viewport;
      for (let n = doc.lineAt(from).number, last = doc.lineAt(to).number; n <= last; n++) {
        const line = doc.line(n);
        builder.add(line.from, line.from,
          Decoration.line({ attributes: { "data-line": String(n) } }));
      }
      return builder.finish();
    }
  },
  { decorations: (v) => v.decorations },
);

const wrapping = new Compartment();

const baseTheme = EditorView.theme({
  "&": { height: "100%", fontSize: "var(--wb-font-size)", backgroundColor: "transparent" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "var(--wb-mono)", lineHeight: "1.45", overflow: "auto" },
  ".cm-gutters": {
    backgroundColor: "var(--wb-gutter-bg)", color: "var(--wb-muted)",
    borderRight: "1px solid var(--wb-border)",
  },
  ".cm-content": { caretColor: "var(--wb-fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--wb-fg)" },
  ".cm-activeLine": { backgroundColor: "var(--wb-active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--wb-active-line)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--wb-selection) !important",
  },
});

function lineOfEvent(view, event) {
  const target = event.target instanceof Element ? event.target : null;
  const lineEl = target && target.closest(".cm-line");
  if (!lineEl || !view.contentDOM.contains(lineEl)) return null;
  try {
    return view.state.doc.lineAt(view.posAtDOM(lineEl, 0)).number;
  } catch (_) {
    return null;
  }
}

/**
 * Make an editor. opts: parent, doc, language ("python" | "rust"), readOnly,
 * onHover(line|null), onClick(line), onSave(text), onChange(view).
 */
export function makeEditor(opts) {
  const { parent, doc = "", language, readOnly = false } = opts;
  let lastHover = null;
  const hover = (line) => {
    if (line === lastHover) return;
    lastHover = line;
    if (opts.onHover) opts.onHover(line);
  };
  const extensions = [
    wrapping.of(opts.wrap ? EditorView.lineWrapping : []),
    lintGutter(),
    // tooltips (rustc's messages) in the page, not clipped by the pane's edges
    tooltips({ parent: document.body }),
    opts.placeholder ? placeholder(opts.placeholder) : [],
    lineNumbers(),
    highlightSpecialChars(),
    drawSelection(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    bracketMatching(),
    highlightSelectionMatches(),
    syntaxHighlighting(classHighlighter),
    language === "python" ? python() : rust(),
    indentUnit.of("    "),
    baseTheme,
    linkedField,
    lineNumberAttrs,
    // openAtLine places a line again as lines are measured
    EditorView.updateListener.of((u) => {
      if ((u.geometryChanged || u.heightChanged) && u.view.onGeometry) u.view.onGeometry();
    }),
    EditorView.domEventHandlers({
      mousemove: (event, view) => { hover(lineOfEvent(view, event)); },
      mouseleave: () => { hover(null); },
      click: (event, view) => {
        const line = lineOfEvent(view, event);
        if (line !== null && opts.onClick) opts.onClick(line);
      },
    }),
  ];
  if (readOnly) {
    extensions.push(EditorState.readOnly.of(true), EditorView.editable.of(false),
      keymap.of([...searchKeymap, ...defaultKeymap]));
  } else {
    extensions.push(
      Prec.highest(keymap.of([{
        key: "Mod-s",
        preventDefault: true,
        stopPropagation: true,
        run: (view) => { if (opts.onSave) opts.onSave(view.state.doc.toString()); return true; },
      }])),
      history(),
      indentOnInput(),
      keymap.of([indentWithTab, ...searchKeymap, ...historyKeymap, ...defaultKeymap]),
      EditorView.updateListener.of((u) => { if (u.docChanged && opts.onChange) opts.onChange(u.view); }),
    );
  }
  return new EditorView({ parent, state: EditorState.create({ doc, extensions }) });
}

/** Replace the document with `text`, changing only the differing middle (keeps the cursor
 *  and scroll position where the text around them is unchanged; stays undoable). */
export function replaceDoc(view, text) {
  const old = view.state.doc.toString();
  if (old === text) return false;
  let a = 0;
  const max = Math.min(old.length, text.length);
  while (a < max && old.charCodeAt(a) === text.charCodeAt(a)) a++;
  let b = 0;
  while (b < max - a && old.charCodeAt(old.length - 1 - b) === text.charCodeAt(text.length - 1 - b)) b++;
  view.dispatch({ changes: { from: a, to: old.length - b, insert: text.slice(a, text.length - b) } });
  return true;
}

export function showLinked(view, lines, origin = null) {
  view.dispatch({ effects: setLinked.of({ lines: [...lines], origin }) });
}

export function scrollToLine(view, line) {
  if (!Number.isInteger(line) || line < 1 || line > view.state.doc.lines) return;
  // Scroll only the editor's own scroller (EditorView.scrollIntoView would also move the
  // notebook page around).
  const block = view.lineBlockAt(view.state.doc.line(line).from);
  const scroller = view.scrollDOM;
  const top = block.top + view.documentTop - scroller.getBoundingClientRect().top + scroller.scrollTop;
  if (top < scroller.scrollTop || top + block.height > scroller.scrollTop + scroller.clientHeight) {
    scroller.scrollTop = Math.max(0, top - (scroller.clientHeight - block.height) / 2);
  }
}

/** Show `line` at the top of the editor (two lines above it too). The widget is often drawn
 *  before it is on screen, its panes settle their widths later, and the heights of lines
 *  never drawn are estimates until drawn: so it is placed again whenever the editor's
 *  geometry changes, until the user scrolls or clicks in it. Only the editor scrolls. */
export function openAtLine(view, line) {
  const n = Number(line);
  if (!Number.isInteger(n) || n < 2 || n > view.state.doc.lines) return () => {};
  const scroller = view.scrollDOM;
  const place = () => {
    const top = view.lineBlockAt(view.state.doc.line(Math.max(1, n - 2)).from).top;
    if (scroller.clientHeight > 0 && Math.abs(scroller.scrollTop - top) > 1) scroller.scrollTop = top;
  };
  const stop = () => {
    if (view.onGeometry === place) delete view.onGeometry;
    for (const name of USER_MOVES) scroller.removeEventListener(name, stop);
  };
  for (const name of USER_MOVES) scroller.addEventListener(name, stop, { passive: true });
  view.onGeometry = place;
  place();
  setTimeout(stop, 10_000);
  return stop;
}
const USER_MOVES = ["wheel", "pointerdown", "keydown", "touchstart"];

export function setWrap(view, on) {
  view.dispatch({ effects: wrapping.reconfigure(on ? EditorView.lineWrapping : []) });
}

function messageNode(text) {
  const pre = document.createElement("pre");
  pre.className = "wb-lint-message";
  pre.textContent = text;
  return pre;
}

/** Show `items` ({line, column, severity, message, rendered}) as lint markers: an underline
 *  from the column to the end of the line, a gutter mark, the full message on hover. */
export function setLint(view, items) {
  const doc = view.state.doc;
  const diagnostics = [];
  for (const item of items || []) {
    const n = Number(item.line);
    if (!Number.isInteger(n) || n < 1 || n > doc.lines) continue;
    const line = doc.line(n);
    let from = Math.min(line.to, line.from + Math.max(0, (Number(item.column) || 1) - 1));
    if (from >= line.to) from = line.from;
    const text = item.rendered || item.message || "";
    diagnostics.push({
      from, to: Math.max(from, line.to), severity: item.severity || "error",
      source: item.source, message: item.message || text, renderMessage: () => messageNode(text),
    });
  }
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

/** The lint markers now shown: [{line, severity, message}] (for tests). */
export function lintLines(view) {
  const out = [];
  forEachDiagnostic(view.state, (d, from) => {
    out.push({ line: view.state.doc.lineAt(from).number, severity: d.severity, message: d.message });
  });
  return out;
}
