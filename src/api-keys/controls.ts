/**
 * Per-key controls stored on the key row. Each is versioned: a PUT replaces it whole and bumps the version,
 * and it applies from the key's next request (the auth middleware reads the row on every request).
 */
export interface KeyRestrictions {
  version: number;
  /** CIDR ranges (v4 or v6) the key may be used from; empty: any address. */
  ip_allowlist: string[];
  /** Requests per minute for this key, or null for no key-level limit. */
  rate_limit_per_minute: number | null;
  updated_at: string | null;
}

export const NO_RESTRICTIONS: KeyRestrictions = { version: 0, ip_allowlist: [], rate_limit_per_minute: null, updated_at: null };

export function restrictionsOf(json: string | null): KeyRestrictions {
  return json ? (JSON.parse(json) as KeyRestrictions) : NO_RESTRICTIONS;
}

export type WatermarkStrengthName = "subtle" | "balanced" | "robust";

/**
 * A key's signing defaults and allowed sets, read by admission (src/jobs/admission.ts) on the key's next sign.
 * Fields added after the first version are optional: a stored profile without them means "system default, any".
 * Defaults apply only where the recipe uses them (a sign-only recipe ignores watermark defaults); every
 * `allowed_*` set also bounds what a request names explicitly (403 svc.sign.option_not_allowed).
 */
export interface SigningProfile {
  version: number;
  /** Recipe used by POST /v1/sign when the request names none. */
  default_recipe_id: string | null;
  /** Recipes this key may sign with; null: any available recipe. */
  allowed_recipe_ids: string[] | null;
  /** Watermark used when a request names none, for assets of the modality it is offered for; null: the system default. */
  default_watermark_algorithm?: string | null;
  /** Watermark algorithms this key may use; null: any available. */
  allowed_watermark_algorithms?: string[] | null;
  /** Strength used when a request names none; null: balanced. */
  default_watermark_strength?: WatermarkStrengthName | null;
  /** Strengths this key may use; null: any. */
  allowed_watermark_strengths?: WatermarkStrengthName[] | null;
  /** Fingerprint set used when a request names none (those offered for the asset's modality); null: the system defaults. */
  default_fingerprint_algorithms?: string[] | null;
  /** Fingerprint algorithms a request may name; null: any available. The locked image ISCC code is always added. */
  allowed_fingerprint_algorithms?: string[] | null;
  updated_at: string | null;
}

export const NO_SIGNING_PROFILE: SigningProfile = { version: 0, default_recipe_id: null, allowed_recipe_ids: null, updated_at: null };

export function signingProfileOf(json: string | null): SigningProfile {
  return json ? (JSON.parse(json) as SigningProfile) : NO_SIGNING_PROFILE;
}

/** The longest retention any key may set while tenants have no retention setting of their own. */
export const TENANT_MAX_RETENTION_DAYS = 3650;

export interface KeyRetention {
  version: number;
  /** Days the published outputs of jobs this key admits are kept, or null to keep them until deleted. */
  output_retention_days: number | null;
  updated_at: string | null;
}

export const NO_RETENTION: KeyRetention = { version: 0, output_retention_days: null, updated_at: null };

export function retentionOf(json: string | null): KeyRetention {
  return json ? (JSON.parse(json) as KeyRetention) : NO_RETENTION;
}

/**
 * The most a key may set: the tenant ceiling, and, for a key created by another key (a delegated key), no more
 * than its creator keeps (a creator without a retention keeps indefinitely, so imposes only the tenant ceiling).
 */
export function retentionCeilingDays(creator: { retention: string | null } | null): number {
  const creatorDays = creator ? retentionOf(creator.retention).output_retention_days : null;
  return creatorDays === null ? TENANT_MAX_RETENTION_DAYS : Math.min(TENANT_MAX_RETENTION_DAYS, creatorDays);
}
