import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The repository speaks to its users: docs say how the product works now, comments why the code is
// as it is. The history of the work (which working run did what) lives in git and in result files,
// and the place the work was done is nobody's concern. This fails on a tracked text that names a
// working run by its ordinal ("the fourth session") or the build environment instead of a host.

const root = path.resolve(import.meta.dirname, "../..");
const self = path.relative(root, import.meta.filename);

const ORDINAL =
  "(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|" +
  "fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-\\w+|thirtieth|thirty-\\w+|\\d+(?:st|nd|rd|th))";
const forbidden: [string, RegExp][] = [
  ["a working run by its ordinal", new RegExp(`\\b${ORDINAL}\\s+session\\b`, "i")],
  ["the build environment", /\b(?:this|the) workplace\b|\bthese machines\b|\bon this machine kind\b/i],
];

function trackedTextFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((file) => file && file !== self && !file.endsWith("package-lock.json"))
    .filter((file) => /\.(?:[cm]?[jt]sx?|md|json|ya?ml|css|sql|sh|txt)$|^\.ci\/|^\.[a-z]+rc$/.test(file));
}

describe("tracked text", () => {
  it("names no working run by its ordinal and not the build environment", () => {
    const found: string[] = [];
    for (const file of trackedTextFiles()) {
      const full = path.join(root, file);
      if (!fs.existsSync(full)) continue;
      fs.readFileSync(full, "utf8")
        .split("\n")
        .forEach((line, i) => {
          for (const [what, pattern] of forbidden)
            if (pattern.test(line)) found.push(`${file}:${i + 1} names ${what}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("catches what it is for", () => {
    const ordinal = forbidden[0]![1];
    const place = forbidden[1]![1];
    expect(ordinal.test("measured in the twenty-fourth session")).toBe(true);
    expect(ordinal.test("(11th session)")).toBe(true);
    expect(ordinal.test("a driver's session cookie")).toBe(false);
    expect(place.test("browsers cannot be downloaded on these machines")).toBe(true);
    expect(place.test("one machine of the fleet")).toBe(false);
  });
});
