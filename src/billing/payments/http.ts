import type { AppContext } from "../../platform/context";
import { publicOrigin } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { iso } from "../../platform/openapi";
import { INTENTS_PER_MINUTE, type IntentRow } from "../repo/payments";
import { paymentsConfig } from "./config";
import { type IntentDeps, type IntentResult, paymentsProvider } from "./service";

/** What both intent routes share: the composed adapter and the mapping of results to answers. */
export function intentDeps(c: AppContext): IntentDeps {
  const config = paymentsConfig(c.env);
  const origin = publicOrigin(c);
  if (config.problem) c.var.log.warn("payments not configured", { problem: config.problem });
  return { db: c.var.db, config, provider: paymentsProvider(config, origin), log: c.var.log, requestOrigin: origin };
}

export function intentView(intent: IntentRow) {
  return { id: intent.id, mode: intent.mode, url: intent.url, actionable: intent.url !== null, expires_at: iso(intent.expiresAt) };
}

/** The refusal for every non-ok result (an ApiError to throw). */
export function intentError(result: Exclude<IntentResult, { status: "ok" }>): ApiError {
  switch (result.status) {
    case "not_configured":
      return new ApiError("svc.billing.provider_unavailable", "No payments provider is configured for this deployment.");
    case "redirect_not_allowed":
      return new ApiError("redirect_url_not_allowed", undefined, {
        fieldDetails: [
          { location: "body", field: result.field, code: "redirect_url_not_allowed", message: "Not on a configured console origin." },
        ],
      });
    case "plan_unknown":
      return new ApiError("svc.billing.plan_unknown");
    case "plan_required":
      return new ApiError("svc.billing.plan_required");
    case "plan_not_priced":
      return new ApiError("svc.billing.plan_not_priced");
    case "wallet_not_enabled":
      return new ApiError("svc.billing.wallet_not_enabled");
    case "rate_limited":
      return new ApiError("BILLING_INTENT_RATE_LIMITED", undefined, {
        headers: { "Retry-After": String(result.retryAfterSeconds), "RateLimit-Policy": `"billing-intents";q=${INTENTS_PER_MINUTE};w=60` },
      });
    case "provider_rejected":
      return new ApiError("svc.billing.provider_error");
    case "provider_unreachable":
      return new ApiError(
        "svc.billing.provider_unavailable",
        "The payments provider could not be reached. Nothing was charged; retry later.",
      );
  }
}
