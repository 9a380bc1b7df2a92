import { raw } from "hono/html";
import { Lines } from "./lines";
import { PageFooter, PageHeader, ResultRegion } from "./sections";
import { UploadForm } from "./upload-form";

/** What the document needs: `script` and `style` are trusted constants, inserted unescaped and hashed into the CSP. */
export interface DocumentProps {
  /** Where the form posts (also the script's endpoint); same origin. */
  endpoint: string;
  /** Largest accepted file, for the hint under the drop zone. */
  maxBytes: number;
  script: string;
  style: string;
}

/** The whole verify page. `<style>` and `<script>` carry their text through `raw()`: escaping would change the hashed bytes. */
export function VerifyDocument({ endpoint, maxBytes, script, style }: DocumentProps) {
  return (
    <html lang="en">
      <Lines>
        <head>
          <Lines>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width,initial-scale=1" />
            <meta name="color-scheme" content="light dark" />
            <meta name="referrer" content="no-referrer" />
            <link rel="icon" href="data:," />
            <title>Verify a file · Content Credentials</title>
            <style>{raw(style)}</style>
          </Lines>
        </head>
        <body>
          <Lines>
            <main>
              <Lines>
                <PageHeader />
                <UploadForm endpoint={endpoint} maxBytes={maxBytes} />
                <ResultRegion />
                <PageFooter />
              </Lines>
            </main>
            <script>{raw(script)}</script>
          </Lines>
        </body>
      </Lines>
    </html>
  );
}
