import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Marked } from "marked";

// The guides under /docs/guides/…: Markdown files in docs/guides/, rendered with marked. Code
// blocks marked `run` in their info string are executed by test/integration/processes/guides.test.ts; the
// marker is not shown (marked keeps only the first word of the info string as the language).

export type Guide = { slug: string; title: string; summary: string };

const GUIDES: Guide[] = [
  {
    slug: "quickstart",
    title: "Quickstart",
    summary: "From your app's credentials to a webhook arriving, in six calls.",
  },
  {
    slug: "oauth",
    title: "OAuth flows",
    summary: "Client credentials, authorization code with PKCE, refresh and revocation.",
  },
  {
    slug: "webhook-signatures",
    title: "Verifying webhook signatures",
    summary: "Check that a notification came from Wayline, in Node.js and Python.",
  },
  {
    slug: "simulator",
    title: "The sandbox simulator",
    summary: "Drive a sandbox vehicle along real roads to produce data and notifications.",
  },
];

export const guideList = (): Guide[] => GUIDES;

const marked = new Marked({ gfm: true });

/** The guide's HTML with ${WAYLINE} placeholders in code replaced by this site's origin, or null for an unknown slug. */
export async function renderGuide(slug: string, origin: string): Promise<{ guide: Guide; html: string } | null> {
  const guide = GUIDES.find((g) => g.slug === slug);
  if (!guide) return null;
  const markdown = await readFile(path.join(process.cwd(), "docs", "guides", `${slug}.md`), "utf8");
  const html = await marked.parse(markdown.replace(/^# .*\n/, ""));
  // A code block scrolls sideways: it must be reachable by keyboard to be read.
  return { guide, html: html.replaceAll("https://wayline.example", origin).replaceAll("<pre>", `<pre tabindex="0">`) };
}
