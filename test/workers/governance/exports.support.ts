import { vi } from "vitest";
import { fromBase64 } from "../../../src/platform/bytes";
import { api, callUrl, json } from "../support/helpers";

/** POSTs an export and polls it until it is terminal. */
export async function exportAndWait(key: string, timeoutMs = 60_000): Promise<any> {
  const started = await api("/v1/governance/exports", { method: "POST", key, headers: { "idempotency-key": crypto.randomUUID() } });
  if (started.status !== 202) throw new Error(`export: ${started.status} ${await started.text()}`);
  const queued = await json(started);
  return waitForExport(key, queued.export_id, timeoutMs);
}

export function waitForExport(key: string, exportId: string, timeoutMs = 60_000): Promise<any> {
  return vi.waitFor(
    async () => {
      const record = await json(await api(`/v1/governance/exports/${exportId}`, { key }));
      if (record.state === "queued" || record.state === "running") throw new Error(`export ${exportId} still ${record.state}`);
      return record;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** Downloads a completed export's archive through its URL, with exactly its headers. */
export async function downloadArchive(record: any): Promise<Uint8Array> {
  const res = await callUrl(record.download.url, { method: "GET", headers: record.download.headers });
  if (res.status !== 200) throw new Error(`download: ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The SPKI of a signed-note verifier key `<name>+<hex id>+base64(0x02 ‖ SPKI)`. */
export function spkiOfVerifierKey(verifierKey: string): Uint8Array {
  // base64 may itself hold "+": the key is everything after the second separator.
  const first = verifierKey.indexOf("+");
  const encoded = verifierKey.slice(verifierKey.indexOf("+", first + 1) + 1);
  return fromBase64(encoded)!.slice(1);
}
