/*
 * Strong entity tags for immutable representations: the quoted SHA-256 (hex) of the body, so equal bodies share a
 * tag and a conditional GET (If-None-Match) can answer 304 without the body.
 */

/** `"abc"`, `W/"abc"`, lists and `*`: does If-None-Match name the entity whose tag is `"<sha256>"`? */
export function etagMatches(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === `"${sha256}"` || tag === `W/"${sha256}"`;
  });
}
