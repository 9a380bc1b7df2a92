import { z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { ApiError } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { readBoundedBody } from "../../platform/raw-body";
import { IDP_ID_MAX_LENGTH, IDP_SIGNATURE_TOLERANCE_SECONDS, IDP_TIMESTAMP_MAX_LENGTH } from "../idp-signature";
import { handleIdpCallback, IDP_EVENT_TYPES, IdpEventSchema } from "../lifecycle";
import { IdpCallbackResponseSchema } from "../schemas";

/** Largest callback body accepted (413 above): lifecycle events are a few hundred bytes. */
export const MAX_IDP_CALLBACK_BYTES = 64 * 1024;

const PATH = "/webhooks/idp";

export function register(app: Router) {
  // Documented through the registry, served by a plain handler: the signature covers the exact raw bytes, so no
  // validator may read (and re-serialise) the body first.
  app.openAPIRegistry.registerPath({
    method: "post",
    path: PATH,
    operationId: "receiveIdpCallback",
    tags: ["Identity"],
    summary: "Identity-provider user-lifecycle callback",
    description: `For the identity provider, not for customers. Svix-style signing: \`idp-signature\` holds space-separated \`v1,<base64 HMAC-SHA256>\` entries over \`"<idp-id>.<idp-timestamp>.<exact raw body>"\`, keyed by the bytes of the configured secret (\`whsec_\` + base64), compared in constant time; the timestamp must be within ${IDP_SIGNATURE_TOLERANCE_SECONDS} seconds of now. Deduplicated by \`idp-id\`: a replay answers \`duplicate: true\` with the first result and changes nothing. Events (${IDP_EVENT_TYPES.map((t) => `\`${t}\``).join(", ")}) name the user by the provider's subject; a deactivated or deleted user gets 403 on the next request, with a console session or with any API key that user's session created; a deletion erases the user's e-mail. Each applied change is audited in the user's account with actor \`identity_provider\` (actor id: the \`idp-id\`). Bodies up to ${MAX_IDP_CALLBACK_BYTES / 1024} KiB.`,
    request: {
      headers: z.object({
        "idp-id": z
          .string()
          .max(IDP_ID_MAX_LENGTH)
          .openapi({ description: "The event's unique id (the deduplication key).", example: "msg_2x9kq" }),
        "idp-timestamp": z
          .string()
          .max(IDP_TIMESTAMP_MAX_LENGTH)
          .regex(/^[0-9]+$/)
          .openapi({ description: "Unix seconds the provider signed at.", example: "1764064800" }),
        "idp-signature": z.string().max(4096).openapi({
          description: "Space-separated `v1,<base64 HMAC-SHA256>` entries (several while the provider rotates its secret).",
          example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
        }),
      }),
      body: { required: true, content: { "application/json": { schema: IdpEventSchema } } },
    },
    responses: {
      200: json(IdpCallbackResponseSchema, "Received: applied, unchanged, for an unknown user, ignored, or a duplicate."),
      400: errorResponse(
        "`svc.session.idp_signature_invalid` (missing or malformed headers, wrong or stale signature) or `svc.session.idp_event_invalid` (the body is not JSON).",
      ),
      409: errorResponse(
        "`svc.session.idp_identity_conflict`: the change conflicts with the user's state (a deleted user reactivated, an e-mail another user holds).",
      ),
      413: errorResponse(`\`svc.request.too_large\`: body over ${MAX_IDP_CALLBACK_BYTES / 1024} KiB.`),
      422: errorResponse(
        "`svc.session.idp_event_unprocessable`: JSON that is not an IdpEvent, or an understood event missing what it needs.",
      ),
      503: errorResponse(
        "`svc.session.idp_unavailable`: no signing secret configured (SVC_IDP_WEBHOOK_SECRET), or the user's data cannot be sealed.",
      ),
    },
  });

  app.post(PATH, async (c) => {
    if (!c.env.SVC_IDP_WEBHOOK_SECRET) throw new ApiError("svc.session.idp_unavailable");
    const bytes = await readBoundedBody(c.req.raw, MAX_IDP_CALLBACK_BYTES);
    if (!bytes) throw new ApiError("svc.request.too_large", `Identity-provider callbacks are limited to ${MAX_IDP_CALLBACK_BYTES} bytes.`);
    let raw: string;
    try {
      raw = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new ApiError("svc.session.idp_event_invalid");
    }
    const outcome = await handleIdpCallback(
      { db: c.var.db, env: c.env, requestId: c.var.requestId },
      { id: c.req.header("idp-id"), timestamp: c.req.header("idp-timestamp"), signature: c.req.header("idp-signature") },
      raw,
    );
    switch (outcome.status) {
      case "received":
        return c.json({ status: outcome.status, result: outcome.result, duplicate: outcome.duplicate }, 200);
      case "unavailable":
        throw new ApiError("svc.session.idp_unavailable");
      case "headers_invalid":
        throw new ApiError(
          "svc.session.idp_signature_invalid",
          "The idp-id, idp-timestamp and idp-signature headers are required and bounded.",
        );
      case "signature_invalid":
        throw new ApiError("svc.session.idp_signature_invalid");
      case "body_invalid":
        throw new ApiError("svc.session.idp_event_invalid");
      case "unprocessable":
        throw new ApiError("svc.session.idp_event_unprocessable", outcome.message);
      case "conflict":
        throw new ApiError("svc.session.idp_identity_conflict", outcome.message);
    }
  });
}
