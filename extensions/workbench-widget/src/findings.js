// What a finding of the IR diff says, for a reader: what the Python side has, what the port
// has, and one line on what that difference means for the port.

const MEANING = {
  padding_value: "Out-of-bounds elements load as another value: results differ wherever a tile crosses the edge.",
  tile_shape: "The tiles have another shape: the port reads or writes other elements.",
  reduction_identity: "The reduction starts from another identity value: its results differ.",
  reduction_dim: "The reduction runs over another dimension: its results differ.",
  reduction_kind: "The reduction body computes something else (e.g. max instead of sum).",
  constant_value: "A constant has another value: the results differ.",
  types: "Element types differ: the port computes in another precision, or on other data.",
  store: "A store is missing or extra: the port writes other memory.",
  memory: "A memory operation is missing or extra: the port reads or writes other data.",
  control_flow: "A loop or branch is missing, extra or different: the port runs other code.",
  loop_bounds: "A loop's bounds come from other values: it runs a different number of times.",
  mma: "A matrix multiply-accumulate is missing or extra.",
  mma_operands: "The matrix multiply reads other operands: the product differs.",
  dataflow: "An op reads other values on the two sides: the computation is wired differently.",
  block_id: "Block indices are used differently: each block may work on other data.",
  op: "An arithmetic op is missing or extra: the computation differs.",
  attributes: "An op's attributes differ.",
  signature: "The kernels take different parameters: the launch passes other arguments.",
  div_by: "What is assumed about alignment or divisibility differs: the side that assumes less may get narrower loads and stores (see SASS).",
  assume: "What is assumed about an operand differs: it may change the code the compiler picks.",
  bounded: "A range fact differs; the compiler derives it anyway (noise).",
  latency: "A latency hint differs: scheduling only, the results are the same.",
  allow_tma: "Whether this access may use TMA differs: speed, not results.",
  optimization_hints: "The kernel's hints (occupancy, warps) differ: speed, not results.",
  unused_arguments: "Parameters no op reads: harmless.",
  token: "Memory-ordering tokens differ: harmless here (noise).",
  reordered: "The same ops in another order: harmless (noise).",
};
const BY_CATEGORY = {
  critical: "The two kernels compute different things: fix the port.",
  arithmetic: "The arithmetic differs: results may differ.",
  hint: "A performance hint differs: results are the same, speed may not be.",
  noise: "Known noise: it never changes the verdict.",
};

export function meaning(f) {
  return MEANING[f.kind] || BY_CATEGORY[f.category] || "";
}

/** "7.680000e+02" -> "768": a constant's value as a reader writes it. */
function number(text) {
  const value = Number(text);
  return /e[+-]\d+$/i.test(text) && Number.isFinite(value) ? String(value) : text;
}

const CHANGE = /^(`[^`]+`[^:]*?):\s+(.*?)\s+->\s+(.*)$/;

/** {subject, python, port}: the two sides of a finding, from its detail ("`op`: A -> B")
 *  or, for an op on one side only, from that side's IR line. */
export function sides(f) {
  const m = CHANGE.exec(String(f.detail || ""));
  if (m && f.kind === "constant_value") return { subject: m[1], python: number(m[2]), port: number(m[3]) };
  if (m) {
    return { subject: m[1], python: m[2].replace(/^assumes\s+/, ""), port: m[3] };
  }
  const left = f.left && f.left.text;
  const right = f.right && f.right.text;
  if (/missing in the port$/.test(f.detail || "") && left) return { subject: "", python: left, port: "(nothing)" };
  if (/extra in the port$/.test(f.detail || "") && right) return { subject: "", python: "(nothing)", port: right };
  return null;
}

/** Findings of a `workbench.diff/1` report, flattened for the views. */
export function flatFindings(report) {
  const list = report && Array.isArray(report.findings) ? report.findings : [];
  return list.filter((f) => f && typeof f === "object").map((f) => ({
    ...f,
    left_line: f.left ? f.left.ir_line ?? null : null,
    right_line: f.right ? f.right.ir_line ?? null : null,
    source_line: f.left ? f.left.source_line ?? null : null,
    port_line: f.right ? f.right.source_line ?? null : null,
  }));
}

function sameFile(a, b) {
  const clean = (p) => String(p || "").replace(/^\.\//, "");
  const [x, y] = [clean(a), clean(b)];
  return Boolean(x && y) && (x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`));
}

/** IR line -> source line, for the locations (`{ir_line: [file, line, col]}`) in `file`. */
export function linesIn(locations, file) {
  const out = {};
  for (const [ir, loc] of Object.entries(locations || {})) {
    if (Array.isArray(loc) && sameFile(loc[0], file)) out[ir] = loc[1];
  }
  return out;
}
