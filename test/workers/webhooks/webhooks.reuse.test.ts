import { describe, expect, it } from "vitest";
import { newId } from "../../../src/platform/ids";
import { openedSigner } from "../../../src/webhooks/delivery";
import { deliverBatch } from "../../../src/webhooks/delivery-run";
import { generateWebhookSecret, sealSecret, signWebhook } from "../../../src/webhooks/signing";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, hookedEnv, insertCustomerEvent } from "../support/webhooks.helpers";

/*
 * #19: what a queue batch reads or opens once and reuses must send exactly what reading or opening it every
 * time would: the event bodies (read with the batch's deliveries, not by each endpoint's run) and the signers
 * (an endpoint's sealed secrets opened once per isolate, keyed by the exact sealed texts).
 */

const PEPPER = () => testEnv.SVC_KEY_PEPPER!;

/** A fake receiver: what each request carried. */
function receiver() {
  const sent: { endpoint: string; headers: Headers; body: string }[] = [];
  const fetcher: typeof fetch = async (_input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({ endpoint: headers.get("svc-endpoint-id")!, headers, body: String(init?.body) });
    return new Response("ok", { status: 200 });
  };
  return { sent, deps: { fetcher, random: () => 0.5 } };
}

/** An endpoint's current secret, sealed and written as a rotation would (the previous one kept or not). */
async function setSecrets(endpointId: string, current: string, previous: string | null): Promise<void> {
  await testEnv.DB.prepare("UPDATE webhook_endpoints SET secret_ciphertext = ?, previous_secret_ciphertext = ? WHERE id = ?")
    .bind(
      await sealSecret(PEPPER(), endpointId, current),
      previous === null ? null : await sealSecret(PEPPER(), endpointId, previous),
      endpointId,
    )
    .run();
}

/** A pending delivery of each event to each endpoint, inserted directly (no queue message: the test delivers them). */
async function pendingOf(tenantId: string, eventIds: string[], endpointIds: string[]): Promise<string[]> {
  const now = Date.now();
  const ids: string[] = [];
  const statements: D1PreparedStatement[] = [];
  for (const eventId of eventIds) {
    await insertCustomerEvent(tenantId, "asset.signed", eventId);
    for (const endpointId of endpointIds) {
      const id = newId("webhookDelivery");
      ids.push(id);
      statements.push(
        testEnv.DB.prepare(
          "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, attempt_base, replay_count, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'asset.signed', 'pending', 0, 0, 0, ?, ?, ?)",
        ).bind(id, tenantId, endpointId, eventId, now, now, now),
      );
    }
  }
  await testEnv.DB.batch(statements);
  return ids;
}

/** Whether `signature` (the header value) holds, in order, exactly the signatures of `secrets` over the request. */
async function signedWith(request: { headers: Headers; body: string }, secrets: string[]): Promise<boolean> {
  const expected = await signWebhook(
    { id: request.headers.get("webhook-id")!, timestampSeconds: Number(request.headers.get("webhook-timestamp")), body: request.body },
    secrets,
  );
  return request.headers.get("webhook-signature") === expected["webhook-signature"];
}

describe("#19 a batch reads and opens once what its runs share", () => {
  it("each event's body is read once, with the deliveries; the runs' claims read none and every endpoint gets the body as stored", async () => {
    const { tenantId } = await createTenant();
    const endpoints = await activeEndpoints(tenantId, 3);
    const events = [newId("webhookEvent"), newId("webhookEvent")];
    const ids = await pendingOf(tenantId, events, endpoints);
    const batches: string[][] = [];
    const env = hookedEnv({
      batch: (sqls, send) => {
        batches.push(sqls);
        return send();
      },
    });
    const r = receiver();
    expect((await deliverBatch(env, ids, r.deps)).every((e) => e === null)).toBe(true);
    // One statement reads bodies (the load's); no claim does.
    const bodyReads = batches.flat().filter((q) => /SELECT id, body FROM webhook_events/.test(q));
    expect(bodyReads).toHaveLength(1);
    expect(batches[0]!.some((q) => /SELECT id, body FROM webhook_events/.test(q))).toBe(true);
    const stored = new Map(
      (
        await testEnv.DB.prepare(`SELECT id, body FROM webhook_events WHERE id IN (?, ?)`)
          .bind(...events)
          .all<{ id: string; body: string }>()
      ).results.map((e) => [e.id, e.body]),
    );
    expect(r.sent).toHaveLength(6);
    for (const s of r.sent) expect(s.body).toBe(stored.get(s.headers.get("webhook-id")!));
    expect(new Set(r.sent.map((s) => `${s.endpoint} ${s.headers.get("webhook-id")}`)).size).toBe(6);
    expect(new Set(r.sent.map((s) => s.endpoint))).toEqual(new Set(endpoints));
  });

  it("the signer is opened once for the same sealed secrets, and another sealing (a rotation, an overlap's end) is opened anew", async () => {
    const endpointId = newId("webhookEndpoint");
    const [a, b] = [generateWebhookSecret(), generateWebhookSecret()];
    const sealedA = await sealSecret(PEPPER(), endpointId, a);
    const sealedB = await sealSecret(PEPPER(), endpointId, b);
    const message = { id: "whevt_aaaaaaaaaaaaaaaa", timestampSeconds: 1_764_000_000, body: '{"n":1}' };
    const first = await openedSigner(PEPPER(), endpointId, sealedA, null);
    expect(await openedSigner(PEPPER(), endpointId, sealedA, null)).toBe(first);
    expect(first.secretCount).toBe(1);
    expect(await first.sign(message)).toEqual(await signWebhook(message, [a]));
    // Rotation overlap: new first, then the outgoing one; its end: the new one alone.
    const overlap = await openedSigner(PEPPER(), endpointId, sealedB, sealedA);
    expect(overlap.secretCount).toBe(2);
    expect(await overlap.sign(message)).toEqual(await signWebhook(message, [b, a]));
    const after = await openedSigner(PEPPER(), endpointId, sealedB, null);
    expect(after).not.toBe(first);
    expect(await after.sign(message)).toEqual(await signWebhook(message, [b]));
    // The sealed text is bound to its endpoint and pepper: elsewhere it does not open, cached or not.
    await expect(openedSigner(PEPPER(), newId("webhookEndpoint"), sealedA, null)).rejects.toThrow();
    await expect(openedSigner(`${PEPPER()}x`, endpointId, sealedA, null)).rejects.toThrow();
    // A failure is not kept: the same call fails again (it is opened again), never served from a cache.
    await expect(openedSigner(PEPPER(), endpointId, "v1.AAAA.AAAA", null)).rejects.toThrow();
    await expect(openedSigner(PEPPER(), endpointId, "v1.AAAA.AAAA", null)).rejects.toThrow();
  });

  it("deliveries after a rotation and after its overlap ends are signed with exactly the endpoint's secrets at that time", async () => {
    const { tenantId } = await createTenant();
    const [endpointId] = await activeEndpoints(tenantId, 1);
    const [a, b] = [generateWebhookSecret(), generateWebhookSecret()];
    const deliverEvent = async () => {
      const ids = await pendingOf(tenantId, [newId("webhookEvent")], [endpointId!]);
      const r = receiver();
      expect((await deliverBatch(testEnv, ids, r.deps)).every((e) => e === null)).toBe(true);
      expect(r.sent).toHaveLength(1);
      return r.sent[0]!;
    };
    await setSecrets(endpointId!, a, null);
    expect(await signedWith(await deliverEvent(), [a])).toBe(true);
    await setSecrets(endpointId!, b, a);
    expect(await signedWith(await deliverEvent(), [b, a])).toBe(true);
    await setSecrets(endpointId!, b, null);
    const last = await deliverEvent();
    expect(await signedWith(last, [b])).toBe(true);
    expect(last.headers.get("webhook-signature")!.split(" ")).toHaveLength(1);
  });
});
