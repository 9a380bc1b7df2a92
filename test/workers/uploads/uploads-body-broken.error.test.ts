import { describe, expect, it } from "vitest";
import { send } from "../campaign/faults-http.helpers";
import { BASE, createTenant, fixture, sha256HexOf, testEnv } from "../support/helpers";

/*
 * #22 L1: a client whose upload body breaks off mid-way (the connection closed, its stream failed) is answered 400
 * `svc.storage.body_incomplete`, not a retryable 503 blaming storage; nothing is stored, and the whole body sent
 * again is taken.
 */
const BYTES = fixture("sample.jpg");

/** A body that delivers `upTo` bytes of BYTES and then fails, as a client aborting its upload does. */
function breaking(upTo: number): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(BYTES.slice(0, upTo));
        return;
      }
      controller.error(new Error("client went away"));
    },
  });
}

async function created(mode: "single" | "multipart") {
  const tenant = await createTenant();
  const res = await send(
    testEnv,
    new Request(`${BASE}/v1/uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        byte_length: BYTES.length,
        declared_media_type: "image/jpeg",
        mode,
        sha256: await sha256HexOf(BYTES),
        filename: "photo.jpg",
        ...(mode === "multipart" ? { parts: [{ part_number: 1, byte_length: BYTES.length }] } : {}),
      }),
    }),
  );
  expect(res.status, res.text).toBe(201);
  const target = (mode === "single" ? res.body.upload : res.body.parts[0]) as {
    url: string;
    method: string;
    headers: Record<string, string>;
  };
  const url = new URL(target.url);
  // No Content-Length: a streamed body (a declared one would be checked before any byte is read).
  const headers = Object.fromEntries(Object.entries(target.headers).filter(([k]) => k.toLowerCase() !== "content-length"));
  const put = (body: BodyInit) =>
    send(
      testEnv,
      new Request(`${BASE}${url.pathname}${url.search}`, { method: target.method, headers, body, duplex: "half" } as RequestInit),
    );
  return { ...tenant, uploadId: res.body.upload_id as string, put };
}

describe("an upload body that breaks off", () => {
  for (const mode of ["single", "multipart"] as const) {
    it(`${mode}: 400 svc.storage.body_incomplete, nothing stored, and the whole body is then taken`, async () => {
      const upload = await created(mode);
      const broken = await upload.put(breaking(Math.floor(BYTES.length / 2)));
      expect(broken.status, broken.text).toBe(400);
      expect(broken.body.code).toBe("svc.storage.body_incomplete");
      expect(broken.body.retryable).toBe(false);
      if (mode === "single") {
        const key = await testEnv.DB.prepare("SELECT r2_key FROM uploads WHERE id = ?").bind(upload.uploadId).first<{ r2_key: string }>();
        expect(await testEnv.OBJECTS.head(key!.r2_key), "nothing stored").toBeNull();
      }
      const whole = await upload.put(BYTES as Uint8Array<ArrayBuffer>);
      expect(whole.status, whole.text).toBe(200);
    });
  }

  it("a body that breaks off before its first byte is the client's too", async () => {
    const upload = await created("single");
    const broken = await upload.put(breaking(0));
    expect(broken.status, broken.text).toBe(400);
    expect(broken.body.code).toBe("svc.storage.body_incomplete");
  });
});
