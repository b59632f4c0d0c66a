import L from "leaflet";

// Leaflet-Geoman's bundle extends the global `L` when it loads (it imports nothing), so the
// bundler's Leaflet is made that global first. Imported just before the plugin, in order.
(window as unknown as { L: typeof L }).L = L;
