import { describe, expect, it } from "vitest";
import { bearerKeyOf } from "../../../src/platform/auth/keys";
import { base64url, fromBase64, fromBase64url, fromHex } from "../../../src/platform/bytes";
import { secretKeyBytes } from "../../../src/webhooks/signing";
import { addKey, api, callUrl, createTenant, json, sha256HexOf } from "../support/helpers";

/*
 * #13.4: secrets, MACs, cursors and tokens are accepted only in their one canonical encoding. A base64url string of
 * n bytes has unused low bits in its last character; flipping them decodes to the same bytes, so a lenient decoder
 * accepts up to 16 spellings of one MAC (and a release recorded under one spelling misses the others).
 */

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** The same text with its last character's lowest (unused) bit flipped: the same bytes to a lenient decoder. */
function lastCharVariant(text: string, alphabet: string): string {
  const last = alphabet.indexOf(text.at(-1)!);
  return text.slice(0, -1) + alphabet[last ^ 1];
}

async function threeKeys() {
  const t = await createTenant();
  for (let i = 0; i < 2; i++) await addKey(t.tenantId, { createdAt: Date.now() - 10_000 + i });
  return t;
}

describe("#13.4 canonical decoding", () => {
  it("#13.4 fromBase64url, fromBase64 and fromHex refuse every non-canonical spelling", () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    const canonical = base64url(bytes);
    expect(fromBase64url(canonical)).toEqual(bytes);
    for (const bad of [
      lastCharVariant(canonical, B64URL),
      `${canonical}==`,
      canonical.replace(/_/g, "/"),
      canonical.slice(0, -1),
      `${canonical} `,
      "A",
      "AB=C",
    ]) {
      expect(fromBase64url(bad), bad).toBeNull();
    }
    expect(fromBase64url("AB")).toBeNull(); // 0b000000_000001: the last 4 bits must be zero
    expect(fromBase64url("AQ")).toEqual(Uint8Array.of(1));

    expect(fromBase64("AQ==")).toEqual(Uint8Array.of(1));
    for (const bad of ["AR==", "AQ", "AQ=", "AQ===", "A_==", "A-==", " AQ==", "AQ==\n"]) expect(fromBase64(bad), bad).toBeNull();

    expect(fromHex("00ff10")).toEqual(Uint8Array.of(0, 255, 16));
    for (const bad of ["0", "0g", "00FF", "+1", " 1", "0x00"]) expect(() => fromHex(bad), bad).toThrow(RangeError);
  });

  it("#13.4 a cursor whose last character is swapped for a same-bytes variant is refused and does not revive a released cursor", async () => {
    const t = await threeKeys();
    const cursor: string = (await json(await api("/v1/api-keys?limit=1", { key: t.key }))).next_cursor;
    const variant = lastCharVariant(cursor, B64URL);
    expect(variant).not.toBe(cursor);

    const refused = await api(`/v1/api-keys?limit=1&cursor=${variant}`, { key: t.key });
    expect(refused.status).toBe(422);
    expect(await json(refused)).toMatchObject({ code: "svc.cursor.invalid", field_details: [{ location: "query", field: "cursor" }] });

    expect((await api(`/v1/history/snapshots?cursor=${cursor}`, { method: "DELETE", key: t.key })).status).toBe(204);
    for (const c of [cursor, variant]) {
      const res = await api(`/v1/api-keys?limit=1&cursor=${c}`, { key: t.key });
      expect(res.status, c).toBe(422);
      expect((await json(res)).code).toBe("svc.cursor.invalid");
    }
    // Releasing by a variant spelling is refused too, rather than recording a second, different release.
    expect((await api(`/v1/history/snapshots?cursor=${variant}`, { method: "DELETE", key: t.key })).status).toBe(422);
  });

  it("#13.4 a storage capability URL whose MAC is a same-bytes variant is refused with 403 capability_invalid", async () => {
    const t = await createTenant();
    const bytes = new TextEncoder().encode("canonical bytes only");
    const created = await api("/v1/uploads", {
      method: "POST",
      key: t.key,
      body: {
        byte_length: bytes.length,
        declared_media_type: "image/png",
        mode: "single",
        sha256: await sha256HexOf(bytes),
        filename: "x.png",
      },
    });
    expect(created.status).toBe(201);
    const upload = (await json(created)).upload as { url: string; method: string; headers: Record<string, string> };
    const url = new URL(upload.url);
    const signature = url.searchParams.get("signature")!;
    url.searchParams.set("signature", lastCharVariant(signature, B64URL));

    const refused = await callUrl(url.toString(), { method: upload.method, headers: upload.headers, body: bytes });
    expect(refused.status).toBe(403);
    expect((await json(refused)).code).toBe("svc.storage.capability_invalid");
    // The URL as issued still works.
    expect((await callUrl(upload.url, { method: upload.method, headers: upload.headers, body: bytes })).status).toBe(200);
  });

  it("#13.4 an API key whose last character is a same-bytes variant is 401", async () => {
    const t = await createTenant();
    expect((await api("/v1/capabilities", { key: t.key })).status).toBe(200);
    const variant = lastCharVariant(t.key, BASE32);
    expect(bearerKeyOf(`Bearer ${variant}`)).toBeNull(); // not a key at all: refused before any lookup
    expect(bearerKeyOf(`Bearer ${t.key}`)).toBe(t.key);
    const res = await api("/v1/capabilities", { key: variant });
    expect(res.status).toBe(401);
  });

  it("#13.4 a verification share token whose last character is a same-bytes variant answers the one 404", async () => {
    const token = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const res = await api(`/v1/shared-verifications/${lastCharVariant(token, B64URL)}`);
    expect(res.status).toBe(404);
    expect((await json(res)).code).toBe("svc.resource.not_found");
  });

  it("#13.4 a webhook secret is read only in its canonical padded base64", () => {
    const secret = `whsec_${btoa(String.fromCharCode(...Uint8Array.from({ length: 32 }, (_, i) => (255 - i * 7) & 255)))}`;
    expect(secret).toMatch(/[+/]/);
    expect(secretKeyBytes(secret)).toHaveLength(32);
    const body = secret.slice("whsec_".length);
    const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const lastData = body.length - 2; // the char before "=" holds the unused bits
    const variant = `whsec_${body.slice(0, lastData)}${B64[B64.indexOf(body[lastData]!) ^ 1]}=`;
    for (const bad of [variant, secret.slice(0, -1), secret.replace(/\+/g, "-").replace(/\//g, "_")])
      expect(secretKeyBytes(bad), bad).toBeNull();
  });
});
