import { beforeAll, describe, expect, it } from "vitest";
import { admissionBody, admit, appAttestDevice, challengeFor } from "../capture/admission-helpers";
import { enrolledIdentity, enrolment } from "../capture/helpers";
import { enrolled } from "../creators/helpers";
import { api, createTenant, fixture, json, sha256HexOf, type TestTenant, uploadAsset, waitForJob } from "../support/helpers";
import { createEndpoint, sendTest } from "../support/webhooks.helpers";
import { absentValue, fillPath, label, type Operation, servedOperations } from "./openapi-operations";

/**
 * The tenant isolation matrix (#22), generated from the served `/openapi.json`. Tenant A owns one resource of every
 * kind a path can name; tenant B (a key holding every scope) calls every operation on each of A's ids and must get
 * exactly what an id naming nothing gets (404, the same code), never A's data; every list B can read must not show
 * an id of A's; and afterwards every read of A's resources answers A as it did before B's attempts.
 *
 * A path parameter the matrix cannot classify fails the test: a new kind of id needs its factory here (or a
 * stated reason in NOT_TENANT_OWNED), so new operations cannot silently skip isolation.
 */

/** Path parameters that do not name a tenant's resource, and why isolation does not apply to them. */
const NOT_TENANT_OWNED: Record<string, string> = {
  recipe_id: "the recipe catalog is the system's, the same for every tenant",
  tree_size: "the transparency log is public",
  manifestId: "the C2PA Soft Binding Resolution API serves published manifests publicly",
  part_number: "a part of an upload capability URL (the URL's signature is the authority)",
  capability: "a preview capability (the token is the authority; test/workers/assets covers forgery)",
  token: "a verification share token (the token is the authority; test/workers/verifications covers forgery)",
};

/** Operations whose authority is the URL itself (`x-svc-capability`, or an anonymous token route): no tenant key applies. */
const byPossession = (op: Operation) => op.capability || op.anonymous;

type Ids = Record<string, string>;

/** Creates one resource of every kind for `owner`; returns parameter name → id. */
async function ownResources(owner: TestTenant): Promise<Ids> {
  const ids: Ids = {};
  const idem = () => ({ "idempotency-key": crypto.randomUUID() });
  // A published asset: asset, job, receipt, the publication's verification and its manifest.
  const { assetId } = await uploadAsset(owner.key, fixture("sample.png"), "image/png");
  const signed = await json(
    await api("/v1/sign", {
      method: "POST",
      key: owner.key,
      body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
      headers: idem(),
    }),
  );
  const done = await waitForJob(owner.key, signed.job_id);
  expect(done.state).toBe("completed");
  ids.asset_id = assetId;
  ids.object_id = (await json(await api(`/v1/assets/${assetId}`, { key: owner.key }))).publication.object_id;
  ids.job_id = signed.job_id;
  ids.receipt_id = done.result.receipt_id;
  ids.verification_id = done.result.verification_id;
  ids.manifest_id = (await json(await api(`/v1/receipts/${ids.receipt_id}`, { key: owner.key }))).evidence.manifest.active_manifest_label;
  // An upload left open.
  const bytes = fixture("sample.jpg");
  const upload = await api("/v1/uploads", {
    method: "POST",
    key: owner.key,
    body: { byte_length: bytes.length, declared_media_type: "image/jpeg", mode: "single", sha256: await sha256HexOf(bytes) },
  });
  expect(upload.status).toBe(201);
  ids.upload_id = (await json(upload)).upload_id;
  // Verification evidence: a report and a share.
  const report = await api(`/v1/verification-evidence/${ids.verification_id}/reports`, { method: "POST", key: owner.key });
  expect(report.status).toBe(201);
  ids.report_id = (await json(report)).report_id;
  const share = await api(`/v1/verification-evidence/${ids.verification_id}/shares`, {
    method: "POST",
    key: owner.key,
    body: {},
    headers: idem(),
  });
  expect(share.status).toBe(201);
  ids.share_id = (await json(share)).share_id;
  // A narrow API key.
  const key = await api("/v1/api-keys", { method: "POST", key: owner.key, body: { name: "victim", scopes: ["identity:read"] } });
  expect(key.status).toBe(201);
  ids.api_key_id = (await json(key)).api_key.api_key_id;
  // A webhook endpoint, a test event and its delivery.
  const endpoint = await createEndpoint(owner.key);
  ids.endpoint_id = endpoint.id;
  const test = await sendTest(owner.key, endpoint.id);
  ids.delivery_id = test.delivery_id;
  ids.event_id = test.event_id;
  // A creator identity.
  ids.creator_identity_id = (await enrolled(owner.key, "victim@example.test", "Victim")).creator_id;
  // A capture identity and an admission of a capture.
  ids.capture_identity_id = (await enrolledIdentity(owner.key)).capture_identity_id;
  ids.capture_identity_enrollment_id = (await enrolment(owner.key)).capture_identity_enrollment_id;
  ids.challenge_id = (await challengeFor(owner.key, ids.capture_identity_id!)).challenge_id;
  const device = await appAttestDevice(owner.key);
  const admitted = await admit(owner.key, await admissionBody(owner.key, device));
  expect(admitted.status).toBe(201);
  ids.capture_admission_id = (await json(admitted)).capture_admission_id;
  // Governance: an export, and a deletion (of an asset of its own, so the others stay).
  const exported = await api("/v1/governance/exports", { method: "POST", key: owner.key, headers: idem() });
  expect(exported.status, await exported.clone().text()).toBe(202);
  ids.export_id = (await json(exported)).export_id;
  const doomed = await uploadAsset(owner.key, fixture("sample.png"), "image/png");
  const deletion = await api("/v1/governance/deletions", {
    method: "POST",
    key: owner.key,
    body: { scope: "asset", asset_id: doomed.assetId },
  });
  expect(deletion.status, await deletion.clone().text()).toBe(202);
  ids.deletion_id = (await json(deletion)).deletion_id;
  for (const [name, id] of Object.entries(ids)) expect(typeof id === "string" && id.length > 8, `${name}: ${id}`).toBe(true);
  return ids;
}

/** The operations B attacks: every keyed one with a path parameter naming a tenant's resource. */
async function attacked(): Promise<Operation[]> {
  return (await servedOperations()).filter((op) => !byPossession(op) && op.params.some((p) => !(p.name in NOT_TENANT_OWNED)));
}

/** Body fields naming no tenant's resource (or only referencing one), and why. */
const BODY_NOT_TENANT_OWNED: Record<string, string> = {
  "PUT /v1/api-keys/{api_key_id}/signing-profile allowed_recipe_ids": "recipes are the system's catalog",
  "PUT /v1/api-keys/{api_key_id}/signing-profile default_recipe_id": "recipes are the system's catalog",
  "POST /v1/sign recipe_id": "recipes are the system's catalog",
  "POST /v1/sign/batch items[].recipe_id": "recipes are the system's catalog",
  "POST /v1/feedback asset_id": "a reference checked for its format only, stored with B's own feedback, never read",
  "POST /v1/feedback job_id": "a reference checked for its format only, stored with B's own feedback, never read",
  "POST /v1/feedback verification_id": "a reference checked for its format only, stored with B's own feedback, never read",
};

interface BodyCase {
  /** `METHOD /path field`, as the classification names it. */
  field: string;
  theirs: string;
  absent: string;
  /** A request body that is valid for B in every other respect, naming `id` in `field`. */
  body: (id: string) => unknown;
}

/** One case per body field naming a tenant's resource; every other field is B's own and valid. */
async function bodyCases(): Promise<BodyCase[]> {
  const mine = await uploadAsset(intruder.key, fixture("sample.png"), "image/png");
  const device = await appAttestDevice(intruder.key);
  const admission = await admissionBody(intruder.key, device);
  const enrolmentOfB = await enrolment(intruder.key);
  const sign = "rcp_system_sign_only";
  return [
    {
      field: "POST /v1/sign asset_id",
      theirs: ids.asset_id!,
      absent: "ast_qqqqqqqqqqqqqqqq",
      body: (id) => ({ asset_id: id, recipe_id: sign }),
    },
    {
      field: "POST /v1/sign creator_id",
      theirs: ids.creator_identity_id!,
      absent: "crid_qqqqqqqqqqqqqqqq",
      body: (id) => ({ asset_id: mine.assetId, recipe_id: sign, creator_id: id }),
    },
    {
      field: "POST /v1/sign/batch items[].asset_id",
      theirs: ids.asset_id!,
      absent: "ast_qqqqqqqqqqqqqqqq",
      body: (id) => ({ items: [{ asset_id: id, recipe_id: sign }] }),
    },
    {
      field: "POST /v1/sign/batch items[].creator_id",
      theirs: ids.creator_identity_id!,
      absent: "crid_qqqqqqqqqqqqqqqq",
      body: (id) => ({ items: [{ asset_id: mine.assetId, recipe_id: sign, creator_id: id }] }),
    },
    {
      field: "POST /v1/governance/deletions asset_id",
      theirs: ids.asset_id!,
      absent: "ast_qqqqqqqqqqqqqqqq",
      body: (id) => ({ scope: "asset", asset_id: id }),
    },
    { field: "POST /v1/verify asset_id", theirs: ids.asset_id!, absent: "ast_qqqqqqqqqqqqqqqq", body: (id) => ({ asset_id: id }) },
    {
      field: "POST /v1/verifications object_id",
      theirs: ids.object_id!,
      absent: "aob_qqqqqqqqqqqqqqqq",
      body: (id) => ({ object_id: id }),
    },
    {
      field: "POST /v1/capture-admission-challenges capture_identity_id",
      theirs: ids.capture_identity_id!,
      absent: "cid_qqqqqqqqqqqqqqqq",
      body: (id) => ({ capture_identity_id: id }),
    },
    {
      field: "POST /v1/capture-admissions capture_identity_id",
      theirs: ids.capture_identity_id!,
      absent: "cid_qqqqqqqqqqqqqqqq",
      body: (id) => ({ ...admission, capture_identity_id: id }),
    },
    {
      field: "POST /v1/capture-admissions upload_object_id",
      theirs: ids.object_id!,
      absent: "aob_qqqqqqqqqqqqqqqq",
      body: (id) => ({ ...admission, upload_object_id: id }),
    },
    {
      field: "POST /v1/capture-admissions challenge_id",
      theirs: ids.challenge_id!,
      absent: "cch_qqqqqqqqqqqqqqqq",
      body: (id) => ({ ...admission, challenge_id: id }),
    },
    {
      field: "POST /v1/capture-identities capture_identity_enrollment_id",
      theirs: ids.capture_identity_enrollment_id!,
      absent: "cie_qqqqqqqqqqqqqqqq",
      body: (id) => ({
        capture_identity_enrollment_id: id,
        attestation_kind: "app_attest",
        challenge_secret: enrolmentOfB.challenge_secret,
        statement: "AAAA",
      }),
    },
  ];
}

/** A stable view of a body for before/after comparison: timestamps of use are not the owner's data changing. */
function stable(text: string): string {
  return text.replace(/"(last_used_at|request_id|as_of)":("[^"]*"|null)/g, '"$1":_');
}

let owner: TestTenant;
let intruder: TestTenant;
let ids: Ids;

beforeAll(async () => {
  owner = await createTenant({ name: "owner" });
  intruder = await createTenant({ name: "intruder" });
  ids = await ownResources(owner);
}, 120_000);

describe("campaign: tenant isolation over every operation that names a resource", () => {
  it("every path parameter is classified: a factory makes it, or it is stated not to name a tenant's resource", async () => {
    const names = new Set((await servedOperations()).filter((op) => !byPossession(op)).flatMap((op) => op.params.map((p) => p.name)));
    const unknown = [...names].filter((n) => !(n in NOT_TENANT_OWNED) && !(n in ids));
    expect(unknown).toEqual([]);
  });

  it("tenant B gets what a missing id gets on every operation naming tenant A's resource, and A's reads are unchanged", async () => {
    const operations = await attacked();
    expect(operations.length).toBeGreaterThanOrEqual(50);
    const reads = operations.filter((op) => op.method === "GET");
    const before = new Map<string, string>();
    for (const op of reads) {
      const res = await api(fillPath(op.path, ids), { key: owner.key });
      before.set(label(op), `${res.status} ${stable(await res.text())}`);
    }
    const failures: string[] = [];
    for (const op of operations) {
      const values = { ...ids };
      const absent = Object.fromEntries(
        op.params.map((p) => [p.name, p.name in NOT_TENANT_OWNED ? (ids[p.name] ?? absentValue(p)) : absentValue(p)]),
      );
      for (const p of op.params) if (p.name in NOT_TENANT_OWNED) values[p.name] = absent[p.name]!;
      const call = (path: string) =>
        api(path, {
          method: op.method,
          key: intruder.key,
          ...(op.body ? { body: {} } : {}),
          headers: { "idempotency-key": crypto.randomUUID() },
        });
      const missing = await call(fillPath(op.path, absent));
      const theirs = await call(fillPath(op.path, values));
      const missingText = await missing.text();
      const theirsText = await theirs.text();
      const code = (t: string) => {
        try {
          return JSON.parse(t).code ?? JSON.parse(t).detail;
        } catch {
          return t.slice(0, 40);
        }
      };
      if (theirs.status !== missing.status || code(theirsText) !== code(missingText)) {
        failures.push(
          `${label(op)}: A's id → ${theirs.status} ${theirsText.slice(0, 120)}; a missing id → ${missing.status} ${code(missingText)}`,
        );
      }
      for (const [name, id] of Object.entries(ids)) {
        if (theirsText.includes(id)) failures.push(`${label(op)}: the answer shows A's ${name}`);
      }
    }
    for (const op of reads) {
      const res = await api(fillPath(op.path, ids), { key: owner.key });
      const after = `${res.status} ${stable(await res.text())}`;
      if (after !== before.get(label(op)))
        failures.push(`${label(op)}: A's view changed after B's attempts:\n${before.get(label(op))}\n${after}`);
    }
    expect(failures).toEqual([]);
  });

  it("a list cursor issued to tenant A is refused for tenant B, never a page of A's rows", async () => {
    const lists = (await servedOperations()).filter(
      (op) => op.method === "GET" && !op.anonymous && op.query.includes("cursor") && op.query.includes("limit"),
    );
    const failures: string[] = [];
    let cursors = 0;
    for (const op of lists) {
      const path = fillPath(op.path, ids);
      const first = await api(`${path}?limit=1`, { key: owner.key });
      if (first.status !== 200) continue;
      const cursor = (await json(first)).next_cursor;
      if (typeof cursor !== "string") continue;
      cursors++;
      const res = await api(`${fillPath(op.path, ids)}?limit=1&cursor=${encodeURIComponent(cursor)}`, { key: intruder.key });
      const text = await res.text();
      if (res.status === 200 || res.status >= 500) failures.push(`${label(op)}: A's cursor → ${res.status} ${text.slice(0, 160)}`);
      for (const [name, id] of Object.entries(ids)) if (text.includes(id)) failures.push(`${label(op)}: A's cursor shows A's ${name}`);
    }
    // A owns several assets, uploads, api keys, verifications, deliveries...: enough lists have a second page.
    expect(cursors).toBeGreaterThanOrEqual(4);
    expect(failures).toEqual([]);
  });

  // Before the body cases: a refused request B sends may be recorded with the ids it named (B's own input).
  it("no list or search tenant B can read shows an id of tenant A's", async () => {
    const lists = (await servedOperations()).filter((op) => op.method === "GET" && op.params.length === 0 && !op.anonymous);
    expect(lists.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const op of lists) {
      const res = await api(op.path, { key: intruder.key });
      const text = await res.text();
      if (res.status >= 500) failures.push(`${label(op)}: ${res.status}`);
      for (const [name, id] of Object.entries(ids))
        if (text.includes(id)) failures.push(`${label(op)}: shows A's ${name} ${id} ${text.slice(0, 600)}`);
    }
    expect(failures).toEqual([]);
  });

  it("every id a request body names is classified, and B naming A's resource in a body gets what a missing id gets", async () => {
    // Every `*_id` field of every JSON request body (one level into arrays of objects, as in batch items).
    const doc = await json(await api("/openapi.json"));
    const schemas = doc.components.schemas;
    const resolve = (x: any): any => (x?.$ref ? schemas[x.$ref.split("/").pop()] : x);
    const fieldsOf = (x: any): string[] => {
      const schema = resolve(x);
      const own = Object.entries<any>(schema?.properties ?? {}).flatMap(([k, v]) => {
        const item = resolve(v)?.type === "array" ? resolve(resolve(v).items) : null;
        return [k, ...(item?.properties ? Object.keys(item.properties).map((c) => `${k}[].${c}`) : [])];
      });
      return [...own, ...[...(schema?.allOf ?? []), ...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])].flatMap(fieldsOf)];
    };
    const named: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of ["post", "put", "patch"]) {
        const content = item[method]?.requestBody?.content?.["application/json"];
        if (!content) continue;
        for (const f of new Set(fieldsOf(content.schema))) if (/_ids?$/.test(f)) named.push(`${method.toUpperCase()} ${path} ${f}`);
      }
    }
    const cases = await bodyCases();
    const unclassified = named.filter((n) => !(n in BODY_NOT_TENANT_OWNED) && !cases.some((c) => c.field === n));
    expect(unclassified).toEqual([]);
    const failures: string[] = [];
    for (const c of cases) {
      const [method, path] = c.field.split(" ");
      const send = (body: unknown) => api(path!, { method, key: intruder.key, body, headers: { "idempotency-key": crypto.randomUUID() } });
      const missing = await send(c.body(c.absent));
      const theirs = await send(c.body(c.theirs));
      const missingText = await missing.text();
      const theirsText = await theirs.text();
      const code = (t: string) => JSON.parse(t).code;
      if (theirs.status !== missing.status || code(theirsText) !== code(missingText)) {
        failures.push(
          `${c.field}: A's id → ${theirs.status} ${theirsText.slice(0, 160)}; a missing id → ${missing.status} ${code(missingText)}`,
        );
      }
      // The id B itself sent may be echoed; any other id of A's must not appear.
      for (const [name, id] of Object.entries(ids))
        if (id !== c.theirs && theirsText.includes(id)) failures.push(`${c.field}: shows A's ${name}`);
    }
    expect(failures).toEqual([]);
  });
});
