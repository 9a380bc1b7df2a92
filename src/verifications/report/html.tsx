import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { ReportDocument } from "./document-schema";
import {
  C2paValidation,
  Claims,
  DoesNotProve,
  Matches,
  Proves,
  RecordSection,
  Signals,
  Signer,
  TechnicalSummary,
  Warnings,
  WatermarkReadBack,
} from "./sections";
import { STYLE } from "./style";

/*
 * The document shell. Stored reports are hashed (and the style by its CSP hash), so this renders byte-for-byte what
 * the string renderer of REPORT_VERSION v1 wrote: one element per line at the top level, `<meta ...>` without the
 * self-closing slash JSX would add, and a CSP attribute with literal quotes. Those constant parts are `raw()`; every
 * value from the evidence goes through JSX and is escaped.
 */
const NL = "\n";
const HEAD_META = raw(
  [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="robots" content="noindex">',
  ].join(NL),
);

function Header({ doc }: { doc: ReportDocument }) {
  const confidence =
    doc.confidence === null
      ? "none (no confidence is given for this outcome)"
      : `${doc.confidence} (${Math.round(doc.confidence * 100)} %)`;
  return (
    <header>
      <p class="eyebrow">Content provenance verification report</p>
      <h1>{doc.title}</h1>
      <p class="status">
        {doc.status !== null ? (
          <>
            Status <code>{doc.status}</code> · overall <strong>{doc.overall}</strong> · confidence {confidence}
          </>
        ) : (
          <>
            Publication check · overall <strong>{doc.overall}</strong>
          </>
        )}
      </p>
      {doc.status_summary ? <p class="muted">{doc.status_summary}</p> : ""}
    </header>
  );
}

/** The sections in document order; which appear depends on the kind of record. */
function sections(doc: ReportDocument, jsonSha256: string): Child[] {
  return [
    <Proves doc={doc} />,
    <DoesNotProve doc={doc} />,
    <Signer doc={doc} />,
    <Claims doc={doc} />,
    <Signals doc={doc} />,
    doc.kind === "verification" ? <Matches doc={doc} /> : null,
    doc.kind === "publication_check" && doc.watermark_read_back ? <WatermarkReadBack wm={doc.watermark_read_back} /> : null,
    <Warnings doc={doc} />,
    <C2paValidation doc={doc} />,
    doc.developer_explanation !== null ? <TechnicalSummary text={doc.developer_explanation} /> : null,
    <RecordSection doc={doc} jsonSha256={jsonSha256} />,
  ].filter((s) => s !== null);
}

function Report({ doc, jsonSha256 }: { doc: ReportDocument; jsonSha256: string }) {
  return (
    <>
      {raw("<!DOCTYPE html>")}
      {NL}
      <html lang="en">
        {NL}
        <head>
          {NL}
          {HEAD_META}
          {NL}
          <title>
            Verification report: {doc.title} ({doc.verification_id})
          </title>
          {NL}
          <style>{raw(`${NL}${STYLE}${NL}`)}</style>
          {NL}
        </head>
        {NL}
        <body>
          {NL}
          <main>
            {NL}
            <Header doc={doc} />
            {NL}
            <p class={`summary overall-${doc.overall}`}>{doc.user_explanation}</p>
            {NL}
            {sections(doc, jsonSha256).map((s) => [s, NL])}
            <footer>
              <p>
                Rendered only from the stored evidence of verification {doc.verification_id}, validated at {doc.validated_at}: the same
                evidence always renders this exact document (format {doc.report_version}). It describes the verification as it was made
                then, not the file as it is today.
              </p>
            </footer>
            {NL}
          </main>
          {NL}
        </body>
        {NL}
      </html>
      {NL}
    </>
  );
}

/**
 * The human-readable report: one self-contained, print-friendly HTML document. No scripts, no links and no
 * external resources (its own CSP forbids them even when saved to disk); every value from the evidence is
 * escaped, since manifest claims are written by whoever signed the file. `jsonSha256` ties it to its JSON twin.
 */
export function renderReportHtml(doc: ReportDocument, jsonSha256: string): string {
  const out = (<Report doc={doc} jsonSha256={jsonSha256} />).toString();
  // Every component is synchronous; a Promise here would mean one became async, which the report must not be.
  if (typeof out !== "string") throw new Error("report components must render synchronously");
  return out;
}
