// A small Tile IR tokenizer (the text printed by `tileirdisasm -g` and normalized by the
// workbench). Token types reuse the `tok-*` class names of @lezer/highlight's
// classHighlighter, so the IR and the two CodeMirror editors share one colour scheme.

const KEYWORDS = new Set([
  "entry", "func", "module", "global", "for", "in", "step", "iter_values", "loop",
  "reduce", "scan", "yield", "return", "if", "else", "continue", "break", "weak",
  "strong", "token", "identities", "dim", "reverse",
]);
const TYPE_HEADS = new Set(["tile", "tensor_view", "partition_view", "ptr", "view"]);
const SCALAR_TYPE = /^(?:[fiu](?:1|8|16|32|64)|bf16|tf32|f8e4m3(?:fn)?|f8e5m2|i1|index)$/;

const RULES = [
  ["tok-comment", /^\/\/.*/],
  ["tok-meta", /^loc\((?:[^()"]|"[^"]*"|\((?:[^()"]|"[^"]*")*\))*\)/],
  ["tok-string", /^"(?:[^"\\]|\\.)*"/],
  ["tok-variableName", /^%[A-Za-z0-9_.$#-]+(?::\d+)?/],
  ["tok-variableName2", /^@[A-Za-z0-9_.$]+/],
  ["tok-number", /^-?0x[0-9A-Fa-f]+\b/],
  ["tok-number", /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![A-Za-z_])/],
  ["tok-typeName", /^(?:\?|\d+)(?:x(?:\?|\d+))*x(?:[fiu]\d+|bf16|tf32|f8e4m3(?:fn)?|f8e5m2)\b/],
  ["word", /^[A-Za-z_][A-Za-z0-9_.]*/],
  ["tok-operator", /^(?:->|=|:|\*)/],
  ["tok-punctuation", /^[()[\]{}<>,]/],
  ["space", /^\s+/],
];

/** Length of a balanced `<...>` starting at text[i] === "<", or 0. */
function angleSpan(text, i) {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const ch = text[j];
    if (ch === "<") depth++;
    else if (ch === ">" && text[j - 1] !== "-") {
      depth--;
      if (depth === 0) return j - i + 1;
    }
  }
  return 0;
}

/** Split one line of Tile IR into [{cls, text}] (cls is "" for plain text). */
export function tokenizeTileIR(line) {
  const out = [];
  let i = 0;
  let sawEquals = false;
  let sawOp = false;
  const push = (cls, text) => {
    const last = out[out.length - 1];
    if (last && last.cls === cls) last.text += text;
    else out.push({ cls, text });
  };
  while (i < line.length) {
    const rest = line.slice(i);
    let matched = false;
    for (const [cls, re] of RULES) {
      const m = re.exec(rest);
      if (!m) continue;
      let text = m[0];
      let kind = cls;
      if (cls === "word") {
        if (TYPE_HEADS.has(text) && line[i + text.length] === "<") {
          const span = angleSpan(line, i + text.length);
          if (span) text = line.slice(i, i + text.length + span);
          kind = "tok-typeName";
        } else if (KEYWORDS.has(text)) {
          kind = "tok-keyword";
          if (!sawOp && (sawEquals || /^\s*$/.test(line.slice(0, i)))) sawOp = true;
        } else if (SCALAR_TYPE.test(text)) {
          kind = "tok-typeName";
        } else if (!sawOp && (sawEquals || /^\s*$/.test(line.slice(0, i)))) {
          kind = "tok-macroName"; // the op name
          sawOp = true;
        } else if (line[i + text.length] === "<" || line[i + text.length] === "=") {
          kind = "tok-propertyName"; // attribute: div_by<16>, dim=1, shape = [...]
        } else if (/^\s*=/.test(line.slice(i + text.length))) {
          kind = "tok-propertyName";
        } else {
          kind = "tok-atom"; // neg_inf, weak, ...
        }
      } else if (cls === "tok-operator" && text === "=") {
        sawEquals = true;
      } else if (cls === "space") {
        kind = "";
      }
      push(kind, text);
      i += text.length;
      matched = true;
      break;
    }
    if (!matched) {
      push("", line[i]);
      i++;
    }
  }
  return out;
}

/** Append the highlighted line to `parent` as spans. */
export function renderTileIR(parent, line) {
  for (const { cls, text } of tokenizeTileIR(line)) {
    if (!cls) parent.append(document.createTextNode(text));
    else {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      parent.append(span);
    }
  }
}
