// Recognises a unique violation (SQLSTATE 23505) through drizzle's error wrapper, so services can
// turn the race-proof answer of a unique index into the API's 409.
export function uniqueViolation(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: string; constraint_name?: string; constraint?: string; cause?: unknown };
    if (e.code === "23505") return e.constraint_name ?? e.constraint ?? "";
    current = e.cause;
  }
  return null;
}
