import type { MiddlewareHandler } from "hono";
import type { Bindings } from "../env";
import { configOf } from "../platform/config";
import type { AppEnv } from "../platform/context";
import { ApiError } from "../platform/errors";
import { log } from "../platform/logger";

/**
 * What a deployment must have before it serves. Pure: reads settings, touches no binding.
 *
 * Everywhere: the key pepper, the cursor secret and the capability secret (without them authenticated
 * operations, pagination and storage URLs cannot work). In production (any SVC_ENVIRONMENT other than
 * "development", so a missing or misspelt setting is production too) also the C2PA signing certificate and key,
 * and never development material: the in-process dev TSA (SVC_TSA_URL "internal") is refused rather than used.
 */
export type DeploymentCheck = { ready: true } | { ready: false; problems: string[] };

/** Secrets every deployment needs. */
const REQUIRED_SECRETS = ["SVC_KEY_PEPPER", "SVC_CURSOR_SECRET", "SVC_CAPABILITY_SECRET"] as const;
/**
 * Secrets a production deployment needs besides: a signing service with no signer is not ready, and production
 * serves stored objects only from R2's presigned origin (never the API origin), which needs R2's S3 credentials.
 */
const REQUIRED_IN_PRODUCTION = [
  "SVC_C2PA_SIGNER_CHAIN_PEM",
  "SVC_C2PA_SIGNER_KEY_PEM",
  "SVC_R2_S3_ENDPOINT",
  "SVC_R2_ACCESS_KEY_ID",
  "SVC_R2_SECRET_ACCESS_KEY",
  "SVC_R2_BUCKET",
] as const;

export function checkDeployment(env: Bindings): DeploymentCheck {
  const problems: string[] = [];
  const config = configOf(env);
  const production = config.environment === "production";
  for (const name of [...REQUIRED_SECRETS, ...(production ? REQUIRED_IN_PRODUCTION : [])]) {
    if (!env[name]?.trim()) problems.push(`${name} is not set`);
  }
  if (production && config.tsaUrl?.trim() === "internal") problems.push('SVC_TSA_URL is "internal" (the development TSA) in production');
  // Whoever holds the dev identity provider's private key can mint console sessions: it never belongs in production.
  if (production && env.SVC_DEV_SESSION_KEY_PEM?.trim())
    problems.push("SVC_DEV_SESSION_KEY_PEM (the development session issuer's key) is set in production");
  return problems.length === 0 ? { ready: true } : { ready: false, problems };
}

/** Paths that answer even when the deployment is not completely configured: liveness and readiness. */
export const PROBE_PATHS: readonly string[] = ["/healthz", "/healthz/db", "/readyz", "/readyz/governance"];

let reported = "";

/**
 * Production only: a deployment that fails checkDeployment answers every request but its probes with 503
 * `svc.deployment.not_configured` (the error envelope), instead of serving with fallbacks. The public answer
 * names nothing; the log names what is missing (once per isolate and problem set).
 */
export const requireConfiguredDeployment: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.config.environment === "development" || PROBE_PATHS.includes(c.req.path)) return next();
  const check = checkDeployment(c.env);
  if (check.ready) return next();
  const summary = check.problems.join("; ");
  if (summary !== reported) {
    reported = summary;
    log.error("deployment not configured: serving 503", { missing: check.problems });
  }
  throw new ApiError(
    "svc.deployment.not_configured",
    "This deployment is not completely configured; until an operator completes it only the health probes answer.",
  );
};
