import { z } from "zod";
import type { AttestationTrust } from "../media/attestation/types";
import { log } from "../platform/logger";
import type { GatePolicy } from "./gates-types";

/*
 * The capture trust snapshot: the secret SVC_CAPTURE_TRUST holds the JSON of `AttestationTrust` (roots, trusted
 * apps, revocation list, version). It is a secret (Play Integrity decryption keys), so it is read here and not in
 * platform/config.ts; parsed once per env object. Absent or malformed: operations that need it answer 503
 * `svc.capture.trust_unavailable` (a malformed value is logged once by name, never its content).
 *
 * The same JSON may carry `capturePolicy`, the admission policy (GatePolicy); without it DEFAULT_CAPTURE_POLICY
 * applies. Its id and version are recorded on every admission.
 */

/**
 * The admission policy when the operator configures none: hardware-backed keys (TEE or better), verified boot on a
 * locked device, Play's device integrity verdict and a Play-recognised app, production evidence only, 5 minutes of
 * clock skew between an identity's attestations.
 */
export const DEFAULT_CAPTURE_POLICY: GatePolicy = {
  capture_policy_id: "cpv_standardcapture2",
  capture_policy_version: "svc.capture-policy.standard.1",
  minimum_security_level: "tee",
  require_verified_boot: true,
  required_device_integrity: ["MEETS_DEVICE_INTEGRITY"],
  allowed_app_recognition: ["PLAY_RECOGNIZED"],
  allowed_environments: ["production"],
  clock_skew_tolerance_ms: 5 * 60_000,
};

const policySchema = z
  .object({
    capture_policy_id: z.string().regex(/^cpv_[a-z2-7]{16}$/),
    capture_policy_version: z.string().min(1).max(128),
    minimum_security_level: z.enum(["software", "tee", "strongbox"]),
    require_verified_boot: z.boolean(),
    required_device_integrity: z.array(z.string().min(1)),
    allowed_app_recognition: z.array(z.string().min(1)),
    allowed_environments: z.array(z.enum(["production", "development"])),
    clock_skew_tolerance_ms: z.number().int().min(0).max(86_400_000),
  })
  .strict();

const appSchema = z
  .object({
    appleAppId: z.string().min(1).optional(),
    appleAllowDevelopment: z.boolean().optional(),
    androidPackageName: z.string().min(1).optional(),
    androidSigningCertDigests: z.array(z.string().regex(/^[0-9a-fA-F]{64}$/)).optional(),
    playIntegrityDecryptionKey: z.string().min(1).optional(),
    playIntegrityVerificationKeyPem: z.string().min(1).optional(),
  })
  .strict();

const trustSchema = z
  .object({
    version: z.string().min(1).max(128),
    apps: z.array(appSchema),
    appleRootsPem: z.string().optional(),
    googleRootsPem: z.string().optional(),
    androidRevocations: z
      .object({
        version: z.string().min(1).max(128),
        entries: z.record(z.string(), z.object({ status: z.string(), reason: z.string().optional() })),
      })
      .optional(),
    capturePolicy: policySchema.optional(),
  })
  .strict();

/** The snapshot and the admission policy, or why there is none. */
export type TrustLoad = { status: "ok"; trust: AttestationTrust; policy: GatePolicy } | { status: "absent" } | { status: "malformed" };

const parsed = new WeakMap<object, TrustLoad>();

function parseTrust(raw: string | undefined): TrustLoad {
  if (raw === undefined || raw.trim() === "") return { status: "absent" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { status: "malformed" };
  }
  const result = trustSchema.safeParse(json);
  if (!result.success) return { status: "malformed" };
  const { capturePolicy, ...trust } = result.data;
  return { status: "ok", trust: trust as AttestationTrust, policy: capturePolicy ?? DEFAULT_CAPTURE_POLICY };
}

/**
 * The trust snapshot of `env`, parsed on first use and remembered for that env object. Invariant: `ok` only for a
 * value matching AttestationTrust exactly (unknown members refused, so a misspelt root is not silently ignored).
 */
export function captureTrustOf(env: { SVC_CAPTURE_TRUST?: string }): TrustLoad {
  let load = parsed.get(env);
  if (!load) {
    load = parseTrust(env.SVC_CAPTURE_TRUST);
    if (load.status === "malformed") log.warn("configuration secret malformed", { variable: "SVC_CAPTURE_TRUST" });
    parsed.set(env, load);
  }
  return load;
}

/** What capability discovery says about capture here (`capture` of GET /v1/capabilities). */
export interface CaptureCapability {
  available: boolean;
  attestation_kinds: ("app_attest" | "play_integrity" | "hardware_key_attestation")[];
  reason: string | null;
}

/**
 * The attestation kinds this deployment can verify: App Attest needs Apple roots and an Apple app id; Play Integrity
 * an app with both of its keys; Android key attestation Google roots, an Android package and the revocation list
 * (without it Android evidence is never usable). Invariant: `available` exactly when some kind is listed.
 */
export function captureCapability(env: { SVC_CAPTURE_TRUST?: string }): CaptureCapability {
  const load = captureTrustOf(env);
  if (load.status === "absent") return { available: false, attestation_kinds: [], reason: "not_configured" };
  if (load.status === "malformed") return { available: false, attestation_kinds: [], reason: "configuration_invalid" };
  const { trust } = load;
  const kinds: CaptureCapability["attestation_kinds"] = [];
  if (trust.appleRootsPem && trust.apps.some((a) => a.appleAppId)) kinds.push("app_attest");
  if (trust.apps.some((a) => a.playIntegrityDecryptionKey && a.playIntegrityVerificationKeyPem)) kinds.push("play_integrity");
  if (trust.googleRootsPem && trust.androidRevocations && trust.apps.some((a) => a.androidPackageName))
    kinds.push("hardware_key_attestation");
  return kinds.length > 0
    ? { available: true, attestation_kinds: kinds, reason: null }
    : { available: false, attestation_kinds: [], reason: "no_trusted_apps" };
}
