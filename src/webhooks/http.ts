import { notFound } from "../platform/context";
import { ApiError } from "../platform/errors";
import type { EndpointRow } from "./repo/endpoints";
import type { MutationResult } from "./service";

/** The API error of a command's failure variant. */
export function failure(result: Exclude<MutationResult, { status: "ok" }>): never {
  switch (result.status) {
    case "not_found":
      throw notFound("webhook endpoint");
    case "deleted":
      throw new ApiError("svc.webhooks.endpoint_deleted");
    case "destination_refused":
      throw new ApiError("svc.webhooks.destination_refused", `The destination is refused: ${result.reason}`, {
        fieldDetails: [{ location: "body", field: "url", code: "destination_refused", message: result.reason }],
      });
    case "subscription_invalid":
      throw new ApiError("svc.webhooks.subscription_invalid", result.message, {
        fieldDetails: [{ location: "body", field: "events", code: "subscription_invalid", message: result.message }],
      });
    case "conflict":
      throw new ApiError(result.code, result.message);
  }
}

export function endpointOrThrow(result: MutationResult): EndpointRow {
  if (result.status === "ok") return result.row;
  return failure(result);
}
