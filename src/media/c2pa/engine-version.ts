/**
 * The C2PA engine as verification evidence names it (`engine`): the @contentauth/c2pa-wasm release pinned in
 * package.json. Kept apart from engine.ts so that recording it does not load the engine; change both together.
 */
export const C2PA_ENGINE = "c2pa-wasm 0.13.3";
