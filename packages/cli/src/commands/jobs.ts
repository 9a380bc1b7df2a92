import { type Job, unwrap } from "@svc/client";
import { intFlag, stringFlag } from "../args.ts";
import type { Command, Context } from "../command.ts";
import { EXIT } from "../exit.ts";
import { safe, table } from "../output.ts";
import { clientOf } from "../sdk.ts";
import { checkId, jsonOut, PAGE_FLAGS, printNextCursor, TERMINAL_JOB_STATES, when } from "./shared.ts";

/** One line for a job: state coloured by outcome, its progress and, when it ended badly, its error code. */
export function jobLine(ctx: Context, job: Job, paint = ctx.paint): string {
  // job fields come from the service: safe() before any of our own colour codes are added
  const state = safe(job.state);
  const colour = state === "completed" ? "green" : TERMINAL_JOB_STATES.has(state) ? "red" : "yellow";
  const progress = ` ${safe(job.progress.percent)}%${job.progress.current_step ? ` (${safe(job.progress.current_step)})` : ""}`;
  const error = job.error_code ? ` ${safe(job.error_code)}${job.error_message ? `: ${safe(job.error_message)}` : ""}` : "";
  return `${safe(job.job_id)} ${paint(colour, state)}${TERMINAL_JOB_STATES.has(state) ? "" : progress}${error}`;
}

export function printJob(ctx: Context, job: Job): void {
  const rows: [string, string][] = [
    ["job", job.job_id],
    ["state", jobLine(ctx, job).slice(safe(job.job_id).length + 1)],
    ["asset", job.asset_id],
    ["recipe", `${job.recipe_id} v${job.recipe_version}`],
    ["steps", job.steps.map((s) => `${s.step}:${s.state}`).join(" ") || "-"],
    ["ended", when(job.terminal_at)],
  ];
  if (job.result) {
    rows.push(["receipt", job.result.receipt_id], ["publication", job.result.publication_id], ["verification", job.result.verification_id]);
  }
  // the state row is jobLine's (already safe, and coloured); every other cell is the service's as is
  ctx.out(table(rows.map((r) => (r[0] === "state" ? r : r.map(safe)))));
}

/** The fingerprint of what a person watching a job sees change: state and progress. */
export const jobMark = (job: Job) => `${job.state}/${job.progress.percent}/${job.progress.current_step}`;

export const jobsCommands: Command[] = [
  {
    path: ["jobs", "list"],
    summary: "List jobs, newest first",
    flags: [
      {
        name: "state",
        type: "string",
        placeholder: "STATE",
        description: "Only jobs in this state (accepted, queued, running, completed, failed, …).",
      },
      { name: "kind", type: "string", placeholder: "KIND", description: "Only jobs of this kind." },
      ...PAGE_FLAGS,
    ],
    positionals: [],
    examples: ["svc jobs list --state failed", "svc jobs list --json --limit 100"],
    async run(ctx) {
      const query = {
        state: stringFlag(ctx.parsed, "state"),
        kind: stringFlag(ctx.parsed, "kind"),
        limit: intFlag(ctx.parsed, "limit", 1, 100),
        cursor: stringFlag(ctx.parsed, "cursor"),
      };
      const page = await unwrap(await clientOf(ctx).api.GET("/v1/jobs", { params: { query: query as never } }));
      if (ctx.json) return jsonOut(ctx, page);
      if (page.items.length === 0) ctx.err("no jobs");
      else
        ctx.out(
          table([
            ["JOB", "STATE", "RECIPE", "ASSET", "ENDED"],
            ...page.items.map((j) => [j.job_id, j.state, j.recipe_id, j.asset_id, when(j.terminal_at)].map(safe)),
          ]),
        );
      printNextCursor(ctx, page.next_cursor, "svc jobs list");
      return EXIT.ok;
    },
  },
  {
    path: ["jobs", "get"],
    summary: "Show one job",
    flags: [],
    positionals: [{ name: "JOB_ID", required: true, description: "The job (job_…)." }],
    examples: ["svc jobs get job_abcdefghij234567"],
    async run(ctx) {
      const id = checkId("job", ctx.parsed.positionals[0]!);
      const job = await unwrap(await clientOf(ctx).api.GET("/v1/jobs/{job_id}", { params: { path: { job_id: id } } }));
      if (ctx.json) return jsonOut(ctx, job);
      printJob(ctx, job);
      return EXIT.ok;
    },
  },
  {
    path: ["jobs", "watch"],
    summary: "Follow a job until it ends (exit 0 when completed, 9 otherwise)",
    flags: [],
    positionals: [{ name: "JOB_ID", required: true, description: "The job (job_…)." }],
    description:
      "Prints a line whenever the job's state or progress changes. Polls as the contract asks: first after 1 second, doubling to at most 30 seconds, with jitter. Ctrl-C stops watching; the job goes on.",
    examples: ["svc jobs watch job_abcdefghij234567"],
    async run(ctx) {
      const id = checkId("job", ctx.parsed.positionals[0]!);
      const svc = clientOf(ctx);
      let seen = "";
      const show = (j: Job) => {
        if (ctx.json || jobMark(j) === seen) return;
        seen = jobMark(j);
        ctx.out(`${jobLine(ctx, j)}\n`);
      };
      let job = await unwrap(await svc.api.GET("/v1/jobs/{job_id}", { params: { path: { job_id: id } } }));
      show(job);
      if (!TERMINAL_JOB_STATES.has(job.state)) job = await svc.waitForJob(id, { onUpdate: show, signal: ctx.io.signal });
      if (ctx.json) jsonOut(ctx, job);
      return job.state === "completed" ? EXIT.ok : EXIT.jobFailed;
    },
  },
];
