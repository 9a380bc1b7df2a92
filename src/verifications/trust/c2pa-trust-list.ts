/*
 * The official C2PA trust lists, bundled as data: c2pa-trust-list.json holds, line for line, c2pa-org/
 * conformance-public trust-list/C2PA-TRUST-LIST.pem (signer trust anchors, 30 certificates) and
 * C2PA-TSA-TRUST-LIST.pem (time-stamping authorities, 22 certificates), at commit
 * 70ec46e16962b81e70795fcb50a05e0128329a20, bundled 2026-11-22. License: CC BY 4.0 (© C2PA). Refresh by replacing
 * both line arrays with the files of a newer commit and updating the JSON's source, commit and date.
 * JSON rather than .pem text modules: JSON imports work alike in wrangler's bundle, workerd tests and Node.
 */
import list from "./c2pa-trust-list.json";

/** Roots and intermediates the C2PA trust program admits for claim signers. */
export const C2PA_TRUST_LIST_PEM: string = list.signers.lines.join("\n");

/** Time-stamping authorities the C2PA trust program admits (kept apart from signer trust). */
export const C2PA_TSA_TRUST_LIST_PEM: string = list.tsa.lines.join("\n");
