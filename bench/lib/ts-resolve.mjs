// Lets the benchmarks import the service's TypeScript directly (Node 22 strips the types): src/ imports its own
// modules without an extension, as bundlers resolve them, so a relative specifier that is not found is retried
// with ".ts" (a directory with "/index.ts"). Import this module before any dynamic import of src/.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && /^\\.\\.?\\//.test(specifier) && !/\\.[cm]?[jt]s$/.test(specifier))
      return next(specifier + ".ts", context);
    if (error?.code === "ERR_UNSUPPORTED_DIR_IMPORT" && /^\\.\\.?\\//.test(specifier)) return next(specifier + "/index.ts", context);
    throw error;
  }
}`)}`,
);
