"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";

// next-auth's sign-out (a POST with its CSRF token), then a full navigation to `then`.
export function SignOutButton({
  then = "/login",
  label = "Sign out",
  className = "",
}: {
  then?: string;
  label?: string;
  className?: string;
}) {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      className={`min-h-11 rounded-lg px-2 text-sm font-semibold text-blue-700 underline-offset-2 hover:underline ${className}`}
      onClick={async () => {
        setPending(true);
        await signOut({ redirect: false }).catch(() => null);
        window.location.assign(then);
      }}
    >
      {pending ? "Signing out…" : label}
    </button>
  );
}
