/**
 * The scope vocabulary. SPEC names the first twelve; `api_keys:*` guard key management. Later areas add
 * theirs here, and the policy table may only name scopes from this list (the type enforces it).
 */
export const SCOPES = {
  "capabilities:read": "Read capabilities, image profiles and the recipe catalog.",
  "identity:read": "Read the calling identity and onboarding state.",
  "jobs:read": "Read jobs and recipes.",
  "uploads:write": "Create, complete and abort uploads.",
  "sign:write": "Start signing jobs and cancel them.",
  "assets:read": "Read assets, receipts, downloads and previews.",
  "verify:write": "Submit verifications.",
  "recovery:read": "Read verification status, evidence and recovery matches.",
  "webhooks:write": "Manage webhook endpoints and send test events.",
  "billing:read": "Read billing, pricing and usage.",
  "billing:write": "Change billing settings and create billing intents.",
  "creators:disclose": "Decrypt a creator identity's disclosed name and e-mail.",
  "api_keys:read": "List and read API keys (never their secrets).",
  "api_keys:write": "Create and revoke API keys; a new key can only hold scopes of the key that creates it.",
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}
