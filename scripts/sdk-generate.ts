import fs from "node:fs";
import { SDK_TYPES_FILE, generateSdkTypes } from "./lib/sdk-types";

// npm run sdk:generate: writes the typed client's types from the OpenAPI document (docs/sdk.md#generated-types).
fs.writeFileSync(SDK_TYPES_FILE, await generateSdkTypes());
console.log(`Wrote ${SDK_TYPES_FILE}`);
