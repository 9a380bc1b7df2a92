import type { SvcClientOptions } from "./client.ts";

/**
 * SVC_API_KEY and SVC_API_BASE_URL from the process environment, where there is one (Node, Bun, Deno with
 * `process`); an empty object elsewhere (Workers take bindings, browsers hold no server key). The only place the
 * package reads the environment.
 */
export function fromEnv(env?: Record<string, string | undefined>): SvcClientOptions {
  const source = env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const options: SvcClientOptions = {};
  if (source.SVC_API_KEY) options.apiKey = source.SVC_API_KEY;
  if (source.SVC_API_BASE_URL) options.baseUrl = source.SVC_API_BASE_URL;
  return options;
}
