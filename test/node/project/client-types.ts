/**
 * The SDK's types (packages/client/src/openapi.d.ts), generated from the production OpenAPI document: what
 * customers read at /openapi.json. The development document adds the /dev/* stand-ins (OCSP, TSA, checkout),
 * which never exist in a deployment, so typing them would offer calls that always 404 in production.
 * Shared by the drift test and `npm run client:generate` (scripts/generate-client-types.mjs).
 */
import openapiTS, { astToString } from "openapi-typescript";
import { createApp } from "../../../src/app";
import { openApiDocument } from "../../../src/docs/openapi-document";

export const CLIENT_TYPES_PATH = "packages/client/src/openapi.d.ts";

const HEADER = `/**
 * Generated from the svc production OpenAPI document (/openapi.json) by \`npm run client:generate\`.
 * Do not edit: CI regenerates it (test/node/project/client-types-drift.test.ts) and fails on any difference.
 */

`;

export async function generateClientTypes(): Promise<string> {
  const doc = openApiDocument(createApp({ development: false }), "https://svc.example");
  const ast = await openapiTS(doc as never, { alphabetize: true });
  return `${HEADER}${astToString(ast)}`;
}
