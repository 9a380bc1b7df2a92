import { api, json } from "../support/helpers";

/**
 * The served contract as a list of operations, for the campaign's generated matrices (#22): every method + path of
 * `/openapi.json`, its scope (`x-svc-scope`), whether it is a capability URL (`x-svc-capability`), its path
 * parameters with their patterns, and whether it takes a body. A new operation joins every matrix by being served.
 */
export interface Operation {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  scope: string | null;
  /** `x-svc-scope-check: route`: the scope gates only the tenant-narrowed variant; without it the key is served the public answer. */
  scopeCheckedByRoute: boolean;
  capability: boolean;
  /** Operations that need no credential at all (`security: []`). */
  anonymous: boolean;
  params: { name: string; pattern: string | null; type: string | null }[];
  /** Names of its query parameters. */
  query: string[];
  body: "json" | "multipart" | "other" | null;
}

let cached: Promise<Operation[]> | undefined;

export function servedOperations(): Promise<Operation[]> {
  cached ??= (async () => {
    const doc = await json(await api("/openapi.json"));
    const operations: Operation[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of ["get", "post", "put", "patch", "delete"] as const) {
        const op = item[method];
        if (!op) continue;
        const params = [...(item.parameters ?? []), ...(op.parameters ?? [])]
          .filter((p: any) => p.in === "path")
          .map((p: any) => ({
            name: p.name as string,
            pattern: (p.schema?.pattern as string) ?? null,
            type: (p.schema?.type as string) ?? null,
          }));
        const query = [...(item.parameters ?? []), ...(op.parameters ?? [])]
          .filter((p: any) => p.in === "query")
          .map((p: any) => p.name as string);
        const content = op.requestBody?.content ? Object.keys(op.requestBody.content) : [];
        const body =
          content.length === 0
            ? null
            : content.includes("application/json")
              ? "json"
              : content.some((c) => c.startsWith("multipart/"))
                ? "multipart"
                : "other";
        operations.push({
          method: method.toUpperCase() as Operation["method"],
          path,
          scope: op["x-svc-scope"] ?? null,
          scopeCheckedByRoute: op["x-svc-scope-check"] === "route",
          capability: op["x-svc-capability"] === true,
          anonymous: Array.isArray(op.security) && op.security.length === 0,
          params,
          query,
          body,
        });
      }
    }
    return operations;
  })();
  return cached;
}

/** `/v1/jobs/{job_id}` with its parameters filled in. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
}

/**
 * A well-formed value for a path parameter that names nothing: an id matching its pattern (`^job_[a-z2-7]{16}$` →
 * `job_` + 16 letters), a number for integers, else a plain token.
 */
export function absentValue(param: Operation["params"][number]): string {
  const prefix = param.pattern?.match(/^\^([a-z]+_)\[a-z2-7\]\{(\d+)\}\$$/);
  if (prefix) return prefix[1] + "q".repeat(Number(prefix[2]));
  if (param.type === "integer") return "1";
  return "qqqqqqqqqqqqqqqq";
}

export const label = (op: Operation) => `${op.method} ${op.path}`;
