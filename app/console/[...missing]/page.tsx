import { notFound } from "next/navigation";

// /console/… that no console page answers: the console's own 404 page, with the console's
// header, rather than the driver site's (the root not-found page is all Next.js offers otherwise).
export default function MissingConsolePage() {
  notFound();
}
