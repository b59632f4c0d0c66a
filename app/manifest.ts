import type { MetadataRoute } from "next";

// /manifest.webmanifest — what a phone shows when the driver site is added to the home screen.
// The icons are in public/, drawn from public/icon.svg by scripts/draw-icons.ts.
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Wayline",
    short_name: "Wayline",
    description: "Your vehicles on a map, and an API for the apps you trust.",
    start_url: "/map",
    display: "standalone",
    background_color: "#f8fafc",
    theme_color: "#1d4ed8",
    icons: [
      { src: "/icon.svg", sizes: "any", type: "image/svg+xml" },
      { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
    ],
  };
}
