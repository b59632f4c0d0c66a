// The simulator panel's small shared pieces: control classes, aria wiring and a field's error line.

export function FieldMessage({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="text-sm text-red-700">
      {error}
    </p>
  ) : null;
}

export const control = (error?: string) =>
  `min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base shadow-sm ${error ? "border-red-600" : "border-slate-300"}`;
export const aria = (id: string, error?: string, hint?: boolean) => ({
  id,
  "aria-invalid": error ? true : undefined,
  "aria-describedby": [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined,
});

export const percent = (p: number) => `${Math.round(p * 100)} %`;
