import { createExecutionContext } from "cloudflare:test";
import { generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { DEV_SESSION_AUDIENCE, DEV_SESSION_ISSUER } from "../../../src/dev/session-issuer";
import worker from "../../../src/index";
import { UNAUTHORIZED_DETAIL } from "../../../src/platform/errors";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { freshUser, sessionToken, signIn } from "./session-support";

function b64url(text: string): string {
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** An unsigned (`alg: none`) or HS256 token carrying otherwise valid claims. */
async function forged(alg: "none" | "HS256"): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: DEV_SESSION_ISSUER,
    aud: DEV_SESSION_AUDIENCE,
    sub: "forger",
    email: "f@example.test",
    email_verified: true,
    iat: now,
    exp: now + 600,
  };
  if (alg === "none") return `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64url(JSON.stringify(claims))}.`;
  // HS256 keyed with the public JWKS text: the classic key-confusion attack.
  return new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(testEnv.SVC_SESSION_JWKS!));
}

async function count(table: "users" | "tenants"): Promise<number> {
  return (await testEnv.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0;
}

describe("console session errors", () => {
  it("every bad session token answers the byte-identical 401 body of an invalid API key", async () => {
    const { subject, email } = freshUser();
    const good = await sessionToken({ subject, email });
    const [head, payload, signature] = good.split(".") as [string, string, string];
    const tampered = `${head}.${b64url(JSON.stringify({ ...JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))), sub: "someone-else" }))}.${signature}`;
    const other = await generateKeyPair("ES256");
    const now = Math.floor(Date.now() / 1000);
    const foreign = await new SignJWT({ email, email_verified: true })
      .setProtectedHeader({ alg: "ES256", kid: "unknown-kid" })
      .setIssuer(DEV_SESSION_ISSUER)
      .setAudience(DEV_SESSION_AUDIENCE)
      .setSubject(subject)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(other.privateKey);
    const cases: Record<string, string> = {
      "invalid api key": `svc_live_${"a".repeat(52)}`,
      expired: await sessionToken({ subject, email, expiresIn: -120 }),
      "wrong audience": await sessionToken({ subject, email, audience: "someone-else" }),
      "wrong issuer": await sessionToken({ subject, email, issuer: "https://evil.example" }),
      "unknown kid": await sessionToken({ subject, email, kid: "not-a-known-kid" }),
      "foreign key": foreign,
      "alg none": await forged("none"),
      hs256: await forged("HS256"),
      "tampered payload": tampered,
      "tampered signature": `${head}.${payload}.${signature.slice(0, -4)}AAAA`,
      "not even base64": "a.b.c",
    };
    const bodies = new Map<string, string>();
    for (const [name, token] of Object.entries(cases)) {
      const res = await api("/v1/me", { key: token });
      expect(res.status, name).toBe(401);
      expect(res.headers.get("www-authenticate"), name).toBe('Bearer realm="svc"');
      bodies.set(name, await res.text());
    }
    expect(new Set(bodies.values()).size).toBe(1);
    expect(JSON.parse([...bodies.values()][0]!)).toEqual({ detail: UNAUTHORIZED_DETAIL });
    // None of them provisioned anything.
    expect(await count("users")).toBe(0);
  });

  it("on the public verify variant a bad session token answers like a bad key (401 svc.auth.invalid_key)", async () => {
    const bad = await sessionToken({ ...freshUser(), audience: "elsewhere" });
    for (const credential of [bad, `svc_live_${"a".repeat(52)}`]) {
      const res = await api("/v1/verify", { method: "POST", key: credential, body: { manifest_uri: "https://x.example/m" } });
      expect(res.status).toBe(401);
      const { request_id: _, ...body } = await json(res);
      expect(body).toMatchObject({ code: "svc.auth.invalid_key" });
    }
  });

  it("a small clock skew is tolerated on expiry", async () => {
    const res = await api("/v1/me", { key: await sessionToken({ ...freshUser(), expiresIn: -5 }) });
    expect(res.status).toBe(200);
  });

  it("422 svc.session.email_unverified: a first sign-in without a verified e-mail provisions nothing", async () => {
    const before = await count("tenants");
    for (const claims of [{ email: null }, { emailVerified: false }, { extra: { email_verified: "true" }, emailVerified: false }]) {
      const res = await api("/v1/me", { key: await sessionToken({ ...freshUser(), ...claims }) });
      expect(res.status).toBe(422);
      expect((await json(res)).code).toBe("svc.session.email_unverified");
    }
    expect(await count("tenants")).toBe(before);
  });

  it("409 svc.session.email_conflict: the verified e-mail belongs to another account's user (any case)", async () => {
    const first = await signIn();
    const before = await count("tenants");
    const res = await api("/v1/me", { key: await sessionToken({ subject: "another-subject", email: first.email.toUpperCase() }) });
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.session.email_conflict");
    expect(await count("tenants")).toBe(before);
  });

  it("503 svc.auth.unavailable when sessions are not configured; API keys still work", async () => {
    const { key } = await createTenant();
    const token = await sessionToken(freshUser());
    for (const missing of ["SVC_SESSION_ISSUER", "SVC_SESSION_AUDIENCE", "SVC_SESSION_JWKS"]) {
      const env = { ...testEnv, [missing]: undefined };
      const call = (credential: string) =>
        worker.fetch(
          new Request("http://svc.test/v1/me", { headers: { authorization: `Bearer ${credential}` } }),
          env,
          createExecutionContext(),
        );
      const res = await call(token);
      expect(res.status, missing).toBe(503);
      expect(await json(res)).toMatchObject({ code: "svc.auth.unavailable", retryable: true });
      expect((await call(key)).status).toBe(200);
    }
    // A malformed inline JWKS is "not configured" too, never a 500.
    const broken = { ...testEnv, SVC_SESSION_JWKS: "{not json" };
    const res = await worker.fetch(
      new Request("http://svc.test/v1/me", { headers: { authorization: `Bearer ${token}` } }),
      broken,
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
  });
});
