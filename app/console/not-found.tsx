import Link from "next/link";

export default function ConsoleNotFound() {
  return (
    <main id="main" className="mx-auto w-full max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Not found</h1>
      <p className="mt-2 text-slate-700">There is nothing at this address in your console.</p>
      <Link href="/console/apps" className="mt-3 inline-block min-h-11 content-center font-semibold text-blue-700 underline">
        Back to your apps
      </Link>
    </main>
  );
}
