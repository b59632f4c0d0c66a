export * from "./environment";
export * from "./apps";
export * from "./accounts";
export * from "./vehicles";
export * from "./oauth";
export * from "./telemetry";
export * from "./sign-in";
export * from "./simulator";
