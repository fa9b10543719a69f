// The webview side of a VS Code notebook, reduced to rendering ipywidget outputs of one kernel
// the way vscode-jupyter's webview-side ipywidgets code does it:
//   - two connections to the kernel: `cells` stands in for the extension host (it runs cells and
//     leaves comms alone); `webview` is the connection the widget manager owns (VS Code's proxy
//     kernel is a @jupyterlab/services KernelConnection too, fed over postMessage)
//   - ipywidgets 8: vscIPyWidgets8.load() defines the base modules with AMD define and exposes
//     vscIPyWidgets.WidgetManager(kernel, element, scriptLoader, logger)
//   - third-party widget modules are looked up on demand (scriptLoader.loadWidgetScript) and
//     registered as requirejs paths; the test supplies the paths the extension host would find
//     in the kernel environment's share/jupyter/nbextensions
//   - an output is rendered only after the webview connection saw its display message
//     (the comm_open precedes it on that socket): get_model -> create_view -> display_view
import { KernelManager, ServerConnection } from "@jupyterlab/services";

const WIDGET_MIME = "application/vnd.jupyter.widget-view+json";
const log = [];
const failures = [];
const shown = new Map(); // model_id -> {promise, resolve, reject}
let cells;
let manager;

function pending(modelId) {
  if (!shown.has(modelId)) {
    const entry = {};
    entry.promise = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
    shown.set(modelId, entry);
  }
  return shown.get(modelId);
}

function scriptLoader(widgetScripts) {
  const registered = new Set();
  return {
    widgetsRegisteredInRequireJs: registered,
    async loadWidgetScript(moduleName, moduleVersion) {
      const uri = widgetScripts[moduleName];
      log.push(`script source for ${moduleName}@${moduleVersion}: ${uri || "none"}`);
      if (!uri) return;
      window.requirejs.config({ paths: { [moduleName]: uri.replace(/\.js$/, "") } });
      registered.add(moduleName);
    },
    successHandler: (className, moduleName, moduleVersion) =>
      log.push(`loaded ${moduleName}@${moduleVersion} ${className}`),
    errorHandler: (className, moduleName, moduleVersion, error) =>
      failures.push(`${moduleName}@${moduleVersion} ${className}: ${error}`),
  };
}

async function onIOPub(_kernel, msg) {
  const type = msg.header.msg_type;
  const data = (type === "display_data" || type === "execute_result") && msg.content.data[WIDGET_MIME];
  if (!data) return;
  const entry = pending(data.model_id);
  try {
    await manager.get_model(data.model_id);
    entry.resolve();
  } catch (error) {
    entry.reject(error);
  }
}

async function start({ widgetScripts }) {
  const serverSettings = ServerConnection.makeSettings({ baseUrl: new URL("/", location.href).href });
  const kernels = new KernelManager({ serverSettings });
  await kernels.ready;
  cells = await kernels.startNew({ name: "python3" }, { handleComms: false });
  const webview = kernels.connectTo({ model: cells.model, handleComms: true });

  // what vscode-jupyter's requirejs registry configures before registering widget scripts
  window.requirejs.config({ map: { "*": { "jupyter-js-widgets": "@jupyter-widgets/base" } } });
  window.vscIPyWidgets8.load();
  const { WidgetManager } = window.vscIPyWidgets;
  const output = document.getElementById("output");
  manager = new WidgetManager(webview, output, scriptLoader(widgetScripts), (m) => log.push(m));
  webview.iopubMessage.connect(onIOPub);
  const info = await cells.info;
  return { kernelId: cells.id, language: info.language_info.name };
}

async function execute(code) {
  const future = cells.requestExecute({ code, store_history: true });
  const outputs = [];
  future.onIOPub = (msg) => {
    if (["display_data", "execute_result", "stream", "error"].includes(msg.header.msg_type)) {
      outputs.push({ output_type: msg.header.msg_type, ...msg.content });
    }
  };
  const reply = await future.done;
  return { status: reply.content.status, outputs };
}

async function render(data) {
  if (data.version_major !== 2) throw new Error(`not an ipywidgets 8 output: ${JSON.stringify(data)}`);
  await pending(data.model_id).promise;
  const model = await manager.get_model(data.model_id);
  const el = document.createElement("div");
  el.className = "cell-output-ipywidget-background";
  document.getElementById("output").appendChild(el);
  const view = await manager.create_view(model, { el });
  await manager.display_view(data, view, { node: el });
  return model.get("_model_module");
}

window.vscodeHost = { start, execute, render, log, failures };
