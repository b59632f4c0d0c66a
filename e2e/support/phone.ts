// The tests the `phone` project (Pixel 7) runs again (playwright.config.ts): those that check how a
// page looks or works at a phone's size that the `desktop` project cannot show, such as the
// reference's search behind its menu, the driver pages' axe checks in their phone layout, the map and
// its list stacked, the 404 pages' folding navigation. A journey takes the same steps at any width
// and runs once; a test that sets a phone viewport itself already runs at that size in `desktop`.
export const PHONE = { tag: "@phone" };
