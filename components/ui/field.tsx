import type { InputHTMLAttributes, ReactNode } from "react";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
};

/** The ids a control's aria-describedby names: its hint and its error, when there are any. */
export const fieldDescribedBy = (id: string, hint: unknown, error: unknown) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

/** A control's label above it, and its hint and error below it, with the ids fieldDescribedBy names. */
export function FieldFrame({
  id,
  label,
  hint,
  error,
  className = "",
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

// A labelled input whose error is announced with it (aria-describedby, aria-invalid).
export function Field({ name, label, error, hint, id = `field-${name}`, className = "", ...input }: FieldProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={className}>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, hint, error)}
        className={`min-h-11 rounded-lg border px-3 py-2 text-base shadow-sm ${error ? "border-red-600" : "border-slate-300"}`}
        {...input}
      />
    </FieldFrame>
  );
}
