/**
 * The report's only stylesheet, a trusted constant. Its bytes are part of every stored report (and hashed into the
 * report's CSP `style-src`), so any change here is a new REPORT_VERSION.
 */
export const STYLE = [
  ":root{color-scheme:light}",
  'body{margin:0;background:#fff;color:#111;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}',
  "main{max-width:50rem;margin:0 auto;padding:2rem 1.5rem}",
  "h1{font-size:1.6rem;line-height:1.25;margin:.25rem 0 .5rem}",
  "h2{font-size:1.1rem;margin:1.75rem 0 .5rem;padding-bottom:.2rem;border-bottom:1px solid #ccc}",
  ".eyebrow{margin:0;color:#555;font-size:.75rem;letter-spacing:.08em;text-transform:uppercase}",
  ".status{margin:.25rem 0 1rem;color:#333}",
  ".summary{margin:0;padding:.75rem 1rem;border-left:6px solid #888;background:#f5f5f5}",
  ".overall-valid{border-left-color:#1a7f37}.overall-invalid{border-left-color:#cf222e}.overall-indeterminate{border-left-color:#9a6700}.overall-recovered{border-left-color:#0969da}",
  "dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}",
  "table{width:100%;border-collapse:collapse}th,td{padding:.3rem .5rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top;overflow-wrap:anywhere}",
  "code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}",
  "pre{margin:0;padding:.75rem;background:#f5f5f5;white-space:pre-wrap;overflow-wrap:anywhere}",
  // Signal values stay neutral: "no fingerprint match" is a fact, not a failure.
  ".muted{color:#666}.yes,.no{font-weight:600}",
  "footer{margin-top:2rem;padding-top:.5rem;border-top:1px solid #ccc;color:#555;font-size:.8rem}",
  "@page{margin:16mm}",
  "@media print{body{font-size:10.5pt}main{max-width:none;padding:0}.summary,pre{background:none;border:1px solid #999}dl,table,ul{break-inside:avoid}h2{break-after:avoid}}",
].join("\n");
