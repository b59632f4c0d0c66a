import { expect, test } from "@playwright/test";
import { shot } from "./support/driver";
import { PHONE } from "./support/phone";

test("the home page loads and links to both OpenAPI documents", PHONE, async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your vehicles, where they are.");
  const sandboxDoc = page.getByRole("link", { name: "sandbox" });
  await expect(sandboxDoc).toHaveAttribute("href", "/sandbox/api/openapi.json");
  await shot(page, "home");

  const doc = await page.request.get("/sandbox/api/openapi.json");
  expect(doc.status()).toBe(200);
  expect((await doc.json()).openapi).toBe("3.1.0");
});
