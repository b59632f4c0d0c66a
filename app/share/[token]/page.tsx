import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ApiError } from "@/common/http/errors";
import { SharedLocationView } from "@/components/share/shared-location";
import { tileConfig } from "@/server/surfaces/driver/map-config";
import { viewShare } from "@/server/sharing/service";

export const dynamic = "force-dynamic";
// Kept out of search engines, and the token out of the Referer of the map tiles' requests.
export const metadata: Metadata = {
  title: "Shared location",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

type Props = { params: Promise<{ token: string }> };

// /share/{token} — a driver's shared live location, for anyone with the link, no sign-in: the
// vehicle's label and its position moving live, nothing else of the account. Each opening is a view
// in the driver's access log. An ended or unknown link was answered (410, 404) before Next.js
// (server/http/share-page.ts); one that ends between that check and this render shows the ended page.
export default async function SharedLocationPage({ params }: Props) {
  const { token } = await params;
  const view = await viewShare(token).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === "GONE") return null;
    if (error instanceof ApiError && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-4 px-3 py-4 sm:px-4 sm:py-6">
      <p className="text-xs font-semibold uppercase tracking-wider text-blue-700">Wayline · shared location</p>
      {view ? (
        <SharedLocationView token={token} initial={view} tiles={tileConfig()} />
      ) : (
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="share-ended">
          <h1 className="text-xl font-bold">This shared location has ended</h1>
          <p className="mt-2 text-slate-700">The link no longer shows where the vehicle is.</p>
        </section>
      )}
    </main>
  );
}
