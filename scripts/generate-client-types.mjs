#!/usr/bin/env node
// Regenerates packages/client/src/openapi.d.ts from the production OpenAPI document. The document is built from
// src/ (routes, zod schemas), which only loads through Vite's transform (wasm imports, extensionless paths), so the
// generation runs as the drift test in update mode: one definition of "the generated file" for CI and for this.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const result = spawnSync(
  join(root, "node_modules", ".bin", "vitest"),
  ["run", "--project", "node", "test/node/project/client-types-drift.test.ts", "--update"],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
