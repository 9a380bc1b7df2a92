import { concatBytes, hex, utf8 } from "../platform/bytes";

/*
 * The commitment manifests carry instead of a person: SHA-256(salt ‖ UTF-8(canonical identity)), lowercase hex.
 * The 32-byte salt is random per identity and kept server-side (sealed), so the commitment reveals nothing and cannot
 * be brute-forced from a list of e-mails; whoever is disclosed the salt and the identity can recompute it.
 */

/** How the canonical identity is written (also served in every disclosure's `commitment.canonical_form`). */
export const CANONICAL_FORM =
  'UTF-8 JSON {"email":<e-mail>,"name":<name or null>}: exactly these two keys in this order, no whitespace, JSON string escaping as ECMAScript JSON.stringify; e-mail NFC-normalised, trimmed and lowercased; name NFC-normalised and trimmed (null when none).';

/** The canonical identity of normalised values (see CANONICAL_FORM). */
export function canonicalIdentity(email: string, name: string | null): string {
  return JSON.stringify({ email, name });
}

export async function commitmentOf(salt: Uint8Array, email: string, name: string | null): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", concatBytes([salt, utf8(canonicalIdentity(email, name))])));
}
