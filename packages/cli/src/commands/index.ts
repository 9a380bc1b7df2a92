import type { Command } from "../command.ts";
import { assetsCommands } from "./assets.ts";
import { jobsCommands } from "./jobs.ts";
import { keysCommands } from "./keys.ts";
import { signCommand } from "./sign.ts";
import { verifyCommand } from "./verify.ts";
import { webhooksCommands } from "./webhooks.ts";

/** Every command, in the order `svc --help` lists them. */
export const COMMANDS: readonly Command[] = [
  signCommand,
  verifyCommand,
  ...jobsCommands,
  ...assetsCommands,
  ...keysCommands,
  ...webhooksCommands,
];
