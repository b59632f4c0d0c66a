// Structured one-line logs on stderr/stdout; details of unexpected errors stay here, never in a
// response (docs/api.md#errors).
export function logError(message: string, error?: unknown): void {
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : error === undefined ? {} : { error: String(error) };
  console.error(JSON.stringify({ level: "error", time: new Date().toISOString(), message, ...detail }));
}

export function logInfo(message: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ level: "info", time: new Date().toISOString(), message, ...fields }));
}
