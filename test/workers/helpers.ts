import { env, exports } from "cloudflare:workers";
import { database } from "../../src/db/client";
import { apiKeys, tenants } from "../../src/db/schema";
import { generateApiKeySecret, hashApiKeySecret, displayPrefixOf } from "../../src/platform/auth/keys";
import { ALL_SCOPES, type Scope } from "../../src/platform/auth/scopes";
import type { Bindings } from "../../src/env";
import { newId } from "../../src/platform/ids";

export const testEnv = env as unknown as Bindings;
export const BASE = "http://svc.test";

export interface TestTenant {
  tenantId: string;
  keyId: string;
  key: string;
}

/** A tenant and one API key written straight to D1 (what `npm start` does for the dev tenant). */
export async function createTenant(options: { scopes?: Scope[]; name?: string; status?: "active" | "deactivated" } = {}): Promise<TestTenant> {
  const db = database(testEnv.DB);
  const tenantId = newId("tenant");
  await db.insert(tenants).values({ id: tenantId, name: options.name ?? "Test", contactEmail: "t@example.test", status: options.status ?? "active", createdAt: Date.now() });
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
