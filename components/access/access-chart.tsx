"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ACCESS_CATEGORIES, ACCESS_CATEGORY_LABELS, type AccessCategory } from "@/common/access/categories";

// The access log by day (Recharts), stacked by data category: the driver's "Data access" page and
// the console's access tab. The same figures are in the tables beside it.

const COLORS: Record<AccessCategory, string> = {
  location: "#1d4ed8",
  vehicle_data: "#047857",
  identity: "#7c3aed",
  events: "#b45309",
};
const tick = { fill: "#334155", fontSize: 12 };

export type AccessDay = { day: string } & Record<AccessCategory, number>;

export function AccessChart({ days, caption, testId }: { days: AccessDay[]; caption: string; testId: string }) {
  const data = days.map((d) => ({ ...d, label: `${Number(d.day.slice(8, 10))}/${Number(d.day.slice(5, 7))}` }));
  return (
    <figure className="min-w-0" data-testid={testId} aria-label={caption}>
      <figcaption className="mb-1 text-sm font-semibold text-slate-800">{caption}</figcaption>
      <div className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={tick} minTickGap={16} />
            <YAxis allowDecimals={false} tick={tick} />
            <Tooltip />
            <Legend />
            {ACCESS_CATEGORIES.map((c) => (
              <Bar
                key={c}
                dataKey={c}
                name={ACCESS_CATEGORY_LABELS[c]}
                stackId="a"
                fill={COLORS[c]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
