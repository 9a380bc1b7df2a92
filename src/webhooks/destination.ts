import type { Bindings } from "../env";
import { log } from "../platform/logger";
import { checkDestination, type DestinationCheck, dohResolver, type Resolver } from "../platform/net/outbound";

/** SPEC "Webhook endpoint": destination URLs are at most 2048 characters. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** Development settings are honoured only in the development environment, never in production. */
function isDevelopment(env: Bindings): boolean {
  return env.SVC_ENVIRONMENT === "development";
}

/**
 * The resolver for destination checks: DNS over HTTPS, preceded in development by SVC_DEV_DNS_HOSTS (a static
 * host map, like /etc/hosts, so names that resolve to private addresses can be exercised without a DNS server).
 */
export function webhookResolver(env: Bindings): Resolver {
  const doh = dohResolver();
  let hosts: Record<string, string[]> = {};
  if (isDevelopment(env) && env.SVC_DEV_DNS_HOSTS) {
    try {
      hosts = JSON.parse(env.SVC_DEV_DNS_HOSTS) as Record<string, string[]>;
    } catch {
      log.warn("SVC_DEV_DNS_HOSTS is not a JSON object; ignored");
    }
  }
  return async (host) => (Array.isArray(hosts[host]) ? hosts[host]! : doh(host));
}

/**
 * The webhook destination policy: https only, at most 2048 characters, no credentials, and neither the host nor
 * any address it resolves to loopback, private, link-local or metadata. SVC_WEBHOOKS_ALLOW_LOOPBACK=1 admits
 * http(s) to loopback for local receivers, in development only. Checked at create, update and enable, and again
 * before every attempt (a name can be re-pointed after registration).
 */
export function checkWebhookDestination(env: Bindings, url: string, resolver: Resolver = webhookResolver(env)): Promise<DestinationCheck> {
  return checkDestination(url, {
    resolver,
    allowLoopbackHttp: isDevelopment(env) && env.SVC_WEBHOOKS_ALLOW_LOOPBACK === "1",
    maxLength: WEBHOOK_URL_MAX_LENGTH,
  });
}
