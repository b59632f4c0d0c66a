import { pgEnum } from "drizzle-orm/pg-core";

// docs/api.md#environments-and-base-paths: every record belongs to exactly one environment.
export const environments = ["production", "sandbox"] as const;
export type Environment = (typeof environments)[number];
export const environmentEnum = pgEnum("environment", environments);
