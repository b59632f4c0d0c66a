import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * An axe check of the page, to narrow (include, exclude, withTags) and then `runAxe`. Two settings
 * make it cheaper without changing what it finds (docs/testing.md#end-to-end):
 * - legacy mode: axe runs in the page itself. By default the Playwright binding runs it per frame
 *   and gathers the results in a blank page it opens for each check: 1.1–1.2 s a check on a small
 *   page and 11–12 s on the API reference (3,900 nodes), against 0.6 s and 3.4–4 s, the same
 *   violations. What legacy mode cannot do is enter a cross-origin frame; our pages have none, and
 *   `runAxe` fails if axe ever reports a frame it could not test.
 * - only the violations are collected in full: axe still runs every rule, but builds the selectors
 *   of passing and inapplicable nodes for one node a rule, not all.
 */
export const axeOf = (page: Page) =>
  // A fresh options object each time: withTags writes its rules into the object given here.
  new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });

/** Runs the check; fails when a frame went untested (axe's frame-tested rule). */
export async function runAxe(builder: AxeBuilder) {
  const results = await builder.analyze();
  const untested = [...results.incomplete, ...results.violations].filter((r) => r.id === "frame-tested");
  expect(untested.flatMap((r) => r.nodes.map((n) => n.target.join(" ")))).toEqual([]);
  return results;
}

/** The settled page has a title and no serious or critical axe violation. */
export async function expectAccessible(page: Page) {
  // After a client-side navigation the new page's title arrives with its streamed metadata: check the settled page.
  await expect(page).toHaveTitle(/\S/);
  const results = await runAxe(axeOf(page));
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
