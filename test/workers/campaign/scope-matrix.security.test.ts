import { describe, expect, it } from "vitest";
import { ALL_SCOPES, type Scope } from "../../../src/platform/auth/scopes";
import { FORBIDDEN_SCOPE_DETAIL } from "../../../src/platform/errors";
import { api, createTenant } from "../support/helpers";
import { absentValue, fillPath, label, servedOperations } from "./openapi-operations";

/**
 * The scope matrix (#22), generated from the served `/openapi.json`: every operation that names a scope
 * (`x-svc-scope`), called with a key holding every scope but that one, answers 403 with the stable scope detail,
 * before it looks at anything else (path ids that name nothing, an empty body). A new scoped operation joins by
 * being served; an operation naming a scope outside the vocabulary fails. Operations whose scope the route checks
 * (`x-svc-scope-check: route`: public lookups a key may narrow to its tenant) are never refused for the scope when
 * the request does not narrow; their 403 for `scope=tenant` needs a valid lookup and is pinned in
 * test/workers/soft-bindings/soft-binding-resolution.security.test.ts.
 */
describe("campaign: scope matrix over every scoped operation", () => {
  it("a key lacking exactly the operation's scope is refused with 403, whatever the request carries", async () => {
    const operations = (await servedOperations()).filter((op) => op.scope !== null);
    expect(operations.length).toBeGreaterThan(90);
    const keys = new Map<string, string>();
    const failures: string[] = [];
    for (const op of operations) {
      const scope = op.scope as Scope;
      if (!ALL_SCOPES.includes(scope)) {
        failures.push(`${label(op)}: scope ${scope} is not in the vocabulary`);
        continue;
      }
      let key = keys.get(scope);
      if (!key) {
        key = (await createTenant({ scopes: ALL_SCOPES.filter((s) => s !== scope), name: `lacks ${scope}` })).key;
        keys.set(scope, key);
      }
      const values = Object.fromEntries(op.params.map((p) => [p.name, absentValue(p)]));
      const res = await api(fillPath(op.path, values), {
        method: op.method,
        key,
        ...(op.body ? { body: {} } : {}),
        headers: { "idempotency-key": crypto.randomUUID() },
      });
      const text = await res.text();
      if (op.scopeCheckedByRoute) {
        if (res.status === 403) failures.push(`${label(op)} without ${scope}, not narrowed to the tenant: refused ${text.slice(0, 160)}`);
        continue;
      }
      if (res.status !== 403 || JSON.parse(text).detail !== FORBIDDEN_SCOPE_DETAIL) {
        failures.push(`${label(op)} without ${scope}: ${res.status} ${text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
