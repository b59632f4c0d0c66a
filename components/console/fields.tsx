"use client";

import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { FieldFrame, fieldDescribedBy as describedBy } from "@/components/ui/field";
import { useFieldError } from "./action-form";

const control = (error: string | undefined) =>
  `min-h-11 w-full rounded-lg border px-3 py-2 text-base shadow-sm ${error ? "border-red-600" : "border-slate-300"}`;

type Base = { name: string; label: string; hint?: ReactNode; id?: string; className?: string };

// Labelled controls whose errors come from the enclosing ActionForm (aria-invalid, aria-describedby).
export function TextField({
  name,
  label,
  hint,
  id = `f-${name}`,
  className = "",
  ...input
}: Base & InputHTMLAttributes<HTMLInputElement>) {
  const error = useFieldError(name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={className}>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={control(error)}
        {...input}
      />
    </FieldFrame>
  );
}

export function TextArea({
  name,
  label,
  hint,
  id = `f-${name}`,
  className = "",
  ...input
}: Base & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const error = useFieldError(name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={className}>
      <textarea
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={`${control(error)} font-mono text-sm`}
        {...input}
      />
    </FieldFrame>
  );
}

export function SelectField({
  name,
  label,
  hint,
  id = `f-${name}`,
  className = "",
  children,
  ...select
}: Base & SelectHTMLAttributes<HTMLSelectElement>) {
  const error = useFieldError(name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={className}>
      <select
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={`${control(error)} bg-white`}
        {...select}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

export function CheckField({ name, label, id = `f-${name}` }: { name: string; label: ReactNode; id?: string }) {
  const error = useFieldError(name);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          className="mt-1 h-5 w-5 shrink-0"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <label htmlFor={id} className="text-sm text-slate-800">
          {label}
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} className="pl-8 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SubmitButton({
  children,
  variant = "primary",
}: {
  children: ReactNode;
  variant?: "primary" | "secondary" | "danger";
}) {
  const styles = {
    primary: "bg-blue-700 text-white hover:bg-blue-800 disabled:bg-blue-300",
    secondary: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50",
    danger: "border border-red-300 bg-white text-red-800 hover:bg-red-50",
  }[variant];
  return (
    <button
      type="submit"
      className={`inline-flex min-h-11 items-center justify-center rounded-lg px-4 py-2 text-sm font-semibold ${styles}`}
    >
      {children}
    </button>
  );
}
