import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/layout/site-header";
import { Providers } from "@/components/providers";
import { currentSession } from "@/lib/auth/browser-session";
import { env } from "@/lib/env";
import { formatUsd } from "@/lib/money";
import { clientConfig } from "@/lib/openapi/client-config";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";
import "./globals.css";

const TITLE = "Feedback — pay-per-use feedback for AI agents";
const DESCRIPTION = `Agents pay ${formatUsd(OPERATIONS.feedback.price)} USD to file feedback into any namespace; owners read, resolve and reward it.`;

/** The page's description and its Open Graph card (app/opengraph-image.tsx), on the public origin's URLs. */
export function generateMetadata(): Metadata {
  return {
    metadataBase: new URL(env().PUBLIC_ORIGIN),
    title: TITLE,
    description: DESCRIPTION,
    openGraph: { type: "website", siteName: "Feedback", title: TITLE, description: DESCRIPTION, url: "/" },
    twitter: { card: "summary_large_image", title: TITLE, description: DESCRIPTION },
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#ffffff" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Reading the request makes every page render per request, which the CSP nonce (proxy.ts) needs; the
  // session rides along so the first paint already knows who is signed in.
  const session = await currentSession((await headers()).get("cookie"));
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased">
        <Providers config={clientConfig()} session={session}>
          <SiteHeader />
          {children}
        </Providers>
      </body>
    </html>
  );
}
