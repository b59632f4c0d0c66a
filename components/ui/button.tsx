import type { ButtonHTMLAttributes } from "react";

const variants = {
  primary: "bg-blue-700 text-white hover:bg-blue-800 disabled:bg-blue-300",
  secondary: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 disabled:text-slate-400",
  danger: "border border-red-300 bg-white text-red-800 hover:bg-red-50 disabled:text-red-300",
} as const;

export function Button({
  variant = "primary",
  className = "",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof variants }) {
  return (
    <button
      className={
        `inline-flex min-h-11 items-center justify-center rounded-lg px-4 py-2 text-sm font-semibold ` +
        `transition-colors ${variants[variant]} ${className}`
      }
      {...props}
    />
  );
}
