import { z } from "@hono/zod-openapi";
import { MAX_MATCHES } from "./repo";

/*
 * The schemas of the C2PA Soft Binding Resolution API (C2PA 2.2 "Soft Binding API", §1.4 OpenAPI 3.0.3:
 * c2pa-org/specifications build/site/specifications/2.2/softbinding/Decoupled.html). Component names, field
 * names and parameter names are the C2PA ones; `scope` is this service's one extension.
 */

export const ALG_EXAMPLE = "io.iscc.v0";
export const VALUE_EXAMPLE = "nxkC2uq1P4E=";
export const MANIFEST_ID_EXAMPLE = "urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6";

export const AlgParam = z.string().min(1).max(200).openapi({
  description:
    "The soft binding algorithm, by its name in the C2PA soft binding algorithm list (https://github.com/c2pa-org/softbinding-algorithm-list) or, for this service's own algorithms, as the `alg` of the manifest's `c2pa.soft-binding` assertion. GET /services/supportedAlgorithms lists those resolved here.",
  example: ALG_EXAMPLE,
});

export const ValueParam = z.string().min(1).max(4096).openapi({
  description:
    "Base64 of the soft binding value, exactly as the `value` of the manifest's soft-binding block: the 8-byte watermark payload, the 8-byte ISCC image digest, or the 32-byte PDQ hash (matched within Hamming distance 31). URL-safe base64 and missing padding are accepted.",
  example: VALUE_EXAMPLE,
});

export const MaxResultsParam = z.coerce
  .number()
  .int()
  .min(1)
  .default(10)
  .openapi({
    description: `The maximum number of manifest identifiers to return (C2PA: minimum 1, default 10); values above ${MAX_MATCHES} are treated as ${MAX_MATCHES}.`,
    example: 10,
  });

export const ScopeParam = z.enum(["global", "tenant"]).optional().openapi({
  description:
    "Extension of this service. `global` (default): every published asset of every tenant; matches name manifests, never tenants. `tenant`: only the calling key's tenant's publications; needs an API key holding `recovery:read` (401 `svc.resolution.credential_required` without one).",
  example: "global",
});

export const SoftBindingQuerySchema = z
  .object({
    alg: z.string().min(1).max(200).openapi({
      description: "A string identifying the soft binding algorithm and version of that algorithm used.",
      example: ALG_EXAMPLE,
    }),
    value: z.string().min(1).max(65536).openapi({
      description:
        "A base64-encoded string describing, in algorithm specific format, the value of the soft binding to be used as the query.",
      example: VALUE_EXAMPLE,
    }),
  })
  .openapi("c2pa.softBindingQuery", { description: "A soft binding query (C2PA)." });

export const SoftBindingQueryResultSchema = z
  .object({
    matches: z
      .array(
        z.object({
          manifestId: z.string().openapi({
            description: "Unique identifier of a matched C2PA Manifest (its label); fetch it with GET /manifests/{manifestId}.",
            example: MANIFEST_ID_EXAMPLE,
          }),
          similarityScore: z.number().int().min(0).max(100).openapi({
            description:
              "Strength of the match, 0 (weakest) to 100 (strongest): 100 for an exact watermark payload or ISCC code, the watermark detector's confidence for a payload read from content, 100 × (1 − d/32) for a PDQ hash at Hamming distance d. `endpoint` is never set: every manifest is served by this API's /manifests.",
            example: 100,
          }),
        }),
      )
      .openapi({ description: "Matches, strongest first, one per manifest, at most `maxResults`; empty when nothing matches." }),
  })
  .openapi("c2pa.softBindingQueryResult", { description: "The manifests matching a soft binding query (C2PA)." });

const AlgEntry = (example: string, description: string) => z.object({ alg: z.string().openapi({ description, example }) });

export const SoftBindingAlgListSchema = z
  .object({
    watermarks: z
      .array(AlgEntry("svc.watermark.svc-wm-tiledss-1", "Unique identifier of a watermark algorithm."))
      .openapi({ description: "Watermark algorithms resolved by this service (byBinding and byContent)." }),
    fingerprints: z
      .array(AlgEntry(ALG_EXAMPLE, "Unique identifier of a fingerprint algorithm."))
      .openapi({ description: "Fingerprint algorithms resolved by this service (byBinding and byContent)." }),
  })
  .openapi("c2pa.softBindingAlgList", {
    description:
      "The soft binding algorithms this service resolves: exactly those available in this deployment (learned models whose weights are not installed are not listed).",
  });
