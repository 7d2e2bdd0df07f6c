import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'memlens', template: '%s · memlens' },
  description: 'A chat app whose memory you can see.',
};

export const viewport: Viewport = {
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f7f7f9' },
    { media: '(prefers-color-scheme: dark)', color: '#0e1014' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: Next puts proxy.ts's per-response CSP nonce on its scripts only
  // while rendering, so a page prerendered at build time (/login, /signup) would have its scripts blocked.
  await connection();
  return (
    <html lang="en">
      <body className="font-sans">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
