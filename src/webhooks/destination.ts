import type { Bindings } from "../env";
import { configOf } from "../platform/config";
import { checkDestination, type DestinationCheck, dohResolver, type Resolver } from "../platform/net/outbound";

/** SPEC "Webhook endpoint": destination URLs are at most 2048 characters. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/**
 * The resolver for destination checks: DNS over HTTPS, preceded in development by SVC_DEV_DNS_HOSTS (a static
 * host map, like /etc/hosts, so names that resolve to private addresses can be exercised without a DNS server).
 */
export function webhookResolver(env: Bindings): Resolver {
  const doh = dohResolver();
  // Empty outside development (configOf honours the development settings there only).
  const hosts = configOf(env).devDnsHosts;
  return async (host) => {
    const addresses = hosts[host];
    return addresses ? [...addresses] : doh(host);
  };
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
    allowLoopbackHttp: configOf(env).webhooksAllowLoopback,
    maxLength: WEBHOOK_URL_MAX_LENGTH,
  });
}
