/**
 * The complete scope vocabulary, designed from every operation of the contract: SPEC names the first twelve;
 * the rest cover the areas SPEC leaves unscoped (key management, webhooks reads, creators, capture, governance,
 * feedback, overview). The policy table may only name scopes from this list (the type enforces it).
 * An API key holds the scopes it was created with. A console session (#18, a user signed in with the identity
 * provider) holds every scope: the user acts as the account's owner, covers every key in the key hierarchy, and is
 * the only caller that may turn wallet auto-recharge on.
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
  "api_keys:write":
    "Create, revoke and rotate API keys and set their restrictions, signing profiles and retention; a new key can only hold scopes of the key that creates it.",
  "webhooks:read": "Read webhook endpoints, deliveries, attempts and the event catalog.",
  "creators:read": "Read creator identities and the disclosure policy (never names or e-mails).",
  "creators:write": "Enroll and withdraw creator identities and set the disclosure policy.",
  "capture:read": "Read capture identities and admissions.",
  "capture:write": "Enroll capture identities, issue challenges, submit admissions and revoke identities.",
  "governance:read": "Read governance exports, deletions, legal holds and the audit log.",
  "governance:write": "Request exports of the tenant's records.",
  "governance:delete":
    "Request deletions of assets or of the whole account (kept apart from exports: a key that may export may not delete).",
  "feedback:write": "Send feedback.",
  "overview:read": "Read the tenant overview.",
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}
