import { pgEnum } from "drizzle-orm/pg-core";

// Contract §1: every record belongs to exactly one environment.
export const environments = ["production", "sandbox"] as const;
export type Environment = (typeof environments)[number];
export const environmentEnum = pgEnum("environment", environments);
