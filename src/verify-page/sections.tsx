import { Lines } from "./lines";

/** The page title and what it is for. */
export function PageHeader() {
  return (
    <header>
      <Lines>
        <h1>Check a file’s Content Credentials</h1>
        <p class="lede">
          Drop a photo, video, audio file or document to see who signed it, whether it changed since, and what that does and does not prove.
        </p>
      </Lines>
    </header>
  );
}

/** Where the client script renders the verdict (a polite live region) and the detail panels. */
export function ResultRegion() {
  return (
    <section id="result" class="result" aria-label="Result">
      <Lines>
        <div id="verdict" class="verdict" role="status" aria-live="polite" aria-atomic="true"></div>
        <div id="details" class="sections" hidden></div>
      </Lines>
    </section>
  );
}

/** What the public check keeps (nothing) and where developers find the same operation. */
export function PageFooter() {
  return (
    <footer>
      <Lines>
        <p>
          This public check stores neither the file nor the result. It reads the file’s C2PA manifest, checks its signature, signer and
          timestamp, and looks for this service’s invisible watermark and fingerprints.
        </p>
        <p>
          Developers: the same check is <code>POST /v1/verify</code> in the <a href="/docs#verify">API reference</a>.
        </p>
      </Lines>
    </footer>
  );
}
