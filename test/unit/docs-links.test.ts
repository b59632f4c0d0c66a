import fs from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { marked, type Token, type Tokens } from "marked";
import { describe, expect, it } from "vitest";
import { markdownFiles } from "../helpers/markdown-files";

// The docs cite each other by section (a decision record links a figure to benchmarks.md),
// and a heading reworded breaks every link to it without a sound: two links of partitions.md named
// an anchor that no heading made. Every relative link of README.md and docs/ must name a file that
// exists and, for a Markdown file, a heading in it; the guides' links to /docs/guides/… (rendered
// by the site) a guide that exists. Anchors are GitHub's, where these files are read: the heading's
// text, lower case, punctuation dropped, spaces as hyphens, a repeated heading numbered -1, -2.

const root = path.resolve(__dirname, "../..");
const files = [path.join(root, "README.md"), ...markdownFiles(path.join(root, "docs"))];

/** A heading's text as GitHub shows it: code spans' text, links' text, no emphasis marks. */
const plainText = (tokens: Token[]): string =>
  tokens.map((t) => ("tokens" in t && t.tokens ? plainText(t.tokens) : "text" in t ? String(t.text) : "")).join("");

const parsed = new Map(
  files.map((file) => {
    const tokens = marked.lexer(fs.readFileSync(file, "utf8"));
    const slugger = new GithubSlugger();
    const anchors = new Set<string>();
    const links: string[] = [];
    marked.walkTokens(tokens, (t) => {
      if (t.type === "heading") anchors.add(slugger.slug(plainText((t as Tokens.Heading).tokens)));
      if (t.type === "link") links.push((t as Tokens.Link).href);
    });
    return [file, { anchors, links }] as const;
  }),
);

/** A link with a scheme (https:, mailto:): not ours to check. */
const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href);

/** Why the link from `file` leads nowhere, or null when it leads somewhere. */
function brokenLink(file: string, href: string): string | null {
  if (isExternal(href)) return null;
  if (href.startsWith("/")) {
    const guide = /^\/docs\/guides\/([\w-]+)$/.exec(href);
    return guide && !fs.existsSync(path.join(root, "docs", "guides", `${guide[1]}.md`)) ? "no such guide" : null;
  }
  const [target, anchor] = href.split("#", 2) as [string, string | undefined];
  const resolved = target === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
  if (!fs.existsSync(resolved)) return "no such file";
  if (anchor === undefined || !resolved.endsWith(".md")) return null;
  const anchors = parsed.get(resolved)?.anchors;
  if (!anchors) return "a Markdown file outside README.md and docs/";
  return anchors.has(decodeURIComponent(anchor)) ? null : "no heading makes this anchor";
}

const links = [...parsed].flatMap(([file, { links }]) =>
  links.map((href) => ({ where: path.relative(root, file), href, problem: brokenLink(file, href) })),
);

describe("links in README.md and docs/", () => {
  it("finds the links between the docs (some by section)", () => {
    const local = links.filter((l) => !isExternal(l.href));
    expect(local.length).toBeGreaterThan(100);
    expect(local.filter((l) => /\.md#/.test(l.href)).length).toBeGreaterThan(50);
  });

  it("makes GitHub's anchors from the headings", () => {
    const anchors = parsed.get(path.join(root, "docs", "benchmarks.md"))!.anchors;
    expect(anchors).toContain("benchingest"); // ### bench:ingest
    expect(anchors).toContain("the-baseline-app"); // ### The baseline app
    // ## Pruning: the hot reads' plans
    expect(parsed.get(path.join(root, "docs", "partitions.md"))!.anchors).toContain("pruning-the-hot-reads-plans");
    expect(parsed.get(path.join(root, "docs", "decisions", "README.md"))!.anchors).toContain(
      "time-partitioned-telemetry",
    );
  });

  it("every relative link names a file that exists, and a heading of it where it names one", () => {
    expect(links.filter((l) => l.problem !== null)).toEqual([]);
  });

  it("tells a broken link from a good one", () => {
    const operations = path.join(root, "docs", "operations.md");
    expect(brokenLink(operations, "partitions.md#retention")).toBeNull();
    expect(brokenLink(operations, "#memory")).toBeNull();
    expect(brokenLink(operations, "partitions.md#no-such-heading")).toBe("no heading makes this anchor");
    expect(brokenLink(operations, "nowhere.md")).toBe("no such file");
    expect(brokenLink(operations, "/docs/guides/nowhere")).toBe("no such guide");
  });
});
