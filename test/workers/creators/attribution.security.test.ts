import { env as rawEnv } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import { admitSign } from "../../../src/jobs/admission";
import { runJob } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { pemBlocks } from "../../../src/media/c2pa/tsa-der";
import { verifiedCreator } from "../../../src/verifications/creator";
import { api, callUrl, createTenant, fixture, json, testEnv, uploadAsset, waitForJob } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";
import { enrolled, idem } from "./helpers";

/*
 * What verify may say about a creator a file names (issue #15, and the review of it): the service attributes the
 * creator only for a valid manifest bound to the very bytes given and signed with this deployment's own certificate;
 * the signing tenant's share policy decides the rest; stored results never keep the name; a creator withdrawn while
 * a job waited is not attributed by it.
 */

const NAME = "Grete Quill-Ashford";
const EMAIL = "grete.quill@attribution.example";
const db = (rawEnv as unknown as { DB: D1Database }).DB;

let key: string;
let tenantId: string;
let creatorId: string;
let signed: Uint8Array;

async function signWithCreator(assetId: string) {
  const res = await api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, recipe_id: "rcp_system_sign_only", creator_id: creatorId },
    headers: idem(),
  });
  expect(res.status, await res.clone().text()).toBe(202);
  return waitForJob(key, (await json(res)).job_id, 60_000);
}

async function setSharePolicy(share: "none" | "attributed" | "name") {
  const res = await api("/v1/creator-disclosure-policy", {
    method: "PUT",
    key,
    body: { brand_name: "Daily Tribune", share_disclosure: share },
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** Every text column of every table, for a plaintext search. */
async function everyStoredText(): Promise<string> {
  const tables = await db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables.results) {
    const rows = await db.prepare(`SELECT * FROM "${name}"`).all<Record<string, unknown>>();
    for (const row of rows.results) for (const v of Object.values(row)) if (typeof v === "string") parts.push(v);
  }
  return parts.join("\n").toLowerCase();
}

beforeAll(async () => {
  ({ key, tenantId } = await createTenant());
  creatorId = (await enrolled(key, EMAIL, NAME)).creator_id;
  const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg", "photo");
  const job = await signWithCreator(assetId);
  expect(job.state, JSON.stringify(job)).toBe("completed");
  const d = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
  signed = new Uint8Array(await (await callUrl(d.url, { method: "GET", headers: d.headers })).arrayBuffer());
}, 120_000);

describe("creator attribution in verify (#15)", () => {
  it("the share policy decides: name → the name; attributed → withheld, no name; none → nothing beyond the file", async () => {
    await setSharePolicy("name");
    const named = (await json(await verifyFile(signed))).claims.creator;
    expect(named).toMatchObject({ attributed_by_service: true, disclosure_state: "disclosed", name: NAME, brand_name: "Daily Tribune" });

    await setSharePolicy("attributed");
    const attributed = (await json(await verifyFile(signed))).claims.creator;
    expect(attributed).toMatchObject({
      attributed_by_service: true,
      disclosure_state: "withheld",
      name: null,
      brand_name: "Daily Tribune",
    });

    await setSharePolicy("none");
    const none = (await json(await verifyFile(signed))).claims.creator;
    expect(none).toEqual({
      creator_ref: named.creator_ref,
      commitment: named.commitment,
      attributed_by_service: false,
      disclosure_state: null,
      name: null,
      brand_name: null,
    });
    await setSharePolicy("name");
  });

  it("a genuine manifest store beside someone else's image (sidecar) attributes nothing", async () => {
    const located = extractManifestStore(signed, "image/jpeg");
    expect(located.status).toBe("ok");
    const store = (located as { store: Uint8Array }).store;
    const body = await json(await verifyFile(fixture("sample-1mp.jpg"), { manifest: store, name: "mine.jpg" }));
    expect(body.claims?.creator ?? null, JSON.stringify(body.claims)).not.toBeNull();
    expect(body.claims.creator).toMatchObject({ attributed_by_service: false, name: null, brand_name: null, disclosure_state: null });
    expect(JSON.stringify(body)).not.toContain(NAME);
  });

  it("only this deployment's own signing certificate (the same DER, not a serial) lets the service attribute", async () => {
    const assertion = (await json(await verifyFile(signed))).claims.creator;
    const own = pemBlocks(testEnv.SVC_C2PA_SIGNER_CHAIN_PEM!, "CERTIFICATE")[0]!;
    const evidence = {
      assertion: { creator_ref: assertion.creator_ref, commitment: assertion.commitment },
      overall: "valid" as const,
      bindingChecked: true,
    };
    const d = database(testEnv.DB);
    expect(await verifiedCreator(d, testEnv, { ...evidence, signerLeaf: own })).toMatchObject({ attributed_by_service: true, name: NAME });
    const other = own.slice();
    other[other.length - 5]! ^= 0x01; // another certificate: any byte differs
    expect(await verifiedCreator(d, testEnv, { ...evidence, signerLeaf: other })).toMatchObject({
      attributed_by_service: false,
      name: null,
    });
    expect(await verifiedCreator(d, testEnv, { ...evidence, signerLeaf: null })).toMatchObject({ attributed_by_service: false });
    expect(await verifiedCreator(d, testEnv, { ...evidence, signerLeaf: own, overall: "invalid" })).toMatchObject({
      attributed_by_service: false,
    });
    expect(await verifiedCreator(d, testEnv, { ...evidence, signerLeaf: own, bindingChecked: false })).toMatchObject({
      attributed_by_service: false,
    });
    // A copied reference with a commitment that is not the identity's.
    const forged = { ...evidence, assertion: { ...evidence.assertion, commitment: "0".repeat(64) }, signerLeaf: own };
    expect(await verifiedCreator(d, testEnv, forged)).toMatchObject({ attributed_by_service: false, name: null });
  });

  it("stored verifications keep the reference, never the name (D1 searched after a keyed verify)", async () => {
    const res = await verifyFile(signed, { key });
    const body = await json(res);
    expect(body.claims.creator.name).toBe(NAME); // the live answer
    expect(body.verification_id).toMatch(/^vfy_/);
    const stored = await json(await api(`/v1/verifications/${body.verification_id}`, { key }));
    expect(JSON.stringify(stored)).not.toContain(NAME);
    const text = await everyStoredText();
    for (const needle of [NAME, EMAIL, "grete", "quill"]) expect(text.includes(needle.toLowerCase()), needle).toBe(false);
  });

  it("a creator withdrawn while the job waited is not attributed: the job is rejected with svc.jobs.creator_inactive", async () => {
    const other = await enrolled(key, "late.withdrawal@attribution.example", "Late Withdrawal");
    const { assetId } = await uploadAsset(key, fixture("sample.png"), "image/png", "photo");
    const admitted = await admitSign(database(testEnv.DB), registryFor(testEnv), tenantId, {
      asset_id: assetId,
      recipe_id: "rcp_system_sign_only",
      creator_id: other.creator_id,
    } as Parameters<typeof admitSign>[3]);
    expect(admitted.status).toBe("admitted");
    const jobId = (admitted as { job: { id: string } }).job.id;
    const withdrawn = await api(`/v1/creator-identities/${other.creator_id}/withdraw`, { method: "POST", key, headers: idem() });
    expect(withdrawn.status).toBe(200);
    await runJob(testEnv, await mediaServices(testEnv), tenantId, jobId);
    const job = await json(await api(`/v1/jobs/${jobId}`, { key }));
    expect(job).toMatchObject({ state: "rejected", error_code: "svc.jobs.creator_inactive", result: null });
  });
});
