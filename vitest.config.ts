import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

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
                  SVC_KEY_PEPPER: "test-pepper-0123456789abcdef0123456789abcdef",
                  SVC_CURSOR_SECRET: "test-cursor-secret-0123456789abcdef0123456789",
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
