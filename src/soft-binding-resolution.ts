// #14 merge shim: the resolution API now lives in src/soft-bindings/. Delete this file once src/app.ts imports
// `./soft-bindings` (that file is edited by another branch of the restructure).
export { BY_CONTENT_PATH, RESOLUTION_PREFIX, softBindingResolutionRoutes } from "./soft-bindings";
