import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { type AppContext, principalOf } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { errorResponse, json, NOT_FOUND } from "../../platform/openapi";
import { requireAuthorityOver } from "../guard";
import type { ApiKeyRow } from "../repo";
import { keyStatus } from "../service";
import { type Control, type ControlColumn, replaceControl } from "../versioned-control";
import { ApiKeyParams, keyOrNotFound } from "./get-api-key";

/** The fields every key control's response starts with: whose control it is, and its version. */
export const controlResponseFields = (versionExample: number) => ({
  api_key_id: z.string().openapi({ description: "The key.", example: "key_abcdefghij234567" }),
  version: z.number().int().min(0).openapi({ description: "Bumped by every change; 0 until first set.", example: versionExample }),
});

/**
 * One versioned per-key control (restrictions, signing profile, retention), served as GET and PUT
 * `/v1/api-keys/{api_key_id}/<segment>`. Every control is read the same way and replaced the same way: the key must
 * exist for the tenant, the caller must cover the key both as it is and as it would be, and a PUT replaces the whole
 * control through replaceControl (stale `expected_version`: 409).
 * Invariant: `fields(body)` is both what the authority check sees and what is stored.
 */
export interface KeyControl<T extends Control, Body extends { expected_version?: number | undefined }, Extra> {
  /** Path segment after the key id. */
  segment: string;
  /** The operationIds' noun: getApiKey<noun>, putApiKey<noun>. */
  noun: string;
  column: ControlColumn;
  read(stored: string | null): T;
  responseSchema: z.ZodTypeAny;
  bodySchema: z.ZodType<Body>;
  get: { summary: string; ok: string };
  put: { summary: string; description: string; ok: string; responses?: Record<number, ReturnType<typeof errorResponse>> };
  fields(body: Body): Omit<T, "version" | "updated_at">;
  /** Refusals that come before the authority check (nothing is read but the body). */
  validate?(c: AppContext, body: Body): void;
  /** What GET shows besides the control itself. */
  shown?(c: AppContext, key: ApiKeyRow): Promise<Extra>;
  /** Refusals after the authority check; what PUT shows besides the control. */
  admit?(c: AppContext, key: ApiKeyRow, body: Body): Promise<Extra>;
  view(keyId: string, control: T, extra: Extra | undefined): object;
}

/** Registers GET and PUT for one key control. */
export function registerKeyControl<T extends Control, Body extends { expected_version?: number | undefined }, Extra>(
  app: Router,
  control: KeyControl<T, Body, Extra>,
) {
  const path = `/v1/api-keys/{api_key_id}/${control.segment}`;
  const getRoute = createRoute({
    method: "get",
    path,
    operationId: `getApiKey${control.noun}`,
    tags: ["API keys"],
    summary: control.get.summary,
    request: { params: ApiKeyParams },
    responses: { 200: json(control.responseSchema, control.get.ok), ...NOT_FOUND },
  });
  const putRoute = createRoute({
    method: "put",
    path,
    operationId: `putApiKey${control.noun}`,
    tags: ["API keys"],
    summary: control.put.summary,
    description: control.put.description,
    request: { params: ApiKeyParams, body: { content: { "application/json": { schema: control.bodySchema } }, required: true } },
    responses: {
      200: json(control.responseSchema, control.put.ok),
      ...NOT_FOUND,
      ...control.put.responses,
      409: errorResponse(
        "expected_version is stale (`svc.api_keys.version_conflict`), or the key is revoked or expired (`svc.api_keys.already_revoked`: after a rotation, change the successor).",
      ),
    },
  });

  app.openapi(getRoute, async (c) => {
    const key = await keyOrNotFound(c.var.db, principalOf(c).tenantId, c.req.valid("param").api_key_id);
    const extra = control.shown ? await control.shown(c, key) : undefined;
    return c.json(control.view(key.id, control.read(key[control.column]), extra) as never, 200);
  });
  app.openapi(putRoute, async (c) => {
    const db = c.var.db;
    const tenantId = principalOf(c).tenantId;
    const body = c.req.valid("json") as Body;
    const key = await keyOrNotFound(db, tenantId, c.req.valid("param").api_key_id);
    control.validate?.(c, body);
    const current = control.read(key[control.column]);
    const fields = control.fields(body);
    // Both the key as it is and as it would be: a key cannot loosen itself or a key it covers beyond its own grant.
    await requireAuthorityOver(c, [key, { ...key, [control.column]: JSON.stringify({ ...current, ...fields }) }]);
    // A retired key authenticates no request, so a change to it would apply to nothing (a completed rotation's
    // successor took the controls as they were): refused rather than answered 200 for no effect.
    if (keyStatus(key) !== "active")
      throw new ApiError(
        "svc.api_keys.already_revoked",
        "The key is revoked or expired, so its controls apply to no request; change the active key's (after a rotation, the successor's).",
      );
    const extra = control.admit ? await control.admit(c, key, body) : undefined;
    const next = await replaceControl<T>(db, key, control.column, current, body.expected_version, fields);
    return c.json(control.view(key.id, next, extra) as never, 200);
  });
}
