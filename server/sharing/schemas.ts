import { z } from "zod";

// What a shared location's edges accept: the durations a driver may choose, and the shape of a
// token (anything else is an unknown link, 404, before the database is asked).

export const SHARE_DURATIONS = { "15m": 15 * 60_000, "1h": 3_600_000, "8h": 8 * 3_600_000, "24h": 24 * 3_600_000 };
export type ShareDuration = keyof typeof SHARE_DURATIONS;

export const createShareBody = z.object({
  duration: z.enum(Object.keys(SHARE_DURATIONS) as [ShareDuration, ...ShareDuration[]], {
    error: "Choose 15 minutes, 1 hour, 8 hours or 24 hours.",
  }),
});

/** 16 random bytes as base64url: 22 characters. */
export const shareToken = z.string().regex(/^[A-Za-z0-9_-]{22}$/);
