import { expect } from "vitest";
import { api } from "../support/helpers";

export const CONSENT = { basis: "consent", obtained_at: "2026-11-20T09:00:00.000Z", notice_version: "2026-10", reference: "rec-1" };

export const idem = () => ({ "idempotency-key": crypto.randomUUID() });

/** POST /v1/creator-identities with a fresh Idempotency-Key (unless given). */
export function enrol(key: string, body: Record<string, unknown>, headers: Record<string, string> = idem()) {
  return api("/v1/creator-identities", { method: "POST", key, body: { consent: CONSENT, ...body }, headers });
}

export async function enrolled(key: string, email: string, name: string | null = null): Promise<any> {
  const res = await enrol(key, { email, name });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export async function expectError(res: Response, status: number, code: string): Promise<any> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text);
  expect(body.code, text).toBe(code);
  expect(body.request_id).toMatch(/^req_[a-z2-7]{16}$/);
  expect(Array.isArray(body.field_details)).toBe(true);
  return body;
}

/** SHA-256(salt ‖ UTF-8(canonical)) in lowercase hex, computed independently of the service. */
export async function recomputeCommitment(saltHex: string, email: string, name: string | null): Promise<string> {
  const salt = Uint8Array.from(saltHex.match(/../g)!.map((h) => parseInt(h, 16)));
  const canonical = new TextEncoder().encode(`{"email":${JSON.stringify(email)},"name":${JSON.stringify(name)}}`);
  const input = new Uint8Array(salt.length + canonical.length);
  input.set(salt);
  input.set(canonical, salt.length);
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", input))].map((b) => b.toString(16).padStart(2, "0")).join("");
}
