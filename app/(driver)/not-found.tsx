import Link from "next/link";
import { SiteHeader } from "@/components/site/site-header";
import { getDriverSession } from "@/server/surfaces/driver/session";

// An unknown id, or one of another account (never told apart).
export default async function DriverNotFound() {
  const session = await getDriverSession();
  return (
    <>
      <SiteHeader session={session} />
      <main id="main" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-16">
        <h1 className="text-2xl font-bold tracking-tight">Not found</h1>
        <p className="text-slate-700">
          There is nothing here in your account. The vehicle or trip may have been deleted.
        </p>
        <Link href="/map" className="self-start font-semibold text-blue-700 underline">
          Back to your vehicles
        </Link>
      </main>
    </>
  );
}
