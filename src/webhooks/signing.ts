import { base64, fromBase64 } from "../platform/bytes";

/*
 * Standard Webhooks signing (https://www.standardwebhooks.com, symmetric scheme): the secret is `whsec_` +
 * base64 of random bytes; each signature is `v1,` + base64(HMAC-SHA256(key, "<webhook-id>.<timestamp>.<body>")).
 * During a rotation overlap the body is signed with both secrets, space-delimited, new secret first.
 */

export const SECRET_PREFIX = "whsec_";
/** 32 random bytes: above the standard's 24-byte minimum. */
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + base64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The HMAC key of a `whsec_` secret (the canonical base64 after the prefix); null when malformed or non-canonical. */
export function secretKeyBytes(secret: string): Uint8Array | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const bytes = fromBase64(secret.slice(SECRET_PREFIX.length));
  return bytes && bytes.length > 0 ? bytes : null;
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** Signs one message with each secret; the header value lists one `v1,` signature per secret, in order. */
export async function signWebhook(
  message: { id: string; timestampSeconds: number; body: string },
  secrets: readonly string[],
): Promise<SignedHeaders> {
  return (await webhookSigner(secrets))(message);
}

const encoder = new TextEncoder();

/** Signs messages with fixed secrets; the HMAC keys are imported once (a run of deliveries to one endpoint). */
export type WebhookSigner = (message: { id: string; timestampSeconds: number; body: string }) => Promise<SignedHeaders>;

/** The signer of `secrets` (new first); throws when there is none or one is malformed. */
export async function webhookSigner(secrets: readonly string[]): Promise<WebhookSigner> {
  if (secrets.length === 0) throw new Error("at least one secret is needed to sign");
  const keys: CryptoKey[] = [];
  for (const secret of secrets) {
    const raw = secretKeyBytes(secret);
    if (!raw) throw new Error("malformed webhook secret");
    keys.push(await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]));
  }
  return async (message) => {
    const content = encoder.encode(`${message.id}.${message.timestampSeconds}.${message.body}`);
    const signatures: string[] = [];
    for (const key of keys) signatures.push(`v1,${base64(new Uint8Array(await crypto.subtle.sign("HMAC", key, content)))}`);
    return { "webhook-id": message.id, "webhook-timestamp": String(message.timestampSeconds), "webhook-signature": signatures.join(" ") };
  };
}

/*
 * Secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the key pepper, with the endpoint id as
 * associated data, so a ciphertext copied to another endpoint's row does not decrypt. Format `v1.<iv>.<ct>`.
 */

/** The derived key of the last pepper seen: one HKDF per isolate instead of one per secret opened. */
let derived: { pepper: string; key: Promise<CryptoKey> } | null = null;

function secretsKey(pepper: string): Promise<CryptoKey> {
  if (derived?.pepper !== pepper) {
    const key = deriveSecretsKey(pepper);
    derived = { pepper, key };
    // A failed derivation is not kept.
    key.catch(() => {
      if (derived?.key === key) derived = null;
    });
  }
  return derived.key;
}

async function deriveSecretsKey(pepper: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(pepper), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: new TextEncoder().encode("svc.webhook-secret.v1") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function sealSecret(pepper: string, endpointId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(endpointId) },
    await secretsKey(pepper),
    new TextEncoder().encode(secret),
  );
  return `v1.${base64(iv)}.${base64(new Uint8Array(ct))}`;
}

export async function openSecret(pepper: string, endpointId: string, sealed: string): Promise<string> {
  const [version, iv, ct] = sealed.split(".");
  if (version !== "v1" || !iv || !ct) throw new Error("unreadable sealed webhook secret");
  const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes(iv), additionalData: new TextEncoder().encode(endpointId) },
    await secretsKey(pepper),
    bytes(ct),
  );
  return new TextDecoder().decode(plain);
}
