import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConsoleHeader } from "@/components/console/console-header";
import { getPartnerSession } from "@/server/surfaces/console/session";
import { guideList, renderGuide } from "@/server/surfaces/docs/guides";
import { siteOrigin } from "@/server/surfaces/docs/site-origin";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const guide = guideList().find((g) => g.slug === slug);
  return { title: guide ? guide.title : "Guide" };
}

// /docs/guides/{slug} — one guide, rendered from docs/guides/{slug}.md (our own files). Public.
export default async function GuidePage({ params }: Props) {
  const { slug } = await params;
  const rendered = await renderGuide(slug, await siteOrigin());
  if (!rendered) notFound();
  const session = await getPartnerSession();
  return (
    <>
      <ConsoleHeader session={session} />
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-8 px-4 py-8 lg:flex-row">
        <nav aria-label="Guides" className="lg:w-56 lg:shrink-0">
          <ul className="flex flex-col gap-1 text-sm">
            <li>
              <Link className="inline-block min-h-11 content-center text-blue-700 underline" href="/docs">
                API reference
              </Link>
            </li>
            {guideList().map((g) => (
              <li key={g.slug}>
                <Link
                  className="inline-block min-h-11 content-center text-blue-700 underline"
                  href={`/docs/guides/${g.slug}`}
                  aria-current={g.slug === slug ? "page" : undefined}
                >
                  {g.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="min-w-0 flex-1">
          <h1 className="mb-4 text-3xl font-bold tracking-tight">{rendered.guide.title}</h1>
          <article className="guide" dangerouslySetInnerHTML={{ __html: rendered.html }} />
        </main>
      </div>
    </>
  );
}
