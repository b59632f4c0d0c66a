import Link from "next/link";
import { SiteHeader } from "@/components/site/site-header";
import { getDriverSession } from "@/server/surfaces/driver/session";

// Any address nothing answers (outside the console, which has its own), with the site's header
// and a way home. Next.js answers it with status 404.
export default async function NotFound() {
  const session = await getDriverSession();
  return (
    <>
      <SiteHeader session={session} />
      <main id="main" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-16">
        <h1 className="text-2xl font-bold tracking-tight">Page not found</h1>
        <p className="text-slate-700">
          There is no page at this address. It may have moved, or the link may be mistyped.
        </p>
        <Link href={session ? "/map" : "/"} className="self-start font-semibold text-blue-700 underline">
          {session ? "Back to your vehicles" : "Go to the home page"}
        </Link>
      </main>
    </>
  );
}
