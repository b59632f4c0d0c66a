"use client";

import { useRef, useState } from "react";

type Outcome = "copied" | "failed" | null;

// Only a write that happened may say "Copied": a partner who believes a shown-once secret is on
// the clipboard clicks Done and loses it. Outside a secure context (the console over plain http)
// there is no navigator.clipboard, and a write may be refused: then the element showing the value
// is selected, one Ctrl+C (⌘C) away.
function useCopy(value: string, shown: () => HTMLElement | null): [Outcome, () => Promise<void>] {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const copy = async () => {
    const written = navigator.clipboard
      ? await navigator.clipboard.writeText(value).then(
          () => true,
          () => false,
        )
      : false;
    setOutcome(written ? "copied" : "failed");
    if (written) setTimeout(() => setOutcome(null), 1500);
    else {
      const element = shown();
      if (element) window.getSelection()?.selectAllChildren(element);
    }
  };
  return [outcome, copy];
}

// A value with a copy button (client ids, secrets, curl lines). The value stays selectable for
// browsers without clipboard access.
export function CopyValue({ label, value }: { label: string; value: string }) {
  const shown = useRef<HTMLElement>(null);
  const [outcome, copy] = useCopy(value, () => shown.current);
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
      <dt className="w-32 shrink-0 text-sm font-medium text-slate-700">{label}</dt>
      <dd className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
        <code
          ref={shown}
          className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-slate-200"
          data-testid={`value-${label}`}
        >
          {value}
        </code>
        <button
          type="button"
          className="min-h-11 shrink-0 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50"
          aria-label={`Copy ${label}`}
          onClick={copy}
        >
          {outcome === "copied" ? "Copied" : "Copy"}
        </button>
        {outcome === "failed" ? (
          <span role="status" className="basis-full text-sm text-red-800">
            Not copied: this browser refused the clipboard. The value is selected; copy it with Ctrl+C (⌘C).
          </span>
        ) : null}
      </dd>
    </div>
  );
}

// A copy button for a value already on the page (a notification's JSON): nothing shown twice.
// Without a clipboard it selects the element showing the value.
export function CopyButton({ label, value, shownId }: { label: string; value: string; shownId: string }) {
  const [outcome, copy] = useCopy(value, () => document.getElementById(shownId));
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="min-h-11 shrink-0 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50"
        aria-label={`Copy ${label}`}
        onClick={copy}
      >
        {outcome === "copied" ? "Copied" : `Copy ${label}`}
      </button>
      {outcome === "failed" ? (
        <span role="status" className="text-sm text-red-800">
          Not copied: this browser refused the clipboard. The value is selected; copy it with Ctrl+C (⌘C).
        </span>
      ) : null}
    </div>
  );
}
