import { raw } from "hono/html";
import { code, Muted } from "./parts";

/** Display labels of the signals, in display order (signals of other names follow, sorted). */
export const SIGNAL_LABELS: [string, string][] = [
  ["c2pa_manifest_present", "C2PA manifest present"],
  ["c2pa_signature_valid", "Claim signature valid"],
  ["signer_trusted", "Signer trusted"],
  ["timestamp_valid", "Trusted timestamp valid"],
  ["ocsp_status", "Certificate revocation (OCSP)"],
  ["watermark_present", "Watermark present"],
  ["watermark_payload_valid", "Watermark payload valid"],
  ["fingerprint_match", "Fingerprint match"],
  ["anchor_match", "Transparency-log inclusion verified"],
];

/**
 * Checks that depend on another one: a payload only exists in a found watermark, a signature, signer or timestamp
 * only in a found manifest. When the prerequisite is false the check does not apply (it is not a failure).
 */
const SIGNAL_PREREQUISITES: Record<string, string> = {
  watermark_payload_valid: "watermark_present",
  c2pa_signature_valid: "c2pa_manifest_present",
  signer_trusted: "c2pa_manifest_present",
  timestamp_valid: "c2pa_manifest_present",
  ocsp_status: "c2pa_manifest_present",
  anchor_match: "c2pa_manifest_present",
};

// JSX writes void elements as `<br/>`; stored reports have `<br>`, and their bytes are hashed: keep them.
const BR = raw("<br>");

function signalValue(v: boolean | string | undefined) {
  if (v === undefined) return <Muted>not computed</Muted>;
  if (typeof v === "boolean") return v ? <span class="yes">yes</span> : <span class="no">no</span>;
  return code(v);
}

function SignalCell({ name, signals }: { name: string; signals: Record<string, boolean | string> }) {
  const prerequisite = SIGNAL_PREREQUISITES[name];
  if (prerequisite && signals[prerequisite] === false) return <Muted>not applicable</Muted>;
  return <>{signalValue(signals[name])}</>;
}

/** The signals table: the known signals in display order, then any others by name. */
export function SignalsTable({ signals }: { signals: Record<string, boolean | string> }) {
  const extra = Object.keys(signals)
    .filter((k) => !SIGNAL_LABELS.some(([name]) => name === k))
    .sort();
  const rows = [...SIGNAL_LABELS, ...extra.map((k): [string, string] => [k, k])];
  return (
    <table>
      <thead>
        <tr>
          <th>Signal</th>
          <th>Result</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, label]) => (
          <tr>
            <td>
              {label}
              {BR}
              <code class="muted">{name}</code>
            </td>
            <td>
              <SignalCell name={name} signals={signals} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
