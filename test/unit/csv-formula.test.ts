import { describe, expect, it } from "vitest";
import { csvLine } from "@/server/access-log/csv";

// csvLine's formula guard (server/access-log/csv.ts): an apostrophe wherever a spreadsheet could
// start a cell that runs, for one that splits on commas, on ";" or on tabs.

const field = (value: string) => csvLine([value]).slice(0, -2);

describe("csvLine's formula guard", () => {
  it("a field starting with = + - @ tab or CR gets an apostrophe", () => {
    for (const v of ["=1+1", "+1", "-82.99", "@cmd", "\tx", "\rx"]) expect(field(v), v).toMatch(/^"?'/);
  });

  it('after ";" or a tab (spaces between allowed), where such a spreadsheet starts a cell, too', () => {
    expect(field("a;=1+1")).toBe("a;'=1+1");
    expect(field("a; =1+1")).toBe("a; '=1+1");
    expect(field("a;;@x;+1")).toBe("a;;'@x;'+1");
    expect(field("a\t=1")).toBe("a\t'=1");
    expect(field("\t=1")).toBe("'\t'=1");
    expect(field("  -2")).toBe("  '-2");
  });

  it("after a line break inside a quoted field, which starts a row for a reader that splits on ; or tab", () => {
    expect(field("two\n=lines")).toBe(`"two\n'=lines"`);
    expect(field("two\r\n+lines")).toBe(`"two\r\n'+lines"`);
  });

  it("leaves text alone where nothing could start a formula", () => {
    for (const v of ["a;b", "a - b", "x=1", "1;2", "a,b=c", "plain"]) {
      expect(field(v).replace(/^"|"$/g, ""), v).toBe(v);
    }
  });
});
