import { CapabilityRegistry, type CapabilityProvider } from "./registry";

/**
 * The pipelines installed in this build. Empty until the signing spine lands: the platform alone cannot
 * inspect, sign, watermark or fingerprint anything, so capabilities report every format and recipe as
 * unavailable. Each pipeline appends its provider here when it ships, with the media types its round-trip
 * tests cover.
 */
export const INSTALLED_PROVIDERS: readonly CapabilityProvider[] = [];

export const registry = new CapabilityRegistry(INSTALLED_PROVIDERS);
