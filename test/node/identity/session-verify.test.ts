import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  DEV_SESSION_AUDIENCE,
  DEV_SESSION_ISSUER,
  devSessionJwks,
  mintDevSessionKey,
  mintDevSessionToken,
} from "../../../src/dev/session-issuer";
import { looksLikeSessionToken, sessionVerifier, verifySessionToken } from "../../../src/platform/auth/session";

const settings = (jwks: string) => ({
  SVC_SESSION_ISSUER: DEV_SESSION_ISSUER,
  SVC_SESSION_AUDIENCE: DEV_SESSION_AUDIENCE,
  SVC_SESSION_JWKS: jwks,
});

async function tokenWith(alg: "RS256" | "ES256" | "EdDSA" | "PS256") {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: `k-${alg}`, alg };
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ email: "a@example.test", email_verified: true })
    .setProtectedHeader({ alg, kid: `k-${alg}` })
    .setIssuer(DEV_SESSION_ISSUER)
    .setAudience(DEV_SESSION_AUDIENCE)
    .setSubject("s1")
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(privateKey);
  return { token, jwks: JSON.stringify({ keys: [jwk] }) };
}

describe("console session verification", () => {
  it("accepts the dev issuer's tokens and reads subject and verified e-mail", async () => {
    const issuer = await mintDevSessionKey();
    expect(JSON.parse(issuer.jwks).keys[0]).not.toHaveProperty("d");
    expect(await devSessionJwks(issuer.privateKeyPkcs8Pem)).toBe(issuer.jwks);
    const verifier = sessionVerifier(settings(issuer.jwks))!;
    const token = await mintDevSessionToken(issuer.privateKeyPkcs8Pem, { subject: "u1", email: "u1@example.test" });
    expect(looksLikeSessionToken(token)).toBe(true);
    expect(await verifySessionToken(verifier, token)).toEqual({
      status: "valid",
      claims: { issuer: DEV_SESSION_ISSUER, subject: "u1", email: "u1@example.test", emailVerified: true },
    });
    const unverified = await mintDevSessionToken(issuer.privateKeyPkcs8Pem, { extra: { email_verified: "true" } });
    expect(await verifySessionToken(verifier, unverified)).toMatchObject({ status: "valid", claims: { emailVerified: false } });
  });

  it("allows RS256, ES256 and EdDSA only", async () => {
    for (const alg of ["RS256", "ES256", "EdDSA"] as const) {
      const { token, jwks } = await tokenWith(alg);
      expect((await verifySessionToken(sessionVerifier(settings(jwks))!, token)).status, alg).toBe("valid");
    }
    const { token, jwks } = await tokenWith("PS256");
    expect((await verifySessionToken(sessionVerifier(settings(jwks))!, token)).status).toBe("invalid");
  });

  it("is not configured without issuer, audience and keys, or with a private or malformed key set", async () => {
    const issuer = await mintDevSessionKey();
    expect(sessionVerifier({ ...settings(issuer.jwks), SVC_SESSION_ISSUER: "" })).toBeNull();
    expect(sessionVerifier({ ...settings(issuer.jwks), SVC_SESSION_AUDIENCE: " , " })).toBeNull();
    expect(sessionVerifier({ ...settings(""), SVC_SESSION_JWKS_URL: "http://idp.example/jwks" })).toBeNull();
    expect(sessionVerifier(settings("[]"))).toBeNull();
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    expect(sessionVerifier(settings(JSON.stringify({ keys: [await exportJWK(privateKey)] })))).toBeNull();
    expect(sessionVerifier(settings(JSON.stringify({ keys: [{ kty: "oct", k: "c2VjcmV0" }] })))).toBeNull();
    expect(sessionVerifier({ ...settings(""), SVC_SESSION_JWKS_URL: "https://idp.example/jwks" })).not.toBeNull();
  });

  it("tells session tokens from API keys by shape", () => {
    expect(looksLikeSessionToken(`svc_live_${"a".repeat(52)}`)).toBe(false);
    expect(looksLikeSessionToken("a.b.")).toBe(true);
    expect(looksLikeSessionToken(`${"a".repeat(9000)}.b.c`)).toBe(false);
  });
});

describe("a remote key set", () => {
  it("follows the issuer's key rotation: an unknown kid refetches, at most once per cooldown; an unreachable set is unavailable", async () => {
    const { remoteKeySet, JWKS_REFETCH_COOLDOWN_MS } = await import("../../../src/platform/auth/session");
    const a = await tokenWith("ES256");
    const b = await tokenWith("EdDSA");
    let published = JSON.parse(a.jwks).keys;
    let fetches = 0;
    let reachable = true;
    const fetchImpl = (async () => {
      fetches += 1;
      if (!reachable) throw new TypeError("network down");
      return new Response(JSON.stringify({ keys: published }), { headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch;
    let now = Date.now();
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const verifier = {
        issuer: DEV_SESSION_ISSUER,
        audiences: [DEV_SESSION_AUDIENCE],
        keys: remoteKeySet(new URL("https://idp.example/jwks"), fetchImpl),
      };
      expect((await verifySessionToken(verifier, a.token, now)).status).toBe("valid");
      expect((await verifySessionToken(verifier, a.token, now)).status).toBe("valid");
      expect(fetches).toBe(1);
      // The issuer rotates to key B. Within the cooldown an unknown kid does not refetch (a flood of made-up kids
      // cannot make us hammer the provider); after it, one refetch picks B up.
      published = [...published, ...JSON.parse(b.jwks).keys];
      expect((await verifySessionToken(verifier, b.token, now)).status).toBe("invalid");
      expect(fetches).toBe(1);
      now += JWKS_REFETCH_COOLDOWN_MS + 1000;
      expect((await verifySessionToken(verifier, b.token, now)).status).toBe("valid");
      expect(fetches).toBe(2);
      // The provider unreachable while a refetch is needed: our fault, not the token's.
      reachable = false;
      now += 700_000;
      expect((await verifySessionToken(verifier, b.token, now)).status).toBe("unavailable");
    } finally {
      Date.now = realNow;
    }
  });

  it("an unreadable key set (non-200, redirect, not JSON) is unavailable, and an outage fetches once per backoff", async () => {
    const { remoteKeySet, JWKS_FAILURE_BACKOFF_MS } = await import("../../../src/platform/auth/session");
    const a = await tokenWith("ES256");
    const answers: Record<string, () => Response> = {
      "503": () => new Response("upstream down", { status: 503 }),
      redirect: () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example/jwks" } }),
      "not json": () => new Response("<html>", { status: 200 }),
      "not a key set": () => new Response(JSON.stringify({ nope: 1 }), { status: 200 }),
    };
    for (const [name, answer] of Object.entries(answers)) {
      let fetches = 0;
      const fetchImpl = (async () => {
        fetches += 1;
        return answer();
      }) as unknown as typeof fetch;
      let now = Date.now();
      const realNow = Date.now;
      Date.now = () => now;
      try {
        const verifier = {
          issuer: DEV_SESSION_ISSUER,
          audiences: [DEV_SESSION_AUDIENCE],
          keys: remoteKeySet(new URL("https://idp.example/jwks"), fetchImpl),
        };
        expect((await verifySessionToken(verifier, a.token, now)).status, name).toBe("unavailable");
        expect((await verifySessionToken(verifier, a.token, now)).status, name).toBe("unavailable");
        expect(fetches, `${name}: no refetch within the backoff`).toBe(1);
        now += JWKS_FAILURE_BACKOFF_MS + 1;
        expect((await verifySessionToken(verifier, a.token, now)).status, name).toBe("unavailable");
        expect(fetches, `${name}: one refetch after the backoff`).toBe(2);
      } finally {
        Date.now = realNow;
      }
    }
  });

  it("during a backoff, keys still fresh in the cache verify and an unknown kid is invalid, without fetching", async () => {
    const { remoteKeySet, JWKS_FAILURE_BACKOFF_MS, JWKS_REFETCH_COOLDOWN_MS } = await import("../../../src/platform/auth/session");
    const a = await tokenWith("ES256");
    const b = await tokenWith("EdDSA");
    let fetches = 0;
    let up = true;
    const fetchImpl = (async () => {
      fetches += 1;
      return up ? new Response(a.jwks, { headers: { "content-type": "application/json" } }) : new Response("down", { status: 500 });
    }) as unknown as typeof fetch;
    let now = Date.now();
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const verifier = {
        issuer: DEV_SESSION_ISSUER,
        audiences: [DEV_SESSION_AUDIENCE],
        keys: remoteKeySet(new URL("https://idp.example/jwks"), fetchImpl),
      };
      expect((await verifySessionToken(verifier, a.token, now)).status).toBe("valid");
      up = false;
      now += JWKS_REFETCH_COOLDOWN_MS + 1000;
      // An unknown kid after the cooldown refetches once: the fetch fails, so that is our fault.
      expect((await verifySessionToken(verifier, b.token, now)).status).toBe("unavailable");
      expect(fetches).toBe(2);
      expect((await verifySessionToken(verifier, b.token, now)).status).toBe("invalid");
      expect((await verifySessionToken(verifier, a.token, now)).status).toBe("valid");
      expect(fetches).toBe(2);
      now += JWKS_FAILURE_BACKOFF_MS + 1;
      expect((await verifySessionToken(verifier, b.token, now)).status).toBe("unavailable");
      expect(fetches).toBe(3);
    } finally {
      Date.now = realNow;
    }
  });
});
