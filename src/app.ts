import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { anchorRoutes } from "./anchoring/routes";
import { apiKeyRoutes } from "./api-keys";
import { apiKeyLookup } from "./api-keys/repo";
import { requestLog } from "./api-keys/request-logs";
import { assetRoutes } from "./assets";
import { billingRoutes } from "./billing";
import { capabilityRoutes } from "./capabilities";
import { captureRoutes } from "./capture";
import { JSON_BODY_MAXIMUM_BYTES, VERIFY_FILE_MAXIMUM_BYTES as VERIFY_MAX_BYTES, VERIFY_REQUEST_MAXIMUM_BYTES } from "./catalog/limits";
import { registerGetConnectCatalog } from "./connect/routes/get-connect-catalog";
import { creatorRoutes } from "./creators";
import { developmentRoutes, devOcsp, devTsa } from "./dev";
import { openApiDocument, registerSharedSchemas } from "./docs/openapi-document";
import { apiReferencePage, errorCodesPage, verificationStatusesPage } from "./docs/pages";
import { feedbackRoutes } from "./feedback";
import { governanceRoutes } from "./governance";
import { durableAuditSink } from "./governance/audit/service";
import { historyRoutes } from "./history";
import { identityRoutes } from "./identity";
import { sessionDirectory } from "./identity/service";
import { jobRoutes } from "./jobs";
import { mcpRoutes } from "./mcp";
import { installDevOcsp } from "./media/c2pa/ocsp-dev-port";
import { installDevTsa } from "./media/c2pa/tsa-dev-port";
import { overviewRoutes } from "./overview";
import { auditWrites, installAuditSink } from "./platform/audit";
import { authenticate } from "./platform/auth/middleware";
import { type AppEnv, contextServices, createRouter, publicOrigin } from "./platform/context";
import { onError, onNotFound } from "./platform/error-mapper";
import { ApiError } from "./platform/errors";
import { idempotency } from "./platform/idempotency";
import { requestId } from "./platform/request-id";
import { validationHook } from "./platform/validation";
import { receiptRoutes } from "./receipts";
import { BY_CONTENT_PATH, softBindingResolutionRoutes } from "./soft-bindings";
import { storageRoutes } from "./storage/routes";
import { systemRoutes } from "./system";
import { requireConfiguredDeployment } from "./system/deployment";
import { uploadRoutes } from "./uploads";
import { verificationRoutes } from "./verifications";
import { SIGNAL_WEIGHTS, STATUS_CODES, STATUS_VOCABULARY, STATUS_VOCABULARY_VERSION } from "./verifications/vocabulary";
import { registerVerifyPage } from "./verify-page";
import { webhookRoutes } from "./webhooks";

/** JSON bodies of API operations; media never travels through these routes. */
export const MAX_JSON_BODY_BYTES = JSON_BODY_MAXIMUM_BYTES;

/** Paths served outside the API contract (documentation), anonymous and not in the OpenAPI document. */
export const META_PATHS = [
  "/openapi.json",
  "/docs",
  "/docs/errors",
  "/docs/verification-statuses",
  "/docs/verification-statuses.json",
  "/verify",
] as const;

// Verification answers the dev PKI's OCSP responder in process (a Worker cannot fetch itself); areas may not import
// src/dev/, so the wiring hands it to media's port. It answers only in development (null credentials elsewhere).
installDevOcsp(devOcsp);
// Likewise the dev TSA for the signer's TSA URL "internal" (which the deployment check refuses in production).
installDevTsa(devTsa);
// Audit entries go through each tenant's AuditChain Durable Object (governance/audit); platform only knows the port.
installAuditSink(durableAuditSink);

/** How to build the application. */
export interface AppOptions {
  /** Mount the development routes (/dev/*). Only for SVC_ENVIRONMENT "development"; default: production. */
  development?: boolean;
}

/**
 * Builds the application: request id → deployment check (production refuses to serve while misconfigured) →
 * body limit → authentication and the policy table → idempotency → the audit of writes → the routes of each API area → one error
 * mapper. Pure: no bindings are touched until a request arrives.
 */
export function createApp(options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestId);
  app.use("*", contextServices);
  // Every answer, JSON and error envelopes included, is read as the type it declares and never sniffed into
  // something active (stored objects add their own sandbox CSP and disposition: platform/served-object.ts).
  app.use("*", async (c, next) => {
    await next();
    try {
      c.res.headers.set("X-Content-Type-Options", "nosniff");
    } catch {
      c.res = new Response(c.res.body, c.res); // a passed-through response's headers are immutable
      c.res.headers.set("X-Content-Type-Options", "nosniff");
    }
  });
  app.use("*", requireConfiguredDeployment);
  // API operations only: storage routes take media bodies and enforce their exact length themselves.
  const limit = bodyLimit({
    maxSize: MAX_JSON_BODY_BYTES,
    onError: () => {
      throw new ApiError("svc.request.too_large", `Request bodies are limited to ${MAX_JSON_BODY_BYTES} bytes.`);
    },
  });
  // POST /v1/verify takes files (multipart), bounded separately; every other API body is JSON.
  const verifyLimit = bodyLimit({
    maxSize: VERIFY_REQUEST_MAXIMUM_BYTES,
    onError: () => {
      throw new ApiError("svc.request.too_large", `Files to verify are limited to ${VERIFY_MAX_BYTES} bytes.`);
    },
  });
  app.use("/v1/*", (c, next) => (c.req.path === "/v1/verify" || c.req.path === BY_CONTENT_PATH ? verifyLimit(c, next) : limit(c, next)));
  if (options.development) app.use("/dev/*", limit);
  app.use("*", requestLog);
  app.use("*", authenticate(apiKeyLookup, sessionDirectory));
  app.use("*", idempotency);
  // Inside idempotency: a replayed answer changed nothing and is not audited again.
  app.use("*", auditWrites);

  app.route("/", systemRoutes());
  if (options.development) app.route("/", developmentRoutes());
  app.route("/", capabilityRoutes());
  app.route("/", identityRoutes());
  app.route("/", apiKeyRoutes());
  app.route("/", uploadRoutes());
  app.route("/", jobRoutes());
  app.route("/", assetRoutes());
  app.route("/", historyRoutes());
  app.route("/", receiptRoutes());
  app.route("/", verificationRoutes());
  app.route("/", anchorRoutes());
  app.route("/", softBindingResolutionRoutes());
  app.route("/", webhookRoutes());
  app.route("/", creatorRoutes());
  app.route("/", captureRoutes());
  app.route("/", billingRoutes());
  app.route("/", governanceRoutes());
  app.route("/", overviewRoutes());
  app.route("/", feedbackRoutes());
  app.route("/", storageRoutes());
  // MCP tools make their REST calls through the whole application, so every rule of the REST API applies to them.
  app.route(
    "/",
    mcpRoutes((request, env, ctx) => app.fetch(request, env, ctx)),
  );
  const catalog = createRouter();
  registerGetConnectCatalog(catalog);
  app.route("/", catalog);

  registerSharedSchemas(app);
  app.get("/openapi.json", (c) => c.json(openApiDocument(app, publicOrigin(c))));
  app.get("/docs", (c) => c.html(apiReferencePage(openApiDocument(app, publicOrigin(c)) as never)));
  app.get("/docs/errors", (c) => c.html(errorCodesPage()));
  app.get("/docs/verification-statuses", (c) => c.html(verificationStatusesPage()));
  app.get("/docs/verification-statuses.json", (c) =>
    c.json({
      status_vocabulary_version: STATUS_VOCABULARY_VERSION,
      signal_weights: SIGNAL_WEIGHTS,
      statuses: STATUS_CODES.map((code) => STATUS_VOCABULARY[code]),
    }),
  );
  registerVerifyPage(app);

  app.onError(onError);
  app.notFound(onNotFound);
  return app;
}

export type App = ReturnType<typeof createApp>;
