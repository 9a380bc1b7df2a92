import type { Principal } from "../platform/principal";
import type { MatchFilter } from "./queries";

/**
 * Who may search which part of the soft-binding index (pure, no I/O).
 *
 * - `global` (the default, for anyone, with or without a key): every tenant's publications that are still
 *   resolvable. A published asset's provenance is public; matches name the manifest, never the tenant.
 * - `tenant`: only the caller's own tenant's publications. It needs an API key holding `recovery:read`; an
 *   anonymous caller gets `credential_required`, a key without the scope `scope_missing`.
 *
 * Either way only resolvable publications are searched: published (not past retention) and with a manifest.
 */
export type RequestedLookupScope = "global" | "tenant";

export type LookupScopeDecision =
  | { status: "ok"; scope: "global" | "tenant"; filter: Required<MatchFilter> }
  | { status: "credential_required" }
  | { status: "scope_missing" };

export function lookupScope(principal: Principal, requested: RequestedLookupScope | undefined): LookupScopeDecision {
  if ((requested ?? "global") === "global") return { status: "ok", scope: "global", filter: { tenantId: null, resolvableOnly: true } };
  if (principal.kind !== "api_key") return { status: "credential_required" };
  if (!principal.scopes.has("recovery:read")) return { status: "scope_missing" };
  return { status: "ok", scope: "tenant", filter: { tenantId: principal.tenantId, resolvableOnly: true } };
}
