/*
 * The customer event catalog (SPEC "Events", version svc.customer-events.v1) and the event body.
 * The body follows the Standard Webhooks payload shape, thin: ids and links to fetch the full resources,
 * never the resources themselves. Fields are only ever added within a catalog version.
 */

export const EVENT_CATALOG_VERSION = "svc.customer-events.v1";
export const CUSTOMER_EVENT_TYPES = ["asset.signed", "asset.watermarked", "job.failed"] as const;
export type CustomerEventType = (typeof CUSTOMER_EVENT_TYPES)[number];
/** Sent only by the test operation, to one endpoint; never subscribable. */
export const TEST_EVENT_TYPE = "webhook.test";

export interface EventDescriptor {
  type: CustomerEventType;
  description: string;
  emitted_when: string;
}

export const EVENT_CATALOG: readonly EventDescriptor[] = [
  {
    type: "asset.signed",
    description: "An asset was signed and published; it carries a verifiable credential (a C2PA manifest).",
    emitted_when: "A job whose recipe signs finishes and publishes its output (sign-only and watermark-then-sign recipes).",
  },
  {
    type: "asset.watermarked",
    description: "An asset was watermarked and published; the processed asset is available for download.",
    emitted_when:
      "A job whose recipe watermarks finishes and publishes its output (watermark-only and watermark-then-sign recipes; those send asset.signed too).",
  },
  {
    type: "job.failed",
    description:
      "A job ended without publishing anything: `data.state` is `failed`, `rejected` or `expired` and `data.error_code` says why.",
    emitted_when:
      "A job fails (including a job whose steps kept stopping before they finished, after a bounded number of attempts), is rejected at run time for its input, or expires before it started.",
  },
];

export function isCustomerEventType(value: string): value is CustomerEventType {
  return (CUSTOMER_EVENT_TYPES as readonly string[]).includes(value);
}

/** What an asset event says about the publication; every field is an id or a short fact, never media. */
export interface AssetEventData {
  asset_id: string;
  job_id: string;
  publication_id: string;
  receipt_id: string;
  media_type: string;
  recipe_id: string;
  manifest_label: string | null;
  watermark_algorithm: string | null;
}

export interface EventBody {
  id: string;
  type: string;
  event_catalog_version: typeof EVENT_CATALOG_VERSION;
  /** When the event happened (RFC 3339); `webhook-timestamp` is when this attempt was signed. */
  timestamp: string;
  test: boolean;
  data: Record<string, unknown>;
}

export function assetEventBody(id: string, type: CustomerEventType, data: AssetEventData, at: number): EventBody {
  return {
    id,
    type,
    event_catalog_version: EVENT_CATALOG_VERSION,
    timestamp: new Date(at).toISOString(),
    test: false,
    data: {
      ...data,
      links: {
        asset: `/v1/assets/${data.asset_id}`,
        job: `/v1/jobs/${data.job_id}`,
        receipt: `/v1/receipts/${data.receipt_id}`,
        download: `/v1/assets/${data.asset_id}/download`,
      },
    },
  };
}

export function testEventBody(id: string, endpointId: string, at: number): EventBody {
  return {
    id,
    type: TEST_EVENT_TYPE,
    event_catalog_version: EVENT_CATALOG_VERSION,
    timestamp: new Date(at).toISOString(),
    test: true,
    data: { endpoint_id: endpointId, message: "A test event sent by POST /v1/webhook-endpoints/{endpoint_id}/test." },
  };
}

/** What a job.failed event says: ids, the terminal state and the reason code, never media or messages. */
export interface JobEndedEventData {
  asset_id: string;
  job_id: string;
  recipe_id: string;
  state: "failed" | "rejected" | "expired";
  error_code: string;
}
