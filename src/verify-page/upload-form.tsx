import { Lines } from "./lines";

function mib(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * The file form. It works without JavaScript (a plain multipart POST that answers JSON); the client script
 * intercepts submit and change to verify in place.
 */
export function UploadForm({ endpoint, maxBytes }: { endpoint: string; maxBytes: number }) {
  return (
    <form id="verify-form" action={endpoint} method="post" enctype="multipart/form-data" aria-busy="false">
      <Lines>
        <input id="file" name="file" type="file" class="vh" aria-labelledby="drop-title" aria-describedby="drop-hint" />
        <label id="drop" class="drop" for="file">
          <Lines>
            <span id="drop-title" class="drop-title">
              Drop a file here, or choose one
            </span>
            <span class="pick" aria-hidden="true">
              Choose a file
            </span>
            <span id="drop-hint" class="hint">
              Up to {mib(maxBytes)}. The file is checked, not kept.
            </span>
          </Lines>
        </label>
        <p id="file-chosen" class="chosen" hidden></p>
        <SidecarField />
        <div class="actions">
          <button id="submit" type="submit">
            Verify
          </button>
        </div>
        <noscript>
          <p class="hint">Without JavaScript, Verify shows the raw result as JSON.</p>
        </noscript>
      </Lines>
    </form>
  );
}

/** The optional .c2pa sidecar, folded away: most files carry their credentials inside. */
function SidecarField() {
  return (
    <details class="sidecar">
      <Lines>
        <summary>Its credentials are in a separate .c2pa file</summary>
        <div class="sidecar-body">
          <Lines>
            <label for="manifest">Manifest file (optional)</label>
            <input id="manifest" name="manifest" type="file" accept=".c2pa,application/c2pa" aria-describedby="manifest-hint" />
            <p id="manifest-hint" class="hint">
              Some files keep their Content Credentials beside them, as a sidecar. Add it here together with the file.
            </p>
          </Lines>
        </div>
      </Lines>
    </details>
  );
}
