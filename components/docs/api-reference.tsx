"use client";

import { useEffect, useRef, useState } from "react";

type ScalarApp = { destroy: () => void };
type ScalarGlobal = { createApiReference: (element: HTMLElement, configuration: Record<string, unknown>) => ScalarApp };

// Loads the renderer's bundle (served by this origin) once and mounts the reference for one
// OpenAPI document. Everything that would reach the internet is off: default fonts, the request
// proxy, telemetry, the "open in client" button.
let loading: Promise<ScalarGlobal> | null = null;

// The default light theme's greys and method colours fall under 4.5:1 on white, and DELETE's red
// under it on the dark request card (axe color-contrast); these keep the look with other shades.
const CONTRAST_CSS = `
.light-mode .scalar-app, .light-mode .scalar-api-reference, .light-mode {
  --scalar-color-2: #334155; --scalar-color-3: #475569; --scalar-color-disabled: #475569;
  --scalar-color-accent: #1d4ed8; --scalar-color-green: #047857; --scalar-color-blue: #1d4ed8;
  --scalar-color-orange: #b45309; --scalar-color-yellow: #854d0e; --scalar-color-red: #b91c1c;
  --scalar-color-purple: #6d28d9; --scalar-color-pink: #be185d;
  --scalar-sidebar-color-2: #334155; --scalar-sidebar-search-color: #334155;
}
.light-mode .dark-mode { --scalar-color-red: #ff7b72; }`;

function loadBundle(src: string): Promise<ScalarGlobal> {
  loading ??= new Promise<ScalarGlobal>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => {
      const scalar = (window as unknown as { Scalar?: ScalarGlobal }).Scalar;
      if (scalar) resolve(scalar);
      else reject(new Error("The API reference bundle did not load."));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error("The API reference bundle did not load."));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export function ApiReference({ bundleSrc, documentUrl }: { bundleSrc: string; documentUrl: string }) {
  const mount = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let app: ScalarApp | null = null;
    let cancelled = false;
    loadBundle(bundleSrc)
      .then((scalar) => {
        if (cancelled || !mount.current) return;
        app = scalar.createApiReference(mount.current, {
          url: documentUrl,
          withDefaultFonts: false,
          telemetry: false,
          hideClientButton: true,
          hideDarkModeToggle: true,
          forceDarkModeState: "light",
          showDeveloperTools: "never",
          defaultOpenAllTags: false,
          defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
          persistAuth: false,
          customCss: CONTRAST_CSS,
        });
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      app?.destroy();
    };
  }, [bundleSrc, documentUrl]);

  return (
    <>
      {failed ? (
        <p role="alert" className="mx-auto max-w-5xl px-4 py-8">
          The interactive reference could not load. The OpenAPI document is at{" "}
          <a className="text-blue-700 underline" href={documentUrl}>
            {documentUrl}
          </a>
          .
        </p>
      ) : null}
      <div ref={mount} data-testid="api-reference" />
    </>
  );
}
