import { describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import { fixture } from "../support/helpers";

describe("SVG completeness", () => {
  const inspector = new ByteSniffingInspector();
  const text = (s: string) => new TextEncoder().encode(s);

  it("a cut SVG is corrupt at upload, not a failed job later", () => {
    const svg = fixture("sample.svg");
    for (const cut of [40, svg.length / 2, svg.length - 3]) {
      expect(inspector.inspect(svg.slice(0, Math.floor(cut)), "image/svg+xml").status).not.toBe("ok");
    }
    expect(inspector.inspect(svg, "image/svg+xml").status).toBe("ok");
  });

  it("accepts closed, self-closed and prefixed roots", () => {
    expect(inspector.inspect(text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n'), "image/svg+xml").status).toBe("ok");
    expect(
      inspector.inspect(text('<?xml version="1.0"?><s:svg xmlns:s="http://www.w3.org/2000/svg"><s:g/></s:svg>'), "image/svg+xml").status,
    ).toBe("ok");
  });
});
