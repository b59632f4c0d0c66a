import Link from "next/link";
import { ConsoleHeader } from "@/components/console/console-header";
import { getPartnerSession } from "@/server/surfaces/console/session";

// An unknown console address (see [...missing]), or an app or notification that is not the partner's.
export default async function ConsoleNotFound() {
  const session = await getPartnerSession();
  return (
    <>
      <ConsoleHeader session={session} />
      <main id="main" className="mx-auto w-full max-w-5xl px-4 py-8">
        <h1 className="text-2xl font-bold">Not found</h1>
        <p className="mt-2 text-slate-700">There is nothing at this address in your console.</p>
        <Link
          href={session ? "/console/apps" : "/console"}
          className="mt-3 inline-block min-h-11 content-center font-semibold text-blue-700 underline"
        >
          {session ? "Back to your apps" : "Go to the console"}
        </Link>
      </main>
    </>
  );
}
