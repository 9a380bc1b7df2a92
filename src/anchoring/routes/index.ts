import { createRouter } from "../../platform/context";
import { register as getCheckpoint } from "./get-checkpoint";
import { register as getCheckpointBySize } from "./get-checkpoint-by-size";
import { register as getConsistency } from "./get-consistency";

/*
 * The transparency log's read-only face: signed checkpoints and consistency proofs between them, public like
 * Certificate Transparency's get-sth / get-sth-consistency, so anyone can audit that the log only grows.
 */

export function anchorRoutes() {
  const app = createRouter();
  getCheckpoint(app);
  getCheckpointBySize(app);
  getConsistency(app);
  return app;
}
