"use client";

import { usePathname } from "next/navigation";
import { useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";

// A header's links, behind a Menu button below the md breakpoint (a phone), laid out inline from
// md up. The menu is open only on the page it was opened on, so any navigation closes it; so do
// following a link (also to the same page) and Escape, which returns focus to the button.
export function CollapsibleNav({
  id,
  children,
  className = "",
}: {
  id: string;
  children: ReactNode;
  className?: string;
}) {
  const pathname = usePathname();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const button = useRef<HTMLButtonElement>(null);

  const closeOnLink = (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest("a")) setOpenOn(null);
  };
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    setOpenOn(null);
    button.current?.focus();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpenOn(open ? null : pathname)}
        onKeyDown={closeOnEscape}
        className={
          "inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 px-3 text-sm " +
          "font-semibold text-slate-900 hover:bg-slate-50 md:hidden"
        }
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="h-5 w-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
        </svg>
        Menu
      </button>
      <div
        id={id}
        onClick={closeOnLink}
        onKeyDown={closeOnEscape}
        className={
          `${open ? "flex" : "hidden"} w-full flex-col items-start gap-1 border-t border-slate-200 pt-2 ` +
          `md:flex md:w-auto md:flex-row md:items-center md:border-0 md:pt-0 ${className}`
        }
      >
        {children}
      </div>
    </>
  );
}
