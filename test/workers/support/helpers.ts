import { env, exports } from "cloudflare:workers";
import { vi } from "vitest";
import { database } from "../../../src/db/client";
import { apiKeys, tenants } from "../../../src/db/schema";
import type { Bindings } from "../../../src/env";
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from "../../../src/platform/auth/keys";
import { ALL_SCOPES, type Scope } from "../../../src/platform/auth/scopes";
import { newId } from "../../../src/platform/ids";

export const testEnv = env as unknown as Bindings;
export const BASE = "http://svc.test";

export interface TestTenant {
  tenantId: string;
  keyId: string;
  key: string;
}

/** A tenant and one API key written straight to D1 (what `npm start` does for the dev tenant). */
export async function createTenant(
  options: { scopes?: Scope[]; name?: string; status?: "active" | "deactivated" } = {},
): Promise<TestTenant> {
  const db = database(testEnv.DB);
  const tenantId = newId("tenant");
  await db.insert(tenants).values({
    id: tenantId,
    name: options.name ?? "Test",
    contactEmail: "t@example.test",
    status: options.status ?? "active",
    createdAt: Date.now(),
  });
  const { keyId, key } = await addKey(tenantId, { scopes: options.scopes });
  return { tenantId, keyId, key };
}

export async function addKey(
  tenantId: string,
  options: { scopes?: Scope[]; status?: "active" | "revoked"; expiresAt?: number | null; createdAt?: number } = {},
) {
  const key = generateApiKeySecret();
  const keyId = newId("apiKey");
  await database(testEnv.DB)
    .insert(apiKeys)
    .values({
      id: keyId,
      tenantId,
      name: "test key",
      secretHash: await hashApiKeySecret(testEnv.SVC_KEY_PEPPER!, key),
      displayPrefix: displayPrefixOf(key),
      scopes: JSON.stringify(options.scopes ?? ALL_SCOPES),
      status: options.status ?? "active",
      createdAt: options.createdAt ?? Date.now(),
      expiresAt: options.expiresAt ?? null,
    });
  return { keyId, key };
}

/** Calls the Worker's own fetch handler, as a client over HTTP would. */
export async function api(
  path: string,
  init: { method?: string; key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers.set("content-type", "application/json");
  }
  return exports.default.fetch(new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, body }));
}

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** A media fixture from test/fixtures/media (see test/fixtures/README.md), as bytes. */
export function fixture(name: string): Uint8Array {
  const all = (env as unknown as { TEST_FIXTURES: Record<string, string> }).TEST_FIXTURES;
  const b64 = all[name];
  if (b64 === undefined) throw new Error(`no fixture ${name}; have: ${Object.keys(all).join(", ")}`);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

export async function sha256HexOf(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Calls a URL the API returned (storage capability), with exactly the headers it returned. */
export async function callUrl(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Uint8Array },
): Promise<Response> {
  const target = new URL(url);
  return exports.default.fetch(
    new Request(`${BASE}${target.pathname}${target.search}`, {
      method: init.method,
      headers: init.headers,
      body: init.body as BodyInit | undefined,
    }),
  );
}

/** Upload bytes through the public flow: create, PUT to the presigned URL, complete. Returns the asset id. */
export async function uploadAsset(
  key: string,
  bytes: Uint8Array,
  mediaType: string,
  filename = "file",
): Promise<{ assetId: string; uploadId: string; objectId: string }> {
  const created = await api("/v1/uploads", {
    method: "POST",
    key,
    body: { byte_length: bytes.length, declared_media_type: mediaType, mode: "single", sha256: await sha256HexOf(bytes), filename },
  });
  if (created.status !== 201) throw new Error(`create upload: ${created.status} ${await created.text()}`);
  const upload = await created.json<{
    upload_id: string;
    asset_id: string;
    upload: { url: string; method: string; headers: Record<string, string> };
  }>();
  const put = await callUrl(upload.upload.url, { method: upload.upload.method, headers: upload.upload.headers, body: bytes });
  if (put.status !== 200) throw new Error(`put: ${put.status} ${await put.text()}`);
  const completed = await api(`/v1/uploads/${upload.upload_id}/complete`, {
    method: "POST",
    key,
    body: {},
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  if (completed.status !== 200) throw new Error(`complete: ${completed.status} ${await completed.text()}`);
  const done = await completed.json<{ asset_object_id: string }>();
  return { assetId: upload.asset_id, uploadId: upload.upload_id, objectId: done.asset_object_id };
}

/**
 * Polls a job until it is terminal (the queue consumer runs it in the background); the last state on timeout. Every
 * 50 ms: a sign-only job takes about 0.1 s once the engines are warm, so a coarser poll was most of the wait.
 */
export function waitForJob(key: string, jobId: string, timeoutMs = 90_000): Promise<any> {
  return vi.waitFor(
    async () => {
      const job = await (await api(`/v1/jobs/${jobId}`, { key })).json<any>();
      if (!["completed", "failed", "rejected", "canceled", "expired"].includes(job.state))
        throw new Error(`job ${jobId} still ${job.state}`);
      return job;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** Uploads `bytes`, signs them with `recipeId` (202) and waits until the job has completed; its asset id and job. */
export async function signUploaded(
  key: string,
  bytes: Uint8Array,
  mediaType: string,
  recipeId = "rcp_system_sign_only",
  filename = "file",
) {
  const { assetId } = await uploadAsset(key, bytes, mediaType, filename);
  const started = await api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, recipe_id: recipeId },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  if (started.status !== 202) throw new Error(`sign: ${started.status} ${await started.text()}`);
  const job = await waitForJob(key, (await started.json<{ job_id: string }>()).job_id, 60_000);
  if (job.state !== "completed") throw new Error(`job ${job.job_id} ended ${job.state}: ${JSON.stringify(job)}`);
  return { assetId, job };
}
