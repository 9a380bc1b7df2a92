/**
 * The C2PA engine inside workerd. wrangler and the vitest plugin load `.wasm` imports as compiled
 * WebAssembly.Module objects (workerd forbids compiling wasm from bytes at run time). Kept apart from engine.ts
 * so that Node code, which cannot import a `.wasm` module, never loads this file.
 */
import c2paWasm from "@contentauth/c2pa-wasm/c2pa.wasm";
import { initC2paEngine } from "./engine";

/** Instantiates the engine in this isolate if not done yet (about 9 MB of wasm; first call only). */
export function ensureC2paEngine(): void {
  initC2paEngine(c2paWasm);
}
