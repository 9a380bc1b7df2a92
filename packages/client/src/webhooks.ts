import { Webhook, WebhookVerificationError } from "standardwebhooks";

/**
 * A customer event as delivered (svc.customer-events.v1): thin, ids and links only. `data` depends on `type`
 * (`asset.signed`, `asset.watermarked`, `job.failed`, or `webhook.test` from the test operation).
 */
export interface WebhookEvent {
  id: string;
  type: string;
  event_catalog_version: string;
  timestamp: string;
  test: boolean;
  data: Record<string, unknown>;
}

/** A delivery whose signature, timestamp or body did not verify: answer it 4xx and do not act on it. */
export class SvcWebhookError extends Error {
  override readonly name = "SvcWebhookError";
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === "function" && typeof (headers as Headers).get === "function") {
    (headers as Headers).forEach((value, key) => {
      out[key.toLowerCase()] = value;
    });
    return out;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value === undefined) continue;
    // Node joins repeated headers into an array; the signature header is one space-delimited value.
    out[key.toLowerCase()] = Array.isArray(value) ? value.join(" ") : value;
  }
  return out;
}

/**
 * Verifies one delivery with the Standard Webhooks library (HMAC-SHA256 over `id.timestamp.body`, constant-time
 * compare, 300 s timestamp tolerance; any one of the `v1,` signatures matching, as during a secret rotation) and
 * returns the parsed event. `payload` must be the raw body exactly as received: bytes are decoded as strict UTF-8,
 * never re-serialized. Throws SvcWebhookError on any failure; the secret never appears in its message.
 */
export function verifyWebhook(payload: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  let text: string;
  try {
    text =
      typeof payload === "string"
        ? payload
        : new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
            payload instanceof ArrayBuffer ? new Uint8Array(payload) : payload,
          );
  } catch {
    throw new SvcWebhookError("The body is not UTF-8.");
  }
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch {
    throw new SvcWebhookError("The signing secret is not a whsec_ base64 secret.");
  }
  let event: unknown;
  try {
    event = webhook.verify(text, plainHeaders(headers));
  } catch (e) {
    if (e instanceof WebhookVerificationError) throw new SvcWebhookError(e.message);
    throw new SvcWebhookError("The body is not JSON.");
  }
  if (!event || typeof event !== "object" || typeof (event as WebhookEvent).type !== "string")
    throw new SvcWebhookError("The body is not an event.");
  return event as WebhookEvent;
}

/** Webhook helpers; they need no API key (a receiver holds only the endpoint's signing secret). */
export const webhooks = { verify: verifyWebhook } as const;
