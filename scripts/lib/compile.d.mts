// Types of compile.mjs, for the TypeScript that imports it (the test helpers).
export const COMPILED_SCRIPTS: readonly string[];
export function bundlePath(script: string): string;
export function bundlesAreCurrent(): boolean;
export function compileScripts(options?: { force?: boolean }): Promise<boolean>;
export function bundleOptions(entryPoints: string[]): import("esbuild").BuildOptions;
