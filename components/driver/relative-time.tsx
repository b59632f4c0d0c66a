"use client";

import { useEffect, useState } from "react";
import { formatAgo, formatWhen } from "./format";

// "3 min ago" that stays true while the page is open, with the exact time in the driver's zone on
// hover and the instant in dateTime. The server's render and the browser's may straddle a minute:
// the browser's wins without a hydration warning.
export function RelativeTime({ iso, timeZone }: { iso: string; timeZone: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={iso} title={formatWhen(iso, timeZone)} suppressHydrationWarning>
      {formatAgo(iso, now)}
    </time>
  );
}
