import type { OpenAPIHono } from "@hono/zod-openapi";
import { OPERATION_POLICIES } from "../platform/auth/policy";
import { SCOPES } from "../platform/auth/scopes";
import type { AppEnv } from "../platform/context";
import { ErrorResponseSchema, HttpErrorResponseSchema, ValidationErrorResponseSchema } from "../platform/errors";
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from "../platform/idempotency";

type Doc = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;
type Parameter = { name: string; in: string; required?: boolean; schema?: unknown; description?: string; [k: string]: unknown };
type Response = {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: SchemaRef & { anyOf?: SchemaRef[] }; [k: string]: unknown }>;
  [k: string]: unknown;
};
type SchemaRef = { $ref?: string; [k: string]: unknown };
type Operation = {
  security?: unknown;
  responses?: Record<string, Response>;
  parameters?: Parameter[];
  requestBody?: unknown;
  [k: string]: unknown;
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const schemaRef = (name: string): SchemaRef => ({ $ref: `#/components/schemas/${name}` });
const ref = (name: string) => ({ content: { "application/json": { schema: schemaRef(name) } } });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Response headers shared by every rate-limited answer (429). */
const RATE_LIMIT_HEADERS = {
  "Retry-After": {
    description: "Whole seconds to wait before retrying (with the same Idempotency-Key for a write).",
    required: true,
    schema: { type: "integer", minimum: 1, example: 12 },
  },
  "RateLimit-Policy": {
    description:
      'The limit that refused the request (IETF RateLimit header fields), e.g. `"key";q=60;w=60`: at most q requests per w seconds.',
    schema: { type: "string", example: '"key";q=60;w=60' },
  },
  RateLimit: {
    description: 'Remaining quota and seconds until it resets, e.g. `"key";r=0;t=12` (sent with `API_KEY_RATE_LIMITED`).',
    schema: { type: "string", example: '"key";r=0;t=12' },
  },
} as const;

/**
 * Adds `extra` to a documented response: creates it, or merges it into what the route already documents (both
 * descriptions kept, the body schemas joined with anyOf, headers added) so no route-specific answer is lost.
 */
function mergeResponse(
  responses: Record<string, Response>,
  status: string,
  extra: { description: string; schemas: string[]; headers?: string[] },
) {
  const existing = responses[status];
  const json = existing?.content?.["application/json"];
  if (existing?.content && !json) return; // a non-JSON answer the route documents itself
  const present = json?.schema ? (json.schema.anyOf ?? [json.schema]) : [];
  const refs = new Set(present.map((s) => s.$ref).filter((r): r is string => Boolean(r)));
  const schemas = [...present, ...extra.schemas.map(schemaRef).filter((s) => !refs.has(s.$ref!))];
  // anyOf, not oneOf: a ValidationErrorResponse is also a valid ErrorResponse.
  const schema = schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
  const merged: Response = {
    ...existing,
    description: existing ? `${existing.description} ${extra.description}` : extra.description,
    content: { ...existing?.content, "application/json": { ...json, schema } },
  };
  if (extra.headers?.length) merged.headers = { ...existing?.headers, ...Object.fromEntries(extra.headers.map((h) => [h, headerRef(h)])) };
  responses[status] = merged;
}

/**
 * Makes the Idempotency-Key header parameter say what src/platform/idempotency.ts enforces: present exactly on
 * operations the policy table marks, `required` exactly where a request without it is refused (422
 * `svc.idempotency.key_required`). The route's own schema (e.g. the batch's shorter maximum) is kept.
 */
function syncIdempotencyHeader(op: Operation, idempotency: "optional" | "required" | undefined) {
  const params = (op.parameters ??= []);
  const at = params.findIndex((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
  if (!idempotency) {
    if (at >= 0) params.splice(at, 1);
    if (params.length === 0) delete op.parameters;
    return;
  }
  const required = idempotency === "required";
  const param: Parameter =
    at >= 0
      ? params[at]!
      : {
          name: "idempotency-key",
          in: "header",
          schema: { type: "string", maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN.source },
          description:
            "A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409.",
        };
  param.required = required;
  if (required && !String(param.description ?? "").startsWith("Required")) {
    param.description = `Required: a request without it answers 422 \`svc.idempotency.key_required\`. ${param.description ?? ""}`.trim();
  }
  if (at < 0) params.push(param);
}

/** Registers the shared error envelopes so every operation can reference them. */
export function registerSharedSchemas(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.register("ErrorResponse", ErrorResponseSchema);
  app.openAPIRegistry.register("HttpErrorResponse", HttpErrorResponseSchema);
  app.openAPIRegistry.register("ValidationErrorResponse", ValidationErrorResponseSchema);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "svc_live_ API key, or a console session JWT",
    description:
      "An API key (`Authorization: Bearer svc_live_...`) or a signed-in console session (`Authorization: Bearer <JWT>`: an OIDC ID or access token of the deployment's configured identity provider, RS256/ES256/EdDSA, checked for issuer, audience and expiry). The kind is told by shape. Scopes per operation are listed in `x-svc-scope` (with `x-svc-scope-check: route`, the scope gates only the tenant-narrowed variant `scope=tenant`; a key without it is served the public answer; `x-svc-scope-check: delegated` (the MCP endpoint) takes any valid credential and each operation it performs with it checks its own scope); a key holds the scopes it was created with, a console session holds every scope and acts as the account's owner (it may create any key, and turn wallet auto-recharge on). The first session of a subject with a verified e-mail provisions its account (409 when the e-mail belongs to another account's user, 422 without a verified e-mail); 503 when sessions are not configured. A user deactivated or deleted at the provider gets 403, with its sessions and with the keys its sessions created.",
  });
  for (const [name, header] of Object.entries(RATE_LIMIT_HEADERS)) app.openAPIRegistry.registerComponent("headers", name, header);
}

/**
 * The OpenAPI 3.1 document: the zod route definitions, plus what the policy table decides for each operation
 * (security, required scope, the common error responses), so documentation and enforcement share one source.
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>, origin: string): Doc {
  const doc = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "svc: provenance signing and verification",
      version: "1.0.0",
      description: [
        "Signs media with C2PA manifests, watermarks and fingerprints it, and verifies provenance.",
        "",
        "**Authentication.** Send `Authorization: Bearer <API_KEY>`. Every 401 has one identical body; 403 means a missing scope or deactivated identity (`HttpErrorResponse`), or a network outside the key's IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). Verified keys are cached per Worker instance: a revocation, rotation, restriction or profile change, a closed account or a deactivated creating user takes effect on every instance within 15 seconds (expiry is exact).",
        "**Errors.** Reason-coded `ErrorResponse` envelopes; see `/docs/errors` for every code. Every response has an `X-Request-Id` header.",
        "**Rate limits.** A key may carry a per-minute limit: every keyed operation may answer 429 `API_KEY_RATE_LIMITED` with `Retry-After` (whole seconds) and `RateLimit-Policy`; the refused request used no capacity. Size, pixel and count limits are published by `GET /v1/capabilities` (`limits`).",
        "**Idempotency.** Writes take `Idempotency-Key` (`^[!-~]+$`, at most 200 chars; where the parameter is marked required, a request without it answers 422 `svc.idempotency.key_required`), scoped per tenant and operation and kept 24 hours: the same request replays the stored response (header `Idempotent-Replayed: true`); a different request under the same key answers 409 `svc.idempotency.key_reused`; one still running answers 409 `svc.idempotency.request_in_progress` with `Retry-After`. Responses carrying a one-time secret are never stored and answer 409 `secret_not_replayable` on replay.",
        "**Pagination.** Lists return `next_cursor`, an opaque HMAC-signed cursor bound to the tenant, list and filters and valid 24 hours. Pages are snapshot-consistent: a traversal sees the rows that existed when its first page was read. A tampered, expired, other-tenant or other-list cursor answers 422 `svc.cursor.invalid` with one stable body.",
        "",
        `**Scopes.** ${Object.keys(SCOPES)
          .map((s) => `\`${s}\``)
          .join(", ")}.`,
      ].join("\n"),
    },
    servers: [{ url: origin }],
  });
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      const policy = OPERATION_POLICIES[`${method.toUpperCase()} ${path}`];
      const responses = (op.responses ??= {});
      const add = (status: string, description: string, schema: string) => {
        responses[status] ??= { description, ...ref(schema) };
      };
      if (!policy) {
        op.security = [{ bearer: [] }];
        op["x-svc-unclassified"] = true;
        add("403", "Operation not classified by the policy table: denied to every caller.", "HttpErrorResponse");
        continue;
      }
      if (policy.auth === "none" || policy.auth === "capability") {
        op.security = [];
        if (policy.auth === "capability") op["x-svc-capability"] = true;
      } else {
        if (policy.auth === "optional_bearer") {
          // Public without a credential, bearer with one (`{}` in OpenAPI security means "no credential").
          op.security = [{ bearer: [] }, {}];
          op["x-svc-scope"] = policy.scope;
          add(
            "401",
            "A credential was sent but is invalid (`svc.auth.invalid_key`); send a valid key, or none for the public variant.",
            "ErrorResponse",
          );
        } else {
          op.security = [{ bearer: [] }];
          if (policy.auth === "delegated") op["x-svc-scope-check"] = "delegated";
          else op["x-svc-scope"] = policy.scope;
          add(
            "401",
            "Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause.",
            "HttpErrorResponse",
          );
        }
        // A route-checked scope gates only the tenant-narrowed variant: a key without it is served what anyone is.
        const routeChecked = policy.auth === "optional_bearer" && policy.scopeCheck === "route";
        if (routeChecked) op["x-svc-scope-check"] = "route";
        const lacking =
          policy.auth === "delegated"
            ? "Never for a scope (an operation performed on the caller's behalf that needs one the key lacks is refused inside the answer): the identity is deactivated"
            : routeChecked
              ? `The key lacks the \`${policy.scope}\` scope and the request narrows the search to the tenant (\`scope=tenant\`; without it the key is served the public answer), or the identity is deactivated`
              : `The key lacks the \`${policy.scope}\` scope, or the identity is deactivated`;
        // What src/platform/auth/middleware.ts answers to every keyed request, whatever the route adds.
        mergeResponse(responses, "403", {
          description: `${lacking} (\`HttpErrorResponse\`: \`detail\` only); or the key is used from a network outside its IP allowlist (\`API_KEY_IP_NOT_ALLOWED\`, \`ErrorResponse\`).`,
          schemas: ["HttpErrorResponse", "ErrorResponse"],
        });
        mergeResponse(responses, "429", {
          description:
            "The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key.",
          schemas: ["ErrorResponse"],
          headers: Object.keys(RATE_LIMIT_HEADERS),
        });
        if (policy.auth === "delegated")
          add("503", "Credential verification unavailable (`svc.auth.unavailable`); retry.", "ErrorResponse");
        if (policy.auth === "bearer") {
          add("503", "Credential verification unavailable (`svc.auth.unavailable`); retry.", "ErrorResponse");
          syncIdempotencyHeader(op, policy.idempotency);
          if (policy.idempotency) {
            // A route's own 409 (its state conflicts) is answered besides the key's: both are said, with their codes.
            if (responses["409"]) {
              if (!responses["409"].description.includes("svc.idempotency.key_reused"))
                mergeResponse(responses, "409", {
                  description:
                    "Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`).",
                  schemas: ["ErrorResponse"],
                });
            } else
              add(
                "409",
                "Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`).",
                "ErrorResponse",
              );
            const contract = responses["422"]
              ? ""
              : "The request does not match the contract (`svc.request.invalid`, with `field_details`). ";
            mergeResponse(responses, "422", {
              description:
                contract +
                (policy.idempotency === "required"
                  ? "The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`)."
                  : "The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`)."),
              schemas: ["ValidationErrorResponse", "ErrorResponse"],
            });
          }
        }
      }
      // The C2PA Soft Binding Resolution API answers contract violations with 400, as its own OpenAPI says.
      const c2paContract = path.startsWith("/v1/soft-binding-resolution/");
      if (!c2paContract && ((op.parameters?.length ?? 0) > 0 || op.requestBody)) {
        const description =
          "The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`).";
        // svc.cursor.invalid is the plain envelope (no `detail`): a list's 422 is either shape.
        if (!responses["422"] && op.parameters?.some((p) => p.in === "query" && p.name.endsWith("cursor")))
          mergeResponse(responses, "422", { description, schemas: ["ValidationErrorResponse", "ErrorResponse"] });
        else add("422", description, "ValidationErrorResponse");
      }
      if (op.requestBody) {
        add("413", "The request body is too large (`svc.request.too_large`).", "ErrorResponse");
        add("415", "The body is not `application/json` (`svc.request.unsupported_media_type`).", "ErrorResponse");
      }
      add("500", "Unexpected error (`svc.internal`); quote the request id.", "ErrorResponse");
      // What src/platform/error-mapper.ts answers when a storage binding or Durable Object fails (src/db/storage-guard.ts), anywhere.
      mergeResponse(responses, "503", {
        description:
          "A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited).",
        schemas: ["ErrorResponse"],
        headers: ["Retry-After"],
      });
    }
  }
  nullableRefs(doc.components);
  nullableRefs(doc.paths);
  return doc;
}

/**
 * zod-openapi writes a registered schema made nullable (with a description of its own) as
 * `allOf: [{$ref}, {type: ["object", "null"]}]`, which no null satisfies (the referenced object is not nullable),
 * so validators refuse the nulls the API serves and generated clients type them as never null. Rewritten as what
 * is meant: `anyOf: [{$ref}, {type: "null"}]`, the description kept.
 */
function nullableRefs(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullableRefs(item);
    return;
  }
  if (!node || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  const allOf = schema.allOf;
  if (Array.isArray(allOf) && allOf.length === 2) {
    const [target, extra] = allOf as Record<string, unknown>[];
    const type = extra?.type;
    if (
      target &&
      Object.keys(target).length === 1 &&
      typeof target.$ref === "string" &&
      Array.isArray(type) &&
      type.length === 2 &&
      type.includes("object") &&
      type.includes("null") &&
      Object.keys(extra!).every((k) => k === "type" || k === "description")
    ) {
      delete schema.allOf;
      schema.anyOf = [target, { type: "null" }];
      if (typeof extra!.description === "string" && schema.description === undefined) schema.description = extra!.description;
      return;
    }
  }
  for (const value of Object.values(schema)) nullableRefs(value);
}
