import type * as X509 from "@peculiar/x509";

/**
 * @peculiar/x509 resolves its services through tsyringe, which refuses to load without the Reflect metadata API.
 * Nothing in the tests uses decorator metadata, so a minimal polyfill is enough; x509 is imported after it.
 */
function installReflectMetadataShim() {
  const R = Reflect as unknown as Record<string, unknown>;
  if (typeof R.getMetadata === "function") return;
  const store = new WeakMap<object, Map<unknown, unknown>>();
  R.defineMetadata = (key: unknown, value: unknown, target: object) => {
    let map = store.get(target);
    if (!map) store.set(target, (map = new Map()));
    map.set(key, value);
  };
  R.getOwnMetadata = (key: unknown, target: object) => store.get(target)?.get(key);
  R.getMetadata = (key: unknown, target: object) => {
    for (let t: object | null = target; t; t = Object.getPrototypeOf(t) as object | null) {
      const map = store.get(t);
      if (map?.has(key)) return map.get(key);
    }
    return undefined;
  };
}

export async function loadX509(): Promise<typeof X509> {
  installReflectMetadataShim();
  return import("@peculiar/x509");
}
