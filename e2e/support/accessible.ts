import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The settled page has a title and no serious or critical axe violation. */
export async function expectAccessible(page: Page) {
  // After a client-side navigation the new page's title arrives with its streamed metadata: check the settled page.
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
