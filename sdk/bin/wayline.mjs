#!/usr/bin/env node
// The `wayline` command. The package is TypeScript source (it lives beside the service it
// describes); tsx's loader runs it on Node 20 without a build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
