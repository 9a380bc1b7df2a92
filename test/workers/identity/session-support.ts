import { type DevSessionClaims, mintDevSessionToken } from "../../../src/dev/session-issuer";
import { idpSecretKey, idpSignatureHeader } from "../../../src/identity/idp-signature";
import { api, json, testEnv } from "../support/helpers";

/** A console session token from the dev issuer the test Worker is configured with (vitest.config.ts). */
export function sessionToken(claims: DevSessionClaims = {}, nowMs?: number): Promise<string> {
  return mintDevSessionToken(testEnv.SVC_DEV_SESSION_KEY_PEM!, claims, nowMs);
}

let counter = 0;
/** A fresh subject and verified e-mail, so each sign-in provisions its own account. */
export function freshUser(): { subject: string; email: string } {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 8)}`;
  return { subject: `sub-${tag}`, email: `user-${tag}@example.test` };
}

/** Signs in (JIT) and answers the token with the account and user /v1/me reports. */
export async function signIn(claims: DevSessionClaims = {}) {
  const user = freshUser();
  const token = await sessionToken({ subject: user.subject, email: user.email, ...claims });
  const res = await api("/v1/me", { key: token });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const me = await json(res);
  return { token, tenantId: me.public_id as string, userId: me.credential.user_id as string, email: user.email, subject: user.subject };
}

/** Posts a signed identity-provider callback; `sign` overrides let tests break one part. */
export async function postIdp(
  event: unknown,
  options: { id?: string; timestamp?: number; signature?: string | null; raw?: string; headers?: Record<string, string> } = {},
) {
  const raw = options.raw ?? JSON.stringify(event);
  const id = options.id ?? `msg_${crypto.randomUUID()}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const key = idpSecretKey(testEnv.SVC_IDP_WEBHOOK_SECRET)!;
  const signature = options.signature === undefined ? await idpSignatureHeader(key, id, timestamp, raw) : options.signature;
  const headers: Record<string, string> = { "content-type": "application/json", "idp-id": id, "idp-timestamp": String(timestamp) };
  if (signature !== null) headers["idp-signature"] = signature;
  return api("/webhooks/idp", { method: "POST", rawBody: raw, headers: { ...headers, ...options.headers } });
}
