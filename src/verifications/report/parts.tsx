import type { Child } from "hono/jsx";

/*
 * Small building blocks of the report. JSX escapes every text child and attribute value (the same five characters,
 * with the same entities, as the string renderer did), so evidence values are passed as plain strings.
 */

/** A value as text: `—` for none or empty, yes/no for booleans. */
export const orDash = (v: string | number | boolean | null): string =>
  v === null || v === "" ? "—" : typeof v === "boolean" ? (v ? "yes" : "no") : String(v);

/** A value in `<code>`, or `—` for none. */
export const code = (v: string | null): Child => (v === null ? "—" : <code>{v}</code>);

export function List({ items, empty }: { items: string[]; empty: string }) {
  return items.length ? (
    <ul>
      {items.map((i) => (
        <li>{i}</li>
      ))}
    </ul>
  ) : (
    <p class="muted">{empty}</p>
  );
}

/** Codes separated by single spaces, or `none`. */
export function CodeList({ items }: { items: string[] }) {
  return <>{items.length ? items.flatMap((i, n) => (n ? [" ", <code>{i}</code>] : [<code>{i}</code>])) : "none"}</>;
}

export function Dl({ rows }: { rows: [string, Child][] }) {
  return (
    <dl>
      {rows.map(([k, v]) => (
        <>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </>
      ))}
    </dl>
  );
}

export const Muted = ({ children }: { children: Child }) => <span class="muted">{children}</span>;
