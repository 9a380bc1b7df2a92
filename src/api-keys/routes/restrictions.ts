import { z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { parseCidr } from "../../platform/net/cidr";
import { errorResponse, Timestamp } from "../../platform/openapi";
import { type KeyRestrictions, restrictionsOf } from "../controls";
import { controlResponseFields, registerKeyControl } from "./key-control";

const RestrictionsResponseSchema = z
  .object({
    ...controlResponseFields(2),
    ip_allowlist: z.array(z.string()).openapi({
      description: "CIDR ranges (IPv4 or IPv6) the key may be used from; empty means any.",
      example: ["203.0.113.0/24", "2001:db8::/32"],
    }),
    rate_limit_per_minute: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Requests per minute for this key; null for none.", example: 60 }),
    updated_at: Timestamp("When they last changed.").nullable(),
  })
  .openapi("ApiKeyRestrictionsResponse");

const PutRestrictionsSchema = z
  .object({
    ip_allowlist: z
      .array(
        z
          .string()
          .max(64)
          .refine((v) => parseCidr(v) !== null, { message: "Not an IPv4 or IPv6 address or CIDR range." })
          // Client addresses in IPv4-mapped form are matched as IPv4, so a mapped range would never match: name the IPv4 range.
          .refine((v) => !isIpv4MappedRange(v), { message: "Write IPv4-mapped ranges (::ffff:a.b.c.d) as the IPv4 range they name." }),
      )
      .max(100)
      .openapi({ description: "CIDR ranges or single addresses; empty for any address.", example: ["203.0.113.0/24"] }),
    rate_limit_per_minute: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .nullable()
      .openapi({ description: "Requests per minute; null for no key-level limit.", example: 60 }),
    expected_version: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({ description: "The version last read; the change is refused (409) if it moved since.", example: 1 }),
  })
  .openapi("PutApiKeyRestrictionsRequest");

function isIpv4MappedRange(text: string): boolean {
  const b = parseCidr(text)?.bytes;
  return !!b && b.length === 16 && b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** GET and PUT /v1/api-keys/{api_key_id}/restrictions. */
export function registerRestrictionRoutes(app: Router) {
  registerKeyControl<KeyRestrictions, z.infer<typeof PutRestrictionsSchema>, undefined>(app, {
    segment: "restrictions",
    noun: "Restrictions",
    column: "restrictions",
    read: restrictionsOf,
    responseSchema: RestrictionsResponseSchema,
    bodySchema: PutRestrictionsSchema,
    get: { summary: "Get a key's restrictions", ok: "The restrictions." },
    put: {
      summary: "Replace a key's restrictions",
      description:
        "A versioned IP allowlist (requests from elsewhere answer 403 `API_KEY_IP_NOT_ALLOWED`; the client address is CF-Connecting-IP where the deployment trusts it, SVC_TRUST_CF_CONNECTING_IP; with no known address an allowlisted key is refused) and a request rate limit enforced by Durable Objects (429 `API_KEY_RATE_LIMITED` with Retry-After and RateLimit-Policy). Both apply from the key's next request, everywhere within 15 seconds (the key cache's bound). One instance is refused exactly at the limit; across instances a minute may admit at most one lease more per other instance holding one (a 20th of the limit, at most 16 requests), the price of not calling the object on every request.",
      ok: "The new restrictions.",
      responses: {
        403: errorResponse(
          "The calling key does not cover this key, or the new restrictions would be looser than its own (`svc.api_keys.outranks_caller`).",
        ),
      },
    },
    fields: (body) => ({ ip_allowlist: body.ip_allowlist.map((v) => v.trim()), rate_limit_per_minute: body.rate_limit_per_minute }),
    view: (keyId, r) => ({ api_key_id: keyId, ...r }),
  });
}
