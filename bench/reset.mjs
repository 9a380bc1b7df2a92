// The first step of `npm run bench`: start this run's goal table empty.
import { rmSync } from "node:fs";
import { join } from "node:path";

rmSync(join(import.meta.dirname, "..", "dist", "bench", "goals.jsonl"), { force: true });
