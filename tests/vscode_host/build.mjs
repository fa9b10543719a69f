// Build the VS Code host page into dist/: the page, requirejs, VS Code's ipywidgets 8 manager
// (copied as published) and host.js (@jupyterlab/services bundled).   npm run build
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, "dist");
fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist);

await esbuild.build({
  entryPoints: [path.join(here, "src/host.js")],
  outfile: path.join(dist, "host.js"),
  bundle: true,
  format: "iife",
  platform: "browser",
  target: ["chrome100"],
  logLevel: "warning",
});
const copies = {
  "src/index.html": "index.html",
  "src/host.css": "host.css",
  "node_modules/requirejs/require.js": "require.js",
  "node_modules/@vscode/jupyter-ipywidgets8/dist/ipywidgets.js": "ipywidgets.js",
};
for (const [from, to] of Object.entries(copies)) fs.copyFileSync(path.join(here, from), path.join(dist, to));
console.log(`built ${path.relative(process.cwd(), dist) || "dist"}: ${fs.readdirSync(dist).join(", ")}`);
