/*
 * The C2PA engine's read limit (limits.verify.engine_read_maximum_bytes, #19/#22): a file whose manifest needs the
 * engine above the limit for its type is refused with 413 before the engine copies a byte (its wasm memory would
 * grow to a few times the file and never shrink), never a 500 or an isolate out of memory; a file at the limit
 * is read.
 */

import type { ImportGlobFunction } from "vite/types/importGlob.d.ts";
import { expect, it } from "vitest";
import { ENGINE_READ_MAXIMUM_BYTES } from "../../../src/catalog/limits";
import { api, createTenant, json } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";

declare global {
  interface ImportMeta {
    glob: ImportGlobFunction;
  }
}

const INLINED = import.meta.glob("../../fixtures/c2pa/{adobe-20220124-CA.jpg,video1.mp4}", {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;

function c2paFixture(name: string): Uint8Array {
  const url = Object.entries(INLINED).find(([path]) => path.endsWith(`/${name}`))?.[1];
  if (!url) throw new Error(`no c2pa fixture ${name}`);
  return Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
}

/** The file followed by bytes up to `size` (after a JPEG's EOI; for an MP4 as one trailing `free` box). */
function padded(file: Uint8Array, size: number, freeBox: boolean): Uint8Array {
  const out = new Uint8Array(size);
  out.set(file);
  out.fill(0x5a, file.length);
  if (freeBox) {
    new DataView(out.buffer).setUint32(file.length, size - file.length);
    out.set([0x66, 0x72, 0x65, 0x65], file.length + 4);
  }
  return out;
}

// With a key: the tenant's rate bucket, so these calls never share the public (per-address) limiter with other files.
it("a JPEG whose manifest needs the engine, above engine_read_maximum_bytes → 413 svc.request.too_large", async () => {
  const { key } = await createTenant();
  const big = padded(c2paFixture("adobe-20220124-CA.jpg"), ENGINE_READ_MAXIMUM_BYTES + 1, false);
  const res = await verifyFile(big, { name: "big.jpg", key });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(413);
  expect(body.code).toBe("svc.request.too_large");
  expect(body.message).toContain("engine_read_maximum_bytes");
}, 120_000);

it("an MP4 of exactly engine_read_maximum_bytes is read by the engine (a finding, no refusal)", async () => {
  const { key } = await createTenant();
  const res = await verifyFile(padded(c2paFixture("video1.mp4"), ENGINE_READ_MAXIMUM_BYTES, true), { name: "big.mp4", key });
  const body = await json(res);
  expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(200);
  // The engine read it: a manifest with a valid signature (its BMFF hash no longer matches: a finding, not a refusal).
  expect(body.signals).toMatchObject({ c2pa_manifest_present: true, c2pa_signature_valid: true });
}, 120_000);

it("GET /v1/capabilities publishes the limits the engine enforces", async () => {
  const { key } = await createTenant();
  const verify = (await json(await api("/v1/capabilities", { key }))).limits.verify;
  expect(verify.engine_read_maximum_bytes).toBe(ENGINE_READ_MAXIMUM_BYTES);
});
