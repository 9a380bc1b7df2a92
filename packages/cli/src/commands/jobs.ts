import { createApi } from "../api.ts";
import { intFlag, stringFlag } from "../args.ts";
import type { Command, Context } from "../command.ts";
import { CliError, EXIT } from "../exit.ts";
import { json, table } from "../output.ts";
import { checkId, jsonOut, PAGE_FLAGS, pollDelay, printNextCursor, sleep, TERMINAL_JOB_STATES, when } from "./shared.ts";

type Job = Record<string, any>;

export function apiOf(ctx: Context) {
  return createApi(ctx.config.baseUrl, ctx.requireKey(), ctx.io.signal);
}

/** One line for a job: state coloured by outcome, its progress and, when it ended badly, its error code. */
export function jobLine(ctx: Context, job: Job): string {
  const state: string = job.state;
  const colour = state === "completed" ? "green" : TERMINAL_JOB_STATES.has(state) ? "red" : "yellow";
  const progress = job.progress ? ` ${job.progress.percent}%${job.progress.current_step ? ` (${job.progress.current_step})` : ""}` : "";
  const error = job.error_code ? ` ${job.error_code}${job.error_message ? `: ${job.error_message}` : ""}` : "";
  return `${job.job_id} ${ctx.paint(colour, state)}${TERMINAL_JOB_STATES.has(state) ? "" : progress}${error}`;
}

export function printJob(ctx: Context, job: Job): void {
  if (ctx.json) return void ctx.out(json(job));
  const rows: [string, string][] = [
    ["job", job.job_id],
    ["state", jobLine(ctx, job).slice(job.job_id.length + 1)],
    ["asset", job.asset_id],
    ["recipe", `${job.recipe_id} v${job.recipe_version}`],
    ["steps", (job.steps ?? []).map((s: Job) => `${s.step}:${s.state}`).join(" ") || "-"],
    ["created", when(job.created_at)],
    ["ended", when(job.terminal_at)],
  ];
  if (job.result) {
    rows.push(["receipt", job.result.receipt_id], ["publication", job.result.publication_id], ["verification", job.result.verification_id]);
  }
  ctx.out(table(rows));
}

/**
 * Polls a job until it is terminal (SPEC: first after 1 s, doubling to 30 s, jittered), calling `onChange` when its
 * state or progress moves. Interrupted: throws exit 130 (the job itself goes on).
 */
export async function waitForJob(ctx: Context, jobId: string, onChange: (job: Job) => void, first?: Job): Promise<Job> {
  const api = apiOf(ctx);
  let job = first ?? (await api.request<Job>("GET", `/v1/jobs/${jobId}`));
  let seen = "";
  for (let attempt = 0; ; attempt++) {
    const mark = `${job.state}/${job.progress?.percent}/${job.progress?.current_step}`;
    if (mark !== seen) {
      seen = mark;
      onChange(job);
      attempt = 0;
    }
    if (TERMINAL_JOB_STATES.has(job.state)) return job;
    await sleep(pollDelay(attempt), ctx.io.signal);
    if (ctx.io.signal.aborted) throw new CliError(EXIT.interrupted, `interrupted; the job goes on: svc jobs watch ${jobId}`);
    job = await api.request<Job>("GET", `/v1/jobs/${jobId}`);
  }
}

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
      const page = await apiOf(ctx).request<{ items: Job[]; next_cursor: string | null }>("GET", "/v1/jobs", {
        query: {
          state: stringFlag(ctx.parsed, "state"),
          kind: stringFlag(ctx.parsed, "kind"),
          limit: intFlag(ctx.parsed, "limit", 1, 100)?.toString(),
          cursor: stringFlag(ctx.parsed, "cursor"),
        },
      });
      if (ctx.json) return jsonOut(ctx, page);
      if (page.items.length === 0) ctx.err("no jobs");
      else
        ctx.out(
          table([
            ["JOB", "STATE", "RECIPE", "ASSET", "CREATED"],
            ...page.items.map((j) => [j.job_id, j.state, j.recipe_id, j.asset_id, when(j.created_at)]),
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
      printJob(ctx, await apiOf(ctx).request<Job>("GET", `/v1/jobs/${id}`));
      return EXIT.ok;
    },
  },
  {
    path: ["jobs", "watch"],
    summary: "Follow a job until it ends (exit 0 when completed, 9 otherwise)",
    flags: [],
    positionals: [{ name: "JOB_ID", required: true, description: "The job (job_…)." }],
    description:
      "Polls as the contract asks: first after 1 second, doubling to at most 30 seconds, with jitter. Ctrl-C stops watching; the job goes on.",
    examples: ["svc jobs watch job_abcdefghij234567"],
    async run(ctx) {
      const id = checkId("job", ctx.parsed.positionals[0]!);
      const job = await waitForJob(ctx, id, (j) => {
        if (!ctx.json) ctx.out(`${jobLine(ctx, j)}\n`);
      });
      if (ctx.json) ctx.out(json(job));
      return job.state === "completed" ? EXIT.ok : EXIT.jobFailed;
    },
  },
];
