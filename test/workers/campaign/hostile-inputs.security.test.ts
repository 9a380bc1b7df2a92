import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { prng } from "../../support/prng";
import { api, createTenant, json } from "../support/helpers";
import { absentValue, fillPath, label, type Operation, servedOperations } from "./openapi-operations";

/**
 * Hostile inputs over the whole contract (#22), generated from the served `/openapi.json` and seeded (a failure
 * replays from SEED and its index): every operation gets bodies built from its schema's own examples and then
 * broken — types swapped, required fields dropped, strings huge or control-laden, numbers out of range, nesting
 * deep, prototype keys, the JSON text truncated or spliced — with hostile query strings and headers. Each answer
 * must be a clean refusal or success: never a 5xx, every error in the contract's envelope (`code` + `request_id`,
 * or the stable `detail` of 401/403), every request answered within a bound. The distribution of answers is printed.
 * CI runs 1,000; `npm run campaign` runs 10,000 (CAMPAIGN_INPUTS and CAMPAIGN_SEED, passed in by vitest.config.ts).
 */
const bindings = env as unknown as { CAMPAIGN_INPUTS?: string; CAMPAIGN_SEED?: string };
const SEED = Number(bindings.CAMPAIGN_SEED ?? 22);
const INPUTS = Number(bindings.CAMPAIGN_INPUTS ?? 1000);
/** Slowest acceptable answer on a loaded 2-core CI machine; a hang would show as a timeout far beyond it. */
const BOUND_MS = 15_000;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A body built from the schema's examples (or type defaults), as a valid caller would send it. */
function exampleOf(schema: any, schemas: Record<string, any>, depth = 0): Json {
  if (!schema || depth > 6) return null;
  if (schema.$ref) return exampleOf(schemas[schema.$ref.split("/").pop()], schemas, depth + 1);
  if (schema.example !== undefined) return schema.example as Json;
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants) return exampleOf(variants[0], schemas, depth + 1);
  switch (schema.type) {
    case "object": {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries<any>(schema.properties ?? {})) out[k] = exampleOf(v, schemas, depth + 1);
      return out;
    }
    case "array":
      return [exampleOf(schema.items, schemas, depth + 1)];
    case "string":
      return schema.enum?.[0] ?? "x";
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    default:
      return null;
  }
}

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "\ud800",
  "‮evil",
  "../../etc/passwd",
  "%00",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "a".repeat(70_000),
  `ast_${"a".repeat(16)}`,
  "job_AAAAAAAAAAAAAAAA",
  `urn:c2pa:${"f".repeat(300)}`,
  "https://169.254.169.254/latest/meta-data/",
  "http://127.0.0.1:8787/",
  "1e309",
  "__proto__",
];
const NASTY_VALUES: Json[] = [
  null,
  true,
  0,
  -1,
  1e308,
  -0,
  2 ** 53 + 1,
  3.5,
  [],
  {},
  [[[[[]]]]],
  { __proto__: { polluted: true } } as Json,
];

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

function deep(levels: number): Json {
  let v: Json = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

/** One structural mutation of a JSON value. */
function mutateValue(value: Json, rand: () => number): Json {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const out: Record<string, Json> = { ...value };
    const r = rand();
    if (keys.length > 0 && r < 0.3) {
      const k = pick(rand, keys);
      out[k] = rand() < 0.5 ? mutateValue(out[k]!, rand) : rand() < 0.5 ? pick(rand, NASTY_STRINGS) : pick(rand, NASTY_VALUES);
    } else if (keys.length > 0 && r < 0.45) {
      delete out[pick(rand, keys)];
    } else if (r < 0.55) {
      out[pick(rand, ["__proto__", "constructor", "prototype", "extra", "$where", ""])] = pick(rand, NASTY_VALUES);
    } else if (r < 0.6) {
      return deep(200 + Math.floor(rand() * 5000));
    } else if (r < 0.65) {
      const wide: Record<string, Json> = {};
      for (let i = 0; i < 5000; i++) wide[`k${i}`] = i;
      return { ...out, ...wide };
    } else if (keys.length > 0) {
      const k = pick(rand, keys);
      out[k] = Array.from({ length: 1 + Math.floor(rand() * 2000) }, () => out[k]!);
    }
    return out;
  }
  if (Array.isArray(value)) return rand() < 0.5 ? [] : [...value, ...value.map((v) => mutateValue(v, rand))];
  return rand() < 0.5 ? pick(rand, NASTY_STRINGS) : pick(rand, NASTY_VALUES);
}

/** The JSON text of `value`, or null past 2 MB (or past what a string can hold). */
function sized(value: Json): string | null {
  try {
    const text = JSON.stringify(value);
    return text.length <= 2_000_000 ? text : null;
  } catch {
    return null;
  }
}

/** A text-level break of serialized JSON: truncation, a spliced token, a BOM, or raw bytes. */
function mutateText(text: string, rand: () => number): string {
  const at = Math.floor(rand() * (text.length + 1));
  switch (Math.floor(rand() * 5)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + pick(rand, ['"', "{", "]", ",", ":", "\\", "\\u00", "\u0000", "NaN", "Infinity"]) + text.slice(at);
    case 2:
      return `\ufeff${text}`;
    case 3:
      return `${text}${text}`;
    default:
      return Array.from({ length: 1 + Math.floor(rand() * 64) }, () => String.fromCharCode(Math.floor(rand() * 256))).join("");
  }
}

const HOSTILE_QUERIES = [
  "",
  "?limit=0",
  "?limit=-1",
  "?limit=1e9",
  "?limit=abc",
  "?cursor=AAAA",
  `?cursor=${"A".repeat(5000)}`,
  "?cursor=%00",
  "?limit=1&limit=2",
  "?scope=tenant",
  "?format=html",
  `?${"x=1&".repeat(2000)}`,
  "?%ZZ=1",
];

interface Outcome {
  status: number;
  code: string;
}

describe("campaign: hostile inputs over every operation", () => {
  it(`${INPUTS} seeded hostile requests: no 5xx, every refusal in the envelope, every answer bounded`, async () => {
    const operations = await servedOperations();
    const doc = await json(await api("/openapi.json"));
    const schemas = doc.components.schemas as Record<string, any>;
    const { key } = await createTenant({ name: "hostile" });
    const rand = prng(SEED);
    const failures: string[] = [];
    const histogram = new Map<string, number>();
    let slowest = 0;
    for (let i = 0; i < INPUTS; i++) {
      const op: Operation = operations[i % operations.length]!;
      const values = Object.fromEntries(
        op.params.map((p) => [
          p.name,
          rand() < 0.8
            ? absentValue(p)
            : pick(
                rand,
                NASTY_STRINGS.filter((s) => s.length < 400 && s !== ""),
              ),
        ]),
      );
      let path: string;
      try {
        path = fillPath(op.path, values) + pick(rand, HOSTILE_QUERIES);
      } catch {
        continue;
      }
      const headers: Record<string, string> = {
        "idempotency-key": rand() < 0.8 ? crypto.randomUUID() : pick(rand, ["", "x".repeat(300), "\t"]),
      };
      let rawBody: string | undefined;
      if (op.body === "json" || (op.method !== "GET" && rand() < 0.1)) {
        const raw = doc.paths[op.path][op.method.toLowerCase()].requestBody?.content?.["application/json"]?.schema;
        let value = exampleOf(raw, schemas);
        const rounds = 1 + Math.floor(rand() * 3);
        rawBody = JSON.stringify(value);
        for (let r = 0; r < rounds; r++) {
          // A round that would grow the body past ~2 MB is dropped (the JSON limit is 1 MiB; larger only costs time).
          const next = mutateValue(value, rand);
          const text = sized(next);
          if (text === null) continue;
          value = next;
          rawBody = text;
        }
        if (rand() < 0.3) rawBody = mutateText(rawBody, rand);
        headers["content-type"] =
          rand() < 0.85 ? "application/json" : pick(rand, ["text/plain", "application/json; charset=latin1", "multipart/form-data", ""]);
      }
      const keyed = rand() < 0.9;
      const started = performance.now();
      let res: Response;
      try {
        res = await api(path, { method: op.method, key: keyed ? key : null, rawBody, headers });
      } catch (error) {
        failures.push(`#${i} ${label(op)}: threw ${String(error).slice(0, 120)}`);
        continue;
      }
      const text = await res.text();
      const ms = performance.now() - started;
      slowest = Math.max(slowest, ms);
      let outcome: Outcome = { status: res.status, code: "" };
      // A readiness probe answers 503 with its own status document when a dependency is not ready (documented).
      const probe = op.path.startsWith("/readyz") && res.status === 503 && typeof JSON.parse(text).status === "string";
      if (probe) outcome = { status: 503, code: "probe not_ready" };
      else if (res.status >= 400) {
        try {
          const body = JSON.parse(text);
          const enveloped = typeof body.code === "string" && typeof body.request_id === "string";
          const problem = (res.status === 401 || res.status === 403) && typeof body.detail === "string";
          if (!enveloped && !problem) failures.push(`#${i} ${label(op)}: ${res.status} without the envelope: ${text.slice(0, 120)}`);
          outcome = { status: res.status, code: body.code ?? "detail" };
        } catch {
          failures.push(`#${i} ${label(op)}: ${res.status} not JSON: ${text.slice(0, 120)}`);
        }
      }
      if (res.status >= 500 && !probe)
        failures.push(`#${i} ${label(op)}${path.slice(op.path.length, op.path.length + 40)}: ${res.status} ${text.slice(0, 160)}`);
      if (ms > BOUND_MS) failures.push(`#${i} ${label(op)}: answered after ${Math.round(ms)} ms`);
      const bucket = `${outcome.status} ${outcome.code}`.trim();
      histogram.set(bucket, (histogram.get(bucket) ?? 0) + 1);
    }
    const lines = [...histogram.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${String(n).padStart(5)}  ${k}`);
    console.log(
      `hostile inputs: ${INPUTS} requests (seed ${SEED}) over ${operations.length} operations; slowest ${Math.round(slowest)} ms\n${lines.join("\n")}`,
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
