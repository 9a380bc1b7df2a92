import { beforeAll, describe, expect, it } from "vitest";
import { admissionBody, admit, appAttestDevice } from "../capture/admission-helpers";
import { enrolledIdentity } from "../capture/helpers";
import { api, createTenant, fixture, json, signUploaded, type TestTenant } from "../support/helpers";
import { label, servedOperations } from "./openapi-operations";

/*
 * Red-team review (round 16): the isolation matrix covers ids in paths and bodies; lists also take ids as query filters
 * (`?api_key_id=`, `?asset_id=`, `?capture_identity_id=`, the audit's `?actor_id=` and `?target_id=`). Tenant B (a key
 * holding every scope, that never named A's ids before) filtering a list by A's id must get exactly what a filter
 * naming nothing gets: the same status and no rows, and never an id of A's. Generated from the served `/openapi.json`:
 * a new id filter fails the test until it gets an id of A's here.
 */

/** Query parameters ending in `_id` that name no tenant's resource. */
const NOT_TENANT_OWNED: Record<string, string> = { recipe_id: "the recipe catalog is the system's" };

const isIdFilter = (q: string) => /_id$/.test(q) && !(q in NOT_TENANT_OWNED);

let owner: TestTenant;
let intruder: TestTenant;
const ids: Record<string, string> = {};

beforeAll(async () => {
  owner = await createTenant({ name: "owner" });
  intruder = await createTenant({ name: "intruder" });
  const { assetId, job } = await signUploaded(owner.key, fixture("sample.png"), "image/png");
  ids.asset_id = assetId;
  ids.job_id = job.job_id;
  const key = await api("/v1/api-keys", { method: "POST", key: owner.key, body: { name: "victim", scopes: ["identity:read"] } });
  expect(key.status).toBe(201);
  ids.api_key_id = (await json(key)).api_key.api_key_id;
  // A's key makes requests (so request logs and the audit hold rows naming it) and a capture admission.
  expect((await api("/v1/me", { key: owner.key })).status).toBe(200);
  ids.capture_identity_id = (await enrolledIdentity(owner.key)).capture_identity_id;
  const admitted = await admit(owner.key, await admissionBody(owner.key, await appAttestDevice(owner.key)));
  expect(admitted.status).toBe(201);
  // The audit's actor is A's own key (its writes above), its target A's asset (the sign).
  ids.actor_id = owner.keyId;
  ids.target_id = assetId;
  // Every filter names rows of A's for A itself: the check below is not vacuous.
  for (const [path, name] of [
    ["/v1/receipts", "asset_id"],
    ["/v1/receipts", "job_id"],
    ["/v1/governance/audit", "actor_id"],
  ] as const) {
    const res = await api(`${path}?${name}=${ids[name]}`, { key: owner.key });
    expect(res.status).toBe(200);
    expect((await json(res)).items.length, `${path}?${name}`).toBeGreaterThan(0);
  }
}, 180_000);

describe("campaign: tenant isolation over list filters naming an id", () => {
  it("B filtering any list by A's id gets what a filter naming nothing gets, and none of A's rows or ids", async () => {
    const lists = (await servedOperations()).filter((op) => op.method === "GET" && !op.anonymous && op.query.some(isIdFilter));
    const failures: string[] = [];
    let filters = 0;
    for (const op of lists) {
      for (const name of op.query.filter(isIdFilter)) {
        const theirs = ids[name];
        if (!theirs) {
          failures.push(`${label(op)} ?${name}: no id of A's to filter by (add one above)`);
          continue;
        }
        filters++;
        const absent = `${theirs.split("_")[0]}_qqqqqqqqqqqqqqqq`;
        const path = op.path.replace(/\{[^}]+\}/g, "x");
        const call = (id: string) => api(`${path}?${name}=${encodeURIComponent(id)}`, { key: intruder.key });
        const missing = await call(absent);
        const attacked = await call(theirs);
        const [missingText, attackedText] = [await missing.text(), await attacked.text()];
        const shape = (t: string) => {
          try {
            const body = JSON.parse(t);
            return Array.isArray(body.items)
              ? `items:${body.items.length}`
              : (body.code ?? JSON.stringify(body).replace(/"[a-z]+_[a-z2-7]{16}"|"\d{4}-\d\d-\d\dT[^"]*"/g, "_"));
          } catch {
            return t.slice(0, 40);
          }
        };
        if (attacked.status !== missing.status || shape(attackedText) !== shape(missingText))
          failures.push(
            `${label(op)} ?${name}=A's → ${attacked.status} ${attackedText.slice(0, 200)}; nothing → ${missing.status} ${missingText.slice(0, 200)}`,
          );
        for (const [kind, id] of Object.entries(ids))
          if (id !== theirs && attackedText.includes(id)) failures.push(`${label(op)} ?${name}: shows A's ${kind}`);
      }
    }
    expect(filters).toBeGreaterThanOrEqual(7);
    expect(failures).toEqual([]);
  });
});
