import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { markdownFiles } from "../helpers/markdown-files";
import { webhookBodyProblem } from "../helpers/webhook-schemas";

// A webhook body shown in the docs is a promise to partners, who copy its fields into their types:
// every ```json block of docs/ that is a whole body (parses, and has a `_type`) must satisfy the
// event catalog's schema of its type, like every body the suite's receiver gets. (Blocks cut short
// with "…" are excerpts and do not parse: they are not checked.)

const docs = path.resolve(__dirname, "../../docs");

const bodies = markdownFiles(docs).flatMap((file) =>
  [...fs.readFileSync(file, "utf8").matchAll(/```json\n([\s\S]*?)```/g)].flatMap((m) => {
    try {
      const value = JSON.parse(m[1]!) as unknown;
      return value && typeof value === "object" && "_type" in value
        ? [{ where: path.relative(docs, file), text: m[1]! }]
        : [];
    } catch {
      return [];
    }
  }),
);

describe("webhook bodies shown in docs/", () => {
  it("the docs show whole bodies (the quickstart's webhook and the app event at least)", () => {
    expect(bodies.map((b) => b.where)).toEqual(expect.arrayContaining(["guides/quickstart.md", "delivery.md"]));
  });

  it.each(bodies.map((b) => [b.where, b.text] as const))("%s: the body satisfies the catalog", (_where, text) => {
    expect(webhookBodyProblem(text)).toBeNull();
  });
});
