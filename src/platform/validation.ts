import type { Hook } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import { ApiError, type FieldDetail } from "./errors";

const LOCATIONS: Record<string, FieldDetail["location"]> = {
  param: "path",
  query: "query",
  header: "header",
  json: "body",
  form: "form",
  cookie: "cookie",
};

export function fieldDetailsOf(error: ZodError, target: string): FieldDetail[] {
  const location = LOCATIONS[target] ?? "body";
  return error.issues.map((issue) => ({
    location,
    field: issue.path.map(String).join(".") || "(root)",
    code: issue.code,
    message: issue.message,
  }));
}

/** Every zod validation failure becomes a 422 `svc.request.invalid` envelope with `field_details`. */
// biome-ignore lint: generic hook signature
export const validationHook: Hook<any, any, any, any> = (result) => {
  if (!result.success) {
    const details = fieldDetailsOf(result.error as ZodError, result.target);
    throw new ApiError("svc.request.invalid", `The request ${details[0]?.location ?? "input"} is invalid.`, { fieldDetails: details });
  }
};
