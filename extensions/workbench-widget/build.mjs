// Bundle the widget into workbench/ui/static/widget.js (+ widget.css): one self-contained
// ES module with CodeMirror inside, nothing fetched at run time.
//   npm run build            (from extensions/workbench-widget)
//   npm run build -- --dev   unminified, with inline source maps
//   npm run watch
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";
import fs from "node:fs";

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, "../../workbench/ui/static");
const dev = process.argv.includes("--dev");
const watch = process.argv.includes("--watch");
const LIMIT = 600 * 1024;

const common = { logLevel: "info", minify: !dev, legalComments: "none", target: ["es2020", "chrome100", "firefox100", "safari15"] };
const jsOptions = {
  ...common,
  entryPoints: [path.join(here, "src/index.js")],
  outfile: path.join(outDir, "widget.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  sourcemap: dev ? "inline" : false,
  metafile: true,
};
const cssOptions = {
  ...common,
  entryPoints: [path.join(here, "src/widget.css")],
  outfile: path.join(outDir, "widget.css"),
  bundle: true,
};

fs.mkdirSync(outDir, { recursive: true });
if (watch) {
  for (const options of [jsOptions, cssOptions]) await (await esbuild.context(options)).watch();
} else {
  const result = await esbuild.build(jsOptions);
  await esbuild.build(cssOptions);
  const size = fs.statSync(jsOptions.outfile).size;
  console.log(`widget.js: ${(size / 1024).toFixed(1)} KiB${dev ? " (dev)" : ""}`);
  if (!dev && size > LIMIT) {
    console.error(`widget.js is over ${LIMIT / 1024} KiB`);
    process.exit(1);
  }
  if (process.argv.includes("--analyze")) console.log(await esbuild.analyzeMetafile(result.metafile));
}
