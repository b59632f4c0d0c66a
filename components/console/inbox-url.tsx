import Link from "next/link";
import { CopyValue } from "./copy-value";

// The app's sandbox inbox URL with its Copy button, on the app's console pages.
export function InboxUrl({ appId, url, showLink = true }: { appId: number; url: string; showLink?: boolean }) {
  return (
    <div className="flex flex-col gap-2" data-testid="inbox-url">
      <dl className="flex flex-col gap-2">
        <CopyValue label="Inbox URL" value={url} />
      </dl>
      <p className="text-sm text-slate-700">
        A webhook receiver of your own on this service, for sandbox subscriptions (HTTP_POST): paste it as the postUrl
        and watch deliveries arrive, with their signature checked.
        {showLink ? (
          <>
            {" "}
            <Link href={`/console/apps/${appId}/inbox`} className="text-blue-700 underline">
              Open the sandbox inbox
            </Link>
          </>
        ) : null}
      </p>
    </div>
  );
}
