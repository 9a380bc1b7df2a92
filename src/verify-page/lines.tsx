import type { Child, PropsWithChildren } from "hono/jsx";

/**
 * Children one per line, with a line break after the parent's opening tag and before its closing tag: the layout
 * the page has always been served in, kept so the document's bytes stay the same.
 */
export function Lines({ children }: PropsWithChildren) {
  const kids: Child[] = Array.isArray(children) ? children : [children];
  return (
    <>
      {kids.flatMap((kid) => ["\n", kid])}
      {"\n"}
    </>
  );
}
