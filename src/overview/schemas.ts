import { z } from "@hono/zod-openapi";

/*
 * GET /v1/overview (issue #18). SPEC names the sixteen top-level fields; the sub-objects are ours, documented here.
 * A figure group whose query failed is null and named in `unavailable`: the overview never shows an invented figure.
 */

export const OVERVIEW_RANGES = ["7d", "30d", "12m"] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];

/** Figure groups, each computed by one statement (and the names `unavailable` and `freshness` use). */
export const FIGURES = ["activity", "jobs", "verification_outcomes", "media_kinds", "webhooks", "quota", "governance", "api_keys"] as const;
export type Figure = (typeof FIGURES)[number];

const count = (description: string) => z.number().int().nonnegative().openapi({ description, example: 12 });
const instant = (description: string) => z.string().datetime().openapi({ description, example: "2026-11-25T12:00:00.000Z" });
const money = (description: string, example: string) => z.string().openapi({ description, example });

const JobStates = z
  .object({
    accepted: count("Jobs in `accepted`."),
    queued: count("Jobs in `queued`."),
    running: count("Jobs in `running`."),
    cancel_requested: count("Jobs in `cancel_requested`."),
    completed: count("Jobs in `completed`."),
    canceled: count("Jobs in `canceled`."),
    expired: count("Jobs in `expired`."),
    rejected: count("Jobs in `rejected`."),
    failed: count("Jobs in `failed`."),
  })
  .openapi({ description: "Jobs created in the range, by their state now (every state is present, 0 when none)." });

const JobsFigure = z
  .object({ total: count("Jobs created in the range."), by_state: JobStates })
  .openapi({ description: "Jobs created in the range." });

const OutcomesFigure = z
  .object({
    total: count("Verifications made in the range."),
    by_outcome: z
      .object({
        valid: count("Overall `valid`."),
        invalid: count("Overall `invalid`."),
        indeterminate: count("Overall `indeterminate`."),
        recovered: count("Overall `recovered` (found again through the soft-binding index)."),
      })
      .openapi({ description: "Verifications by overall outcome (every outcome present, 0 when none)." }),
  })
  .openapi({ description: "Verifications (verify calls and signing self-checks) made in the range, by overall outcome." });

const MediaKindsFigure = z
  .object({
    total: count("Assets created in the range."),
    by_kind: z.record(z.string(), z.number().int().nonnegative()).openapi({
      description: "Assets by media family (`image`, `audio`, `video`, …); only families with assets appear.",
      example: { image: 10 },
    }),
  })
  .openapi({ description: "Assets created in the range, by media family." });

const ActivityFigure = z
  .object({
    unit: z.enum(["day", "month"]).openapi({ description: "Bucket size: UTC days for 7d and 30d, UTC months for 12m.", example: "day" }),
    buckets: z
      .array(
        z.object({
          start: z.string().openapi({ description: "The bucket: `YYYY-MM-DD` (day) or `YYYY-MM` (month), UTC.", example: "2026-11-24" }),
          jobs: count("Jobs created in the bucket (within the range)."),
          verifications: count("Verifications made in the bucket (within the range)."),
          assets: count("Assets created in the bucket (within the range)."),
        }),
      )
      .openapi({
        description: "Every bucket the range touches, oldest first, 0 when nothing happened (the first and last may be partial).",
      }),
  })
  .openapi({ description: "Activity over the range as a series." });

const WebhooksFigure = z
  .object({
    deliveries: z
      .object({
        total: count("Deliveries created in the range."),
        delivered: count("Acknowledged by the endpoint."),
        pending: count("Not yet delivered (waiting or being attempted)."),
        failed: count("Ended by the receiver's answer or the destination policy."),
        dead: count("Gave up (retries exhausted) or fenced (endpoint disabled or deleted)."),
      })
      .openapi({ description: "Deliveries created in the range, by status now." }),
    endpoints: z
      .object({
        active: count("Endpoints active now."),
        disabled: count("Endpoints disabled now (by hand or after consecutive failures)."),
      })
      .openapi({ description: "The tenant's endpoints now (deleted ones not counted)." }),
  })
  .openapi({ description: "Webhook health." });

const WalletFigure = z
  .object({
    enabled: z.boolean().openapi({ description: "Work is metered against the wallet.", example: true }),
    balance_usd: money("Balance (decimal USD).", "42.50"),
    reserved_usd: money("Quoted cost of admitted unpublished work.", "1.20"),
    available_usd: money("Balance minus reserved: what new work may still be admitted against.", "41.30"),
    month_to_date_spend_usd: money("Charges settled this UTC month.", "8.70"),
    monthly_spend_limit_usd: money("The tenant's monthly limit, or null when none.", "100.00").nullable(),
    low: z
      .boolean()
      .openapi({ description: "Available is below the auto-recharge threshold, or below 10.00 USD when none is set.", example: false }),
  })
  .openapi({ description: "The prepaid wallet, or null before the tenant opted in." });

const QuotaFigure = z
  .object({
    plan: z
      .string()
      .nullable()
      .openapi({ description: "The billing plan id, or null before the billing account exists.", example: "starter" }),
    wallet: WalletFigure.nullable(),
  })
  .openapi({ description: "Plan and wallet (GET /v1/billing/wallet and GET /v1/usage give the detail)." });

const GovernanceFigure = z
  .object({
    audit_entries: count("Audit log entries appended in the range."),
    last_audit_at: instant("The newest audit entry's time, or null when the log is empty.").nullable(),
    legal_holds: z
      .object({
        account: count("Account-wide holds in force (every asset is held)."),
        assets: count("Holds in force on single assets."),
      })
      .openapi({ description: "Legal holds in force now (GET /v1/governance/legal-holds)." }),
    deletions_pending: count("Deletions queued or running (GET /v1/governance/deletions)."),
    last_export: z
      .object({
        state: z
          .enum(["queued", "running", "completed", "failed", "expired"])
          .openapi({ description: "The newest export's state.", example: "completed" }),
        completed_at: instant("When it completed, or null.").nullable(),
      })
      .nullable()
      .openapi({ description: "The newest export (GET /v1/governance/exports), or null when there has been none." }),
  })
  .openapi({
    description:
      "Governance flags: the audit log's activity (GET /v1/governance/audit for the entries), holds in force, deletions pending and the newest export.",
  });

const AttentionItem = z.object({
  kind: z
    .enum(["failed_jobs", "dead_deliveries", "disabled_endpoints", "low_wallet", "keys_expiring"])
    .openapi({ description: "What needs attention.", example: "failed_jobs" }),
  severity: z
    .enum(["warning", "critical"])
    .openapi({ description: "`critical`: work or delivery is stopped until acted on.", example: "warning" }),
  count: count("How many (jobs, deliveries, endpoints or keys; 1 for the wallet)."),
  message: z.string().openapi({ description: "A short English summary (no personal data).", example: "3 jobs failed in the range." }),
});

const AttentionFigure = z
  .object({
    items: z.array(AttentionItem).openapi({ description: "Items needing attention, most severe first; empty when nothing does." }),
    complete: z
      .boolean()
      .openapi({ description: "False when a figure the items are derived from is unavailable, so an item may be missing.", example: true }),
  })
  .openapi({
    description: "Failed jobs and dead deliveries in the range, disabled endpoints, a low wallet, keys expiring within 14 days.",
  });

const HealthFigure = z
  .object({
    status: z.enum(["ok", "attention", "degraded", "unknown"]).openapi({
      description:
        "`degraded`: a critical attention item; `attention`: a warning item; `ok`: none; `unknown`: neither jobs nor webhooks could be read.",
      example: "ok",
    }),
    job_failure_rate: z.number().min(0).max(1).nullable().openapi({
      description: "Failed or rejected jobs over terminal jobs created in the range; null when none ended (or unavailable).",
      example: 0.02,
    }),
    delivery_failure_rate: z.number().min(0).max(1).nullable().openapi({
      description: "Failed or dead deliveries over ended deliveries in the range; null when none ended (or unavailable).",
      example: 0,
    }),
  })
  .openapi({ description: "The tenant's health, derived from jobs, webhooks and attention (no query of its own)." });

const Change = z
  .object({
    current: count("In the requested range."),
    previous: count("In the previous range of equal length."),
    change_ratio: z
      .number()
      .nullable()
      .openapi({ description: "(current − previous) / previous; null when previous is 0.", example: 0.25 }),
  })
  .nullable()
  .openapi({ description: "A count in both ranges, or null when its figure is unavailable." });

const ComparisonFigure = z
  .object({
    previous_range_start: instant("Start of the previous range (inclusive)."),
    previous_range_end: instant("End of the previous range (exclusive): the requested range's start."),
    jobs: Change,
    verifications: Change,
    assets: Change,
    webhook_deliveries: Change,
  })
  .openapi({ description: "Totals of the requested range against the previous range of equal length." });

const FreshnessEntry = z.object({
  as_of: instant("How current the figure is: when it was read, or the pre-aggregate's computation time."),
  source: z.enum(["live", "daily_aggregate"]).openapi({
    description:
      "`live`: counted from the records at `as_of`. `daily_aggregate`: whole UTC days that ended at least two days ago come from a daily pre-aggregate computed at `as_of` (the oldest computation used); later days and the range's partial edge days are counted live. A change to an aggregated day's records after `as_of` (a late state change) shows once that day is re-aggregated.",
    example: "live",
  }),
});

export const OverviewResponseSchema = z
  .object({
    range: z.enum(OVERVIEW_RANGES).openapi({ description: "The range asked for.", example: "7d" }),
    range_start: instant("Start of the range (inclusive): now minus 7 or 30 days, or minus 12 calendar months."),
    range_end: instant("End of the range (exclusive): when the overview was computed."),
    as_of: instant("When the overview was computed (each figure's own read time is in `freshness`)."),
    activity: ActivityFigure.nullable(),
    jobs: JobsFigure.nullable(),
    verification_outcomes: OutcomesFigure.nullable(),
    media_kinds: MediaKindsFigure.nullable(),
    webhooks: WebhooksFigure.nullable(),
    quota: QuotaFigure.nullable(),
    governance: GovernanceFigure.nullable(),
    attention: AttentionFigure,
    health: HealthFigure,
    comparison: ComparisonFigure,
    freshness: z
      .record(z.string(), FreshnessEntry)
      .openapi({ description: "Per figure group that was computed (`activity`, `jobs`, …, `api_keys`): when and how it was read." }),
    unavailable: z.array(z.string()).openapi({
      description:
        "Figures that could not be computed now (their query failed): a group name (`jobs`, `webhooks`, …, `api_keys` for keys expiring) and each derived field it leaves null (`comparison.jobs`, `health.job_failure_rate`, …). The group is null, never an invented value; retry later.",
      example: [],
    }),
  })
  .openapi("Overview");

export type OverviewBody = z.infer<typeof OverviewResponseSchema>;
