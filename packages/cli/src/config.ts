import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The address `npm start` serves on unless PORT says otherwise (scripts/lib/dev.mjs). */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

/** Where the service and key come from, for `svc` to say (never the key itself). */
export type Source = "flag" | "env" | "dev.env" | "default";

/**
 * The service to talk to and the key to use. Invariant: a key read from `.svc/dev.env` is only used with that
 * file's own base URL, so the local development key is never sent to another service; a dev.env base URL is used
 * only when it is loopback and only with the dev.env key, so an environment key never goes to a file's address.
 */
export interface Config {
  readonly baseUrl: string;
  readonly apiKey: string | null;
  readonly baseUrlSource: Source;
  readonly apiKeySource: Exclude<Source, "flag" | "default"> | null;
  /** The dev.env file read, if any. */
  readonly devEnvPath: string | null;
  /**
   * The address of a dev.env whose key was held back because the service chosen is another one (to say why there
   * is no key, rather than suggest running `npm start` again); null otherwise.
   */
  readonly devEnvKeyHeldFor: string | null;
}

/** KEY=value lines (optionally quoted), as scripts/lib/dev.mjs writes them; other lines ignored. */
export function parseEnvFile(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m)
      vars[m[1]!] = m[2]!
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .replace(/^'(.*)'$/, "$1");
  }
  return vars;
}

/** The nearest `.svc/dev.env` from `cwd` upwards, else the one of the repository this CLI is part of. */
export function findDevEnv(cwd: string): string | null {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, ".svc", "dev.env");
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // packages/cli/src/config.ts → repository root.
  const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", ".svc", "dev.env");
  return existsSync(repo) ? repo : null;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** An http(s) URL to this machine only (127.0.0.0/8, ::1, localhost), with no credentials in it. */
export function isLoopbackUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "") return false;
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Resolves the configuration: flag, then environment, then `.svc/dev.env`, then the default address. */
export function resolveConfig(env: Readonly<Record<string, string | undefined>>, cwd: string, baseUrlFlag?: string): Config {
  const devEnvPath = findDevEnv(cwd);
  let dev: Record<string, string> = {};
  if (devEnvPath) {
    try {
      dev = parseEnvFile(readFileSync(devEnvPath, "utf8"));
    } catch {
      dev = {};
    }
  }
  // A dev.env may come from any checkout the user cd's into, so its address is trusted only when it is loopback
  // and only together with its own key: an environment key never follows a file's address.
  const devBase = dev.SVC_API_BASE_URL && isLoopbackUrl(dev.SVC_API_BASE_URL) ? trimSlash(dev.SVC_API_BASE_URL) : null;
  let baseUrl: string;
  let baseUrlSource: Source;
  if (baseUrlFlag) [baseUrl, baseUrlSource] = [trimSlash(baseUrlFlag), "flag"];
  else if (env.SVC_API_BASE_URL) [baseUrl, baseUrlSource] = [trimSlash(env.SVC_API_BASE_URL), "env"];
  else if (devBase && !env.SVC_API_KEY) [baseUrl, baseUrlSource] = [devBase, "dev.env"];
  else [baseUrl, baseUrlSource] = [DEFAULT_BASE_URL, "default"];
  let apiKey: string | null = null;
  let apiKeySource: Config["apiKeySource"] = null;
  if (env.SVC_API_KEY) [apiKey, apiKeySource] = [env.SVC_API_KEY.trim(), "env"];
  else if (dev.SVC_API_KEY && devBase && devBase === baseUrl) [apiKey, apiKeySource] = [dev.SVC_API_KEY, "dev.env"];
  return {
    baseUrl,
    apiKey,
    baseUrlSource,
    apiKeySource,
    devEnvPath: apiKeySource === "dev.env" || baseUrlSource === "dev.env" ? devEnvPath : null,
    devEnvKeyHeldFor: !apiKey && dev.SVC_API_KEY && devBase ? devBase : null,
  };
}

/** Every API key in `text` replaced, so no message the CLI prints can carry one. */
export function redactSecrets(text: string, apiKey: string | null): string {
  let out = text.replace(/svc_live_[A-Za-z0-9]+/g, "svc_live_…");
  if (apiKey && apiKey.length >= 8) out = out.split(apiKey).join("…");
  return out;
}
