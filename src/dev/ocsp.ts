import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { database } from "../db/client";
import { type Bindings, isDevelopment } from "../env";
import type { DevOcsp, DevOcspResponder } from "../media/c2pa/ocsp-dev-port";
import { ApiError } from "../platform/errors";
import { errorResponse, json } from "../platform/openapi";
import { respondOcsp } from "./ocsp-responder";
import { devRevocations, insertRevocation, revocationsVersion, revocationsVersionOf, revocationsVersionStatement } from "./repo";

/*
 * The development OCSP responder (RFC 6960) for the dev PKI: the dev signer's certificate names it in its AIA
 * extension, verification answers it in process (through the port media/c2pa/ocsp-dev-port.ts, which app.ts
 * hands `devOcsp`), and POST /dev/ocsp serves it to other tools. Revocations are set with
 * POST /dev/ocsp/revocations. Absent (404) outside development.
 */

const MAX_REQUEST_BYTES = 16 * 1024;

/** The dev responder's credentials, or null when this is not a development deployment with a dev PKI. */
export function devOcspResponder(env: Bindings): DevOcspResponder | null {
  if (!isDevelopment(env) || !env.SVC_OCSP_RESPONDER_CERT_PEM || !env.SVC_OCSP_RESPONDER_KEY_PEM || !env.SVC_OCSP_CA_CERT_PEM) return null;
  return { certPem: env.SVC_OCSP_RESPONDER_CERT_PEM, keyPkcs8Pem: env.SVC_OCSP_RESPONDER_KEY_PEM, caCertPem: env.SVC_OCSP_CA_CERT_PEM };
}

/** Answers one DER OCSPRequest with the dev responder (used in process and by POST /dev/ocsp). */
export async function answerDevOcsp(env: Bindings, responder: DevOcspResponder, requestDer: Uint8Array): Promise<Uint8Array> {
  return respondOcsp(requestDer, responder, await devRevocations(database(env.DB)), new Date());
}

/** What the wiring installs into media's port: the dev responder, answered with the current revocations. */
export const devOcsp: DevOcsp = {
  responder: devOcspResponder,
  answer: answerDevOcsp,
  revocationsVersion: async (env, ride) =>
    ride ? revocationsVersionOf(await ride(revocationsVersionStatement(env.DB))) : revocationsVersion(database(env.DB)),
};

const notHere = (path: string) => new ApiError("svc.route.not_found", `No operation at POST ${path} in this deployment.`);

const ocspRoute = createRoute({
  method: "post",
  path: "/dev/ocsp",
  operationId: "postDevOcsp",
  tags: ["Development"],
  summary: "Development OCSP responder (RFC 6960)",
  description:
    "Development deployments only: answers a DER OCSPRequest (`application/ocsp-request`) for certificates of the dev intermediate CA, signed by a delegated responder certificate (EKU OCSPSigning). Serials revoked with POST /dev/ocsp/revocations are reported revoked. Absent (404) in production.",
  request: {
    body: {
      content: { "application/ocsp-request": { schema: z.string().openapi({ format: "binary", description: "DER OCSPRequest." }) } },
      required: true,
    },
  },
  responses: {
    200: {
      description: "DER OCSPResponse.",
      content: { "application/ocsp-response": { schema: z.string().openapi({ format: "binary", description: "DER OCSPResponse." }) } },
    },
    404: errorResponse("Not a development deployment, or no dev responder configured."),
  },
});

const RevocationSchema = z
  .object({
    serial_number: z
      .string()
      .regex(/^[0-9a-fA-F]{1,64}$/)
      .openapi({
        description: "Certificate serial number in hex (as GET /v1/verify reports it in `signer.serial_number`).",
        example: "5d47814b0ba2fa1e59b163291949c8e5",
      }),
    reason: z
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .openapi({ description: "CRLReason code (RFC 5280 §5.3.1), e.g. 1 keyCompromise.", example: 1 }),
  })
  .openapi("DevOcspRevocation");

const revokeRoute = createRoute({
  method: "post",
  path: "/dev/ocsp/revocations",
  operationId: "postDevOcspRevocation",
  tags: ["Development"],
  summary: "Revoke a dev certificate",
  description: "Development deployments only: from now on the dev OCSP responder reports this serial revoked. Absent (404) in production.",
  request: { body: { content: { "application/json": { schema: RevocationSchema } }, required: true } },
  responses: { 201: json(RevocationSchema, "Recorded."), 404: errorResponse("Not a development deployment.") },
});

export function registerDevOcsp(app: Router) {
  app.openapi(ocspRoute, async (c) => {
    const responder = devOcspResponder(c.env);
    if (!responder) throw notHere("/dev/ocsp");
    const body = new Uint8Array(await c.req.arrayBuffer());
    if (body.length === 0 || body.length > MAX_REQUEST_BYTES) throw new ApiError("svc.request.invalid", "Send one DER OCSPRequest.");
    const reply = await answerDevOcsp(c.env, responder, body);
    return c.body(reply as Uint8Array<ArrayBuffer>, 200, { "content-type": "application/ocsp-response" });
  });
  app.openapi(revokeRoute, async (c) => {
    if (!devOcspResponder(c.env)) throw notHere("/dev/ocsp/revocations");
    const { serial_number, reason } = c.req.valid("json");
    // The responder's key form (serialNumberHex): whole bytes, leading zero bytes dropped.
    let serialHex = serial_number.toLowerCase();
    if (serialHex.length % 2 === 1) serialHex = `0${serialHex}`;
    while (serialHex.length > 2 && serialHex.startsWith("00")) serialHex = serialHex.slice(2);
    await insertRevocation(c.var.db, serialHex, reason ?? null);
    return c.json({ serial_number: serialHex, ...(reason !== undefined ? { reason } : {}) }, 201);
  });
}
