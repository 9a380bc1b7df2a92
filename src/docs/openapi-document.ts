import type { OpenAPIHono } from "@hono/zod-openapi";
import { OPERATION_POLICIES } from "../platform/auth/policy";
import { SCOPES } from "../platform/auth/scopes";
import { ErrorResponseSchema, HttpErrorResponseSchema, ValidationErrorResponseSchema } from "../platform/errors";
import type { AppEnv } from "../platform/context";

type Doc = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;
type Operation = { security?: unknown; responses?: Record<string, unknown>; parameters?: unknown[]; requestBody?: unknown; [k: string]: unknown };

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const ref = (name: string) => ({ content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } } });

/** Registers the shared error envelopes so every operation can reference them. */
export function registerSharedSchemas(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.register("ErrorResponse", ErrorResponseSchema);
  app.openAPIRegistry.register("HttpErrorResponse", HttpErrorResponseSchema);
  app.openAPIRegistry.register("ValidationErrorResponse", ValidationErrorResponseSchema);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "svc_live_ API key",
    description: "An API key: `Authorization: Bearer svc_live_...`. Scopes per operation are listed in `x-svc-scope`.",
  });
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
        "**Authentication.** Send `Authorization: Bearer <API_KEY>`. Every 401 has one identical body; 403 means a missing scope.",
        "**Errors.** Reason-coded `ErrorResponse` envelopes; see `/docs/errors` for every code. Every response has an `X-Request-Id` header.",
        "**Idempotency.** Writes take `Idempotency-Key` (`^[!-~]+$`, at most 200 chars), scoped per tenant and operation and kept 24 hours: the same request replays the stored response (header `Idempotent-Replayed: true`); a different request under the same key answers 409 `svc.idempotency.key_reused`; one still running answers 409 `svc.idempotency.request_in_progress` with `Retry-After`. Responses carrying a one-time secret are never stored and answer 409 `secret_not_replayable` on replay.",
        "**Pagination.** Lists return `next_cursor`, an opaque HMAC-signed cursor bound to the tenant, list and filters and valid 24 hours. Pages are snapshot-consistent: a traversal sees the rows that existed when its first page was read. A tampered, expired, other-tenant or other-list cursor answers 422 `svc.cursor.invalid` with one stable body.",
        "",
        `**Scopes.** ${Object.keys(SCOPES).map((s) => `\`${s}\``).join(", ")}.`,
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
      } else if (policy.auth === "optional_bearer") {
        // Public without a credential, bearer with one (`{}` in OpenAPI security means "no credential").
        op.security = [{ bearer: [] }, {}];
        op["x-svc-scope"] = policy.scope;
        add("401", "A credential was sent but is invalid (`svc.auth.invalid_key`); send a valid key, or none for the public variant.", "ErrorResponse");
        add("403", `The key lacks the \`${policy.scope}\` scope, or the identity is deactivated.`, "HttpErrorResponse");
      } else {
        op.security = [{ bearer: [] }];
        op["x-svc-scope"] = policy.scope;
        add("401", "Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause.", "HttpErrorResponse");
        add("403", `The key lacks the \`${policy.scope}\` scope, or the identity is deactivated.`, "HttpErrorResponse");
        add("503", "Credential verification unavailable (`svc.auth.unavailable`); retry.", "ErrorResponse");
        if (policy.idempotency) {
          add("409", "Idempotency-Key reused for a different request, still in progress, or a one-time secret that cannot be replayed.", "ErrorResponse");
          add("422", "The request does not match the contract, or the Idempotency-Key is malformed.", "ValidationErrorResponse");
        }
      }
      // The C2PA Soft Binding Resolution API answers contract violations with 400, as its own OpenAPI says.
      const c2paContract = path.startsWith("/v1/soft-binding-resolution/");
      if (!c2paContract && ((op.parameters?.length ?? 0) > 0 || op.requestBody)) {
        add("422", "The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`).", "ValidationErrorResponse");
      }
      if (op.requestBody) {
        add("413", "The request body is too large (`svc.request.too_large`).", "ErrorResponse");
        add("415", "The body is not `application/json` (`svc.request.unsupported_media_type`).", "ErrorResponse");
      }
      add("500", "Unexpected error (`svc.internal`); quote the request id.", "ErrorResponse");
    }
  }
  return doc;
}
