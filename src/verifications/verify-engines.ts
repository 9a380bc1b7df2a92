import type { Bindings } from "../env";
import { activeManifestSignature, signerCredentials } from "../media/c2pa/jumbf-signature";
import { checkOcsp, InMemoryOcspCache, type OcspCache, type OcspFetcher } from "../media/c2pa/ocsp";
import { answerDevOcsp, devOcspResponder, devRevocationsVersion } from "../media/c2pa/ocsp-dev-port";
import type { RevocationCheck } from "./verify-service";

/**
 * The C2PA engine loader (a `.wasm` module import, so workerd only and imported on first use). The engine is
 * instantiated by the first call of the function answered, which every engine read makes first (media/c2pa reader
 * and verifier), not here: a verification that never reads with the engine (a JPEG without a manifest, the common
 * public verify) does not make a fresh isolate instantiate it (#19).
 */
export async function ensureC2paEngineLazily(): Promise<() => void> {
  const { ensureC2paEngine } = await import("../media/c2pa/engine-workerd");
  return ensureC2paEngine;
}

/** Verified OCSP answers, per isolate, until their nextUpdate (never `unavailable` ones). */
const ocspCache = new InMemoryOcspCache();

/**
 * The outbound path of OCSP requests: the dev responder in process for the dev PKI's own location (a Worker
 * cannot fetch itself), the network for every other responder.
 */
function ocspFetcher(env: Bindings): OcspFetcher {
  const responder = devOcspResponder(env);
  return async (request) => {
    if (responder && env.SVC_DEV_OCSP_URL && request.url === env.SVC_DEV_OCSP_URL) {
      const reply = await answerDevOcsp(env, responder, new Uint8Array(await request.arrayBuffer()));
      return new Response(reply as Uint8Array<ArrayBuffer>, { status: 200, headers: { "content-type": "application/ocsp-response" } });
    }
    return fetch(request);
  };
}

/**
 * OCSP of the active manifest's signer: its certificate and issuer come from the manifest's own COSE x5chain
 * (the engine reports only their names). The dev responder's answers are cached under the version of its
 * revocation list, so a revocation still changes them at once in development.
 */
export function revocationCheck(env: Bindings): RevocationCheck {
  return async (store, activeLabel, rides) => {
    if (!store)
      return {
        status: "unavailable",
        warning: "OCSP not checked: the signer's certificate could not be read from the manifest store.",
        withoutResponder: true,
      };
    const signature = activeManifestSignature(store, activeLabel);
    const credentials = signature.status === "ok" ? signerCredentials(signature.cose) : null;
    if (credentials?.status !== "ok" || credentials.chain.length < 2) {
      return {
        status: "unavailable",
        warning: "OCSP not checked: the manifest's certificate chain does not include the signer's issuer.",
        withoutResponder: true,
      };
    }
    const dev = devOcspResponder(env) !== null;
    // Whether a responder was asked (the answer not from the cache): the caller then reads related publications'
    // state after this answer (verify-service.ts RevocationAnswer.withoutResponder).
    let asked = false;
    const fetcher = ocspFetcher(env);
    const result = await checkOcsp({
      cert: credentials.chain[0]!,
      issuer: credentials.chain[1]!,
      fetcher: (request) => {
        asked = true;
        return fetcher(request);
      },
      cache: dev ? versioned(ocspCache, await devRevocationsVersion(env, rides?.ride)) : ocspCache,
    });
    if (result.status === "unavailable") {
      const why =
        result.reason === "no_ocsp_url"
          ? "the signing certificate names no OCSP responder"
          : `the responder could not be used (${result.reason})`;
      return { status: "unavailable", warning: `The signer's revocation status is unknown: ${why}.`, withoutResponder: !asked };
    }
    return { status: result.status, withoutResponder: !asked };
  };
}

/** `cache` with every key under `version`: entries of another version are never read (they age out). */
function versioned(cache: OcspCache, version: string): OcspCache {
  return {
    get: (key) => cache.get(`${version}\n${key}`),
    put: (key, entry, expiresAt) => cache.put(`${version}\n${key}`, entry, expiresAt),
  };
}
