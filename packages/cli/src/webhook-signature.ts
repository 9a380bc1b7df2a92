// TEMPORARY until @svc/client's webhooks.verify lands.
import { createHmac, timingSafeEqual } from "node:crypto";

export type WebhookCheck = { ok: true; id: string; timestamp: number } | { ok: false; reason: string };

export function checkWebhook(
  secret: string,
  headers: Record<string, string | undefined>,
  body: Uint8Array,
  nowSeconds: number,
  toleranceSeconds: number | null,
): WebhookCheck {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sig = headers["webhook-signature"];
  if (!id || !ts || !sig) return { ok: false, reason: "missing webhook-id, webhook-timestamp or webhook-signature" };
  if (!/^\d{1,15}$/.test(ts)) return { ok: false, reason: "malformed webhook-timestamp" };
  const timestamp = Number(ts);
  if (toleranceSeconds !== null && Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    return { ok: false, reason: "timestamp outside the tolerance" };
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${ts}.`).update(body).digest();
  for (const part of sig.split(" ")) {
    const [version, value] = part.split(",", 2);
    if (version !== "v1" || !value) continue;
    const got = Buffer.from(value, "base64");
    if (got.length === expected.length && timingSafeEqual(got, expected)) return { ok: true, id, timestamp };
  }
  return { ok: false, reason: "no signature matches" };
}
