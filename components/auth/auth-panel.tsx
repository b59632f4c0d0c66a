"use client";

import { useState } from "react";
import { RegistrationForm } from "./registration-form";
import { SignInForm } from "./sign-in-form";

type Environment = "production" | "sandbox";

type Props = {
  /** Fixed by the app asking (authorization page); otherwise the driver picks it (driver site). */
  environment: Environment | null;
  defaultEnvironment?: Environment;
  continueTo: string;
  loginHint?: string;
  initialMode?: "sign-in" | "register";
};

// Sign in or create an account, in one environment: a sandbox account signs in to the sandbox.
export function AuthPanel({
  environment,
  defaultEnvironment = "production",
  continueTo,
  loginHint,
  initialMode = "sign-in",
}: Props) {
  const [mode, setMode] = useState(initialMode);
  const [chosen, setChosen] = useState<Environment>(environment ?? defaultEnvironment);
  const active = environment ?? chosen;

  const tab = (value: typeof mode, label: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => setMode(value)}
      className={
        `min-h-11 flex-1 rounded-md px-3 text-sm font-semibold ` +
        `${mode === value ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"}`
      }
    >
      {label}
    </button>
  );

  return (
    <div className="flex flex-col gap-5">
      <div className="flex gap-1 rounded-lg bg-slate-100 p-1" role="group" aria-label="Sign in or create an account">
        {tab("sign-in", "Sign in")}
        {tab("register", "Create account")}
      </div>
      {environment === null ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium text-slate-800">Environment</legend>
          <div className="flex gap-4">
            {(["production", "sandbox"] as const).map((value) => (
              <label key={value} className="flex min-h-11 items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="environment"
                  value={value}
                  checked={chosen === value}
                  onChange={() => setChosen(value)}
                />
                {value === "production" ? "Production" : "Sandbox (test accounts)"}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {mode === "sign-in" ? (
        <SignInForm key={`in-${active}`} environment={active} continueTo={continueTo} loginHint={loginHint} />
      ) : (
        <RegistrationForm key={`up-${active}`} environment={active} continueTo={continueTo} />
      )}
    </div>
  );
}
