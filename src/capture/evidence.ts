import { APP_ATTEST_VERIFIER_VERSION, verifyAppAttestAssertion } from "../media/attestation/app-attest";
import { verifyKeySignature } from "../media/attestation/key-signature";
import type { AttestationKind, AttestationResult, AttestationTrust, AttestedFacts } from "../media/attestation/types";
import { concatBytes, fromBase64, fromHex, utf8 } from "../platform/bytes";
import type { IdentityRow } from "./repo";
import { challengeBytesOf, verifierFor } from "./service";

/*
 * The evidence of one admission (issue #16): what the app submits as `statement`, what it must be bound to, and
 * what it establishes. Pinned client contract (documented on the operation and in the README):
 *
 *   binding = SHA-256( "svc.capture-admission.v1" ‖ challenge bytes (32, what challenge_secret encodes)
 *                      ‖ media SHA-256 (32 bytes: the captured file exactly as uploaded) )
 *
 *   statement = JSON, one member per line below and no others:
 *     every kind:                 "media_sha256": 64 lowercase hex of the captured file
 *     app_attest:                 "assertion": standard base64 of generateAssertion(clientDataHash = SHA-256(binding))
 *     play_integrity:             "token": the integrity token requested with requestHash = base64url(binding)
 *     hardware_key_attestation:   "certificate_chain": PEM, leaf first, of a fresh key generated with
 *                                   setAttestationChallenge(binding); and
 *                                 "signature": standard base64 of SHA256withECDSA (or SHA256withRSA) over the
 *                                   binding by the key enrolled with this identity (proves the same device)
 *
 * The device signs over the media hash, so the media_substitution gate can compare it with what was uploaded; the
 * challenge makes each statement single use. A Play Integrity identity attests no key: it is an installation of a
 * genuine app on a genuine device, and its admissions are bound to the challenge, not to a device key.
 */

/** Recorded as the admission's `evidence_schema_version`. */
export const ADMISSION_STATEMENT_VERSION = "svc.capture-statement.v1";

const BINDING_DOMAIN = utf8("svc.capture-admission.v1");
const HEX64 = /^[0-9a-f]{64}$/;

const MEMBERS: Record<AttestationKind, readonly string[]> = {
  app_attest: ["media_sha256", "assertion"],
  play_integrity: ["media_sha256", "token"],
  hardware_key_attestation: ["media_sha256", "certificate_chain", "signature"],
};

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

/** The 32 bytes an admission's evidence is bound to (see the file comment). */
export async function admissionBinding(challenge: Uint8Array, mediaSha256: Uint8Array): Promise<Uint8Array> {
  return sha256(concatBytes([BINDING_DOMAIN, challenge, mediaSha256]));
}

/** What one admission's evidence established, for the gates (`GateInput.attestation` and the submission's binding). */
export interface AdmissionEvidence {
  attestation: AttestationResult;
  /** The media SHA-256 the statement names (hex), null when the statement names none. */
  statement_media_sha256: string | null;
  expected_binding: Uint8Array;
}

type Statement = Record<string, string>;

/** The statement's members when it is exactly the kind's JSON object of strings; null otherwise. */
function parseStatement(kind: AttestationKind, text: string): Statement | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  const members = MEMBERS[kind];
  if (entries.length !== members.length || !entries.every(([k, v]) => members.includes(k) && typeof v === "string")) return null;
  return value as Statement;
}

/**
 * Checks one admission statement of `kind` for `identity`. Invariant: `attestation` is `verified` only when the
 * provider's evidence verifies under `trust` at `now` and is bound to `expected_binding`, which is computed from the
 * submitted challenge secret and the media hash the statement names; for App Attest and Android the enrolled key
 * must have signed it too. Never throws.
 */
export async function admissionEvidence(args: {
  kind: AttestationKind;
  statement: string;
  challengeSecret: string;
  identity: IdentityRow;
  trust: AttestationTrust;
  now: Date;
}): Promise<AdmissionEvidence> {
  const { kind, identity, trust, now } = args;
  const verifier = verifierFor(kind);
  const invalid = (detail: string, version = verifier.version): AttestationResult => ({
    status: "invalid",
    detail,
    verifier_version: version,
  });
  // An undecodable secret cannot match the stored hash (request_mismatch); the evidence is then bound to nothing.
  const challenge = challengeBytesOf(args.challengeSecret) ?? new Uint8Array(32);
  const parsed = parseStatement(kind, args.statement);
  const media = parsed && HEX64.test(parsed.media_sha256!) ? parsed.media_sha256! : null;
  const expected_binding = await admissionBinding(challenge, media ? fromHex(media) : new Uint8Array(32));
  const result = (attestation: AttestationResult): AdmissionEvidence => ({ attestation, statement_media_sha256: media, expected_binding });
  if (!parsed || !media) return result(invalid(`the statement is not the ${ADMISSION_STATEMENT_VERSION} JSON for ${kind}`));

  const enrolledKey = identity.publicKeySpki ? fromBase64(identity.publicKeySpki) : null;
  try {
    switch (kind) {
      case "app_attest": {
        if (!enrolledKey || identity.appId === null || identity.counter === null)
          return result(invalid("the identity has no enrolled App Attest key", APP_ATTEST_VERIFIER_VERSION));
        const checked = await verifyAppAttestAssertion({
          assertion: parsed.assertion!,
          clientData: expected_binding,
          publicKeySpki: enrolledKey,
          previousCounter: identity.counter,
          appId: identity.appId,
          trust,
        });
        if (checked.status === "invalid") return result(checked);
        return result({
          status: "verified",
          facts: appAttestFacts(identity, checked.counter, expected_binding, trust),
          verifier_version: checked.verifier_version,
        });
      }
      case "play_integrity":
        return result(await verifier.verify({ statement: parsed.token!, expectedChallenge: expected_binding, trust, now }));
      case "hardware_key_attestation": {
        const signature = fromBase64(parsed.signature!);
        if (!enrolledKey) return result(invalid("the identity has no enrolled key"));
        if (!signature) return result(invalid("the signature is not canonical base64"));
        const attested = await verifier.verify({ statement: parsed.certificate_chain!, expectedChallenge: expected_binding, trust, now });
        if (attested.status !== "verified") return result(attested);
        // A fresh key proves a genuine device; only the enrolled key proves it is this identity's device.
        if (!(await verifyKeySignature(enrolledKey, expected_binding, signature)))
          return result(invalid("the enrolled key's signature over the binding does not verify"));
        return result(attested);
      }
    }
  } catch {
    return result(invalid("the statement could not be processed"));
  }
}

/**
 * An assertion attests no new device facts: they are the enrolled ones, with the signed counter and the binding.
 * The app must still be trusted now, in the environment it enrolled in.
 */
function appAttestFacts(identity: IdentityRow, counter: number, binding: Uint8Array, trust: AttestationTrust): AttestedFacts {
  const development = identity.environment === "development";
  return {
    kind: "app_attest",
    provider_class: "apple_app_attest",
    app_id: identity.appId,
    app_trusted: trust.apps.some((a) => a.appleAppId === identity.appId && (!development || a.appleAllowDevelopment === true)),
    key_id: identity.keyId,
    public_key_spki: identity.publicKeySpki ? fromBase64(identity.publicKeySpki) : null,
    counter,
    challenge: binding,
    security_level: null,
    boot: null,
    os_version: null,
    os_patch_level: null,
    app_version: null,
    device_integrity: [],
    app_recognition: null,
    environment: identity.environment,
    issued_at: null,
    revoked: null,
  };
}
