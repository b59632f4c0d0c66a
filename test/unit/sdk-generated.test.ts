import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SDK_TYPES_FILE, generateSdkTypes } from "@/scripts/lib/sdk-types";

// The typed client cannot drift from the served document: its committed types are what the document gives now.
describe("sdk/src/generated/openapi.ts", () => {
  it("is what npm run sdk:generate makes from the current OpenAPI document", async () => {
    const committed = fs.readFileSync(SDK_TYPES_FILE, "utf8");
    expect(committed === (await generateSdkTypes()), "run `npm run sdk:generate` and commit the result").toBe(true);
  });
});
