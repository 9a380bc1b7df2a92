import { raw } from "hono/html";
import type { ReportDocument } from "./document-schema";
import { CodeList, code, Dl, List, Muted, orDash } from "./parts";
import { SignalsTable } from "./signals";

/** One report section per job, in document order. Each renders one `<section>` with an `<h2>`. */
type DocProps = { doc: ReportDocument };

// Fixed texts the v1 string renderer wrote unescaped (a literal `'`, which JSX would write as `&#39;`). Stored
// reports are hashed, so the bytes stay; these are constants, never evidence.
const NO_SIGNER_IN_CHECK = raw("A publication check records the engine's validation, not the signing certificate; see the job's receipt.");
const NO_SIGNALS_IN_CHECK = raw("A publication check records the C2PA engine's validation below, not per-signal results.");

export const Proves = ({ doc }: DocProps) => (
  <section>
    <h2>What this proves</h2>
    <List items={doc.proves} empty="Nothing: this outcome supports no claim about the file." />
  </section>
);

export const DoesNotProve = ({ doc }: DocProps) => (
  <section>
    <h2>What this does not prove</h2>
    <List items={doc.does_not_prove} empty="No limits are recorded for this outcome." />
  </section>
);

export function Signer({ doc }: DocProps) {
  const s = doc.signer;
  return (
    <section>
      <h2>Signer</h2>
      {s ? (
        <Dl
          rows={[
            ["Organization", orDash(s.organization)],
            ["Common name", orDash(s.common_name)],
            ["Issuer", orDash(s.issuer)],
            ["Certificate serial", code(s.serial_number)],
            ["Certificate valid until", orDash(s.not_after)],
            ["Trusted timestamp", orDash(s.timestamp)],
            ["Timestamp authority", orDash(s.timestamp_authority)],
          ]}
        />
      ) : (
        <p class="muted">{doc.kind === "publication_check" ? NO_SIGNER_IN_CHECK : "No signing certificate was read."}</p>
      )}
    </section>
  );
}

/** The creator as the verification showed it: a name only where the signing tenant's share policy disclosed one. */
function creatorLine(c: NonNullable<NonNullable<DocProps["doc"]["claims"]>["creator"]>): string {
  if (!c.attributed_by_service) return `${c.creator_ref} (claimed by the signer; not attributed by this service)`;
  const who = c.disclosure_state === "disclosed" && c.name ? c.name : c.creator_ref;
  return `${who}${c.brand_name ? `, ${c.brand_name}` : ""} (${c.disclosure_state ?? "unavailable"})`;
}

export function Claims({ doc }: DocProps) {
  const c = doc.claims;
  return (
    <section>
      <h2>Claims in the manifest</h2>
      {c ? (
        <Dl
          rows={[
            ["Origin", orDash(c.origin)],
            ["Generator", orDash(c.generator)],
            ["Model", orDash(c.model)],
            ["Declared AI generated", orDash(c.ai_generated)],
            ["Declared AI assisted", orDash(c.ai_assisted)],
            ["Created", orDash(c.created_at)],
            ...(c.creator ? [["Creator", creatorLine(c.creator)] as [string, string]] : []),
          ]}
        />
      ) : (
        <p class="muted">No manifest claims are recorded.</p>
      )}
    </section>
  );
}

export const Signals = ({ doc }: DocProps) => (
  <section>
    <h2>Signals</h2>
    {doc.kind === "verification" ? <SignalsTable signals={doc.signals} /> : <p class="muted">{NO_SIGNALS_IN_CHECK}</p>}
  </section>
);

export const Matches = ({ doc }: DocProps) => (
  <section>
    <h2>Watermark and fingerprint matches</h2>
    {doc.matches.length ? (
      <table>
        <thead>
          <tr>
            <th>Kind</th>
            <th>Algorithm</th>
            <th>Publication</th>
            <th>Manifest</th>
            <th>Distance</th>
            <th>Score</th>
          </tr>
        </thead>
        <tbody>
          {doc.matches.map((x) => (
            <tr>
              <td>{x.kind}</td>
              <td>{code(x.algorithm)}</td>
              <td>{code(x.publication_id)}</td>
              <td>{code(x.manifest_id)}</td>
              <td>{x.distance}</td>
              <td>{x.score}</td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : (
      <p class="muted">No soft-binding matches.</p>
    )}
  </section>
);

export const WatermarkReadBack = ({ wm }: { wm: NonNullable<ReportDocument["watermark_read_back"]> }) => (
  <section>
    <h2>Watermark read back</h2>
    <Dl
      rows={[
        ["Algorithm", code(wm.algorithm)],
        ["Payload matches", orDash(wm.payload_matches)],
      ]}
    />
  </section>
);

export const Warnings = ({ doc }: DocProps) => (
  <section>
    <h2>Warnings</h2>
    <List items={doc.warnings} empty="None." />
  </section>
);

export function C2paValidation({ doc }: DocProps) {
  const m = doc.c2pa;
  return (
    <section>
      <h2>C2PA validation</h2>
      <Dl
        rows={[
          ["Engine", orDash(m.engine)],
          ["Manifest id", code(m.manifest_id)],
          ["Validation state", orDash(m.validation_state)],
          ["Hard binding checked", m.asset_binding_checked === null ? <Muted>not recorded</Muted> : orDash(m.asset_binding_checked)],
          ["Success codes", <CodeList items={m.success_codes} />],
          ["Informational codes", <CodeList items={m.informational_codes} />],
          ["Failure codes", <CodeList items={m.failure_codes} />],
          ["Ingredient failure codes", <CodeList items={m.ingredient_failure_codes} />],
        ]}
      />
    </section>
  );
}

export const TechnicalSummary = ({ text }: { text: string }) => (
  <section>
    <h2>Technical summary</h2>
    <pre>{text}</pre>
  </section>
);

export const RecordSection = ({ doc, jsonSha256 }: DocProps & { jsonSha256: string }) => (
  <section>
    <h2>Record</h2>
    <Dl
      rows={[
        ["Verification id", code(doc.verification_id)],
        ["Validated at", orDash(doc.validated_at)],
        ["Kind", orDash(doc.kind === "verification" ? "verification" : "publication check")],
        ["Subject", orDash(doc.subject.type)],
        ["Media type", orDash(doc.subject.media_type)],
        ["Size (bytes)", orDash(doc.subject.byte_length)],
        ["Validation path", orDash(doc.subject.validation_path)],
        ["Asset id", code(doc.subject.asset_id)],
        ["Job id", code(doc.subject.job_id)],
        ["Object id", code(doc.subject.object_id)],
        ["Signing policy", orDash(doc.subject.policy_version)],
        ["Status vocabulary", orDash(doc.status_vocabulary_version)],
        ["Report format", code(doc.report_version)],
        ["SHA-256 of the JSON report", code(jsonSha256)],
      ]}
    />
  </section>
);
