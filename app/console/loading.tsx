export default function ConsoleLoading() {
  return (
    <main id="main" className="mx-auto w-full max-w-5xl px-4 py-8">
      <p role="status" className="text-slate-700">
        Loading…
      </p>
    </main>
  );
}
