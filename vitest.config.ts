import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/** Media fixtures (test/fixtures/media) handed to workerd tests as one binding: file name → base64 bytes. */
function mediaFixtures(): Record<string, string> {
  const dir = join(import.meta.dirname, "test", "fixtures", "media");
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name)).toString("base64")]));
}

/**
 * Two projects: `workers` runs inside workerd with the real bindings of wrangler.toml (local D1, R2, Queues,
 * Durable Objects); `node` runs what needs Node (OpenAPI validation with ajv, which workerd forbids because it
 * compiles code at run time; the dev scripts).
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    test: {
      reporters: ["default", "./test/summary-reporter.ts"],
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  TEST_FIXTURES: mediaFixtures(),
                  SVC_KEY_PEPPER: "test-pepper-0123456789abcdef0123456789abcdef",
                  SVC_CURSOR_SECRET: "test-cursor-secret-0123456789abcdef0123456789",
                  SVC_CAPABILITY_SECRET: "test-capability-secret-0123456789abcdef0123",
                },
              },
            }),
          ],
          test: { name: "workers", include: ["test/workers/**/*.test.ts"], setupFiles: ["./test/workers/setup.ts"] },
        },
        { test: { name: "node", include: ["test/node/**/*.test.ts"], environment: "node" } },
      ],
    },
  };
});
