// Tiny DOM helpers: h("div.cls1.cls2", {attrs}, children...).

export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split(".");
  const node = document.createElement(tag || "div");
  if (classes.length) node.className = classes.join(" ");
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = String(value);
      else if (key.startsWith("on") && typeof value === "function") {
        node.addEventListener(key.slice(2).toLowerCase(), value);
      } else node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** Scroll `child` into view inside `container` only (never the notebook page). */
export function scrollWithin(container, child, center = true) {
  if (!container || !child) return;
  const c = container.getBoundingClientRect();
  const r = child.getBoundingClientRect();
  const top = r.top - c.top + container.scrollTop;
  if (r.top >= c.top && r.bottom <= c.bottom) return;
  container.scrollTop = center ? top - (container.clientHeight - r.height) / 2 : top;
}

/** schedule(fn) -> a handler that runs fn once per microtask, however often it fires
 *  (several traits usually change together: one re-render for all of them). */
export function coalescer() {
  const pending = new Set();
  let scheduled = false;
  return (fn) => () => {
    pending.add(fn);
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      const fns = [...pending];
      pending.clear();
      for (const f of fns) f();
    });
  };
}
