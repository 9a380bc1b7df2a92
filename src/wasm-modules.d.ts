// wrangler and the vitest plugin load `.wasm` imports as compiled WebAssembly.Module objects.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
