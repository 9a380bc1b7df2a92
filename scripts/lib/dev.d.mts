export const ALL_SCOPES: string[];
export function hashApiKeySecret(pepper: string, secret: string): string;
export function newApiKeySecret(): string;
export function newId(kind: "tenant" | "apiKey"): string;
export const QUIET_ENV: Record<string, string | undefined>;
export function servedBaseUrl(env?: Record<string, string | undefined>, file?: string): string;
