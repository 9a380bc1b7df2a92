/**
 * Lets the npm audio decoders load in workerd. @wasm-audio-decoders/common defines its Web Worker wrapper when it is
 * loaded, as `class extends (globalThis.Worker || require("@eshaz/web-worker"))`, and that package's browser build is
 * `module.exports = Worker`: in workerd, which has no Worker, loading throws "Worker is not defined". We never use
 * the wrapper. While the packages load, `Worker` is this class, which cannot be constructed: npm-decoders.ts imports
 * this module before them (a side-effect import: ESM evaluates imports in order) and removes it once they are loaded.
 */
export class UnavailableWorker {
  constructor() {
    throw new Error("Web Workers are not available here (a placeholder for the audio decoders' loading)");
  }
}

const g = globalThis as { Worker?: unknown };
if (typeof g.Worker === "undefined") g.Worker = UnavailableWorker;
