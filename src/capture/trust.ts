import { z } from "zod";
import type { AttestationTrust } from "../media/attestation/types";
import { log } from "../platform/logger";

/*
 * The capture trust snapshot: the secret SVC_CAPTURE_TRUST holds the JSON of `AttestationTrust` (roots, trusted
 * apps, revocation list, version). It is a secret (Play Integrity decryption keys), so it is read here and not in
 * platform/config.ts; parsed once per env object. Absent or malformed: operations that need it answer 503
 * `svc.capture.trust_unavailable` (a malformed value is logged once by name, never its content).
 */

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
  })
  .strict();

/** The snapshot, or why there is none. */
export type TrustLoad = { status: "ok"; trust: AttestationTrust } | { status: "absent" } | { status: "malformed" };

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
  return result.success ? { status: "ok", trust: result.data as AttestationTrust } : { status: "malformed" };
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
